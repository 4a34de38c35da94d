/**
 * `npm run bench -- --only history`: the catalog's memory (issue 16), in this process on a copy
 * of the bench cache, through a real service (no automatic sync, so only the bench writes):
 *
 * - an incremental sync of 2,000 changed markets from an in-process fake upstream serving the
 *   bench cache's catalog (synthetic, seed 1), with history recording against the same sync with
 *   the triggers dropped; and the store's writes alone (pages of 100, as a sync writes them).
 *   CPU time of this process beside wall time: on a shared machine the wall time is mostly noise;
 * - 30 simulated days of syncs: every hour, 300 markets of a hot set of 3,000 move (a
 *   random walk with jumps), and rules are edited and markets open now and then; the store's
 *   clock follows the simulation, so snapshots, moves and thinning behave as over 30 days;
 * - the cache's growth, the history tables' share of the file, bytes per market per day;
 * - `/changes` since 24 h (filters and pages varied: nothing is cached) and
 *   `/markets/{id}/history` for 7 days, p99 over HTTP from a `serve --offline` process on the result.
 */
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createSyntheticCatalog, mutate, startFakeUpstream } from '../src/fake-upstream/index.ts';
import { startService, type Service } from '../src/http/server.ts';
import type { GammaMarket } from '../src/contract/gamma.ts';
import { cliProcess, measure, type Proc, table } from './lib.ts';
// Seeded, so runs compare.
import { mulberry32 as rng } from '../src/fake-upstream/prng.ts';

const DAYS = Number(process.env['HISTORY_BENCH_DAYS'] ?? 30);
const STEP_S = 60 * 60;
const HOT = 3_000;
const PER_STEP = 300;
const SYNC_MARKETS = 2_000;
const PAGE = 100;

interface Hot {
  base: GammaMarket;
  price: number;
  liq: number;
  vol: number;
}

const r4 = (x: number) => Math.round(x * 10_000) / 10_000;

/** The bytes the history tables take: copied into an empty database of the same page size. */
function historyBytes(s: Service): number {
  const st = s.store.statements;
  st.run("ATTACH ':memory:' AS hb");
  try {
    st.db.exec('PRAGMA hb.page_size = 16384');
    for (const [name, sql] of st.all(
      "SELECT name, sql FROM sqlite_master WHERE sql IS NOT NULL AND (name IN ('market_history', 'revisions', 'changes', 'move_refs') " +
        "OR (tbl_name IN ('revisions', 'changes') AND type = 'index')) ORDER BY type DESC",
    )) {
      const ddl = String(sql).replace(/^CREATE (TABLE|INDEX) (\w+)/, (_m, kind: string, n: string) => `CREATE ${kind} hb.${n}`);
      st.db.exec(ddl);
      if (String(sql).startsWith('CREATE TABLE')) st.db.exec(`INSERT INTO hb.${String(name)} SELECT * FROM main.${String(name)}`);
    }
    return Number(st.value('PRAGMA hb.page_count')) * 16384;
  } finally {
    st.run('DETACH hb');
  }
}

const fileBytes = (s: Service) =>
  (Number(s.store.statements.value('PRAGMA page_count')) - Number(s.store.statements.value('PRAGMA freelist_count'))) * 16384;

/** Wall and CPU milliseconds of `fn`. */
async function timed(fn: () => unknown): Promise<{ wall: number; cpu: number }> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await fn();
  const c = process.cpuUsage(c0);
  return { wall: performance.now() - t0, cpu: (c.user + c.system) / 1000 };
}

export async function benchHistory(cacheDir: string, markets: number): Promise<{ results: Record<string, unknown>; report: string[] }> {
  const src = path.join(cacheDir, 'catalog.sqlite');
  if (existsSync(`${src}-wal`)) throw new Error(`${src} has a WAL: another run is writing it`);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'marketdesk-bench-history-'));
  const web = mkdtempSync(path.join(os.tmpdir(), 'marketdesk-bench-history-web-'));
  copyFileSync(src, path.join(dir, 'catalog.sqlite'));
  // The catalog the bench cache was synced from (run.ts: --synthetic <markets> --seed 1).
  const fake = await startFakeUpstream({ catalog: createSyntheticCatalog({ markets, seed: 1 }) });
  const urls = { gamma: fake.url, clob: fake.url, data: fake.url };
  const s = await startService({ urls, dataDir: dir, basePort: 0, clobPort: 0, webRoot: web });
  let serviceOpen = true;
  let serve: Proc | undefined;
  try {
    const st = s.store.statements;
    let clock = Date.now();
    s.store.recorder.now = () => clock;
    const random = rng(16);
    const open = st.all('SELECT id FROM markets WHERE "closed" IS NOT 1 AND "outcomePrices" IS NOT NULL').map((r) => r[0] as number);
    const hot: Hot[] = [];
    for (let i = 0; i < HOT && open.length; i++) {
      const id = open.splice(Math.floor(random() * open.length), 1)[0]!;
      const base = s.store.reader.getMarket(id) as unknown as GammaMarket;
      const price = Number((JSON.parse(String(base.outcomePrices ?? '["0.5"]')) as string[])[0]) || 0.5;
      hot.push({ base, price, liq: Number(base.liquidityNum ?? 1000), vol: Number(base.volume24hr ?? 100) });
    }
    let nextId = Number(st.value('SELECT max(id) FROM markets')) + 1;

    /** One changed copy of a hot market as the upstream would send it at `clock`. */
    const changed = (h: Hot): GammaMarket => {
      h.price = Math.min(0.99, Math.max(0.01, h.price + (random() - 0.5) * 0.02 + (random() < 0.02 ? (random() - 0.5) * 0.16 : 0)));
      h.liq = Math.max(0, h.liq * (1 + (random() - 0.5) * 0.04) * (random() < 0.005 ? 1.5 : 1));
      h.vol = Math.max(0, h.vol * (1 + (random() - 0.5) * 0.1));
      const p = r4(h.price);
      return {
        ...h.base,
        outcomePrices: JSON.stringify([String(p), String(r4(1 - p))]),
        bestBid: r4(Math.max(0, p - 0.01)),
        bestAsk: r4(Math.min(1, p + 0.01)),
        lastTradePrice: p,
        liquidityNum: Math.round(h.liq),
        liquidity: String(Math.round(h.liq)),
        volume24hr: Math.round(h.vol),
        updatedAt: new Date(clock).toISOString(),
      };
    };
    const writePages = (items: GammaMarket[]) => {
      for (let i = 0; i < items.length; i += PAGE) s.store.apply({ markets: items.slice(i, i + PAGE) });
    };

    // ---- an incremental sync, and its writes alone, with and without recording (alternating rounds) ----
    type Times = { on: { wall: number; cpu: number }[]; off: { wall: number; cpu: number }[] };
    const syncTimes: Times = { on: [], off: [] };
    const writeTimes: Times = { on: [], off: [] };
    const inFake = hot.filter((h) => fake.catalog.marketRecord(String(h.base.id))).slice(0, SYNC_MARKETS);
    s.store.recorder.now = Date.now;
    for (let round = 0; round < 8; round++) {
      const on = round % 2 === 1;
      s.store.recorder.setEnabled(on);
      for (const h of inFake) mutate(fake.catalog, { op: 'price', id: String(h.base.id), price: r4(0.05 + random() * 0.9) });
      syncTimes[on ? 'on' : 'off'].push(await timed(() => s.sync!.incrementalSync()));
    }
    clock = Date.now() + 3_600_000;
    s.store.recorder.now = () => clock;
    for (let round = 0; round < 8; round++) {
      const on = round % 2 === 1;
      s.store.recorder.setEnabled(on);
      clock += 60_000;
      const items = hot.slice(0, SYNC_MARKETS).map(changed);
      writeTimes[on ? 'on' : 'off'].push(await timed(() => writePages(items)));
    }
    s.store.recorder.setEnabled(true);
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const medians = (t: Times) => {
      const m = (k: 'on' | 'off', f: 'wall' | 'cpu') => Math.round(median(t[k].map((x) => x[f])));
      const r = { withWall: m('on', 'wall'), withoutWall: m('off', 'wall'), withCpu: m('on', 'cpu'), withoutCpu: m('off', 'cpu') };
      const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;
      return { ...r, wallRatio: ratio(r.withWall, r.withoutWall), cpuRatio: ratio(r.withCpu, r.withoutCpu) };
    };
    const sync = medians(syncTimes);
    const writes = medians(writeTimes);

    // ---- 30 simulated days of syncs ----
    const file0 = fileBytes(s);
    const hist0 = historyBytes(s);
    const steps = Math.round((DAYS * 86_400) / STEP_S);
    let upserts = 0;
    const tSim = performance.now();
    for (let step = 0; step < steps; step++) {
      clock += STEP_S * 1000;
      const items: GammaMarket[] = [];
      for (let i = 0; i < PER_STEP; i++) items.push(changed(hot[Math.floor(random() * hot.length)]!));
      // Now and then: a rule edit, a new market.
      if (step % 2 === 0) items.push({ ...changed(hot[step % hot.length]!), description: `Edited rules ${step}.` });
      if (step % 4 === 0)
        items.push({ ...changed(hot[(step * 7) % hot.length]!), id: String(nextId++), createdAt: new Date(clock).toISOString() });
      writePages(items);
      upserts += items.length;
    }
    const simSeconds = (performance.now() - tSim) / 1000;
    await s.store.persist();
    const file1 = fileBytes(s);
    const hist1 = historyBytes(s);
    const rows = Number(st.value('SELECT count(*) FROM market_history'));
    const withHistory = Number(st.value('SELECT count(DISTINCT market_id) FROM market_history'));
    const catalogMarkets = Number(st.value('SELECT count(*) FROM markets'));
    const changes24 = Number(st.value('SELECT count(*) FROM changes WHERE at >= ?', [Math.floor(clock / 1000) - 86_400]));

    // ---- reads over HTTP from a `serve --offline` of its own on the cache just written, as the other
    // read benches measure: this process's heap (the fake catalog, the simulation) would put its
    // collections into the service's tail. The handlers' default windows use the wall clock, so ask
    // with explicit times.
    await s.close();
    serviceOpen = false;
    serve = cliProcess(['serve', '--offline', '--no-limits', '--data-dir', dir, '--base-port', '0', '--clob-port', '0']);
    const baseUrl = (await serve.waitFor(/base: (http:\/\/\S+)/))[1]!;
    const nowS = Math.floor(clock / 1000);
    const kinds = ['', '&kind=price_move', '&kind=new_market,rule_edit', '&kind=liquidity_move,price_move,closed'];
    let q = 0;
    const changesLat = await measure(
      () => `${baseUrl}/changes?since=${nowS - 86_400}${kinds[q % 4]}&limit=50&offset=${(q++ % 2) * 50}`,
      500,
    );
    const histLat = await measure(
      () => `${baseUrl}/markets/${String(hot[Math.floor(random() * hot.length)]!.base.id)}/history?from=${nowS - 7 * 86_400}&to=${nowS}`,
      1000,
    );

    const mib = (b: number) => (b / 2 ** 20).toFixed(1);
    const histGrowth = hist1 - hist0;
    const results = {
      sync: { markets: inFake.length, ...sync },
      writes: { markets: SYNC_MARKETS, ...writes },
      simulation: {
        days: DAYS,
        stepMinutes: STEP_S / 60,
        upserts,
        seconds: Math.round(simSeconds),
        snapshots: rows,
        marketsWithHistory: withHistory,
      },
      storage: {
        fileBytesBefore: file0,
        fileBytesAfter: file1,
        historyBytes: hist1,
        historyShareOfFile: Math.round((hist1 / file1) * 1000) / 10,
        bytesPerRecordedMarketPerDay: Math.round(histGrowth / Math.max(1, withHistory) / DAYS),
        bytesPerCatalogMarketPerDay: Math.round((histGrowth / catalogMarkets / DAYS) * 10) / 10,
      },
      changesSince24h: { ...changesLat, changesIn24h: changes24 },
      history7d: histLat,
    };
    const report = [
      '### History, revisions and the change feed (issue 16; in process, simulated clock)',
      table(
        ['2,000 changed markets', 'without recording: CPU / wall (ms)', 'with: CPU / wall (ms)', 'ratio CPU / wall (goal <= 1.3)'],
        [
          [
            'incremental sync',
            `${sync.withoutCpu} / ${sync.withoutWall}`,
            `${sync.withCpu} / ${sync.withWall}`,
            `${sync.cpuRatio} / ${sync.wallRatio}`,
          ],
          [
            'its writes alone',
            `${writes.withoutCpu} / ${writes.withoutWall}`,
            `${writes.withCpu} / ${writes.withWall}`,
            `${writes.cpuRatio} / ${writes.wallRatio}`,
          ],
        ],
      ),
      table(
        ['simulated days', 'upserts', 'snapshots kept', 'cache before (MiB)', 'after (MiB)', 'history (MiB)', 'history share (goal < 15%)'],
        [[DAYS, upserts, rows, mib(file0), mib(file1), mib(hist1), `${results.storage.historyShareOfFile}%`]],
      ),
      table(
        ['bytes / recorded market / day', 'bytes / catalog market / day', 'markets with history', 'catalog markets'],
        [[results.storage.bytesPerRecordedMarketPerDay, results.storage.bytesPerCatalogMarketPerDay, withHistory, catalogMarkets]],
      ),
      table(
        ['route', 'p50 (ms)', 'p99 (ms)', 'goal p99', 'bytes'],
        [
          [`/changes since 24 h (${changes24} changes)`, changesLat.p50, changesLat.p99, '< 20 ms', changesLat.bytes],
          ['/markets/{id}/history, 7 days', histLat.p50, histLat.p99, '< 5 ms', histLat.bytes],
        ],
      ),
    ];
    return { results, report };
  } finally {
    await serve?.stop();
    if (serviceOpen) await s.close();
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
    rmSync(web, { recursive: true, force: true });
  }
}
