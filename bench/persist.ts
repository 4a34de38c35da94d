/**
 * `npm run bench -- --only persist`: how long persisting the cache stops queries.
 *
 * In this process, on a copy of the bench cache: a loop answers a typical /markets query back
 * to back, each on its own event-loop turn, while the cache is written to disk; the longest
 * gap between two answers is the longest a query waited. Compared in the same run with
 * sql.js's export() plus an atomic write (what the store did before, and still does where the
 * file calls cannot be wrapped), and with the same loop while nothing is persisted.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { operations, parseParams } from '../src/contract/index.ts';
import { CatalogStore } from '../src/store/catalog-store.ts';
import { writeFileAtomic } from '../src/store/sqlite.ts';
import { percentile, table } from './lib.ts';

interface Gaps {
  queries: number;
  p50: number;
  p99: number;
  max: number;
  ms: number;
}

/** Runs `work` while a query loop runs; the gaps between the loop's answers. */
async function whileQuerying(store: CatalogStore, work: () => Promise<void>): Promise<Gaps> {
  const p = parseParams(operations['markets.list'].params, { limit: '20', closed: 'false', order: 'volume' });
  if (!p.ok) throw new Error(p.message);
  const gaps: number[] = [];
  let running = true;
  const loop = (async () => {
    let last = performance.now();
    let i = 0;
    while (running) {
      store.reader.listMarkets({ ...p.value, offset: (i++ * 20) % 2000 });
      const now = performance.now();
      gaps.push(now - last);
      last = now;
      await new Promise((r) => setImmediate(r));
    }
  })();
  const t0 = performance.now();
  await work();
  const ms = performance.now() - t0;
  running = false;
  await loop;
  const sorted = [...gaps].sort((a, b) => a - b);
  const r2 = (x: number) => Math.round(x * 100) / 100;
  return {
    queries: gaps.length,
    p50: r2(percentile(sorted, 50)),
    p99: r2(percentile(sorted, 99)),
    max: r2(sorted[sorted.length - 1] ?? 0),
    ms: Math.round(ms),
  };
}

const rssMiB = () => Math.round(process.memoryUsage().rss / 2 ** 20);

export async function benchPersist(cacheDir: string): Promise<{ results: Record<string, unknown>; report: string[] }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'marketdesk-bench-persist-'));
  try {
    copyFileSync(path.join(cacheDir, 'catalog.sqlite'), path.join(dir, 'catalog.sqlite'));
    const store = await CatalogStore.open({ dataDir: dir, persistDelayMs: 1e9 });
    try {
      const idle = await whileQuerying(store, () => new Promise((r) => setTimeout(r, 2000)));
      const rss0 = rssMiB();

      // The store's own persist: slices of the file read between queries. First, so that the
      // baseline's 500 MB of garbage is not collected in the middle of it.
      const live = await whileQuerying(store, async () => {
        store.setMeta('bench.persist', new Date().toISOString()); // something to write
        await store.persist();
      });
      const rssLive = rssMiB();
      // Baseline: export() holds the thread for the whole copy.
      let exportMs = 0;
      const exported = await whileQuerying(store, async () => {
        const t = performance.now();
        const bytes = store.statements.db.export();
        exportMs = performance.now() - t;
        await writeFileAtomic(path.join(dir, 'exported.sqlite'), bytes);
      });
      const rssExport = rssMiB();
      rmSync(path.join(dir, 'exported.sqlite'));

      const stats = { totalMs: store.lastPersistMs, busyMs: store.lastBusyMs, longestSliceMs: store.lastPauseMs };

      const row = (name: string, g: Gaps, pause: string, rss: number) => [name, g.ms, g.queries, g.p50, g.p99, g.max, pause, rss];
      return {
        results: {
          idle,
          exported: { ...exported, exportMs, rssMiB: rssExport },
          live: { ...live, ...stats, rssMiB: rssLive },
          rssBeforeMiB: rss0,
        },
        report: [
          '### Persisting the cache while queries run (in process; gaps between consecutive /markets answers, ms)',
          table(
            [
              'while',
              'duration (ms)',
              'queries answered',
              'gap p50',
              'gap p99',
              'longest gap',
              'main-thread time of the write (ms)',
              'RSS after (MiB)',
            ],
            [
              row('nothing (2 s idle loop)', idle, '', rss0),
              row('baseline: export() + atomic write', exported, exportMs.toFixed(0), rssExport),
              row(
                'the store: live copy in slices + atomic write',
                live,
                `${stats.busyMs.toFixed(0)} (longest slice ${stats.longestSliceMs.toFixed(1)})`,
                rssLive,
              ),
            ],
          ),
        ],
      };
    } finally {
      await store.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
