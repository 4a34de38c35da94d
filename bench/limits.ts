/**
 * `npm run bench -- --only limits`:
 *
 * 1. Inbound limiter overhead: the same routes through the real service (its own process,
 *    offline, on the bench cache) with the limiter on and with `--no-limits`, in one run. The
 *    limiter run uses the section 8 windows with every figure ×1000 (`--limits FILE`): the same
 *    windows are checked and counted per request, but the benchmark's own requests are never
 *    throttled. Plus the limiter alone, in this process: admit() per request.
 * 2. Outbound: a full sync through the scheduler against the fake upstream enforcing section
 *    8, 5 items a page (~1,200 listing requests): 429s and requests per 10 s of each listing
 *    window against its limit.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cliProcess, get, measure, table, type Latency, type Proc } from './lib.ts';
import { InboundLimiter } from '../src/limits/inbound.ts';
import { DEFAULT_LIMITS } from '../src/limits/table.ts';
import { limitedWorld, measure as measureSync } from '../src/testing/limited-sync.ts';

export interface LimitsBench {
  results: Record<string, unknown>;
  report: string[];
}

async function latencies(cacheDir: string, extra: string[], n: number, procs: Proc[]): Promise<Record<string, Latency>> {
  const serve = cliProcess(['serve', '--offline', '--data-dir', cacheDir, '--base-port', '0', '--clob-port', '0', ...extra]);
  procs.push(serve);
  const base = (await serve.waitFor(/base: (http:\/\/\S+)/))[1]!;
  const clob = (await serve.waitFor(/clob: (http:\/\/\S+)/))[1]!;
  const slug = (JSON.parse((await get(`${base}/markets?limit=1&offset=500`)).body) as { slug: string }[])[0]!.slug;
  const out: Record<string, Latency> = {};
  for (const [name, url] of [
    ['clob GET / (health: no work but the limiter)', `${clob}/`],
    ['GET /markets/slug/{slug}', `${base}/markets/slug/${slug}`],
    ['GET /markets?limit=20&closed=false&order=volume', `${base}/markets?limit=20&closed=false&order=volume`],
  ] as const) {
    out[name] = await measure(url, n);
  }
  await serve.stop();
  return out;
}

/** ns per admit() of GET /markets (three windows) for one client, limits never reached. */
function admitCost(): number {
  const big = { ...DEFAULT_LIMITS, windows: DEFAULT_LIMITS.windows.map((w) => ({ ...w, limit: w.limit * 1000 })) };
  const l = new InboundLimiter({ table: big });
  const plan = l.plan('GET /markets', 'base');
  for (let i = 0; i < 20_000; i++) l.admit(plan, 'ip:127.0.0.1');
  const n = 200_000;
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) l.admit(plan, 'ip:127.0.0.1');
  return Number(process.hrtime.bigint() - t0) / n;
}

export async function benchLimits(cacheDir: string, n: number, procs: Proc[]): Promise<LimitsBench> {
  const report: string[] = [];
  const results: Record<string, unknown> = {};

  // ---- inbound overhead -------------------------------------------------------------------
  const dir = mkdtempSync(path.join(os.tmpdir(), 'marketdesk-bench-limits-'));
  try {
    const file = path.join(dir, 'limits-x1000.json');
    writeFileSync(file, JSON.stringify({ windows: DEFAULT_LIMITS.windows.map((w) => ({ ...w, limit: w.limit * 1000 })) }));
    const off = await latencies(cacheDir, ['--no-limits'], n, procs);
    const on = await latencies(cacheDir, ['--limits', file], n, procs);
    const rows = Object.keys(on).map((k) => [
      k,
      off[k]!.p50,
      on[k]!.p50,
      (on[k]!.p50 - off[k]!.p50).toFixed(3),
      off[k]!.p99,
      on[k]!.p99,
      (on[k]!.p99 - off[k]!.p99).toFixed(3),
    ]);
    const ns = admitCost();
    results['inbound'] = { noLimits: off, limits: on, admitNs: ns };
    report.push(
      `### Inbound limiter overhead: sequential requests on one connection (n = ${n}), ms`,
      table(['route', 'p50 --no-limits', 'p50 limits', 'Δ p50', 'p99 --no-limits', 'p99 limits', 'Δ p99'], rows),
      `The limiter alone (in process, GET /markets: 3 windows checked and counted): ${ns.toFixed(0)} ns per request.`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  // ---- outbound: sync at the upstream's limit ---------------------------------------------
  const w = await limitedWorld({ markets: 5000, seed: 3, pageSize: 5 });
  try {
    await w.sync.syncNow('full');
    const r = measureSync(w, 5);
    results['outbound'] = r;
    const g = r.groups;
    const row = (name: string, u: typeof g.markets) => [name, u.requests, u.limit, u.meanPer10s ?? '-', u.minPer10s ?? '-', u.ratio ?? '-'];
    report.push(
      `### Full sync through the scheduler, fake upstream enforcing section 8 ` +
        `(${r.markets} markets, ${r.pageSize} a page): ${r.seconds} s, ${r.limited429} × 429`,
      table(
        ['window', 'requests', 'limit / 10 s', 'mean / 10 s', 'least / 10 s', 'mean / limit'],
        [row('GET /markets', g.markets), row('GET /events', g.events), row('listings combined', g.listings), row('GET /tags', g.tags)],
      ),
      `Binding window: ${r.binding.name}, used at ${r.binding.ratio} of its limit (the scheduler keeps a 5% margin). ` +
        'The combined listings row (900) cannot be reached: its two members are capped at 300 + 500.',
    );
  } finally {
    await w.close();
  }
  return { results, report };
}
