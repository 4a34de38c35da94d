/**
 * The one contract table. Each operation is declared once: name, face, HTTP method and
 * path, parameters (bounds, defaults, aliases) and result type. The HTTP faces register
 * routes from it, the IPC bridge exposes exactly its names, the renderer client is typed by it.
 */
import { catalogOperations } from './catalog-ops.ts';
import { searchOperations } from './search-ops.ts';
import { ordersOperations } from './orders-ops.ts';
import { leaderboardOperations } from './leaderboard-ops.ts';
import { tradingOperations } from './trading-ops.ts';
import { limitsOperations } from './limits-ops.ts';
import type { OperationDef } from './define.ts';
import type { InputParams, ParamDefs, ParsedParams } from './params.ts';

export * from './define.ts';
export { EVENT_ORDER_FIELDS, MARKET_ORDER_FIELDS, type EventOrderField, type MarketOrderField } from './catalog-ops.ts';
export type { SearchEvent, SearchResult, SearchTag } from './search-ops.ts';
export type { CredentialsStatus, Order, OrdersPage, OrdersStatus } from './orders-ops.ts';
export type { LeaderboardEntry, LeaderboardMeta } from './leaderboard-ops.ts';
export type { OrderBook, OrderCancelled, OrderPlaced, PriceLevel, PricePoint, TradesPage } from './trading-ops.ts';
export type { HostStatus, LimitsStatus, SchedulerStatus, WindowStatus } from './limits-ops.ts';

export const operations = {
  ...catalogOperations,
  ...searchOperations,
  ...ordersOperations,
  ...leaderboardOperations,
  ...tradingOperations,
  ...limitsOperations,
} as const;


export type Operations = typeof operations;
export type OpName = keyof Operations;
type DefsOf<K extends OpName> = Operations[K] extends OperationDef<infer D, unknown> ? D : never;
export type ParamsOf<K extends OpName> = ParsedParams<DefsOf<K>>;
export type InputOf<K extends OpName> = InputParams<DefsOf<K>>;
export type ResultOf<K extends OpName> = Operations[K] extends OperationDef<ParamDefs, infer R> ? R : never;

export const opNames = Object.keys(operations) as OpName[];
