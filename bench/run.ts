/**
 * `npm run bench [-- --size 10k|100k|500k|1m] [--only NAME]`, NAME one of sync, catalog, start, search,
 * native, limits, ui, persist, account, fairness, export, kills, history, screens, cold, alerts, diff, live
 * (`--live-minutes M --live-drops N --live-freezes N --live-seed S`: bench/live.ts).
 *
 * Against a synthetic catalog served by the fake upstream (its own process): full sync time
 * and peak memory, warm start, and HTTP latency of catalog queries through the real service
 * (its own process), each compared in the same run with a bare Fastify route returning a
 * body of the same size. Prints a markdown table and writes bench/results/<date>-<size>.json.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT, cliProcess, get, table, type Proc } from './lib.ts';
import { buildIfStale } from '../src/testing/built-cli.ts';

// 1m: 1,000,000 markets (about 400,000 events), the full history's scale; it needs the disk-backed store.
const SIZES = { '10k': 10_000, '100k': 100_000, '500k': 500_000, '1m': 1_000_000 } as const;
const { values } = parseArgs({
  options: {
    size: { type: 'string', default: '100k' },
    only: { type: 'string' },
    n: { type: 'string' },
    'fair-runs': { type: 'string', default: '3' },
    'fair-seconds': { type: 'string', default: '60' },
    // The live bench's soak (issue 26: RSS flat over 10 minutes), drops, freezes, and the walk's seed (default: random).
    'live-minutes': { type: 'string', default: '10' },
    'live-drops': { type: 'string', default: '50' },
    'live-freezes': { type: 'string', default: '3' },
    'live-seed': { type: 'string' },
  },
  strict: true,
});
const size = values.size as keyof typeof SIZES;
if (!(size in SIZES)) throw new Error(`--size must be one of ${Object.keys(SIZES).join(', ')}`);
const markets = SIZES[size];
const only = values.only;
const N = Number(values.n ?? 1000);
const want = (name: string) => !only || only === name;

// The service runs as users run it: built JavaScript (out/main/cli.js). The kill, alerts and diff benches run none.
if (only !== 'kills' && only !== 'alerts' && only !== 'diff') buildIfStale();

const cacheRoot = path.join(ROOT, 'bench/.cache', size);
const cacheDir = path.join(cacheRoot, 'data');
mkdirSync(cacheRoot, { recursive: true });

const results: Record<string, unknown> = { size, markets, date: new Date().toISOString(), node: process.version };
const report: string[] = [`## marketdesk bench, ${size} markets (${new Date().toISOString().slice(0, 10)}, Node ${process.version})`];
const procs: Proc[] = [];
const stopAll = () => Promise.all(procs.map((p) => p.stop()));

try {
  // ---- sync --------------------------------------------------------------------------------
  // The kill and live benches make their own caches, and the diff bench needs none: none needs a synced one.
  const ownCache = only === 'kills' || only === 'diff' || only === 'live';
  if (want('sync') || (!ownCache && !existsSync(path.join(cacheDir, 'catalog.sqlite')))) {
    // The fake holds the whole catalog as objects: 4 GiB at a million markets, V8's default heap limit here,
    // where its garbage collection took a third of its CPU and stalled the sync's pages (bench/fake-serve.ts).
    const fakeFlags = markets >= 500_000 ? ['--max-old-space-size=8192'] : [];
    const fake = cliProcess(
      ['fake-upstream', '--port', '0', '--synthetic', String(markets), '--seed', '1', '--limits', 'off'],
      'built',
      fakeFlags,
    );
    procs.push(fake);
    const url = (await fake.waitFor(/listening on (http:\/\/\S+)/))[1]!;
    const runDir = path.join(cacheRoot, 'sync-run');
    rmSync(runDir, { recursive: true, force: true });
    // "No rate limits": the outbound scheduler runs with section 8's table scaled up 1000x, so
    // the figure is the sync's own speed, not the budget's.
    const { DEFAULT_LIMITS } = await import('../src/limits/table.ts');
    const unlimited = path.join(cacheRoot, 'unlimited-limits.json');
    writeFileSync(
      unlimited,
      JSON.stringify({ ...DEFAULT_LIMITS, windows: DEFAULT_LIMITS.windows.map((w) => ({ ...w, limit: w.limit * 1000 })) }),
    );
    const t0 = performance.now();
    const sync = cliProcess([
      'sync',
      '--data-dir',
      runDir,
      '--gamma-url',
      url,
      '--horizon-days',
      '36500',
      '--limits',
      unlimited,
      '--verbose',
    ]);
    const code = await sync.exited;
    const secs = (performance.now() - t0) / 1000;
    if (code !== 0) throw new Error(`sync failed: ${sync.output()}`);
    const m = /synced (\d+) markets, (\d+) events.*peak RSS (\d+) MiB/.exec(sync.output());
    // The bulk load's finishing steps, as the store logs them (catalog-store.ts bulkLoad).
    const phases = /bulk load: (.*)/.exec(sync.output())?.[1] ?? null;
    if (phases) console.log(`sync: ${phases}`);
    await fake.stop();
    rmSync(cacheDir, { recursive: true, force: true });
    renameSync(runDir, cacheDir);
    const fileMiB = statSync(path.join(cacheDir, 'catalog.sqlite')).size / 2 ** 20;
    results['sync'] = {
      seconds: secs,
      markets: Number(m?.[1]),
      events: Number(m?.[2]),
      peakRssMiB: Number(m?.[3]),
      cacheFileMiB: fileMiB,
      phases,
    };
    report.push(
      '### Full sync from the local fake upstream (no rate limits)',
      table(
        ['markets', 'events', 'wall time (s)', 'peak RSS (MiB)', 'cache file (MiB)'],
        [[m?.[1] ?? '?', m?.[2] ?? '?', secs.toFixed(1), m?.[3] ?? '?', fileMiB.toFixed(0)]],
      ),
    );
  }

  // ---- start-up: built JavaScript against the TypeScript runner it replaced -----------------
  if (want('start')) {
    const runs: Record<'tsx' | 'built', number[]> = { tsx: [], built: [] };
    // Alternating, so both runners see the same OS page cache and machine load.
    for (let r = 0; r < 5; r++) {
      for (const runner of ['tsx', 'built'] as const) {
        const t0 = performance.now();
        const p = cliProcess(['serve', '--offline', '--no-limits', '--data-dir', cacheDir, '--base-port', '0', '--clob-port', '0'], runner);
        procs.push(p);
        const base = (await p.waitFor(/base: (http:\/\/\S+)/))[1]!;
        const first = await get(`${base}/markets?limit=20&closed=false&order=volume`);
        if (first.status !== 200) throw new Error(`first /markets (${runner}): ${first.status}`);
        runs[runner].push(performance.now() - t0);
        await p.stop();
      }
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    results['startup'] = { tsxMs: runs.tsx, builtMs: runs.built, tsxMedianMs: median(runs.tsx), builtMedianMs: median(runs.built) };
    report.push(
      '### Start-up: process start to the first /markets answer (5 runs each, alternating), ms',
      table(
        ['runner', 'median', 'min', 'max'],
        (['tsx', 'built'] as const).map((k) => [
          k === 'tsx' ? 'before: tsx src/cli.ts (TypeScript compiled at start)' : 'after: node out/main/cli.js (built)',
          median(runs[k]).toFixed(0),
          Math.min(...runs[k]).toFixed(0),
          Math.max(...runs[k]).toFixed(0),
        ]),
      ),
    );
  }

  // ---- warm start and catalog latency, cached and uncached (bench/catalog.ts) ----------------
  if (want('catalog')) {
    const { benchCatalog } = await import('./catalog.ts');
    const r = await benchCatalog(cacheDir, markets, N, procs);
    Object.assign(results, r.results);
    report.push(...r.report);
  }
  // ---- the first answers after the OS page cache was dropped (bench/cold.ts) ------------------
  if (want('cold')) {
    const { benchCold } = await import('./cold.ts');
    const r = await benchCold(cacheDir, markets, procs);
    results['cold'] = r.results;
    report.push(...r.report);
  }
  // ---- search (its own serve process; --n caps its samples at 500 per query) -----------------
  if (want('search')) {
    const { benchSearch } = await import('./search.ts');
    const r = await benchSearch(cacheDir, Math.min(N, 500), procs);
    results['search'] = r.results;
    report.push(...r.report);
  }
  // ---- web UI in Chromium: cold start, panel, filter, sort, search, scroll with/without icons (own serve, warmed copy) --
  if (want('ui')) {
    const { benchUi } = await import('./ui.ts');
    const r = await benchUi(cacheDir, procs);
    results['ui'] = r.results;
    report.push(...r.report);
  }
  // ---- rate limits: inbound overhead, sync throughput at the upstream's limit ------------------
  if (want('limits')) {
    const { benchLimits } = await import('./limits.ts');
    const r = await benchLimits(cacheDir, Math.min(N, 2000), procs);
    results['limits'] = r.results;
    report.push(...r.report);
  }
  // ---- the account: orders paged through the cache, leaderboard from the cache ---------------
  if (want('account')) {
    const { benchAccount } = await import('./account.ts');
    const r = await benchAccount(N, procs);
    results['account'] = r.results;
    report.push(...r.report);
  }
  // ---- fairness: new connections under load while syncs write ------------------------------
  if (want('fairness')) {
    const { fairnessBench } = await import('./fairness.ts');
    const r = await fairnessBench({
      cacheDir,
      markets,
      runs: Number(values['fair-runs']),
      seconds: Number(values['fair-seconds']),
    });
    results['fairness'] = r.results;
    report.push(...r.report);
  }
  // ---- export: whole listings as CSV against the listing paged over HTTP (own serve processes) --
  if (want('export')) {
    const { benchExport } = await import('./export.ts');
    const r = await benchExport(cacheDir, procs);
    results['export'] = r.results;
    report.push(...r.report);
  }
  // ---- history, revisions, the change feed (issue 16; in process, simulated clock) ----------
  if (want('history')) {
    const { benchHistory } = await import('./history.ts');
    const r = await benchHistory(cacheDir, markets);
    results['history'] = r.results;
    report.push(...r.report);
  }
  // ---- saved screens (issue 16): screen listings, each request a new screen (own serve process) --
  if (want('screens')) {
    const { benchScreens } = await import('./screens.ts');
    const r = await benchScreens(cacheDir, N, procs);
    results['screens'] = r.results;
    report.push(...r.report);
  }
  // ---- alerts (issue 16): evaluating 1,000 rules after a sync (in process, on a copy of the cache) --
  if (want('alerts')) {
    const { benchAlerts } = await import('./alerts.ts');
    const r = await benchAlerts(cacheDir, markets);
    results['alerts'] = r.results;
    report.push(...r.report);
  }
  // ---- persistence: the longest pause a write to disk causes to queries (in process) --------
  if (want('persist')) {
    const { benchPersist } = await import('./persist.ts');
    const r = await benchPersist(cacheDir);
    results['persist'] = r.results;
    report.push(...r.report);
  }
  // ---- crash safety: kill -9 at random points in each kind of write (own child processes) ----
  if (want('kills')) {
    const { benchKills } = await import('./kills.ts');
    const r = await benchKills(markets, Math.max(50, values.n ? N : 52));
    results['kills'] = r.results;
    report.push(...r.report);
  }
  // ---- the rules diff (renderer/src/diff/word-diff.ts) on long texts (in process, no cache) -----
  if (want('diff')) {
    const { benchWordDiff } = await import('./word-diff.ts');
    const r = benchWordDiff();
    results['diff'] = r.results;
    report.push(...r.report);
  }
  // ---- live (issue 26): the market channel through the service, its faults, the painted cell (own processes) --
  if (want('live')) {
    const { benchLive } = await import('./live.ts');
    const r = await benchLive(
      {
        minutes: Number(values['live-minutes']),
        drops: Number(values['live-drops']),
        freezes: Number(values['live-freezes']),
        seed: values['live-seed'] !== undefined ? Number(values['live-seed']) : Math.floor(Math.random() * 2 ** 32),
      },
      procs,
    );
    results['live'] = r.results;
    report.push(...r.report);
  }
  // ---- sql.js against native SQLite -------------------------------------------------------
  if (want('native')) {
    const { compareNative } = await import('./native.ts');
    const { operations, parseParams } = await import('../src/contract/index.ts');
    const list = (raw: Record<string, string>) => (store: import('../src/store/catalog-store.ts').CatalogStore) => {
      const p = parseParams(operations['markets.list'].params, raw);
      if (!p.ok) throw new Error(p.message);
      return store.reader.listMarkets(p.value);
    };
    const events = (raw: Record<string, string>) => (store: import('../src/store/catalog-store.ts').CatalogStore) => {
      const p = parseParams(operations['events.list'].params, raw);
      if (!p.ok) throw new Error(p.message);
      return store.reader.listEvents(p.value);
    };
    const search = (raw: Record<string, string>) => (store: import('../src/store/catalog-store.ts').CatalogStore) => {
      const p = parseParams(operations['search.query'].params, raw);
      if (!p.ok) throw new Error(p.message);
      return store.search.search(p.value);
    };
    const rows = await compareNative(cacheDir, path.join(cacheDir, 'catalog.sqlite'), [
      ['markets: closed=false, order=volume desc', list({ limit: '20', closed: 'false', order: 'volume' })],
      ['markets: active=true, order=endDate asc', list({ limit: '20', active: 'true', order: 'endDate', ascending: 'true' })],
      ['markets: offset 10,000, order=volume', list({ limit: '20', offset: '10000', order: 'volume' })],
      [
        'markets: by slug',
        (store) => store.reader.getMarketBySlug(String(store.statements.value('SELECT slug FROM markets LIMIT 1 OFFSET 500'))),
      ],
      ['events: closed=false, order=volume desc', events({ limit: '20', closed: 'false', order: 'volume' })],
      ['markets: active=true&closed=false, order=volume24hr', list({ limit: '50', active: 'true', closed: 'false', order: 'volume24hr' })],
      ['markets: id order, offset 70,000', list({ limit: '50', offset: '70000' })],
      [
        'events: popular tag, order=volume24hr',
        (store) => {
          const tag = store.statements.value('SELECT tag_id FROM event_tags GROUP BY tag_id ORDER BY count(*) DESC LIMIT 1');
          return events({ limit: '20', tag_id: String(tag), closed: 'false', order: 'volume24hr' })(store);
        },
      ],
      ['search: two words', search({ q: 'bitcoin price' })],
      ['search: one-letter prefix', search({ q: 'b' })],
    ]);
    results['native'] = rows;
    report.push(
      '### Store query time, sql.js against better-sqlite3 (same SQL, same file), median ms',
      table(
        ['query', 'sql.js', 'better-sqlite3', 'ratio'],
        rows.map((r) => [r.query, r.sqljsMs, r.nativeMs, r.ratio]),
      ),
    );
  }
} finally {
  await stopAll();
}

const out = report.join('\n\n');
console.log(out);
mkdirSync(path.join(ROOT, 'bench/results'), { recursive: true });
const file = path.join(ROOT, 'bench/results', `${new Date().toISOString().slice(0, 10)}-${size}.json`);
// An --only run adds its sections to the day's file instead of wiping the others.
const earlier = only && existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>) : {};
writeFileSync(file, `${JSON.stringify({ ...earlier, ...results }, null, 2)}\n`);
console.log(`\nresults: ${path.relative(ROOT, file)}`);
