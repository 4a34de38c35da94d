import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { FairTurns, TooManyPipelinedError, type FairTurnsStats } from './fair-turns.ts';

describe('FairTurns', () => {
  it('goes round-robin over connections: a later connection does not wait behind a long backlog', async () => {
    const turns = new FairTurns(100);
    const a = {};
    const b = {};
    const order: string[] = [];
    const all = [
      ...Array.from({ length: 5 }, (_, i) => turns.turn(a).then(() => void order.push(`a${i}`))),
      turns.turn(b).then(() => void order.push('b0')),
    ];
    await Promise.all(all);
    expect(order).toEqual(['a0', 'b0', 'a1', 'a2', 'a3', 'a4']);
    expect(turns.stats()).toEqual({ waiting: 0, connections: 0, turns: 6 });
  });

  it('lets the event loop accept a new connection between two turns of work', async () => {
    const turns = new FairTurns(1000);
    const server = net.createServer((s) => s.destroy());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as net.AddressInfo;
    // The state when the server has really accepted the connection (its 'connection' event).
    let accepted = false;
    const acceptedWith = new Promise<FairTurnsStats>((resolve) =>
      server.once('connection', () => {
        accepted = true;
        resolve(turns.stats());
      }),
    );
    // One connection's work that never runs out: 5 chains of turns, each queueing its next turn as
    // it takes one (so 5 wait between two turns), until the server has accepted. The client
    // connects in the first turn. Were the turns one batch (all in one event-loop iteration, or on
    // microtasks), the loop would never get to accept; the bound only ends such a run with a
    // failure instead of a hang.
    const BOUND = 100_000;
    const conn = {};
    let client: net.Socket | undefined;
    let taken = 0;
    const take = (): Promise<void> =>
      turns.turn(conn).then(() => {
        if (taken++ === 0) {
          client = net.connect(port, '127.0.0.1');
          client.on('error', () => {});
        }
        if (!accepted && taken < BOUND) return take();
      });
    const work = Promise.all(Array.from({ length: 5 }, take));
    const at = await Promise.race([acceptedWith, work.then(() => 'never accepted while turns were waiting')]);
    await work;
    client?.destroy();
    await new Promise<void>((r) => server.close(() => r()));
    // Accepted between two turns, with this connection's work still waiting behind it.
    expect(at).toMatchObject({ waiting: 5, connections: 1 });
    expect(taken).toBeLessThan(BOUND);
  });

  it('bounds what one connection may have waiting', async () => {
    const turns = new FairTurns(2);
    const c = {};
    const first = [turns.turn(c), turns.turn(c)];
    await expect(turns.turn(c)).rejects.toBeInstanceOf(TooManyPipelinedError);
    await Promise.all(first);
    // Room again once its turns were taken.
    await expect(turns.turn(c)).resolves.toBeUndefined();
  });
});
