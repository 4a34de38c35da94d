import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { FairTurns, TooManyPipelinedError } from './fair-turns.ts';

/** Synchronous work, as a sql.js query is. */
function busy(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

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
    let acceptedAfter = -1;
    let done = 0;
    server.on('connection', () => {
      acceptedAfter = done;
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as net.AddressInfo;
    const conn = {};
    let client: net.Socket | undefined;
    // 40 requests of 5 ms each on one connection; the client connects during the first one.
    const work = Array.from({ length: 40 }, (_, i) =>
      turns.turn(conn).then(() => {
        if (i === 0) {
          client = net.connect(port, '127.0.0.1');
          client.on('error', () => {});
        }
        busy(5);
        done++;
      }),
    );
    await Promise.all(work);
    await new Promise<void>((r) => server.close(() => r()));
    client?.destroy();
    // Accepted within the first few turns, not after all 40 (which a single batch would do).
    expect(acceptedAfter).toBeGreaterThanOrEqual(0);
    expect(acceptedAfter).toBeLessThan(5);
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
