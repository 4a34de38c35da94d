/**
 * The one contract table. Each operation is declared once: its route (face, HTTP method and
 * path, flags) in routes.ts, its parameters (bounds, defaults, aliases) and result type in its
 * concern's *-ops.ts. This joins the two by name: the HTTP faces register routes from it, the
 * IPC bridge exposes exactly its names, the renderer client is typed by it.
 */
import { catalogOperations } from './catalog-ops.ts';
import { gammaExtraOperations } from './gamma-extra-ops.ts';
import { searchOperations } from './search-ops.ts';
import { ordersOperations } from './orders-ops.ts';
import { leaderboardOperations } from './leaderboard-ops.ts';
import { tradingOperations } from './trading-ops.ts';
import { dataOperations } from './data-ops.ts';
import { limitsOperations } from './limits-ops.ts';
import { iconsOperations } from './icons-ops.ts';
import { deskOperations } from './desk-ops.ts';
import { localApiOperations } from './local-api-ops.ts';
import { historyOperations } from './history-ops.ts';
import { screensOperations } from './screens-ops.ts';
import { alertsOperations } from './alerts-ops.ts';
import { sparklineOperations } from './sparkline-ops.ts';
import { liveOperations } from './live-ops.ts';
import { ROUTES, type OpName } from './routes.ts';
import type { DeclsFor, OpDecl } from './define.ts';
import type { InputParams, ParamDefs, ParsedParams } from './params.ts';

export * from './define.ts';
export { ROUTES, isLocalWrite, opNames, servedOn, type OpName } from './routes.ts';
export type { ApiTokenInfo } from './local-api-ops.ts';
export { EVENT_ORDER_FIELDS, MARKET_ORDER_FIELDS, type EventOrderField, type MarketOrderField } from './catalog-ops.ts';
export type { DeskSearchEvent, DeskSearchResult, RankedTag, RankedTags, SearchEvent, SearchResult, SearchTag } from './search-ops.ts';
export type { EventsKeysetPage, EventsPaginationPage, MarketsKeysetPage, Series } from './gamma-extra-ops.ts';
export type { CredentialsStatus, Order, OrdersPage, OrdersStatus } from './orders-ops.ts';
export type { LeaderboardEntry, LeaderboardMeta } from './leaderboard-ops.ts';
export type { OrderBook, OrderCancelled, OrderPlaced, PriceLevel, PricePoint, TradesPage } from './trading-ops.ts';
export type { DataPage, DataValue } from './data-ops.ts';
export type { HostStatus, LimitsStatus, SchedulerStatus, WindowStatus } from './limits-ops.ts';
export {
  CHART_INTERVALS,
  EXPORT_LISTS,
  WATCH_KINDS,
  type BookLevel,
  type ChartInterval,
  type ExportList,
  type MarketBook,
  type MarketChart,
  type OutcomeBook,
  type WatchItem,
  type WatchKind,
  type WatchList,
} from './desk-ops.ts';
export type { ChangeKind, ChangeRecord, ChangesPage, HistoryPoint, MarketHistory, Revision, RevisionsPage } from './history-ops.ts';
export { CHANGE_KINDS } from './history-ops.ts';
export { SPARKLINE_BUCKETS, SPARKLINE_DAYS, SPARKLINE_MAX_IDS, type Sparklines } from './sparkline-ops.ts';
export {
  ALERT_KINDS,
  CROSS_DIRECTIONS,
  type AlertKind,
  type AlertList,
  type AlertRule,
  type AlertTarget,
  type CrossDirection,
  type FiredAlert,
  type FiredPage,
} from './alerts-ops.ts';
export { SCREEN_KINDS, type Screen, type ScreenKind, type ScreenList, type ScreenParamValue } from './screens-ops.ts';

const decls = {
  ...catalogOperations,
  ...gammaExtraOperations,
  ...searchOperations,
  ...ordersOperations,
  ...leaderboardOperations,
  ...tradingOperations,
  ...dataOperations,
  ...limitsOperations,
  ...iconsOperations,
  ...deskOperations,
  ...localApiOperations,
  ...historyOperations,
  ...screensOperations,
  ...alertsOperations,
  ...sparklineOperations,
  ...liveOperations,
} satisfies DeclsFor<typeof ROUTES>;
type Decls = typeof decls;

export type Operations = { [K in OpName]: (typeof ROUTES)[K] & Decls[K] };

/**
 * Every operation: its route data with its declaration merged in. Cast through `unknown`: past
 * about 150 operations the checker gives up comparing the record with `Operations` (TS2859);
 * routes.test.ts checks the merge at run time.
 */
export const operations = Object.fromEntries(
  (Object.keys(ROUTES) as OpName[]).map((name) => [name, { ...ROUTES[name], ...decls[name] }]),
) as unknown as Operations;

type DefsOf<K extends OpName> = Decls[K] extends OpDecl<infer D, unknown> ? D : never;
export type ParamsOf<K extends OpName> = ParsedParams<DefsOf<K>>;
export type InputOf<K extends OpName> = InputParams<DefsOf<K>>;
export type ResultOf<K extends OpName> = Decls[K] extends OpDecl<ParamDefs, infer R> ? R : never;
