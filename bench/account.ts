/**
 * `npm run bench -- --only account`: the account's routes through the real service (its own
 * process), each against a bare Fastify route answering a body of the same size:
 *  - `GET /data/orders` (clob face, L2-signed per request), paging through 1,000 cached orders
 *    with `next_cursor`;
 *  - `GET /v1/leaderboard` from the cache, over the pages of one board (fetched whole once).
 * The fake upstream (its own process) holds the account and the boards.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { l2Headers } from '../src/auth/l2.ts';
import { TEST_CREDS } from '../src/testing/l2-vectors.ts';
import { baselineServer, cliProcess, get, measure, table, type Latency, type Proc } from './lib.ts';

const ORDERS = 1000;

export async function benchAccount(n: number, procs: Proc[]): Promise<{ results: Record<string, unknown>; report: string[] }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'marketdesk-bench-account-'));
  try {
    const file = path.join(dir, 'credentials.json');
    writeFileSync(file, JSON.stringify(TEST_CREDS));
    chmodSync(file, 0o600);
    const fake = cliProcess([
      'fake-upstream',
      '--port',
      '0',
      '--synthetic',
      '2000',
      '--seed',
      '1',
      '--limits',
      'off',
      '--credentials',
      file,
      '--orders',
      String(ORDERS),
    ]);
    procs.push(fake);
    const up = (await fake.waitFor(/listening on (http:\/\/\S+)/))[1]!;
    const serve = cliProcess([
      'serve',
      '--no-limits',
      '--data-dir',
      path.join(dir, 'data'),
      '--gamma-url',
      up,
      '--clob-url',
      up,
      '--data-url',
      up,
      '--credentials',
      file,
      '--base-port',
      '0',
      '--clob-port',
      '0',
    ]);
    procs.push(serve);
    const base = (await serve.waitFor(/base: (http:\/\/\S+)/))[1]!;
    const clob = (await serve.waitFor(/clob: (http:\/\/\S+)/))[1]!;
    const signed = (url: string) => l2Headers(TEST_CREDS, { method: 'GET', path: new URL(url).pathname });

    // Every page's cursor, once the service has cached the account's orders.
    const cursors: string[] = [];
    const deadline = Date.now() + 120_000;
    for (;;) {
      cursors.length = 0;
      let cursor = 'MA==';
      let total = 0;
      // The last page's next_cursor is "" (spec) or Polymarket's `LTE=`.
      while (cursor !== 'LTE=' && cursor !== '') {
        const url = `${clob}/data/orders?next_cursor=${encodeURIComponent(cursor)}`;
        const r = await get(url, signed(url));
        if (r.status !== 200) throw new Error(`/data/orders: ${r.status} ${r.body.slice(0, 200)}`);
        const page = JSON.parse(r.body) as { data: unknown[]; next_cursor: string };
        cursors.push(cursor);
        total += page.data.length;
        cursor = page.next_cursor;
      }
      if (total === ORDERS) break;
      if (Date.now() > deadline) throw new Error(`the service cached ${total} of ${ORDERS} orders in 2 minutes`);
      await new Promise((r) => setTimeout(r, 200)); // the first orders sync is still running
    }
    let i = 0;
    const orders = await measure(
      () => `${clob}/data/orders?next_cursor=${encodeURIComponent(cursors[i++ % cursors.length]!)}`,
      n,
      30,
      signed,
    );

    const board = (offset: number) => `${base}/v1/leaderboard?category=OVERALL&timePeriod=WEEK&orderBy=PNL&limit=50&offset=${offset}`;
    const warm = await get(board(0)); // fetches the board whole; the rest are cache hits
    if (warm.status !== 200) throw new Error(`/v1/leaderboard: ${warm.status} ${warm.body.slice(0, 200)}`);
    let j = 0;
    const leaderboard = await measure(() => board((j++ % 20) * 50), n);

    const rows: (string | number)[][] = [];
    const lat: Record<string, Latency> = {};
    for (const [name, l] of [
      [`orders: ${cursors.length} pages of ${ORDERS} cached orders, L2-signed`, orders],
      ['leaderboard from cache: 20 pages of 50', leaderboard],
    ] as const) {
      const baseline = await baselineServer(l.bytes);
      const bl = await measure(baseline.url, n);
      baseline.stop();
      lat[name] = l;
      lat[`${name}: baseline`] = bl;
      rows.push(
        [name, l.p50, l.p95, l.p99, l.bytes],
        [`baseline: bare Fastify, constant ${l.bytes} B body`, bl.p50, bl.p95, bl.p99, bl.bytes],
      );
    }
    await serve.stop();
    await fake.stop();
    return {
      results: lat,
      report: [
        `### Account routes over HTTP: sequential requests on one connection (n = ${n}), ms`,
        table(['query', 'p50', 'p95', 'p99', 'bytes'], rows),
      ],
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
