/**
 * The catalog writer alone, over a synthetic catalog (the fake's, a third of it Protocol V2):
 * `npx tsx bench/writer-timing.ts [--markets 100000] [--seed 1] [--runs 3] [--bulk-only]`.
 *
 * Each run opens a new cache file in a temp dir and times, in this process, with no HTTP:
 * - `bulk rows`: a first sync's rows step (a bulk load into the empty cache: event pages of 100
 *   with their markets, interleaved with market pages of 100, as the full sync's two walks write);
 * - `bulk finish`: the rest of the bulk load (sort indexes, statistics, search index);
 * - `update all`: every market written again with a newer `updatedAt`, pages of 100 (an
 *   incremental sync that sees every market change);
 * - `remove 10%`: every tenth market removed (the sync's sweep of markets the upstream dropped).
 * Prints the median of the runs per step. Used to measure what the wrong-trading-id index
 * (store/trading-id-index.ts) costs the writer: run it on a build with and one without.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { GammaEvent, GammaMarket } from '../src/contract/gamma.ts';
import { createSyntheticCatalog } from '../src/fake-upstream/index.ts';
import { CatalogStore } from '../src/store/catalog-store.ts';

const { values } = parseArgs({
  options: {
    markets: { type: 'string', default: '100000' },
    seed: { type: 'string', default: '1' },
    runs: { type: 'string', default: '3' },
    'bulk-only': { type: 'boolean', default: false },
  },
  strict: true,
});
const N = Number(values.markets);
const runs = Number(values.runs);
const catalog = createSyntheticCatalog({ markets: N, seed: Number(values.seed) });
const events: GammaEvent[] = [...catalog.allEvents()];
const markets: GammaMarket[] = [...catalog.allMarkets()];
const pages = <T>(list: T[]) => Array.from({ length: Math.ceil(list.length / 100) }, (_, i) => list.slice(i * 100, i * 100 + 100));
const later = markets.map((m) => ({ ...m, updatedAt: '2099-01-01T00:00:00Z' }) as GammaMarket);
const gone = markets.filter((_, i) => i % 10 === 0).map((m) => Number(m.id));

type Step = 'bulk rows' | 'bulk finish' | 'update all' | 'remove 10%';
const sizes: number[] = [];
let entries: number | undefined;
const times: Record<Step, number[]> = { 'bulk rows': [], 'bulk finish': [], 'update all': [], 'remove 10%': [] };

for (let r = 0; r < runs; r++) {
  const dir = mkdtempSync(path.join(tmpdir(), 'md-writer-'));
  const store = await CatalogStore.open({ dataDir: dir });
  try {
    const ev = pages(events);
    const mk = pages(markets);
    let rows = 0;
    const t0 = performance.now();
    await store.bulkLoad(async () => {
      const a = performance.now();
      for (let i = 0; i < Math.max(ev.length, mk.length); i++) {
        if (ev[i]) store.apply({ events: ev[i] });
        if (mk[i]) store.apply({ markets: mk[i] });
      }
      rows = performance.now() - a;
    });
    times['bulk rows'].push(rows);
    times['bulk finish'].push(performance.now() - t0 - rows);
    const size = (f: string) => statSync(path.join(dir, f), { throwIfNoEntry: false })?.size ?? 0;
    sizes.push(size('catalog.sqlite') + size('catalog.sqlite-wal'));
    try {
      entries = Number(store.sideTables().st.value('SELECT count(*) FROM wrong_trading_ids'));
    } catch {
      // A build without the index.
    }
    if (values['bulk-only']) continue;
    const t1 = performance.now();
    for (const p of pages(later)) store.apply({ markets: p });
    times['update all'].push(performance.now() - t1);
    const t2 = performance.now();
    for (let i = 0; i < gone.length; i += 500) store.remove('markets', gone.slice(i, i + 500));
    times['remove 10%'].push(performance.now() - t2);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(`writer timing: ${N} markets, ${events.length} events, seed ${values.seed}, ${runs} runs (median, all runs in ms)`);
const mib = (b: number) => (b / 2 ** 20).toFixed(1);
console.log(`cache file (and WAL) after the bulk load: ${mib(median(sizes))} MiB; wrong_trading_ids rows: ${entries ?? 'no such table'}`);
for (const [step, xs] of Object.entries(times).filter(([, xs]) => xs.length > 0))
  console.log(`${step.padEnd(12)} ${(median(xs) / 1000).toFixed(2)} s   [${xs.map((x) => Math.round(x)).join(', ')}]`);
