/**
 * The boundary between the service and its store: everything the handlers, the syncs and the
 * push hub may ask of the cache. CatalogStore (SQLite through sql.js, on disk) is the one
 * implementation; a second one (PostgreSQL for a shared server is the likely next) implements
 * these interfaces and nothing else. Only the composition root (service.ts) and the tools that
 * measure or break the SQLite file itself (bench, crash tests) name CatalogStore; the rest of
 * the service imports from here (checked by store-api.test.ts).
 *
 * The read interfaces are the SQLite readers' public methods, picked by name, so the boundary
 * lists exactly what crosses it and a signature changes in one place.
 */
import type { CatalogReader } from './catalog-reader.ts';
import type { BatchInput, BatchResult } from './catalog-writer.ts';
import type { LeaderboardStore } from './leaderboard-store.ts';
import type { LiveRecords } from './live-records.ts';
import type { MarketPageCache } from './market-page-cache.ts';
import type { OrdersStore } from './orders-store.ts';
import type { SearchReader } from './search-reader.ts';
import type { SeriesReader } from './series-reader.ts';
import type { SparklineReader } from './sparkline-reader.ts';
import type { StorageStatus } from './storage-state.ts';
import type { WrongTradingId } from './trading-id-index.ts';

export type { WrongTradingId } from './trading-id-index.ts';
export type { LivePricePoint, MarketTradingFields } from './live-records.ts';

/** Catalog reads: listings and counts with the spec's filters and sorts, items by id or slug, tags, exports. */
export type CatalogReads = Pick<
  CatalogReader,
  | 'listMarkets'
  | 'countMarkets'
  | 'getMarket'
  | 'getMarketBySlug'
  | 'listEvents'
  | 'countEvents'
  | 'getEvent'
  | 'getEventBySlug'
  | 'listTags'
  | 'getTag'
  | 'getTagBySlug'
  | 'creatorWallets'
  | 'exportMarketIds'
  | 'marketsById'
  | 'exportEventIds'
  | 'eventsById'
  | 'counts'
>;

/** Series and the tags of one item. */
export type SeriesReads = Pick<SeriesReader, 'listSeries' | 'getSeries' | 'tagsOf'>;

/** Many markets' recent local prices in equal buckets (the grids' sparklines). */
export type SparklineReads = Pick<SparklineReader, 'sparklines'>;

/** Full-text search over events, markets and tags (/public-search, /desk/search), and tags by use (/tags/ranked). */
export type CatalogSearch = Pick<SearchReader, 'search' | 'desk' | 'rankedTags'>;

/** What the catalog sync writes: batches (each atomic), bulk loads, deletions and the horizon's pruning. */
export interface CatalogWrites {
  apply(batch: BatchInput): BatchResult;
  /** Runs `fn` as one bulk load (an empty cache may defer its indexes to the end). */
  bulkLoad<T>(fn: () => Promise<T>): Promise<T>;
  remove(table: 'markets' | 'events', ids: readonly number[]): number;
  prune(cutoff: number): { markets: number; events: number };
  /** Ids of cached items that are not closed. */
  openIds(table: 'markets' | 'events'): number[];
  /** The newest `updatedAt` cached (epoch ms): incremental sync's watermark. */
  newestUpdate(table: 'markets' | 'events'): number | null;
}

/** The catalog's knowledge of trading ids: the clob face refuses an id its market does not trade by (trading-id-guard.ts). */
export interface TradingIdReads {
  /**
   * The market that names `id` in the field its `version` does not trade by (a "v2" market's
   * clobTokenIds, a "v1" market's positionIds), confirmed from its fields; undefined for any other id.
   */
  wrongTradingId(id: string): WrongTradingId | undefined;
}

/**
 * The live side's reads and writes (live-records.ts): markets' trading-id fields (by id, condition id,
 * event), live price snapshots under the snapshot rule, and resolutions heard on the market channel.
 */
export type LiveRecordsApi = Pick<LiveRecords, 'tradingFields' | 'byCondition' | 'eventMarkets' | 'recordPrices' | 'resolved'>;

/** Small durable key-value state of the syncs (last sync times, the history walk's position). */
export interface SyncState {
  getMeta(key: string): string | undefined;
  setMeta(key: string, value: string): void;
}

/** The caches beside the catalog: the account's orders, the leaderboards, market pages (chart, book). */
export interface SideStores {
  orders: Pick<OrdersStore, 'replace' | 'page' | 'joined' | 'count' | 'fetchedAt' | 'clear'>;
  leaderboard: Pick<LeaderboardStore, 'replace' | 'fetchedAt' | 'count' | 'query'>;
  marketPages: Pick<MarketPageCache, 'get' | 'put'>;
}

/** Whether writes reach the disk, and when the catalog last changed. */
export interface StoreHealth {
  /** Bumped on every catalog change: keys response caches and tells clients the catalog moved. */
  readonly catalogVersion: number;
  /** When the last write reached the disk; null when none has in this run. */
  readonly persistedAt: Date | null;
  storageStatus(): StorageStatus;
  /** Called with the new status whenever it changes (a refused write, a recovery). */
  onStorageChange(fn: (s: StorageStatus) => void): () => void;
  close(): Promise<void>;
}

/** The whole store, as the service sees it. */
export interface Store extends CatalogWrites, SyncState, StoreHealth, TradingIdReads {
  readonly reader: CatalogReads;
  readonly series: SeriesReads;
  readonly search: CatalogSearch;
  readonly sparklines: SparklineReads;
  readonly side: SideStores;
  readonly liveRecords: LiveRecordsApi;
}

export type OrdersCache = SideStores['orders'];
export type LeaderboardCacheStore = SideStores['leaderboard'];
export type MarketPages = SideStores['marketPages'];
