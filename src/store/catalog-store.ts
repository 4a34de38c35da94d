/**
 * The catalog cache: a SQLite database read and written in place at `<data-dir>/catalog.sqlite`
 * (sql.js with its file calls served from disk, engine/). Writes come in batches, one
 * transaction each, and a batch is on disk when its COMMIT returns (WAL), so a killed process
 * loses nothing that was committed. A failed COMMIT (a full disk, a read-only data dir) is
 * rolled back by SQLite, recorded (storage-state.ts), probed again with backoff, and reported by
 * close(); the cache keeps serving what it has.
 */
import path from 'node:path';
import type { Database } from 'sql.js';
import { CatalogReader, type SiteMap } from './catalog-reader.ts';
import { CatalogWriter, type BatchInput, type BatchResult } from './catalog-writer.ts';
import { buildEntityIndexes, dropEntityIndexes, ensureIndexes, migrate, PAGE_SIZE, probeSchema } from './schema.ts';
import { silentLogger, type Logger } from '../logger.ts';
import { lockCache, openCacheFile, readWhole, sqlDisk, sqlEngine, unwritableReason } from './sqlite.ts';
import { StorageState, UnsavedChangesError, type RetryDelays, type StorageStatus } from './storage-state.ts';
import { removeStaleTemps } from './temp-files.ts';
import { SearchReader } from './search-reader.ts';
import { ensureSearchIndex, flushSearchIndex, suspendSearchIndex } from './search-index.ts';
import { buildSearchIndexBeside } from './search-build.ts';
import { Statements } from './statements.ts';
import { forgetWrongIds, lookupWrongTradingId, tradingColumns, type WrongTradingId } from './trading-id-index.ts';
import { HistoryRecorder } from './history-recorder.ts';
import { HistoryReader } from './history-reader.ts';
import { ChangesReader } from './changes-reader.ts';
import { SparklineReader } from './sparkline-reader.ts';
import { SeriesReader } from './series-reader.ts';
import { OrdersStore } from './orders-store.ts';
import { LeaderboardStore } from './leaderboard-store.ts';
import { MarketPageCache } from './market-page-cache.ts';
import { LiveRecords } from './live-records.ts';
import type { SideStores, Store } from './store-api.ts';
import type { DiskAccess } from './engine/wasm-disk.ts';
import { vacuumCache, type VacuumResult } from './vacuum.ts';

export const CACHE_FILE = 'catalog.sqlite';
/** SQLite's page cache while serving (MiB); pages beyond it come from the OS's page cache. */
export const DEFAULT_CACHE_MIB = 64;
/** The page cache of a bulk load into an empty cache, at least (index pages are rewritten often). */
const BULK_CACHE_MIB = 128;
/**
 * Batches (pages of 100) per COMMIT in a bulk load (Statements.beginGroup). Each COMMIT of the load's
 * rollback journal is three fsyncs: 60 instead of 20 took the rows step of a 100k sync from 28.0 to
 * 26.4 s. A kill loses at most the open group, which the next sync fetches again.
 */
const BULK_GROUP_BATCHES = 60;

/** SQLite's messages for a write the file refused (full disk, I/O error, read-only). */
const STORAGE_ERROR = /database or disk is full|disk I\/O error|readonly database|unable to open database file/i;

export interface StoreOptions {
  /** Where catalog.sqlite lives; undefined keeps the cache in memory only (tests). */
  dataDir?: string;
  log?: Logger;
  /** SQLite's page cache in MiB (default 64). */
  cacheMiB?: number;
  /** @deprecated Ignored: every batch is on disk at its COMMIT. Kept so callers need not change. */
  persistDelayMs?: number;
  /** Backoff of the write probes after a failed COMMIT (default 5 s doubling to 5 min). */
  persistRetry?: RetryDelays;
  sites?: () => SiteMap;
  /** Batches per COMMIT of a bulk load into an empty cache (default 60; the kill tests use fewer). */
  bulkGroup?: number;
}

export class CatalogStore implements Store {
  readonly reader: CatalogReader;
  readonly search: SearchReader;
  /** Issue 16's memory: recorded inside the writer's batches, read by history and change routes. */
  readonly recorder: HistoryRecorder;
  readonly history: HistoryReader;
  readonly changes: ChangesReader;
  /** The grids' 7-day sparklines, from the same history (one read per block of rows). */
  readonly sparklines: SparklineReader;
  readonly series: SeriesReader;
  /** The caches beside the catalog, in the same file: their writes need no catalog version bump. */
  readonly side: SideStores;
  /** The live side's reads and its writes of live prices and resolutions (same file, same history). */
  readonly liveRecords: LiveRecords;
  private readonly writer: CatalogWriter;
  /** Bumped on every change; keys response caches and tells clients the catalog moved. */
  private version = 0;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  /** When the last COMMIT reached the file (null: none yet in this run, or not on disk). */
  persistedAt: Date | null = null;
  /** The last checkpoint (persist()): its duration, which is all main-thread time. */
  lastPersistMs = 0;
  lastBusyMs = 0;
  lastPauseMs = 0;
  persistCount = 0;
  /** Whether the cache reaches the disk: /status's `storage`. */
  readonly storage: StorageState;
  /** total_changes() when last seen, for a cache kept in memory (to tell a write from an empty transaction). */
  private memoryChanges = 0;
  /** The disk layer (for the errno behind a refused write). */
  private disk: DiskAccess | undefined;
  /** Releases `<file>.lock` (sqlite.ts lockCache). */
  private unlock: () => void = () => undefined;
  /** Batches per COMMIT of a bulk load (StoreOptions.bulkGroup). */
  private bulkGroup = BULK_GROUP_BATCHES;

  private constructor(
    private readonly db: Database,
    private readonly st: Statements,
    readonly file: string | undefined,
    /** False when the cache lives in memory only (no data dir, or it cannot be on disk: see storage). */
    readonly onDisk: boolean,
    private readonly cacheMiB: number,
    private readonly log: Logger,
    sites: () => SiteMap,
    /** Set when the previous cache file could not be opened and was moved aside. */
    readonly movedAside: string | undefined,
    retry: RetryDelays | undefined,
  ) {
    this.storage = new StorageState(file, log, retry);
    this.reader = new CatalogReader(st, sites);
    this.search = new SearchReader(st, this.reader);
    // The typo word list, read in the background once the store is open (search-reader.ts vocabulary()).
    this.search.warmVocabulary();
    this.recorder = new HistoryRecorder(db, st);
    this.history = new HistoryReader(st);
    this.changes = new ChangesReader(st);
    this.sparklines = new SparklineReader(st);
    this.writer = new CatalogWriter(st, this.recorder);
    this.series = new SeriesReader(st);
    this.liveRecords = new LiveRecords(st, this.recorder);
    // Their writes are on disk at their COMMIT (Statements tells the store).
    const sideChanged = () => undefined;
    this.side = {
      orders: new OrdersStore(st, sideChanged),
      leaderboard: new LeaderboardStore(st, sideChanged),
      marketPages: new MarketPageCache(st, sideChanged),
    };
    st.writes = { committed: () => this.committed(), failed: (e) => this.writeFailed(e) };
    this.memoryChanges = Number(st.value('SELECT total_changes()'));
  }

  static async open(opts: StoreOptions = {}): Promise<CatalogStore> {
    const log = opts.log ?? silentLogger;
    const file = opts.dataDir ? path.join(opts.dataDir, CACHE_FILE) : undefined;
    const cacheMiB = opts.cacheMiB ?? DEFAULT_CACHE_MIB;
    // Copies left by an earlier build's interrupted saves: each is as big as the cache.
    if (file) await removeStaleTemps(file, log);
    const readOnly = opts.dataDir ? await unwritableReason(opts.dataDir) : null;
    if (readOnly) log.warn(`the data dir ${opts.dataDir} cannot be written (${readOnly.reason}): serving the cache read-only`);
    const unlock = file && !readOnly ? lockCache(file) : () => undefined;
    let opened: Awaited<ReturnType<typeof openCacheFile>>;
    try {
      opened = await openCacheFile(file, probeSchema, { cacheKiB: cacheMiB * 1024, readOnly, pageSize: PAGE_SIZE, log });
    } catch (e) {
      unlock();
      throw e;
    }
    try {
      migrate(opened.db);
      // The search index first: its merge frees pages that the sort indexes then take up.
      ensureSearchIndex(opened.db);
      ensureIndexes(opened.db);
    } catch (e) {
      // A read-only file of an older schema cannot be upgraded in place: a copy in memory is.
      if (!(opened.onDisk && readOnly && file)) {
        opened.db.close();
        unlock();
        throw e;
      }
      opened.db.close();
      const SQL = await sqlEngine();
      const db = new SQL.Database(await readWhole(file));
      db.exec(`PRAGMA journal_mode = MEMORY; PRAGMA cache_size = ${-cacheMiB * 1024}`);
      migrate(db);
      ensureSearchIndex(db);
      ensureIndexes(db);
      opened = { ...opened, db, onDisk: false, journal: 'memory' };
    }
    const st = new Statements(opened.db);
    const store = new CatalogStore(
      opened.db,
      st,
      file,
      opened.onDisk,
      cacheMiB,
      log,
      opts.sites ?? (() => ({})),
      opened.movedAside,
      opts.persistRetry,
    );
    store.bulkGroup = opts.bulkGroup ?? BULK_GROUP_BATCHES;
    store.disk = (await sqlDisk()).disk;
    store.unlock = unlock;
    store.storage.readOnlyReason = file ? (opened.notSaved ?? null) : null;
    store.storage.openError = opened.openError ?? null;
    store.storage.movedAside = opened.movedAside ?? null;
    store.storage.lastSaveAt = opened.mtime ?? null;
    if (file && opened.journal === 'truncate') log.warn(`WAL was refused for ${file}: using a rollback journal`);
    return store;
  }

  /** A COMMIT reached the file. */
  private committed(): void {
    // Kept in memory although there is a file (read-only dir, another sql.js build): not saved, and said so.
    if (!this.onDisk) {
      const total = Number(this.st.value('SELECT total_changes()'));
      if (this.file && total !== this.memoryChanges) this.storage.writeFailed(this.readOnlyCause());
      this.memoryChanges = total;
      return;
    }
    this.persistedAt = new Date();
    this.storage.writeSucceeded();
  }

  /** A write failed: recorded when the file refused it (not for a bad statement), and probed again later. */
  private writeFailed(e: unknown): void {
    if (!this.file || this.closed || !STORAGE_ERROR.test((e as Error)?.message ?? '')) return;
    // The errno behind SQLite's message ("disk I/O error" says little), when the disk layer saw one.
    const fsError = this.disk?.lastError(this.file);
    this.disk?.clearError(this.file);
    const cause = fsError
      ? Object.assign(new Error(fsError.message), { code: fsError.code })
      : /readonly/i.test((e as Error).message) && this.storage.readOnlyReason
        ? this.readOnlyCause()
        : e;
    this.storage.writeFailed(cause);
    this.scheduleProbe();
  }

  /** Why nothing reaches the file, as an error with the errno code found in the reason ("... (EROFS)"). */
  private readOnlyCause(): Error {
    const reason = this.storage.readOnlyReason ?? 'the cache is kept in memory only';
    const code = /\((E[A-Z]+)\)$/.exec(reason)?.[1];
    return Object.assign(new Error(reason), code ? { code } : {});
  }

  /** After a failed write, a small write is tried with backoff until the file takes writes again. */
  private scheduleProbe(): void {
    if (this.timer || this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.closed) return;
      try {
        this.st.run('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)', ['storage.checkedAt', new Date().toISOString()]);
      } catch {
        // Recorded by writeFailed, which schedules the next probe.
      }
    }, this.storage.retryIn());
    this.timer.unref();
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
  }

  /**
   * Runs a bulk load. Into an empty cache, the sort indexes are dropped for the duration and
   * built once at the end; into a populated cache this just runs `fn`.
   */
  async bulkLoad<T>(fn: () => Promise<T>): Promise<T> {
    const empty = this.st.value('SELECT count(*) FROM markets') === 0 && this.st.value('SELECT count(*) FROM events') === 0;
    // A first full sync cut short and run again still loads the catalog: not news either.
    if (!empty) return this.getMeta('lastFullSyncAt') === undefined ? this.recorder.suspended(fn) : fn();
    dropEntityIndexes(this.db);
    suspendSearchIndex(this.db);
    this.db.exec(`PRAGMA cache_size = ${-Math.max(this.cacheMiB, BULK_CACHE_MIB) * 1024}`);
    this.st.beginGroup(this.bulkGroup);
    // A rollback journal for the load: a WAL writes every page twice (the log, then the checkpoint,
    // which reads it back first), where a load that appends needs only the journal's copies of the
    // few pages it changes in place. Same crash safety: a hot journal is rolled back at the next open.
    // 300k markets: 11% less CPU. The next open (or the end of the load) goes back to WAL.
    const wal = this.onDisk && String(this.st.value('PRAGMA journal_mode')) === 'wal';
    if (wal) this.db.exec('PRAGMA journal_mode = TRUNCATE; PRAGMA synchronous = FULL');
    const t0 = performance.now();
    try {
      // The first load is not news: nothing is recorded until the cache holds the catalog.
      return await this.recorder.suspended(fn);
    } finally {
      this.st.endGroup();
      // Each step's time goes to the log: at a million markets the finish is minutes of the sync.
      const t1 = performance.now();
      let indexes = 0;
      let statistics = 0;
      // The search index on the other core while this one builds the sort indexes (search-build.ts).
      const target = this.onDisk && this.file && this.disk ? { file: this.file, disk: this.disk, pageSize: PAGE_SIZE } : undefined;
      const where = await buildSearchIndexBeside(this.db, this.st, target, this.log, async (feed) => {
        const a = performance.now();
        await buildEntityIndexes(this.db, feed);
        const b = performance.now();
        // Whole statistics, not sampled: `analysis_limit` reads an index's first entries only, and the first
        // 2,000 of a (closed, ...) index all have closed = 0, so the planner took `closed = 0` for 2,001 rows
        // and sorted the whole open catalog for `closed=false&order=volume` (6.9 s at a million markets).
        // Only the catalog's tables: the others are empty after a first load. 16.6 s at 1m, 0.6 s at 100k.
        this.db.exec('PRAGMA analysis_limit = 0; ANALYZE markets; ANALYZE events');
        indexes = b - a;
        statistics = performance.now() - b;
      });
      const search = performance.now() - t1 - indexes - statistics;
      this.db.exec(`PRAGMA cache_size = ${-this.cacheMiB * 1024}`);
      if (wal) {
        this.db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL');
        // A read opens the new WAL: until one has, a checkpoint (persist()) answers "database table is locked".
        this.st.value('SELECT count(*) FROM meta');
      }
      this.changed();
      const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
      this.log.info(
        `bulk load: rows ${s(t1 - t0)}, sort indexes ${s(indexes)}, statistics ${s(statistics)}, ` +
          `search index ${s(search)} ${where === 'worker' ? 'more (built on a worker thread beside them)' : '(main thread)'}`,
      );
    }
  }

  // ---- sync bookkeeping --------------------------------------------------------------------

  getMeta(key: string): string | undefined {
    const v = this.st.value('SELECT value FROM meta WHERE key = ?', [key]);
    return typeof v === 'string' ? v : undefined;
  }

  setMeta(key: string, value: string): void {
    this.st.run('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)', [key, value]);
  }

  /** The market that names `id` as a trading id its version does not trade by (trading-id-index.ts); else undefined. */
  wrongTradingId(id: string): WrongTradingId | undefined {
    return lookupWrongTradingId(this.st, id);
  }

  /** The SQL layer for SQLite-only parts beside the interface (screen filters' scope, tests); not in Store. */
  sideTables(): { st: Statements; changed: () => void } {
    return { st: this.st, changed: () => undefined };
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
        // A market's wrong trading ids go with it (trading-id-index.ts).
        if (table === 'markets') forgetWrongIds(this.st, this.st.all(`SELECT ${tradingColumns('m')} FROM markets m WHERE m.id = ?`, [id]));
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
      // Read once with what their wrong trading ids are made of, which go with them (trading-id-index.ts).
      const doomed = this.st.all(
        `SELECT ${tradingColumns('m')} FROM markets m WHERE m."closed" = 1 AND ${closedAt('m')} < ? ` +
          `AND NOT EXISTS (SELECT 1 FROM market_events me JOIN events e ON e.id = me.event_id ` +
          `WHERE me.market_id = m.id AND e."closed" IS NOT 1)`,
        [cutoff],
      );
      forgetWrongIds(this.st, doomed);
      for (const row of doomed) this.st.run('DELETE FROM markets WHERE id = ?', [row[0] as number]);
      markets = doomed.length;
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

  // ---- the file ----------------------------------------------------------------------------

  /** What /status reports as `storage`. */
  storageStatus(): StorageStatus {
    return this.storage.status();
  }

  onStorageChange(fn: (s: StorageStatus) => void): () => void {
    return this.storage.onChange(fn);
  }

  /**
   * Copies the WAL into the database file (a checkpoint), so the file alone holds every commit.
   * Nothing depends on it: commits are durable without it; SQLite also checkpoints by itself.
   */
  async persist(): Promise<void> {
    if (!this.onDisk || this.closed) return;
    const t0 = performance.now();
    try {
      this.db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    } catch (e) {
      this.writeFailed(e);
      throw e;
    }
    this.lastPersistMs = this.lastBusyMs = this.lastPauseMs = performance.now() - t0;
    this.persistCount++;
  }

  /** Compacts the file in place (vacuum.ts: `marketdesk vacuum`); refused for a cache not written to disk. */
  vacuum(): VacuumResult {
    if (!this.onDisk || !this.file || this.storage.readOnlyReason || this.closed)
      throw new Error(`the cache is not written to disk (${this.storage.readOnlyReason ?? 'kept in memory'}): nothing to vacuum`);
    return vacuumCache(this.db, this.file);
  }

  /**
   * Closes the file: the WAL is checkpointed and removed (the file is left in rollback-journal
   * mode, readable by any SQLite). When writes were refused since the last one that went
   * through, the database is released all the same and an UnsavedChangesError says what was lost.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.search.stop();
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.closed = true;
    if (this.onDisk && !this.storage.readOnlyReason) {
      try {
        this.db.exec('PRAGMA journal_mode = DELETE');
      } catch (e) {
        // A full disk cannot take the checkpoint: the WAL keeps every commit, and the next open recovers it.
        this.log.warn(`closing the cache: the WAL could not be checkpointed (${(e as Error).message}); it is kept`);
      }
    }
    this.st.close();
    this.db.close();
    this.unlock();
    const lost = this.storage.failures > 0 || (this.file && !this.onDisk && this.storage.status().unsavedSince);
    if (lost) {
      const reason = this.storage.lastSaveError?.reason ?? this.storage.readOnlyReason ?? 'unknown';
      throw new UnsavedChangesError(this.storage.unsavedMessage(reason), reason, this.storage.status().unsavedSince);
    }
  }
}
