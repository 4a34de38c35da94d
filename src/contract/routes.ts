/**
 * Every operation's route as plain data: name, face, method, path and flags. No zod and no
 * run-time import, so the renderer, the preload and the build config use it at no bundle cost.
 * Each operation's parameters (zod) and result type are declared under the same name in its
 * concern's *-ops.ts; operations.ts joins the two, and a name on one side only is a type error.
 */

export type Face = 'base' | 'clob';
/** Which error-body family an operation answers with (spec section 7). */
export type ErrorStyle = 'catalog' | 'orders' | 'leaderboard';
export type Method = 'GET' | 'POST' | 'DELETE';
/**
 * How long a forwarded read (a CLOB or Data API route) is cached (service/trading-handlers.ts):
 * 'book' (books, market records and the CLOB's market listings) and 'price' (prices, midpoints,
 * latest trades, rewards, the Data API's account reads) for seconds, 'history' (price histories)
 * for a minute.
 */
export type TtlClass = 'book' | 'price' | 'history';

export interface RouteDef {
  face: Face;
  method: Method;
  /** Fastify-style path; `:name` segments are path parameters, declared in the params too. */
  path: string;
  errors: ErrorStyle;
  /** Unknown query parameters: ignored (Gamma's way) or rejected (the leaderboard's). */
  unknownParams: 'ignore' | 'reject';
  /** 'catalog': the answer depends only on the parameters and the catalog, so HTTP faces may
   * reuse its serialised form until the catalog changes (and the renderer refetches it then). */
  cache?: 'catalog';
  /**
   * 'l2': HTTP callers must carry L2 auth headers (checked by the face; IPC is the app itself).
   * 'l1': the caller's own wallet signature (the four `POLY_*` L1 headers of a ClobAuth EIP-712
   * signature), which the face requires and the handler forwards upstream unchanged: only the
   * wallet can sign it, so it cannot be re-signed here (creating and deriving API keys).
   */
  auth?: 'l2' | 'l1';
  /**
   * Web mode: the base face serves this clob-face operation too, at the same path with the same
   * auth, so the web UI (a page of the base face's origin, whose CSP allows `connect-src 'self'`
   * only) reaches it without a cross-origin request. The page signs `auth: 'l2'` ones itself.
   */
  webUi?: true;
  /** false: IPC only, never an HTTP route (setting credentials, for one). */
  http?: false;
  /** A CLOB read forwarded upstream at the same method and path, cached for this class. */
  ttl?: TtlClass;
}

type Routes = Record<string, RouteDef>;

/** Markets, events, tags (spec 4.1, 4.2, 4.6) and the service status. */
// biome-ignore format: one route a line, read as a table
export const catalogRoutes = {
  'markets.list': { face: 'base', method: 'GET', path: '/markets', errors: 'catalog', unknownParams: 'ignore', cache: 'catalog' },
  'markets.get': { face: 'base', method: 'GET', path: '/markets/:id', errors: 'catalog', unknownParams: 'ignore', cache: 'catalog' },
  'markets.bySlug': {
    face: 'base', method: 'GET', path: '/markets/slug/:slug', errors: 'catalog', unknownParams: 'ignore', cache: 'catalog',
  },
  'events.list': { face: 'base', method: 'GET', path: '/events', errors: 'catalog', unknownParams: 'ignore', cache: 'catalog' },
  'events.get': { face: 'base', method: 'GET', path: '/events/:id', errors: 'catalog', unknownParams: 'ignore', cache: 'catalog' },
  'events.bySlug': {
    face: 'base', method: 'GET', path: '/events/slug/:slug', errors: 'catalog', unknownParams: 'ignore', cache: 'catalog',
  },
  'tags.list': { face: 'base', method: 'GET', path: '/tags', errors: 'catalog', unknownParams: 'ignore', cache: 'catalog' },
  'tags.get': { face: 'base', method: 'GET', path: '/tags/:id', errors: 'catalog', unknownParams: 'ignore', cache: 'catalog' },
  'tags.bySlug': { face: 'base', method: 'GET', path: '/tags/slug/:slug', errors: 'catalog', unknownParams: 'ignore', cache: 'catalog' },
  // Not `cache: 'catalog'`: it reports sync progress and the upstream's state too.
  'service.status': { face: 'base', method: 'GET', path: '/status', errors: 'catalog', unknownParams: 'ignore' },
} as const satisfies Routes;

/**
 * Gamma's other read routes the official clients call: keyset listings, /events/pagination,
 * series, a market's or event's tags. `/markets/keyset` beside `/markets/:id` needs no ordering:
 * Fastify ranks a static segment over a parameter whatever the registration order (the route
 * tests check it).
 */
// biome-ignore format: one route a line, read as a table
export const gammaRoutes = {
  'markets.keyset': { face: 'base', method: 'GET', path: '/markets/keyset', errors: 'catalog', unknownParams: 'ignore', cache: 'catalog' },
  'events.keyset': { face: 'base', method: 'GET', path: '/events/keyset', errors: 'catalog', unknownParams: 'ignore', cache: 'catalog' },
  'events.pagination': {
    face: 'base', method: 'GET', path: '/events/pagination', errors: 'catalog', unknownParams: 'ignore', cache: 'catalog',
  },
  'markets.tags': { face: 'base', method: 'GET', path: '/markets/:id/tags', errors: 'catalog', unknownParams: 'ignore', cache: 'catalog' },
  'events.tags': { face: 'base', method: 'GET', path: '/events/:id/tags', errors: 'catalog', unknownParams: 'ignore', cache: 'catalog' },
  'series.list': { face: 'base', method: 'GET', path: '/series', errors: 'catalog', unknownParams: 'ignore', cache: 'catalog' },
  'series.get': { face: 'base', method: 'GET', path: '/series/:id', errors: 'catalog', unknownParams: 'ignore', cache: 'catalog' },
} as const satisfies Routes;

/** The public search (spec 4.3): an answer depends only on the catalog and the static site map. */
export const searchRoutes = {
  'search.query': { face: 'base', method: 'GET', path: '/public-search', errors: 'catalog', unknownParams: 'ignore', cache: 'catalog' },
  // The desk's search (issue 27): which markets matched, and typo correction; Polymarket's shape above stays as it is.
  'search.desk': { face: 'base', method: 'GET', path: '/desk/search', errors: 'catalog', unknownParams: 'ignore', cache: 'catalog' },
  // Tags by open markets, for the grids' tag filter; `/tags/ranked` beside `/tags/:id`: a static segment ranks first.
  'tags.ranked': { face: 'base', method: 'GET', path: '/tags/ranked', errors: 'catalog', unknownParams: 'ignore', cache: 'catalog' },
} as const satisfies Routes;

/** The account's orders (spec 4.4) and credentials; all but the list are the desktop app's only. */
export const ordersRoutes = {
  'orders.list': { face: 'clob', method: 'GET', path: '/data/orders', errors: 'orders', unknownParams: 'ignore', auth: 'l2', webUi: true },
  // The app's orders view: orders joined with their cached markets, sorted and counted; and the same rows as CSV.
  'orders.view': { face: 'clob', method: 'GET', path: '/orders/view', errors: 'orders', unknownParams: 'reject', auth: 'l2', webUi: true },
  // biome-ignore format: one route a line, read as a table
  'orders.export': {
    face: 'clob', method: 'GET', path: '/orders/export', errors: 'orders', unknownParams: 'reject', auth: 'l2', webUi: true,
  },
  // One cached order, Polymarket's `GET /data/order/{id}` (clob-client's getOrder).
  'order.get': { face: 'clob', method: 'GET', path: '/data/order/:id', errors: 'orders', unknownParams: 'ignore', auth: 'l2' },
  // The configured API key, to the caller that proved it holds it (clob-client's getApiKeys).
  'auth.apiKeys': { face: 'clob', method: 'GET', path: '/auth/api-keys', errors: 'orders', unknownParams: 'ignore', auth: 'l2' },
  'orders.refresh': { face: 'clob', method: 'POST', path: '/orders/refresh', errors: 'orders', unknownParams: 'ignore', http: false },
  'orders.status': { face: 'clob', method: 'GET', path: '/orders/status', errors: 'orders', unknownParams: 'ignore', http: false },
  'credentials.status': { face: 'clob', method: 'GET', path: '/credentials', errors: 'orders', unknownParams: 'ignore', http: false },
  'credentials.set': { face: 'clob', method: 'POST', path: '/credentials', errors: 'orders', unknownParams: 'reject', http: false },
  'credentials.clear': { face: 'clob', method: 'DELETE', path: '/credentials', errors: 'orders', unknownParams: 'ignore', http: false },
} as const satisfies Routes;

/** The trader leaderboard (spec 4.5): unknown parameters are refused. */
export const leaderboardRoutes = {
  'leaderboard.list': { face: 'base', method: 'GET', path: '/v1/leaderboard', errors: 'leaderboard', unknownParams: 'reject' },
  'leaderboard.meta': { face: 'base', method: 'GET', path: '/leaderboard/meta', errors: 'leaderboard', unknownParams: 'reject' },
} as const satisfies Routes;

/** A public CLOB read of the clob face (its `ttl` class is given with its path). */
const CLOB_READ = { face: 'clob', method: 'GET', errors: 'orders', unknownParams: 'ignore' } as const;
/** A CLOB route of the account: L2-signed by the caller, forwarded re-signed with the configured credentials. */
const CLOB_SIGNED = { face: 'clob', errors: 'orders', unknownParams: 'ignore', auth: 'l2' } as const;

/** The CLOB trading routes (spec 4.6), forwarded upstream at the same method and path. */
// biome-ignore format: one route a line, read as a table
export const tradingRoutes = {
  'clob.health': { face: 'clob', method: 'GET', path: '/', errors: 'orders', unknownParams: 'ignore' },
  'book.get': { face: 'clob', method: 'GET', path: '/book', errors: 'orders', unknownParams: 'ignore', ttl: 'book' },
  'books.post': { face: 'clob', method: 'POST', path: '/books', errors: 'orders', unknownParams: 'ignore', ttl: 'book' },
  'price.get': { face: 'clob', method: 'GET', path: '/price', errors: 'orders', unknownParams: 'ignore', ttl: 'price' },
  'prices.post': { face: 'clob', method: 'POST', path: '/prices', errors: 'orders', unknownParams: 'ignore', ttl: 'price' },
  'midpoint.get': { face: 'clob', method: 'GET', path: '/midpoint', errors: 'orders', unknownParams: 'ignore', ttl: 'price' },
  'pricesHistory.get': { face: 'clob', method: 'GET', path: '/prices-history', errors: 'orders', unknownParams: 'ignore', ttl: 'history' },
  'pricesHistory.batch': {
    face: 'clob', method: 'POST', path: '/batch-prices-history', errors: 'orders', unknownParams: 'ignore', ttl: 'history',
  },
  // Polymarket's read helpers, which clob-client calls before it builds an order (tick size, neg risk, fee rate).
  'time.get': { face: 'clob', method: 'GET', path: '/time', errors: 'orders', unknownParams: 'ignore', ttl: 'price' },
  'midpoints.post': { face: 'clob', method: 'POST', path: '/midpoints', errors: 'orders', unknownParams: 'ignore', ttl: 'price' },
  'spread.get': { face: 'clob', method: 'GET', path: '/spread', errors: 'orders', unknownParams: 'ignore', ttl: 'price' },
  'spreads.post': { face: 'clob', method: 'POST', path: '/spreads', errors: 'orders', unknownParams: 'ignore', ttl: 'price' },
  'lastTradePrice.get': { face: 'clob', method: 'GET', path: '/last-trade-price', errors: 'orders', unknownParams: 'ignore', ttl: 'price' },
  'lastTradesPrices.post': {
    face: 'clob', method: 'POST', path: '/last-trades-prices', errors: 'orders', unknownParams: 'ignore', ttl: 'price',
  },
  'tickSize.get': { face: 'clob', method: 'GET', path: '/tick-size', errors: 'orders', unknownParams: 'ignore', ttl: 'book' },
  'negRisk.get': { face: 'clob', method: 'GET', path: '/neg-risk', errors: 'orders', unknownParams: 'ignore', ttl: 'book' },
  'feeRate.get': { face: 'clob', method: 'GET', path: '/fee-rate', errors: 'orders', unknownParams: 'ignore', ttl: 'book' },
  'trades.list': { face: 'clob', method: 'GET', path: '/data/trades', errors: 'orders', unknownParams: 'ignore', auth: 'l2' },
  'order.place': { face: 'clob', method: 'POST', path: '/order', errors: 'orders', unknownParams: 'ignore', auth: 'l2' },
  'order.cancel': { face: 'clob', method: 'DELETE', path: '/order', errors: 'orders', unknownParams: 'ignore', auth: 'l2' },
  // CLOB V2's own routes (live 2026-04-28), as @polymarket/clob-client-v2 and @polymarket/client call them.
  'clob.ok': { face: 'clob', method: 'GET', path: '/ok', errors: 'orders', unknownParams: 'ignore', ttl: 'price' },
  'clob.version': { face: 'clob', method: 'GET', path: '/version', errors: 'orders', unknownParams: 'ignore', ttl: 'book' },
  'clobMarket.get': {
    face: 'clob', method: 'GET', path: '/clob-markets/:condition_id', errors: 'orders', unknownParams: 'ignore', ttl: 'book',
  },
  'marketByToken.get': {
    face: 'clob', method: 'GET', path: '/markets-by-token/:token_id', errors: 'orders', unknownParams: 'ignore', ttl: 'book',
  },
  'builderFees.get': {
    face: 'clob', method: 'GET', path: '/fees/builder-fees/:builder_code', errors: 'orders', unknownParams: 'ignore', ttl: 'book',
  },
  // Public since clob-client-v2 2cc7218 (2026-04-24): no L2.
  'builderTrades.list': { face: 'clob', method: 'GET', path: '/builder/trades', errors: 'orders', unknownParams: 'ignore', ttl: 'price' },
  'heartbeat.post': { face: 'clob', method: 'POST', path: '/v1/heartbeats', errors: 'orders', unknownParams: 'ignore', auth: 'l2' },
  'preMigrationOrders.list': {
    face: 'clob', method: 'GET', path: '/data/pre-migration-orders', errors: 'orders', unknownParams: 'ignore', auth: 'l2',
  },
  // The CLOB's market reads (clob-client-v2 getMarkets & co., issue 25): `next_cursor` pages of `{data, next_cursor,
  // limit, count}`. `/markets` here is the CLOB's, on the clob face; Gamma's `/markets` is the base face's (its own port).
  'clobMarkets.list': { ...CLOB_READ, path: '/markets', ttl: 'book' },
  'clobMarkets.get': { ...CLOB_READ, path: '/markets/:condition_id', ttl: 'book' },
  'simplifiedMarkets.list': { ...CLOB_READ, path: '/simplified-markets', ttl: 'book' },
  'samplingMarkets.list': { ...CLOB_READ, path: '/sampling-markets', ttl: 'book' },
  'samplingSimplifiedMarkets.list': { ...CLOB_READ, path: '/sampling-simplified-markets', ttl: 'book' },
  'marketLiveActivity.get': { ...CLOB_READ, path: '/markets/live-activity/:condition_id', ttl: 'price' },
  'rewardsCurrent.list': { ...CLOB_READ, path: '/rewards/markets/current', ttl: 'price' },
  'rewardsMarket.get': { ...CLOB_READ, path: '/rewards/markets/:condition_id', ttl: 'price' },
  // Batch writes: signed with the configured credentials, the body byte for byte, never retried after a 5xx.
  'orders.place': { ...CLOB_SIGNED, method: 'POST', path: '/orders' },
  'orders.cancel': { ...CLOB_SIGNED, method: 'DELETE', path: '/orders' },
  'orders.cancelAll': { ...CLOB_SIGNED, method: 'DELETE', path: '/cancel-all' },
  'orders.cancelMarket': { ...CLOB_SIGNED, method: 'DELETE', path: '/cancel-market-orders' },
  // The account's reads, signed with the configured credentials and never cached.
  'orderScoring.get': { ...CLOB_SIGNED, method: 'GET', path: '/order-scoring' },
  'ordersScoring.post': { ...CLOB_SIGNED, method: 'POST', path: '/orders-scoring' },
  'notifications.list': { ...CLOB_SIGNED, method: 'GET', path: '/notifications' },
  'notifications.drop': { ...CLOB_SIGNED, method: 'DELETE', path: '/notifications' },
  'balanceAllowance.get': { ...CLOB_SIGNED, method: 'GET', path: '/balance-allowance' },
  'balanceAllowance.update': { ...CLOB_SIGNED, method: 'GET', path: '/balance-allowance/update' },
  'rewardsEarnings.list': { ...CLOB_SIGNED, method: 'GET', path: '/rewards/user' },
  'rewardsEarningsTotal.get': { ...CLOB_SIGNED, method: 'GET', path: '/rewards/user/total' },
  'rewardsPercentages.get': { ...CLOB_SIGNED, method: 'GET', path: '/rewards/user/percentages' },
  'rewardsUserMarkets.list': { ...CLOB_SIGNED, method: 'GET', path: '/rewards/user/markets' },
  'closedOnly.get': { ...CLOB_SIGNED, method: 'GET', path: '/auth/ban-status/closed-only' },
  // API keys. Creating and deriving one is signed by the caller's wallet (L1), forwarded as signed; the rest L2.
  'apiKey.create': { ...CLOB_READ, method: 'POST', path: '/auth/api-key', auth: 'l1' },
  'apiKey.derive': { ...CLOB_READ, path: '/auth/derive-api-key', auth: 'l1' },
  'apiKey.delete': { ...CLOB_SIGNED, method: 'DELETE', path: '/auth/api-key' },
  'readonlyApiKey.create': { ...CLOB_SIGNED, method: 'POST', path: '/auth/readonly-api-key' },
  'readonlyApiKeys.list': { ...CLOB_SIGNED, method: 'GET', path: '/auth/readonly-api-keys' },
  'readonlyApiKey.delete': { ...CLOB_SIGNED, method: 'DELETE', path: '/auth/readonly-api-key' },
  'builderApiKey.create': { ...CLOB_SIGNED, method: 'POST', path: '/auth/builder-api-key' },
  'builderApiKeys.list': { ...CLOB_SIGNED, method: 'GET', path: '/auth/builder-api-key' },
  'builderApiKey.revoke': { ...CLOB_SIGNED, method: 'DELETE', path: '/auth/builder-api-key' },
} as const satisfies Routes;

/**
 * The upstream Data API v2's account reads (issue 25, issue 29), forwarded to the DATA host at
 * the same method and path, on the base face beside the Data API's leaderboard: public (any
 * `user`, no L2, as upstream), the upstream's body and status passed back unchanged, cached for
 * the 'price' class. Declared parameters are passed on; others are ignored, as the CLOB reads'.
 */
const DATA_READ = { face: 'base', method: 'GET', errors: 'leaderboard', unknownParams: 'ignore', ttl: 'price' } as const;
export const dataRoutes = {
  'dataPositions.list': { ...DATA_READ, path: '/v2/positions' },
  'dataActivity.list': { ...DATA_READ, path: '/v2/activity' },
  'dataTrades.list': { ...DATA_READ, path: '/v2/trades' },
  'dataValue.get': { ...DATA_READ, path: '/v2/value' },
} as const satisfies Routes;

/** Rate limits as the UI's status bar sees them. */
export const limitsRoutes = {
  'limits.status': { face: 'base', method: 'GET', path: '/limits', errors: 'catalog', unknownParams: 'ignore' },
} as const satisfies Routes;

/** Market and event icons (issue 13): cached, resized images, or a placeholder; never a 5xx. */
export const iconRoutes = {
  'icons.get': { face: 'base', method: 'GET', path: '/icons/:kind/:id', errors: 'catalog', unknownParams: 'ignore' },
} as const satisfies Routes;

/**
 * The trader's desk (issue 13): counts, the watchlist, CSV exports, a market page's chart and
 * book. `/markets/count` and `/markets/:id/chart` beside `/markets/:id` need no ordering:
 * Fastify ranks a static segment over a parameter (desk-catalog.test.ts checks it).
 */
// biome-ignore format: one route a line, read as a table
export const deskRoutes = {
  'markets.count': { face: 'base', method: 'GET', path: '/markets/count', errors: 'catalog', unknownParams: 'ignore', cache: 'catalog' },
  'events.count': { face: 'base', method: 'GET', path: '/events/count', errors: 'catalog', unknownParams: 'ignore', cache: 'catalog' },
  'watchlist.list': { face: 'base', method: 'GET', path: '/watchlist', errors: 'catalog', unknownParams: 'ignore' },
  'watchlist.add': { face: 'base', method: 'POST', path: '/watchlist', errors: 'catalog', unknownParams: 'ignore' },
  'watchlist.remove': { face: 'base', method: 'DELETE', path: '/watchlist/:kind/:id', errors: 'catalog', unknownParams: 'ignore' },
  // Not cached: a streamed body, and the leaderboard list changes without a catalog version.
  'catalog.export': { face: 'base', method: 'GET', path: '/export/:list', errors: 'catalog', unknownParams: 'ignore' },
  'markets.chart': { face: 'base', method: 'GET', path: '/markets/:id/chart', errors: 'catalog', unknownParams: 'ignore' },
  'markets.book': { face: 'base', method: 'GET', path: '/markets/:id/book', errors: 'catalog', unknownParams: 'ignore' },
} as const satisfies Routes;

/** The local API token (issue 16), shown in the desktop settings: IPC only, never over HTTP. */
export const localApiRoutes = {
  'apiToken.get': { face: 'base', method: 'GET', path: '/api-token', errors: 'catalog', unknownParams: 'ignore', http: false },
} as const satisfies Routes;

/**
 * The catalog's memory (issue 16): a market's history, revisions, the change feed. Not cached:
 * the default windows move with the clock. `/markets/:id/history` beside `/markets/:id`: as above.
 */
// biome-ignore format: one route a line, read as a table
export const historyRoutes = {
  'markets.history': { face: 'base', method: 'GET', path: '/markets/:id/history', errors: 'catalog', unknownParams: 'ignore' },
  'markets.revisions': { face: 'base', method: 'GET', path: '/markets/:id/revisions', errors: 'catalog', unknownParams: 'ignore' },
  'events.revisions': { face: 'base', method: 'GET', path: '/events/:id/revisions', errors: 'catalog', unknownParams: 'ignore' },
  'changes.list': { face: 'base', method: 'GET', path: '/changes', errors: 'catalog', unknownParams: 'ignore' },
} as const satisfies Routes;

/** Saved screens (issue 16): named listing filters kept in the data dir. Writes carry the local API token. */
// biome-ignore format: one route a line, read as a table
export const screensRoutes = {
  'screens.list': { face: 'base', method: 'GET', path: '/screens', errors: 'catalog', unknownParams: 'ignore' },
  'screens.create': { face: 'base', method: 'POST', path: '/screens', errors: 'catalog', unknownParams: 'ignore' },
  'screens.update': { face: 'base', method: 'POST', path: '/screens/:id', errors: 'catalog', unknownParams: 'ignore' },
  'screens.remove': { face: 'base', method: 'DELETE', path: '/screens/:id', errors: 'catalog', unknownParams: 'ignore' },
} as const satisfies Routes;

/**
 * Alerts (issue 16): rules checked after every sync and orders refresh, and the log of what fired.
 * `/alerts/fired` beside `/alerts/:id` needs no ordering: only DELETE takes an id.
 */
// biome-ignore format: one route a line, read as a table
export const alertsRoutes = {
  'alerts.list': { face: 'base', method: 'GET', path: '/alerts', errors: 'catalog', unknownParams: 'ignore' },
  'alerts.create': { face: 'base', method: 'POST', path: '/alerts', errors: 'catalog', unknownParams: 'ignore' },
  'alerts.remove': { face: 'base', method: 'DELETE', path: '/alerts/:id', errors: 'catalog', unknownParams: 'ignore' },
  'alerts.fired': { face: 'base', method: 'GET', path: '/alerts/fired', errors: 'catalog', unknownParams: 'ignore' },
} as const satisfies Routes;

/**
 * Sparklines (issue 16): many markets' last 7 days of local history in one read, for the grids.
 * `/markets/sparklines` beside `/markets/:id`: a static segment ranks first, as above.
 */
// biome-ignore format: one route a line, read as a table
export const sparklineRoutes = {
  'markets.sparklines': { face: 'base', method: 'GET', path: '/markets/sparklines', errors: 'catalog', unknownParams: 'ignore' },
} as const satisfies Routes;

/** The live view (issue 26, live-ops.ts): the markets a client shows, streamed to its push events. */
// biome-ignore format: one route a line, read as a table
export const liveRoutes = {
  'live.view': { face: 'base', method: 'POST', path: '/live/view', errors: 'catalog', unknownParams: 'ignore' },
} as const satisfies Routes;

export const ROUTES = {
  ...catalogRoutes,
  ...gammaRoutes,
  ...searchRoutes,
  ...ordersRoutes,
  ...leaderboardRoutes,
  ...tradingRoutes,
  ...dataRoutes,
  ...limitsRoutes,
  ...iconRoutes,
  ...deskRoutes,
  ...localApiRoutes,
  ...historyRoutes,
  ...screensRoutes,
  ...alertsRoutes,
  ...sparklineRoutes,
  ...liveRoutes,
} as const;

export type OpName = keyof typeof ROUTES;
export const opNames = Object.keys(ROUTES) as OpName[];

/** Whether `face` answers this route over HTTP: its own face's routes, and on base the `webUi` ones. */
export function servedOn(route: RouteDef, face: Face): boolean {
  return route.http !== false && (route.face === face || (face === 'base' && route.webUi === true));
}

/**
 * Whether HTTP callers of this route must carry the local API token and a loopback Host (issue 16,
 * src/http/write-guard.ts): every base-face operation that is not a GET changes the user's state
 * (the watchlist, alerts, screens), so a new one is guarded with no flag to forget. L2 routes
 * (orders) have their own auth, the clob face's POSTs are reads, and IPC is the app itself.
 */
export function isLocalWrite(route: RouteDef): boolean {
  return route.face === 'base' && route.method !== 'GET' && route.auth !== 'l2' && route.http !== false;
}

/**
 * The first path segments of the routes `face` answers (`/markets/:id` -> `/markets`): what a
 * dev server proxies to it. Never `/` (the clob face's health route), which would take everything.
 */
export function pathPrefixes(face: Face): string[] {
  const routes: RouteDef[] = Object.values(ROUTES).filter((r) => servedOn(r, face));
  return [...new Set(routes.map((r) => `/${r.path.split('/')[1]}`))].filter((p) => p !== '/');
}
