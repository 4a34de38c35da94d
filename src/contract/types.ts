/**
 * The served resource shapes (interface spec section 2). Fields beyond the spec's are the
 * upstream Gamma fields the cache keeps; like Gamma, a field with no value is left out.
 */
import type { CatalogRecord, EventFields, MarketFields, TagFields } from './catalog-fields.ts';
import type { LiveStatus } from './live.ts';

export interface EventRef {
  id: string;
  ticker?: string;
  slug?: string;
  title?: string;
}

/**
 * Spec 2.1 plus the upstream money/price fields a market browser needs: the fields the cache
 * keeps (catalog-fields.ts), the id and the market's events.
 */
export interface Market extends CatalogRecord<MarketFields> {
  events?: EventRef[];
}

export type EventTag = CatalogRecord<TagFields>;

/** Spec 2.2 plus upstream money fields (catalog-fields.ts); `markets` are Markets without `events`. */
export interface Event extends CatalogRecord<EventFields> {
  tags: EventTag[];
  markets: Market[];
}

export type Tag = EventTag;

export interface SyncStatus {
  phase: 'idle' | 'full' | 'incremental' | 'offline';
  running: boolean;
  /** Items written in the current (or last) run. */
  progress: { events: number; markets: number; tags: number; pages: number };
  lastSuccessAt: string | null;
  lastError: string | null;
  lastFullSyncAt: string | null;
  online: boolean;
  /** The walk of the closed catalog under `--horizon-days all` (absent where no sync engine runs). */
  history?: HistoryStatus;
}

/**
 * The history walk: `off` with a day horizon; `walking` until every closed event and market was
 * read; `done`; `incomplete` when the upstream has no keyset routes and offset paging stops at
 * its cap. `events`/`markets` count the items the walk has read (over restarts too).
 */
export interface HistoryStatus {
  state: 'off' | 'walking' | 'done' | 'incomplete';
  events: number;
  markets: number;
  startedAt: string | null;
  updatedAt: string | null;
}

export interface ServiceStatus {
  version: string;
  profile: string;
  offline: boolean;
  counts: { markets: number; events: number; tags: number; series: number };
  catalogVersion: number;
  sync: SyncStatus;
  persistedAt: string | null;
  storage: StorageStatus;
  /** The live layer's upstream sockets (src/live/; docs/api-examples.md, service.status). */
  live: LiveStatus;
}

/** Whether the cache reaches the disk (docs/architecture.md, "Saving the cache"). Times are ISO strings. */
export interface StorageStatus {
  /** The cache file; null when the cache is kept in memory only. */
  file: string | null;
  /** false: the data dir cannot be written; the cache is served read-only. */
  writable: boolean;
  /** Why it cannot be written, e.g. "read-only file system (EROFS)". */
  readOnlyReason: string | null;
  /** Why the cache file could not be read at start (the service then serves an empty cache). */
  openError: string | null;
  /** Where that unreadable file was moved; null if it could not be moved (it stays in place). */
  movedAside: string | null;
  /** When the file on disk was written: the last save of this run, else the file's time at start. */
  lastSaveAt: string | null;
  /** The last save failed; cleared by the next successful one. */
  lastSaveError: { at: string; reason: string; code: string | null } | null;
  /** The first change not on disk yet; null when the file holds everything. */
  unsavedSince: string | null;
  /** When a failed save is tried again. */
  nextRetryAt: string | null;
}

/** Error bodies (spec section 7; docs/architecture.md, "Decisions"). */
export interface CatalogErrorBody {
  type: string;
  error: string;
}
export interface PlainErrorBody {
  error: string;
}
export type ErrorBody = CatalogErrorBody | PlainErrorBody;
