/**
 * The trader's desk operations (contract desk-ops.ts): catalog counts, the watchlist, exports,
 * and a market page's chart and book, merged for the service.
 */
import type { deskOperations } from '../contract/desk-ops.ts';
import type { Store } from '../store/store-api.ts';
import type { WatchlistFile } from '../store/watchlist-file.ts';
import type { LeaderboardCache } from '../sync/leaderboard-cache.ts';
import type { UpstreamClient } from '../upstream/client.ts';
import type { HandlersFor } from '../contract/handlers.ts';
import { exportHandlers } from './export-handlers.ts';
import { marketPageHandlers } from './market-page-handlers.ts';
import { watchlistHandlers } from './watchlist-handlers.ts';

export interface DeskOptions {
  store: Pick<Store, 'reader' | 'side'>;
  watchlist: WatchlistFile;
  leaderboard: LeaderboardCache;
  client: UpstreamClient;
  offline: boolean;
  /** Refetch ages of books and charts, ms (default 2 s and 60 s). */
  ttlMs?: { book?: number; chart?: number };
  now?: () => number;
}

export function deskHandlers(o: DeskOptions): HandlersFor<keyof typeof deskOperations> {
  const reader = o.store.reader;
  return {
    // The listings' own WHERE (catalog-reader.ts), counted over all pages.
    'markets.count': (p) => ({ count: reader.countMarkets(p) }),
    'events.count': (p) => ({ count: reader.countEvents(p) }),
    ...watchlistHandlers(reader, o.watchlist),
    ...exportHandlers({ reader, leaderboard: o.leaderboard, ...(o.now ? { now: o.now } : {}) }),
    ...marketPageHandlers({
      reader,
      cache: o.store.side.marketPages,
      client: o.client,
      offline: o.offline,
      ...(o.ttlMs ? { ttlMs: o.ttlMs } : {}),
      ...(o.now ? { now: o.now } : {}),
    }),
  };
}
