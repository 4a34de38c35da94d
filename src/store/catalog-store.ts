/**
 * The catalog cache: a sql.js database in memory, persisted to `<data-dir>/catalog.sqlite`.
 * Writes come in batches (one transaction each); persistence is debounced after batches and
 * forced on shutdown, so a kill loses at most the batches since the last write. A failed save
 * is recorded (storage-state.ts), retried with backoff, and reported by close().
 */
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import type { Database } from 'sql.js';
import { CatalogReader, type SiteMap } from './catalog-reader.ts';
import { CatalogWriter, type BatchInput, type BatchResult } from './catalog-writer.ts';
import { dropEntityIndexes, ensureIndexes, migrate, probeSchema } from './schema.ts';
import { PersistBusyError, persistLive } from './live-persist.ts';
import { openDatabaseFile, silentLogger, sqlFileAccess, unwritableReason, writeFileAtomic, type Logger } from './sqlite.ts';
import { StorageState, UnsavedChangesError, type RetryDelays, type StorageStatus } from './storage-state.ts';
import { removeStaleTemps } from './temp-files.ts';
import { SearchReader } from './search-reader.ts';
import { ensureSearchIndex, flushSearchIndex, rebuildSearchIndex, suspendSearchIndex } from './search-index.ts';
import { Statements } from './statements.ts';

export const CACHE_FILE = 'catalog.sqlite';
/** SQLite page cache sizes (negative: KiB), while serving and during a bulk load. */
const SERVING_CACHE_KIB = -16384;
const BULK_CACHE_KIB = -65536;

export interface StoreOptions {
  /** Where catalog.sqlite lives; undefined keeps the cache in memory only (tests). */
  dataDir?: string;
  log?: Logger;
  /** Debounce of the write after a batch. */
  persistDelayMs?: number;
  /** Backoff of retries after a failed save (default 5 s doubling to 5 min). */
  persistRetry?: RetryDelays;
  sites?: () => SiteMap;
}

export class CatalogStore {
  readonly reader: CatalogReader;
  readonly search: SearchReader;
  private readonly writer: CatalogWriter;
  /** Bumped on every change; keys response caches and tells clients the catalog moved. */
  private version = 0;
  private dirty = false;
  private timer: NodeJS.Timeout | undefined;
  private persisting: Promise<void> | undefined;
  private closed = false;
  persistedAt: Date | null = null;
  lastPersistMs = 0;
  /** Main-thread time of the last persist (what queries waited for, in all). */
  lastBusyMs = 0;
  /** The longest single pause of the last persist. */
  lastPauseMs = 0;
  persistCount = 0;
  /** Whether the cache reaches the disk: /status's `storage`. */
  readonly storage: StorageState;
  /** An unreadable cache file that could not be moved aside is still at `file`. */
  private keptInPlace = false;

  private constructor(
    private readonly db: Database,
    private readonly st: Statements,
    readonly file: string | undefined,
    private readonly log: Logger,
    private readonly persistDelayMs: number,
    sites: () => SiteMap,
    /** Set when the previous cache file could not be opened and was moved aside. */
    readonly movedAside: string | undefined,
    retry: RetryDelays | undefined,
  ) {
    this.storage = new StorageState(file, log, retry);
    this.reader = new CatalogReader(st, sites);
    this.search = new SearchReader(st, this.reader);
    this.writer = new CatalogWriter(st);
  }

  static async open(opts: StoreOptions = {}): Promise<CatalogStore> {
    const log = opts.log ?? silentLogger;
    const file = opts.dataDir ? path.join(opts.dataDir, CACHE_FILE) : undefined;
    // Copies left by saves that a kill interrupted: each is as big as the cache.
    if (file) await removeStaleTemps(file, log);
    const readOnly = opts.dataDir ? await unwritableReason(opts.dataDir) : null;
    if (readOnly) log.warn(`the data dir ${opts.dataDir} cannot be written (${readOnly.reason}): serving the cache read-only`);
    const opened = await openDatabaseFile(file, probeSchema, log);
    // The file lives in sql.js's in-memory FS and reaches disk only through persist(), so a
    // rollback journal on that FS buys nothing and doubles every write. The page cache is a
    // second copy of pages already in memory: small while serving (a miss is a memcpy from
    // the file), large during a bulk load (bulkLoad), where index pages are rewritten often.
    opened.db.exec(
      `PRAGMA journal_mode = MEMORY; PRAGMA synchronous = OFF; PRAGMA temp_store = MEMORY; PRAGMA cache_size = ${SERVING_CACHE_KIB}`,
    );
    migrate(opened.db);
    // The search index first: its merge frees pages that the sort indexes then take up.
    const searchRebuilt = ensureSearchIndex(opened.db);
    const rebuilt = ensureIndexes(opened.db) || searchRebuilt;
    const st = new Statements(opened.db);
    const store = new CatalogStore(
      opened.db,
      st,
      file,
      log,
      opts.persistDelayMs ?? 2000,
      opts.sites ?? (() => ({})),
      opened.movedAside,
      opts.persistRetry,
    );
    store.storage.readOnlyReason = readOnly?.reason ?? null;
    store.storage.openError = opened.openError ?? null;
    store.storage.movedAside = opened.movedAside ?? null;
    store.storage.lastSaveAt = opened.mtime ?? null;
    store.keptInPlace = !!opened.keptInPlace;
    // A file migrated or re-indexed at open is written back, so the next start does not redo it.
    if (rebuilt && opened.fromFile) store.markDirty();
    return store;
  }

  /** The prepared-statement layer (the benchmark traces reads through it). */
  get statements(): Statements {
    return this.st;
  }

  get catalogVersion(): number {
    return this.version;
  }

  apply(batch: BatchInput): BatchResult {
    const r = this.writer.apply(batch);
    if (r.markets + r.events + r.tags > 0) this.changed();
    return r;
  }

  private changed(): void {
    this.version++;
    this.markDirty();
  }

  private markDirty(): void {
    this.dirty = true;
    this.storage.changed();
    this.schedulePersist();
  }

  /**
   * Runs a bulk load. Into an empty cache, the sort indexes are dropped for the duration and
   * built once at the end; into a populated cache this just runs `fn`.
   */
  async bulkLoad<T>(fn: () => Promise<T>): Promise<T> {
    const empty = this.st.value('SELECT count(*) FROM markets') === 0 && this.st.value('SELECT count(*) FROM events') === 0;
    if (!empty) return fn();
    dropEntityIndexes(this.db);
    suspendSearchIndex(this.db);
    this.db.exec(`PRAGMA cache_size = ${BULK_CACHE_KIB}`);
    try {
      return await fn();
    } finally {
      // The search index's merge into one segment frees about its own size in pages; building
      // the sort indexes after it fills them, where the other order left 10% of the file free.
      rebuildSearchIndex(this.db);
      ensureIndexes(this.db);
      this.db.exec('ANALYZE');
      this.db.exec(`PRAGMA cache_size = ${SERVING_CACHE_KIB}`);
      this.changed();
    }
  }

  // ---- sync bookkeeping --------------------------------------------------------------------

  getMeta(key: string): string | undefined {
    const v = this.st.value('SELECT value FROM meta WHERE key = ?', [key]);
    return typeof v === 'string' ? v : undefined;
  }

  setMeta(key: string, value: string): void {
    this.st.run('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)', [key, value]);
    this.markDirty();
  }

  /** For the side caches (orders, leaderboard): same file and persistence, no catalog version bump. */
  sideTables(): { st: Statements; changed: () => void } {
    return {
      st: this.st,
      changed: () => this.markDirty(),
    };
  }

  /** Ids of cached items that are not closed (to find those a full sync no longer saw). */
  openIds(table: 'markets' | 'events'): number[] {
    return this.st.all(`SELECT id FROM ${table} WHERE "closed" IS NOT 1`).map((r) => r[0] as number);
  }

  /** The newest `updatedAt` cached, as epoch ms: the watermark of incremental sync. */
  newestUpdate(table: 'markets' | 'events'): number | null {
    const v = this.st.value(`SELECT max(_updated_ts) FROM ${table}`);
    return typeof v === 'number' ? v : null;
  }

  /** Deletes items the upstream no longer has. */
  remove(table: 'markets' | 'events', ids: readonly number[]): number {
    if (ids.length === 0) return 0;
    let n = 0;
    this.st.transaction(() => {
      for (const id of ids) {
        this.st.run(`DELETE FROM ${table} WHERE id = ?`, [id]);
        n += this.st.changes();
      }
      this.deleteOrphanLinks();
      flushSearchIndex(this.st);
    });
    if (n > 0) this.changed();
    return n;
  }

  /**
   * Drops closed markets and events that closed before `cutoff` (epoch ms), so the cache does
   * not grow without bound. A closed market inside a still-open event is kept (events show
   * their closed markets), and so is an event that a kept market still points to.
   */
  prune(cutoff: number): { markets: number; events: number } {
    const closedAt = (a: string) => `coalesce(${a}._closed_ts, ${a}._updated_ts, ${a}._end_ts, 0)`;
    let markets = 0;
    let events = 0;
    this.st.transaction(() => {
      this.st.run(
        `DELETE FROM markets WHERE id IN (SELECT m.id FROM markets m WHERE m."closed" = 1 AND ${closedAt('m')} < ? ` +
          `AND NOT EXISTS (SELECT 1 FROM market_events me JOIN events e ON e.id = me.event_id ` +
          `WHERE me.market_id = m.id AND e."closed" IS NOT 1))`,
        [cutoff],
      );
      markets = this.st.changes();
      this.st.run(
        `DELETE FROM events WHERE id IN (SELECT e.id FROM events e WHERE e."closed" = 1 AND ${closedAt('e')} < ? ` +
          `AND NOT EXISTS (SELECT 1 FROM market_events me JOIN markets m ON m.id = me.market_id WHERE me.event_id = e.id))`,
        [cutoff],
      );
      events = this.st.changes();
      if (markets + events > 0) this.deleteOrphanLinks();
      flushSearchIndex(this.st);
    });
    if (markets + events > 0) this.changed();
    return { markets, events };
  }

  private deleteOrphanLinks(): void {
    this.st.run('DELETE FROM market_events WHERE market_id NOT IN (SELECT id FROM markets)');
    this.st.run('DELETE FROM market_events WHERE event_id NOT IN (SELECT id FROM events)');
    this.st.run('DELETE FROM event_tags WHERE event_id NOT IN (SELECT id FROM events)');
    this.st.run('DELETE FROM event_series WHERE event_id NOT IN (SELECT id FROM events)');
    this.st.run('DELETE FROM market_tags WHERE market_id NOT IN (SELECT id FROM markets)');
    // A market that lost its last link to a deleted event also loses that event's tags.
    this.st.run(
      'DELETE FROM market_tags WHERE NOT EXISTS (SELECT 1 FROM market_events me JOIN event_tags et ' +
        'ON et.event_id = me.event_id WHERE me.market_id = market_tags.market_id AND et.tag_id = market_tags.tag_id)',
    );
  }

  // ---- persistence -------------------------------------------------------------------------

  private schedulePersist(): void {
    if (!this.file || this.closed || this.timer) return;
    // A write takes main-thread time from queries (all at once with export(), in slices with
    // live-persist.ts), so it is spaced to keep that under ~5%: 20 times its busy time.
    const sinceLast = this.persistedAt ? Date.now() - this.persistedAt.getTime() : Infinity;
    // After a failure, new changes do not hurry the retry: a full disk stays full for a while.
    const delay = this.storage.failures > 0 ? this.storage.retryIn() : Math.max(this.persistDelayMs, 20 * this.lastBusyMs - sinceLast);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.persist()
        // Recorded and logged by this.storage.
        .catch(() => undefined)
        // What did not reach the disk (a failed or unsettled copy) is tried again.
        .finally(() => this.dirty && this.schedulePersist());
    }, delay);
    this.timer.unref();
  }

  /** What /status reports as `storage`. */
  storageStatus(): StorageStatus {
    return this.storage.status();
  }

  /** Writes the database file now if anything changed (atomic; one write at a time). */
  async persist(): Promise<void> {
    if (!this.file) return;
    while (this.persisting) await this.persisting;
    if (!this.dirty) return;
    this.dirty = false;
    const file = this.file;
    this.storage.saveStarted();
    this.persisting = (async () => {
      const t0 = performance.now();
      if (this.keptInPlace) {
        // The unreadable file found at start is moved aside before anything replaces it.
        const aside = `${file}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`;
        await fsp.rename(file, aside);
        this.keptInPlace = false;
        this.storage.movedAside = aside;
      }
      const access = await sqlFileAccess(this.log);
      if (access) {
        const r = await persistLive(access, this.db, file);
        this.lastBusyMs = r.busyMs;
        this.lastPauseMs = r.longestMs;
      } else {
        // Without a way into the file (another sql.js build): export() copies it in one go.
        const bytes = this.db.export();
        this.lastBusyMs = this.lastPauseMs = performance.now() - t0;
        await writeFileAtomic(file, bytes);
      }
      this.lastPersistMs = performance.now() - t0;
      this.persistCount++;
      this.persistedAt = new Date();
    })();
    try {
      await this.persisting;
      this.storage.saveSucceeded();
    } catch (e) {
      this.dirty = true;
      // A copy outrun by a bulk load is not a disk problem: tried again at the usual pace.
      if (e instanceof PersistBusyError) this.storage.saveDeferred();
      else this.storage.saveFailed(e);
      throw e;
    } finally {
      this.persisting = undefined;
    }
  }

  /**
   * Persists what is pending and releases the database. When that last save fails, the
   * database is released all the same and an UnsavedChangesError says what was lost.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    let failed: unknown;
    try {
      await this.persist();
    } catch (e) {
      failed = e;
    }
    this.closed = true;
    this.st.close();
    this.db.close();
    if (failed !== undefined) {
      const reason = this.storage.lastSaveError?.reason ?? (failed as Error).message;
      throw new UnsavedChangesError(this.storage.unsavedMessage(reason), reason, this.storage.status().unsavedSince);
    }
  }
}
