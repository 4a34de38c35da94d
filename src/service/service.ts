import { PACKAGE_VERSION } from '../package-root.ts';
import type { SiteMap } from '../store/catalog-reader.ts';
import { CatalogStore } from '../store/catalog-store.ts';
import { silentLogger, type Logger } from '../logger.ts';
import { CatalogSync } from '../sync/catalog-sync.ts';
import { UpstreamClient, type UpstreamUrls } from '../upstream/client.ts';
import { apiTokenHandlers, loadApiToken, type ApiToken } from './api-token.ts';
import { createPushHub, type PushHub } from './push.ts';
import { LiveViews, liveViewHandlers, withLivePush } from './live-views.ts';
import { catalogHandlers } from './catalog-handlers.ts';
import { gammaExtraHandlers } from './gamma-extra-handlers.ts';
import { searchHandlers } from './search-handlers.ts';
import { createOrdersAndLeaderboard, type OrdersLeaderboardOptions } from './orders-leaderboard.ts';
import type { OrdersSync } from '../sync/orders-sync.ts';
import type { LeaderboardCache } from '../sync/leaderboard-cache.ts';
import { createDispatch } from './dispatch.ts';
import type { Dispatch, Handlers } from '../contract/handlers.ts';
import { tradingHandlers, type TradingTtls } from './trading-handlers.ts';
import { InboundLimiter } from '../limits/inbound.ts';
import { OutboundScheduler, type SchedulerOptions } from '../limits/scheduler.ts';
import { DEFAULT_LIMITS, type LimitsTable } from '../limits/table.ts';
import { iconHandlers } from './icon-handlers.ts';
import { deskHandlers } from './desk-handlers.ts';
import { historyHandlers } from './history-handlers.ts';
import { sparklineHandlers } from './sparkline-handlers.ts';
import { withWatchlistPush } from './watchlist-handlers.ts';
import { WatchlistFile } from '../store/watchlist-file.ts';
import { ScreensFile } from '../store/screens-file.ts';
import { screenScope, screensHandlers } from './screens-handlers.ts';
import { IconCache } from '../icons/icon-cache.ts';
import { startAlerts } from '../alerts/start-alerts.ts';
import { startLiveUses } from './live-uses.ts';
import { alertsHandlers, withAlertsPush } from './alerts-handlers.ts';
import { iconSourcePolicy } from '../icons/source-policy.ts';
import { LiveMarkets, type LiveOptions } from '../live/index.ts';
import { defaultClobWsUrl } from '../upstream/profiles.ts';

/** package.json's version, read where the package is (src/ under tsx, out/ when bundled). */
export const VERSION: string = PACKAGE_VERSION;

export interface ServiceOptions {
  /** undefined: memory only (tests). */
  dataDir?: string;
  profile?: string;
  urls: UpstreamUrls;
  /** Serve the cache only; never contact the upstream. */
  offline?: boolean;
  syncIntervalMs?: number;
  horizonMs?: number;
  /** Sync in the background right after start (the CLI's `serve`). */
  autoSync?: boolean;
  sites?: SiteMap;
  log?: Logger;
  client?: ConstructorParameters<typeof UpstreamClient>[0] extends infer O ? Partial<O> : never;
  persistDelayMs?: number;
  /** Backoff of retries after a failed save (default 5 s doubling to 5 min; tests shorten it). */
  persistRetry?: { minMs: number; maxMs: number };
  /** SQLite's page cache for the catalog, in MiB (`--cache-mib`; default 64). */
  cacheMiB?: number;
  /** CLOB API credentials (orders, L2 auth of the clob face); never logged or returned. */
  credentials?: OrdersLeaderboardOptions['credentials'];
  ordersIntervalMs?: number;
  leaderboardTtlMs?: number;
  authWindowS?: number;
  /** Clock of auth windows, order times and the leaderboard TTL (tests). */
  now?: () => number;
  /**
   * Rate limits (spec section 8): one table for the inbound limiter and the outbound scheduler.
   * The scheduler always runs; the HTTP faces are limited only when this is given (the CLI's
   * `serve` gives it unless `--no-limits`; tests and embedders opt in).
   */
  limits?: {
    /** `--limits FILE`; default the spec's table. */
    table?: LimitsTable;
    /** false: `--no-limits` (the HTTP faces are not limited; the scheduler still is). */
    inbound?: boolean;
    /** The inbound limiter's monotonic clock (tests). */
    now?: () => number;
    scheduler?: Omit<SchedulerOptions, 'table' | 'probe'>;
  };
  /** Lifetimes of cached trading reads (default: books and prices 2 s, histories 60 s). */
  tradingTtlMs?: Partial<TradingTtls>;
  /**
   * The CLOB's WebSocket host (`--clob-ws-url`; channels at `/ws/market`, `/ws/user`). Default: the
   * profile's for a profile's CLOB URL, else the CLOB URL's own host (upstream/profiles.ts).
   */
  clobWsUrl?: string;
  /** The live layer's timings and clock (tests); `url` and `offline` come from the options above. */
  live?: Omit<LiveOptions, 'url' | 'offline' | 'fetchBook' | 'log'>;
}

export interface Service {
  store: CatalogStore;
  sync: CatalogSync | undefined;
  client: UpstreamClient;
  dispatch: Dispatch;
  /** Push events (sync, catalog, online) for IPC and the SSE stream. */
  push: PushHub;
  orders: OrdersSync;
  leaderboard: LeaderboardCache;
  /** Every upstream request waits here for its budget. */
  scheduler: OutboundScheduler;
  /** The HTTP faces' limiter; undefined with `--no-limits`. */
  limiter: InboundLimiter | undefined;
  /** The local API token HTTP writes carry (api-token.ts). */
  apiToken: ApiToken;
  /** The upstream market channel's sockets and the books of subscribed assets (src/live/). */
  live: LiveMarkets;
  /** The HTTP faces' read of the catalog's version: screens also move with the watchlist, orders and clock. */
  catalogVersion(): number;
  /** The L2 identity check of the clob face and the web UI's signed routes. */
  authenticate: ReturnType<typeof createOrdersAndLeaderboard>['authenticate'];
  /** Starts the background sync and the orders refresh (the CLI's `serve`, `autoSync`). */
  startBackground(): void;
  /**
   * Stops everything in order. `whilePushClosed` runs after the push streams have ended and
   * before the files are flushed: the HTTP server closes its faces there (an open SSE stream
   * would otherwise hold its close).
   */
  close(whilePushClosed?: () => Promise<unknown>): Promise<void>;
}

/**
 * The service without its HTTP faces: store, sync, scheduler, handlers and the one dispatch.
 * src/http/server.ts puts the faces in front of it; the desktop app's worker may use it alone.
 */
export async function createService(opts: ServiceOptions): Promise<Service> {
  const log = opts.log ?? silentLogger;
  const apiToken = await loadApiToken({ log, ...(opts.dataDir !== undefined ? { dataDir: opts.dataDir } : {}) });
  const sites = opts.sites ?? {};
  const store = await CatalogStore.open({
    ...(opts.dataDir !== undefined ? { dataDir: opts.dataDir } : {}),
    log,
    sites: () => sites,
    ...(opts.persistDelayMs !== undefined ? { persistDelayMs: opts.persistDelayMs } : {}),
    ...(opts.persistRetry ? { persistRetry: opts.persistRetry } : {}),
    ...(opts.cacheMiB !== undefined ? { cacheMiB: opts.cacheMiB } : {}),
  });
  const table = opts.limits?.table ?? DEFAULT_LIMITS;
  // Every upstream attempt waits for its budget here; the probe brings an offline host back.
  const scheduler = new OutboundScheduler({
    ...opts.limits?.scheduler,
    table,
    probe: (h) => client.request(h, '/', { group: 'probe', priority: 'background' }),
  });
  const client = new UpstreamClient({ gate: scheduler, ...opts.client, urls: opts.urls });
  // No socket is opened until something subscribes; offline, never.
  const live = new LiveMarkets({
    ...opts.live,
    url: opts.clobWsUrl ?? defaultClobWsUrl(opts.urls.clob),
    offline: !!opts.offline,
    log,
    // The book of a resync the channel did not answer: in the CLOB's `book` budget, behind users' requests.
    fetchBook: (id, signal) =>
      client.request('clob', '/book', { query: { token_id: id }, priority: 'background', deadlineMs: 30_000, signal }),
  });
  const limiter =
    !opts.limits || opts.limits.inbound === false
      ? undefined
      : new InboundLimiter({ table, ...(opts.limits?.now ? { now: opts.limits.now } : {}) });
  const sync = opts.offline
    ? undefined
    : new CatalogSync(store, client, {
        log,
        ...(opts.syncIntervalMs !== undefined ? { intervalMs: opts.syncIntervalMs } : {}),
        ...(opts.horizonMs !== undefined ? { horizonMs: opts.horizonMs } : {}),
      });
  const account = createOrdersAndLeaderboard(store, client, {
    offline: !!opts.offline,
    log,
    ...(opts.profile !== undefined ? { profile: opts.profile } : {}),
    ...(opts.credentials ? { credentials: opts.credentials } : {}),
    ...(opts.ordersIntervalMs !== undefined ? { ordersIntervalMs: opts.ordersIntervalMs } : {}),
    ...(opts.leaderboardTtlMs !== undefined ? { leaderboardTtlMs: opts.leaderboardTtlMs } : {}),
    ...(opts.authWindowS !== undefined ? { authWindowS: opts.authWindowS } : {}),
    ...(opts.now ? { now: opts.now } : {}),
  });
  const watchlist = await WatchlistFile.open({ log, ...(opts.dataDir !== undefined ? { dataDir: opts.dataDir } : {}) });
  const screens = await ScreensFile.open({ log, ...(opts.dataDir !== undefined ? { dataDir: opts.dataDir } : {}) });
  // The screen filters read the watchlist and the clock (md_watchlist, md_ends_within_hours).
  const scope = screenScope(watchlist, store.sideTables().st, opts.now);
  store.reader.setScreenScope(scope);
  const alerts = await startAlerts({ store, watchlist, screens, account, client, opts, log });
  // The service's own subscriptions, alerts on ticks, notices and live history (live-uses.ts).
  const liveUses = startLiveUses({ live, store, watchlist, alerts: alerts.deps, account, sync, client, opts, log });
  // What each client shows, streamed to it (live-views.ts).
  const views = new LiveViews(live, { market: (id) => store.reader.getMarket(id), catalogVersion: () => store.catalogVersion });
  const handlers: Handlers = {
    ...account.handlers,
    ...catalogHandlers(store, {
      profile: opts.profile ?? 'custom',
      offline: !!opts.offline,
      version: VERSION,
      sync,
      live: () => live.status(),
    }),
    ...gammaExtraHandlers(store),
    ...searchHandlers(store),
    ...iconHandlers(
      store,
      new IconCache({ fetcher: client, log, offline: !!opts.offline, ...(opts.dataDir !== undefined ? { dataDir: opts.dataDir } : {}) }),
      iconSourcePolicy(Object.values(opts.urls)),
    ),
    ...tradingHandlers({
      client,
      credentials: () => account.credentials.get(),
      offline: !!opts.offline,
      family: opts.profile === 'kuest' ? 'KUEST' : 'POLY',
      // Ids the catalog knows to be wrong for their market are refused unsent (trading-id-guard.ts).
      wrongTradingId: (id) => store.wrongTradingId(id),
      // The orders view and /data/orders show a write through marketdesk at once, not at the next refresh.
      afterOrderWrite: () => void account.orders.refreshAfterWrite(),
      ...(opts.tradingTtlMs ? { ttlMs: opts.tradingTtlMs } : {}),
      ...(opts.now ? { now: opts.now } : {}),
    }),
    ...deskHandlers({
      store,
      watchlist,
      leaderboard: account.leaderboard,
      client,
      offline: !!opts.offline,
      // A market page's book and chart age like the forwarded /book and /prices-history reads.
      ttlMs: { book: opts.tradingTtlMs?.book ?? 2_000, chart: opts.tradingTtlMs?.history ?? 60_000 },
      ...(opts.now ? { now: opts.now } : {}),
    }),
    ...apiTokenHandlers(apiToken),
    // Same clock as the store's recorder, so the default windows meet what was recorded.
    ...historyHandlers(store),
    ...sparklineHandlers(store),
    ...screensHandlers(store.reader, screens),
    ...alertsHandlers(alerts.deps),
    ...liveViewHandlers(views),
    'limits.status': () => ({
      inbound: limiter !== undefined,
      windows: table.windows.map((w) => ({ name: w.name, limit: w.limit, seconds: w.seconds, routes: [...w.routes] })),
      outbound: opts.offline ? null : scheduler.status(),
    }),
  };
  const dispatch = createDispatch(handlers, log);
  const hub = withWatchlistPush(createPushHub(store, sync, !!opts.offline), watchlist);
  const push = withLivePush(withAlertsPush(hub, alerts.engine, alerts.deps.rules), live, views);
  // Evaluated after every catalog sync and every orders refresh.
  alerts.follow(sync, account.orders);

  let closing: Promise<void> | undefined;
  return {
    store,
    sync,
    client,
    dispatch,
    push,
    orders: account.orders,
    leaderboard: account.leaderboard,
    scheduler,
    limiter,
    apiToken,
    live,
    catalogVersion: () => store.catalogVersion + scope.version(),
    authenticate: account.authenticate,
    startBackground() {
      if (sync) sync.start();
      account.orders.start();
    },
    close(whilePushClosed) {
      closing ??= (async () => {
        await sync?.stop();
        await liveUses.close();
        await live.close();
        await account.stop();
        scheduler.close();
        push.close();
        await whilePushClosed?.();
        await watchlist.flush();
        await screens.flush();
        await alerts.close();
        await store.close();
      })();
      return closing;
    },
  };
}
