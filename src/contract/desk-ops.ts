/**
 * The trader's desk (issue 13): catalog counts, the watchlist, CSV exports, and a market page's
 * price chart and order book. Their routes are routes.ts's `deskRoutes`.
 */
import { z } from 'zod';
import { catalogOperations } from './catalog-ops.ts';
import { op, type DeclsFor } from './define.ts';
import { CHART_INTERVALS, EXPORT_LISTS, WATCH_KINDS, type ChartInterval, type WatchKind } from './enums.ts';
import { leaderboardOperations } from './leaderboard-ops.ts';
import { oneOf, str } from './params.ts';
import type { RawBody } from './raw.ts';
import type { deskRoutes } from './routes.ts';

export { CHART_INTERVALS, EXPORT_LISTS, WATCH_KINDS, type ChartInterval, type ExportList, type WatchKind } from './enums.ts';

/** One watched market or event; the list is newest first. */
export interface WatchItem {
  kind: WatchKind;
  id: string;
  /** ISO 8601. */
  addedAt: string;
}

export interface WatchList {
  items: WatchItem[];
}

/** A watchlist entry as the watchlist file keeps it (store/watchlist-file.ts). */
export const watchItemSchema = z.object({
  kind: z.enum(WATCH_KINDS),
  id: z.string().regex(/^\d{1,15}$/),
  addedAt: z.string(),
}) satisfies z.ZodType<WatchItem>;

/** A market's outcomes' price histories (CLOB `/prices-history`), as last fetched. */
export interface MarketChart {
  id: string;
  interval: ChartInterval;
  /** When the upstream answered this copy; null when the market has no outcomes to chart. */
  fetchedAt: string | null;
  /** The upstream could not be reached: this is the last persisted copy. */
  stale: boolean;
  outcomes: { name: string; tokenId: string; history: { t: number; p: number }[] }[];
  /**
   * Set when the market cannot be traded (market-rules.ts tradingIds: no known `version`, or its
   * ids are missing): why, in one line. `outcomes` is then empty and the CLOB was not asked.
   */
  tradingOff?: string;
}

export interface BookLevel {
  price: string;
  size: string;
}

/** Polymarket's order: bids and asks with the best level LAST. */
export interface OutcomeBook {
  bids: BookLevel[];
  asks: BookLevel[];
  tick_size?: string;
  last_trade_price?: string;
}

/** A market's outcomes' order books (CLOB `/book`), as last fetched. */
export interface MarketBook {
  id: string;
  fetchedAt: string | null;
  stale: boolean;
  /** `book` null: the upstream has no book for that token (404). */
  outcomes: { name: string; tokenId: string; book: OutcomeBook | null }[];
  /**
   * Set when the market cannot be traded (market-rules.ts tradingIds: no known `version`, or its
   * ids are missing): why, in one line. `outcomes` is then empty and the CLOB was not asked.
   */
  tradingOff?: string;
}

/** `defs` without the paging and sorting keys: the filters a count takes. */
function withoutKeys<D extends object, K extends keyof D>(defs: D, keys: readonly K[]): Omit<D, K> {
  const out = { ...defs };
  for (const k of keys) delete out[k];
  return out;
}

const marketsList = catalogOperations['markets.list'].params;
const eventsList = catalogOperations['events.list'].params;
/** The filters of markets.list / events.list; their paging and sort parameters are ignored (not declared). */
export const marketFilterParams = withoutKeys(marketsList, ['limit', 'offset', 'order', 'ascending']);
export const eventFilterParams = withoutKeys(eventsList, ['limit', 'offset', 'order', 'ascending', 'include_markets']);
const leaderboardFilters = withoutKeys(leaderboardOperations['leaderboard.list'].params, ['limit', 'offset']);

const watchKind = { ...oneOf(WATCH_KINDS), required: true as const };
const watchId = str({ required: true, maxLength: 40 });
const pathId = { id: str({ required: true, maxLength: 40 }) };

export const deskOperations = {
  'markets.count': op<{ count: number }>()(marketFilterParams),
  'events.count': op<{ count: number }>()(eventFilterParams),
  'watchlist.list': op<WatchList>()({}),
  'watchlist.add': op<WatchList>()({ kind: watchKind, id: watchId }),
  'watchlist.remove': op<WatchList>()({ kind: watchKind, id: watchId }),
  /**
   * One declaration for the three lists: each list reads its own listing's parameters (limit
   * and offset are not taken: every matching row is exported). CSV text, streamed.
   */
  'catalog.export': op<RawBody>()({
    ...leaderboardFilters,
    ...marketFilterParams,
    ...eventFilterParams,
    order: marketsList.order,
    ascending: marketsList.ascending,
    list: { ...oneOf(EXPORT_LISTS), required: true as const },
  }),
  'markets.chart': op<MarketChart>()({ ...pathId, interval: oneOf(CHART_INTERVALS, { default: '1d' }) }),
  'markets.book': op<MarketBook>()(pathId),
} satisfies DeclsFor<typeof deskRoutes>;
