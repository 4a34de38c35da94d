/**
 * The contract's enumerated parameter values as plain data (no zod): the operations validate
 * against them (`oneOf(CONSTS)`, a `z.enum`) and the renderer offers them as choices and types
 * its state by them, without bundling zod. The leaderboard's are leaderboard-choices.ts.
 */

/**
 * `order` columns of markets.list (docs/architecture.md, "Decisions"): camelCase field names, comma-separated.
 * marketdesk's own (not Gamma's): `chance` (a Yes/No market's Yes price, else its likeliest outcome's: market-rules.ts
 * marketLeader) and `oneDayPriceChangeSize` (the 24h change's absolute value: the biggest moves either way).
 */
export const MARKET_ORDER_FIELDS = [
  'id',
  'slug',
  'question',
  'volume',
  'volumeNum',
  'volume24hr',
  'volume1wk',
  'liquidity',
  'liquidityNum',
  'startDate',
  'endDate',
  'createdAt',
  'updatedAt',
  'closedTime',
  'chance',
  'oneDayPriceChange',
  'oneDayPriceChangeSize',
  'spread',
] as const;
/**
 * `order` columns of events.list. marketdesk's own: `chance` and `oneDayPriceChange` are the event's leader's (market-rules.ts
 * eventLeader, eventLeaderChange), `oneDayPriceChangeSize` that change's absolute value.
 */
export const EVENT_ORDER_FIELDS = [
  'id',
  'slug',
  'title',
  'volume',
  'volume24hr',
  'volume1wk',
  'liquidity',
  'startDate',
  'endDate',
  'createdAt',
  'updatedAt',
  'closedTime',
  'chance',
  'oneDayPriceChange',
  'oneDayPriceChangeSize',
] as const;
export type MarketOrderField = (typeof MARKET_ORDER_FIELDS)[number];
export type EventOrderField = (typeof EVENT_ORDER_FIELDS)[number];

/** What the watchlist holds. */
export const WATCH_KINDS = ['market', 'event'] as const;
export type WatchKind = (typeof WATCH_KINDS)[number];

/** markets.chart's intervals (the CLOB's `1h`, `6h`, `1d`, `1w`, `1m`, `max`). */
export const CHART_INTERVALS = ['1h', '6h', '1d', '1w', '1m', 'all'] as const;
export type ChartInterval = (typeof CHART_INTERVALS)[number];

/** catalog.export's lists. */
export const EXPORT_LISTS = ['markets', 'events', 'leaderboard'] as const;
export type ExportList = (typeof EXPORT_LISTS)[number];

/** The kinds of catalog object an icon belongs to; any other kind is a 404. */
export const ICON_KINDS = ['market', 'event'] as const;
export type IconKind = (typeof ICON_KINDS)[number];

/** What a saved screen lists. */
export const SCREEN_KINDS = ['markets', 'events'] as const;
export type ScreenKind = (typeof SCREEN_KINDS)[number];

/** The statuses an order can have (docs/architecture.md, "Decisions"); `orders.view`'s `status=` takes one of them. */
export const ORDER_STATUSES = ['live', 'matched', 'delayed', 'unmatched', 'pending_settlement'] as const;
/** The columns `orders.view` and `orders.export` sort by. */
export const ORDER_VIEW_FIELDS = [
  'created_at',
  'price',
  'size',
  'filled',
  'remaining',
  'value',
  'distance',
  'market',
  'outcome',
  'side',
  'status',
  'expiration',
] as const;
export type OrderViewField = (typeof ORDER_VIEW_FIELDS)[number];

/**
 * - `price_cross`: a market's price (its first outcome's, as the grids show it) crosses `level`.
 * - `price_move`: a market's price moves by `points` or more within `windowHours`.
 * - `new_match`: a new market (or event, for an events screen) matches a saved screen or a search text.
 * - `rule_edit`: a market's or event's rules (description, resolution source, end date, outcomes,
 *   question) are edited; with no target, any market or event on the watchlist.
 * - `ends_soon`: a market or event ends within `hours`; with no target, any on the watchlist.
 * - `order_done`: an open order of the configured account filled or was cancelled; `market` narrows it.
 */
export const ALERT_KINDS = ['price_cross', 'price_move', 'new_match', 'rule_edit', 'ends_soon', 'order_done'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

/** Which way a `price_cross` rule's price must cross its level. */
export const CROSS_DIRECTIONS = ['up', 'down', 'either'] as const;
export type CrossDirection = (typeof CROSS_DIRECTIONS)[number];

/** The change feed's record kinds (changes.list `kind`). */
export const CHANGE_KINDS = [
  'new_market',
  'new_event',
  'closed',
  'resolved',
  'price_move',
  'liquidity_move',
  'rule_edit',
  'end_date',
  'tags',
] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];
