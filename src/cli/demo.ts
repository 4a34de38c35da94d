/**
 * `npm run demo`: the whole app with no network and no flags. One process runs the fake
 * upstream over the recorded Gamma responses in fixtures/gamma (with a demo account's orders
 * and the leaderboards, and its CLOB market channel ticking the subscribed books, 20 messages a
 * second unless --ws-rate) and the real service against it, in a throwaway data dir. Ctrl+C stops
 * both and removes the data dir (unless --data-dir kept one).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Credentials } from '../auth/credentials.ts';
import { FIXTURES_DIR, loadFixtureCatalog } from '../fake-upstream/fixture-catalog.ts';
import { startFakeUpstream } from '../fake-upstream/server.ts';
import { DEFAULT_LIMITS } from '../limits/table.ts';
import { startService } from '../http/server.ts';
import type { Logger } from '../logger.ts';

export const DEMO_USAGE = 'usage: npm run demo -- [--base-port N] [--clob-port N] [--data-dir DIR] [--orders N] [--ws-rate N]';

/** The fake market channel's steps per second in the demo: books visibly move, nothing floods. */
export const DEMO_WS_RATE = 20;

/**
 * The demo account. It exists only in the fake upstream on this machine; the web UI's Orders
 * tab asks for it (web mode signs requests itself), so the values are printed, not secret.
 */
export const DEMO_CREDENTIALS: Credentials = {
  apiKey: '00000000-0000-4000-8000-00000000demo',
  secret: 'ZGVtby1zZWNyZXQtZm9yLXRoZS1mYWtlLXVwc3RyZWFtLW9ubHk=',
  passphrase: 'demo-passphrase',
  address: '0x000000000000000000000000000000000000dE30',
};

export interface DemoOptions {
  basePort?: number;
  clobPort?: number;
  /** Kept after exit; absent: a temporary dir removed on stop. */
  dataDir?: string;
  orders?: number;
  /** The fake market channel's steps per second (default DEMO_WS_RATE; 0: still). */
  wsRate?: number;
  log?: Logger;
}

export interface Demo {
  baseUrl: string;
  clobUrl: string;
  upstreamUrl: string;
  /** The fake upstream's WebSocket base, `ws://HOST:PORT` (the market channel at `/ws/market`). */
  upstreamWsUrl: string;
  /** The market channel's seed and steps per second. */
  ws: { seed: number; rate: number };
  dataDir: string;
  /** Resolves once the first sync has finished (the grids fill as it runs). */
  firstSync: Promise<void>;
  stop(): Promise<void>;
}

export async function startDemo(opts: DemoOptions = {}): Promise<Demo> {
  const catalog = await loadFixtureCatalog(FIXTURES_DIR);
  const upstream = await startFakeUpstream({
    catalog,
    clob: { credentials: DEMO_CREDENTIALS, generate: { count: opts.orders ?? 275 } },
    // The upstream's real budgets: the service's scheduler keeps under them, as it would live.
    limits: 'spec',
    // Market and event pictures from the fake itself (the recorded CDN URLs are not reachable offline).
    images: 'local',
    marketWs: { rate: opts.wsRate ?? DEMO_WS_RATE },
  });
  const tmp = opts.dataDir === undefined;
  const dataDir = opts.dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'marketdesk-demo-'));
  let service: Awaited<ReturnType<typeof startService>>;
  try {
    service = await startService({
      dataDir,
      basePort: opts.basePort ?? 0,
      clobPort: opts.clobPort ?? 0,
      urls: { gamma: upstream.url, clob: upstream.url, data: upstream.url },
      credentials: DEMO_CREDENTIALS,
      // As `serve` runs: syncing in the background, orders refreshed, the spec's inbound limits.
      autoSync: true,
      limits: { table: DEFAULT_LIMITS, inbound: true },
      ...(opts.log ? { log: opts.log } : {}),
    });
  } catch (e) {
    await upstream.close();
    if (tmp) rmSync(dataDir, { recursive: true, force: true });
    throw e;
  }
  const s = service;
  return {
    baseUrl: s.baseUrl!,
    clobUrl: s.clobUrl!,
    upstreamUrl: upstream.url,
    upstreamWsUrl: upstream.marketWs.url,
    ws: { seed: upstream.marketWs.seed, rate: upstream.marketWs.rate },
    dataDir,
    // Joins the run autoSync just started.
    firstSync: s.sync!.syncNow().then(() => undefined),
    async stop() {
      await s.close();
      await upstream.close();
      if (tmp) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The CLI: prints the addresses and the demo account, runs until SIGINT/SIGTERM. */
export async function runDemo(argv: string[], log: Logger): Promise<void> {
  const { values: v } = parseArgs({
    args: argv,
    options: {
      'base-port': { type: 'string' },
      'clob-port': { type: 'string' },
      'data-dir': { type: 'string' },
      orders: { type: 'string' },
      'ws-rate': { type: 'string' },
      help: { type: 'boolean' },
    },
    strict: true,
    allowPositionals: false,
  });
  if (v.help) return void console.log(DEMO_USAGE);
  const port = (name: 'base-port' | 'clob-port' | 'orders' | 'ws-rate', max: number): number | undefined => {
    const s = v[name];
    if (s === undefined) return undefined;
    if (!/^\d+$/.test(s) || Number(s) > max) throw new Error(`--${name} must be an integer between 0 and ${max}\n${DEMO_USAGE}`);
    return Number(s);
  };
  const demo = await startDemo({
    ...(port('base-port', 65535) !== undefined ? { basePort: port('base-port', 65535)! } : {}),
    ...(port('clob-port', 65535) !== undefined ? { clobPort: port('clob-port', 65535)! } : {}),
    ...(port('orders', 100_000) !== undefined ? { orders: port('orders', 100_000)! } : {}),
    ...(port('ws-rate', 10_000) !== undefined ? { wsRate: port('ws-rate', 10_000)! } : {}),
    ...(v['data-dir'] !== undefined ? { dataDir: v['data-dir'] } : {}),
    log,
  });
  console.log(`marketdesk demo: the recorded catalog in ${FIXTURES_DIR}, served by a local fake upstream at ${demo.upstreamUrl}`);
  console.log(`base: ${demo.baseUrl}`);
  console.log(`clob: ${demo.clobUrl}`);
  console.log(`clob ws (fake upstream): ${demo.upstreamWsUrl}/ws/market (seed ${demo.ws.seed}, ${demo.ws.rate} msg/s)`);
  console.log(`web UI: ${demo.baseUrl}/app/`);
  console.log(`data dir: ${demo.dataDir}`);
  console.log('demo account (Orders tab → Enter credentials):');
  for (const [k, val] of Object.entries(DEMO_CREDENTIALS)) console.log(`  ${k}: ${val}`);
  console.log(`Ctrl+C stops the demo${v['data-dir'] === undefined ? ' and removes its data dir' : ''}`);
  demo.firstSync.then(
    () => log.info('demo: first sync done'),
    (e: unknown) => log.warn(`demo: first sync failed: ${(e as Error).message}`),
  );
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await demo.stop();
  process.exit(0);
}
