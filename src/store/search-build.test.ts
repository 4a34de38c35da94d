/**
 * The search index of a bulk load, built on a worker thread (search-build.ts): the same index,
 * table for table, as the main thread's rebuild; its scratch file gone afterwards; and the main
 * thread's rebuild when the worker cannot build.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { operations, parseParams } from '../contract/index.ts';
import { createSyntheticCatalog } from '../fake-upstream/index.ts';
import { tempDir } from '../testing/fixtures.ts';
import { CACHE_FILE, CatalogStore } from './catalog-store.ts';
import { searchBuildFile } from './search-build.ts';
import { FTS_SHADOW_TABLES, rebuildSearchIndex } from './search-index.ts';
import type { Logger } from '../logger.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

const catalog = createSyntheticCatalog({ markets: 1500, seed: 11 });
const events = [...catalog.allEvents()];
const markets = [...catalog.allMarkets()];

function capture(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return { lines, info: (m) => lines.push(m), warn: (m) => lines.push(`warn: ${m}`) };
}

/** A store in a fresh data dir, bulk loaded with the catalog as a first sync writes it. */
async function loaded(before?: (dir: string) => void): Promise<{ store: CatalogStore; dir: string; log: ReturnType<typeof capture> }> {
  const t = tempDir();
  cleanups.push(t.cleanup);
  before?.(t.dir);
  const log = capture();
  const store = await CatalogStore.open({ dataDir: t.dir, log });
  cleanups.push(() => store.close());
  await store.bulkLoad(async () => {
    for (let i = 0; i < events.length; i += 100) store.apply({ events: events.slice(i, i + 100) });
    for (let i = 0; i < markets.length; i += 100) store.apply({ markets: markets.slice(i, i + 100) });
  });
  return { store, dir: t.dir, log };
}

/** A digest of every row of the index's tables. */
function indexDigest(store: CatalogStore): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [table, cols] of Object.entries(FTS_SHADOW_TABLES)) {
    const h = createHash('sha256');
    const rows = store.statements.all(`SELECT ${cols.join(', ')} FROM ${table} ORDER BY ${cols[0]}, ${cols[1]}`);
    for (const row of rows)
      for (const v of row) h.update(v instanceof Uint8Array ? Buffer.from(v).toString('hex') : JSON.stringify(v)).update('|');
    out[table] = `${rows.length} rows ${h.digest('hex').slice(0, 16)}`;
  }
  return out;
}

describe("a bulk load's search index on a worker thread", () => {
  it('is the main thread rebuild, table for table, and leaves no scratch file', async () => {
    const { store, dir, log } = await loaded();
    expect(log.lines.join('\n')).toMatch(/search index .* \(built on a worker thread beside them\)/);
    expect(readdirSync(dir).filter((n) => n.includes('.tmp-'))).toEqual([]);
    // FTS4's own check against the documents, and the tie-break keys and triggers.
    store.search.verify();
    const fromWorker = indexDigest(store);
    expect(Number(fromWorker['search_fts_docsize']!.split(' ')[0])).toBe(events.length);
    rebuildSearchIndex(store.statements.db);
    expect(indexDigest(store)).toEqual(fromWorker);
    // Kept up by the triggers afterwards, as after a rebuild.
    const [first] = events;
    store.apply({ events: [{ ...first!, title: 'Zyzzyva quokka', updatedAt: '2099-01-01T00:00:00Z' }] });
    store.search.verify();
    const q = parseParams(operations['search.query'].params, { q: 'quokka' });
    if (!q.ok) throw new Error(q.message);
    expect(store.search.search(q.value).events.map((e) => e.id)).toEqual([first!.id]);
  });

  it('falls back to the main thread when the worker cannot build', async () => {
    // A directory where the worker's scratch file would go: its open fails.
    const { store, dir, log } = await loaded((d) => mkdirSync(searchBuildFile(path.join(d, CACHE_FILE))));
    expect(log.lines.join('\n')).toMatch(/warn: the search index's worker failed .*rebuilding it on the main thread/);
    expect(log.lines.join('\n')).toMatch(/search index .* \(main thread\)/);
    store.search.verify();
    expect(Number(indexDigest(store)['search_fts_docsize']!.split(' ')[0])).toBe(events.length);
    expect(readdirSync(dir).filter((n) => n.includes('.tmp-') && n !== path.basename(searchBuildFile(CACHE_FILE)))).toEqual([]);
  });
});
