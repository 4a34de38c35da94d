/**
 * `marketdesk vacuum`: compacts catalog.sqlite in place. Pruned and removed rows leave free
 * pages that SQLite reuses but never gives back to the disk; VACUUM rewrites the file without
 * them. In WAL mode it is one transaction like any batch: the new content goes to the WAL,
 * COMMIT, then a checkpoint copies it into the file and truncates both. A kill before the COMMIT
 * leaves the old file (the WAL's frames are not committed); after it, the next open finishes the
 * checkpoint. Either way the file opens whole (crash-safety.test.ts kills it mid-way).
 */
import { statSync } from 'node:fs';
import type { Database } from 'sql.js';

export interface VacuumResult {
  /** The file (its WAL checkpointed into it, and emptied), before and after (bytes). */
  bytesBefore: number;
  bytesAfter: number;
  /** Free pages before (what prunes and removals left), and the page size. */
  freePagesBefore: number;
  pageSize: number;
  ms: number;
}

const bytesOf = (file: string) => statSync(file, { throwIfNoEntry: false })?.size ?? 0;
const pragma = (db: Database, name: string) => Number(db.exec(`PRAGMA ${name}`)[0]?.values[0]?.[0] ?? 0);
const liveBytes = (db: Database) => (pragma(db, 'page_count') - pragma(db, 'freelist_count')) * pragma(db, 'page_size');
const mib = (b: number) => (b / 2 ** 20).toFixed(0);

/** VACUUMs the database open on `file` (in place, WAL mode, no transaction open); throws SQLite's error as is. */
export function vacuumCache(db: Database, file: string): VacuumResult {
  const t0 = performance.now();
  // The WAL's commits into the file first (a prune just before leaves a big one): "before" is then the file alone.
  db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  const bytesBefore = bytesOf(file) + bytesOf(`${file}-wal`);
  const freePagesBefore = pragma(db, 'freelist_count');
  const pageSize = pragma(db, 'page_size');
  // VACUUM builds the compacted copy in a temp database first, in SQLite's heap (temp_store =
  // MEMORY), which sql.js caps at 2 GiB: a cache with more live data than that fails with "out of
  // memory" and is left as it was. (Switching temp_store to a file would drop the store's TEMP
  // tables and triggers.)
  try {
    db.exec('VACUUM');
  } catch (e) {
    if (!/out of memory/i.test((e as Error).message)) throw e;
    throw new Error(
      `VACUUM ran out of memory: it builds the compacted copy (${mib(liveBytes(db))} MiB of live data) in sql.js's heap, ` +
        'which holds 2 GiB at most; the cache is unchanged',
    );
  }
  // The whole file went through the WAL: copy it back now, so the file shrinks and the WAL is emptied.
  db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  return { bytesBefore, bytesAfter: bytesOf(file) + bytesOf(`${file}-wal`), freePagesBefore, pageSize, ms: performance.now() - t0 };
}
