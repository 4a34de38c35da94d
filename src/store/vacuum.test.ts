/**
 * VACUUM through the store: after rows are deleted the file shrinks, passes integrity_check, and
 * keeps every row that was not deleted, with the search index in step.
 */
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fixtureMarkets, tempDir } from '../testing/fixtures.ts';
import { CACHE_FILE, CatalogStore } from './catalog-store.ts';

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

/** `n` markets made from the fixtures, ids from `lo`. */
function markets(lo: number, n: number) {
  const t = fixtureMarkets();
  return Array.from({ length: n }, (_, i) => ({ ...t[i % t.length]!, id: String(lo + i), slug: `vacuum-${lo + i}` }));
}

describe('vacuum', () => {
  it('shrinks the file after deletions; integrity_check ok; the rows kept are intact', async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const file = path.join(t.dir, CACHE_FILE);
    const store = await CatalogStore.open({ dataDir: t.dir });
    cleanups.push(() => store.close());
    for (let b = 0; b < 6; b++) store.apply({ markets: markets(b * 1000, 500) });
    const doomed = store.statements.all('SELECT id FROM markets WHERE id >= 1000').map((r) => Number(r[0]));
    expect(store.remove('markets', doomed)).toBe(2500);
    const kept = store.statements.all('SELECT id, question, slug FROM markets ORDER BY id');
    await store.persist();
    const before = statSync(file).size;
    expect(store.statements.value('PRAGMA freelist_count')).toBeGreaterThan(0);

    const r = store.vacuum();
    expect(r.bytesBefore).toBe(before);
    expect(r.freePagesBefore).toBeGreaterThan(0);
    expect(r.bytesAfter).toBe(statSync(file).size);
    // Most of the file was the deleted rows: it gives back at least half.
    expect(r.bytesAfter).toBeLessThan(before / 2);
    expect(store.statements.value('PRAGMA freelist_count')).toBe(0);
    expect(store.statements.value('PRAGMA integrity_check')).toBe('ok');
    expect(store.statements.all('SELECT id, question, slug FROM markets ORDER BY id')).toEqual(kept);
    store.search.verify();
    // The WAL was checkpointed into the file and emptied; nothing else beside it.
    expect(statSync(`${file}-wal`).size).toBe(0);
    expect(readdirSync(t.dir).filter((n) => !/^catalog\.sqlite(-wal|\.lock)$/.test(n))).toEqual([CACHE_FILE]);

    // It keeps taking writes, and the next open sees the same rows.
    store.apply({ markets: markets(9000, 10) });
    await store.close();
    const again = await CatalogStore.open({ dataDir: t.dir });
    cleanups.push(() => again.close());
    expect(again.statements.value('PRAGMA integrity_check')).toBe('ok');
    expect(again.statements.value('SELECT count(*) FROM markets')).toBe(kept.length + 10);
  });

  it('is refused for a cache kept in memory', async () => {
    const store = await CatalogStore.open();
    cleanups.push(() => store.close());
    expect(() => store.vacuum()).toThrow(/not written to disk/);
  });
});
