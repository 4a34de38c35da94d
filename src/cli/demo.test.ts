/**
 * `npm run demo`: the whole app on the recorded fixtures with no network and no flags.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { l2Headers } from '../auth/l2.ts';
import type { OrdersPage } from '../contract/index.ts';
import { WebSocket } from 'ws';
import { DEMO_CREDENTIALS, DEMO_WS_RATE, startDemo, type Demo } from './demo.ts';
import { CLI_ENTRY } from '../testing/built-cli.ts';
import { fixtureMarkets } from '../testing/fixtures.ts';

let demo: Demo | undefined;
afterEach(async () => {
  await demo?.stop();
  demo = undefined;
});

async function json<T>(url: string, headers: Record<string, string> = {}): Promise<T> {
  const res = await fetch(url, { headers });
  expect(res.status, url).toBe(200);
  return (await res.json()) as T;
}

describe('demo', () => {
  it('serves the recorded catalog, the demo account’s orders, the leaderboard and the web UI', async () => {
    demo = await startDemo({ orders: 130 });
    await demo.firstSync;
    const known = fixtureMarkets()[0]!;
    const market = await json<{ id: string; question: string }>(`${demo.baseUrl}/markets/${known.id}`);
    expect(market.question).toBe(known.question);

    // Every order once, walking the cursor as a spec client does (to "").
    const ids = new Set<string>();
    let cursor = '';
    do {
      const path = '/data/orders';
      const page = await json<OrdersPage>(
        `${demo.clobUrl}${path}${cursor ? `?next_cursor=${encodeURIComponent(cursor)}` : ''}`,
        l2Headers(DEMO_CREDENTIALS, { method: 'GET', path }, { family: 'KUEST' }),
      );
      for (const o of page.data) ids.add(o.id);
      cursor = page.next_cursor;
    } while (cursor !== '');
    expect(ids.size).toBe(130);

    const board = await json<unknown[]>(`${demo.baseUrl}/v1/leaderboard?limit=5`);
    expect(board).toHaveLength(5);
    const page = await fetch(`${demo.baseUrl}/app/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
  });

  it('ticks the fake upstream’s market channel at its default rate', async () => {
    demo = await startDemo({ orders: 5 });
    // Stopped before its first sync ends: that sync's "sync stopped" is expected.
    demo.firstSync.catch(() => {});
    expect(demo.ws.rate).toBe(DEMO_WS_RATE);
    // An outcome id the fake CLOB has a book for, by the market's version.
    const markets = await json<Record<string, unknown>[]>(`${demo.upstreamUrl}/markets?limit=50&closed=false`);
    const m = markets.find((x) => x['version'] === 'v1' && typeof x['clobTokenIds'] === 'string')!;
    const token = (JSON.parse(m['clobTokenIds'] as string) as string[])[0]!;
    const ws = new WebSocket(`${demo.upstreamWsUrl}/ws/market`);
    try {
      const events: { event_type: string }[] = [];
      const moved = new Promise<void>((resolve) =>
        ws.on('message', (d) => {
          const v = JSON.parse(d.toString()) as { event_type: string } | { event_type: string }[];
          events.push(...(Array.isArray(v) ? v : [v]));
          if (events.some((e) => e.event_type !== 'book') && events[0]?.event_type === 'book') resolve();
        }),
      );
      ws.once('open', () => ws.send(JSON.stringify({ assets_ids: [token], type: 'market' })));
      await moved;
    } finally {
      ws.terminate();
    }
  });

  it('runs from built JavaScript, prints its addresses and stops on Ctrl+C, removing its data dir', async () => {
    const child = spawn(process.execPath, [CLI_ENTRY, 'demo'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      const printed = await new Promise<RegExpMatchArray>((resolve, reject) => {
        child.stdout.on('data', () => {
          const m = /^web UI: (http:\/\/\S+)\/app\/\ndata dir: (\S+)$/m.exec(out);
          // The last line printed at start.
          if (m && out.includes('Ctrl+C stops the demo')) resolve(m);
        });
        void exited.then((code) => reject(new Error(`demo exited (${code}):\n${out}`)));
      });
      const [, base, dataDir] = printed as unknown as [string, string, string];
      expect(out).toContain(`apiKey: ${DEMO_CREDENTIALS.apiKey}`);
      expect((await fetch(`${base}/status`)).status).toBe(200);
      expect(existsSync(dataDir)).toBe(true);
      child.kill('SIGINT');
      expect(await exited).toBe(0);
      expect(existsSync(dataDir)).toBe(false);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  });
});
