/**
 * Fair turns for request work on one event loop.
 *
 * Node (libuv 1.45+) accepts one new connection per event-loop iteration, and an iteration
 * runs every request that became readable before it. Under load (100 keep-alive connections,
 * each with a request of a few ms of synchronous sql.js work) one iteration took 300 ms, so the
 * kernel's accept queue drained at ~3 connections a second and a new connection waited 6-15 s
 * for its first answer while established ones got theirs in 0.3 s (bench/fairness.ts).
 *
 * Here a request's work waits for its turn, and there is one turn per iteration (setImmediate:
 * an immediate queued during the check phase runs in the next iteration, after a poll phase).
 * Between turns the poll phase accepts the next connection and reads new requests, which only
 * queue up (cheap). Turns go round-robin over connections, so a connection that pipelines many
 * requests gets one turn per round like everyone else, and its backlog is bounded. The sync's
 * write batches take turns too (as one more connection), so under load it shares the loop with the
 * requests instead of taking every iteration's spare time.
 */

export class TooManyPipelinedError extends Error {}

export interface FairTurnsStats {
  /** Requests waiting for a turn. */
  waiting: number;
  /** Connections with at least one waiting request. */
  connections: number;
  turns: number;
}

export class FairTurns {
  /** Waiting requests per connection, oldest first. */
  private readonly queues = new Map<object, (() => void)[]>();
  /** Connections with waiting requests, in round-robin order. */
  private readonly ring: object[] = [];
  private scheduled = false;
  private waitingCount = 0;
  private turnCount = 0;

  /** @param maxPerConnection requests one connection may have waiting (pipelined) before it is refused */
  constructor(private readonly maxPerConnection = 16) {}

  /**
   * Resolves when it is this connection's turn; the caller then does its synchronous work in the
   * same microtask run. Rejects with TooManyPipelinedError when the connection has too many waiting.
   */
  turn(connection: object): Promise<void> {
    let queue = this.queues.get(connection);
    if (queue && queue.length >= this.maxPerConnection) {
      return Promise.reject(new TooManyPipelinedError(`more than ${this.maxPerConnection} requests waiting on one connection`));
    }
    return new Promise<void>((resolve) => {
      if (!queue) {
        queue = [];
        this.queues.set(connection, queue);
        this.ring.push(connection);
      }
      queue.push(resolve);
      this.waitingCount++;
      this.schedule();
    });
  }

  stats(): FairTurnsStats {
    return { waiting: this.waitingCount, connections: this.ring.length, turns: this.turnCount };
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.next());
  }

  private next(): void {
    this.scheduled = false;
    const connection = this.ring.shift();
    if (connection === undefined) return;
    const queue = this.queues.get(connection)!;
    const resolve = queue.shift()!;
    if (queue.length > 0) this.ring.push(connection);
    else this.queues.delete(connection);
    this.waitingCount--;
    this.turnCount++;
    resolve();
    if (this.ring.length > 0) this.schedule();
  }
}

/** One event loop, one set of turns: both HTTP faces and the sync of every service in this process. */
export const loopTurns = new FairTurns();
