/**
 * The CLOB trading routes the rate-limit table names (spec 4.6, 8.3, 8.4), on the clob face
 * (routes.ts's `tradingRoutes`, which gives each read its cache lifetime class). The service
 * forwards them to the upstream CLOB through the outbound scheduler with Polymarket's
 * parameters and bodies unchanged; reads are cached briefly and served from the last good
 * answer while the upstream is unreachable (with `Age` and `X-Marketdesk-Stale: 1`).
 *
 * Parameters are the ones Polymarket documents for each route, declared as plain strings and
 * passed on as given: the upstream validates them (and its 4xx answers are passed back). A
 * parameter not declared here is not forwarded.
 */
import { z } from 'zod';
import { op, type DeclsFor } from './define.ts';
import { str, type ParamDef } from './params.ts';
import type { tradingRoutes } from './routes.ts';

function isJson(s: string): boolean {
  try {
    JSON.parse(s);
    return true;
  } catch {
    return false;
  }
}

/**
 * A request body as JSON text, forwarded byte for byte. Honestly untyped: these routes carry
 * Polymarket's payloads through unchanged (the upstream checks them), and a client-signed order
 * must reach the upstream exactly as signed, so it is checked to be JSON and nothing more. Over
 * HTTP the face fills it from the request body; over IPC the caller passes `JSON.stringify(payload)`.
 */
const jsonBody: ParamDef<string> & { required: true } = {
  schema: z
    .string()
    .max(1 << 20)
    .refine(isJson),
  rule: 'a JSON request body',
  required: true,
};

export interface PriceLevel {
  price: string;
  size: string;
}

/** Polymarket's book: bids ascending and asks descending (best last), prices and sizes as strings. */
export interface OrderBook {
  market: string;
  asset_id: string;
  timestamp: string;
  hash: string;
  bids: PriceLevel[];
  asks: PriceLevel[];
  min_order_size?: string;
  tick_size?: string;
  neg_risk?: boolean;
  last_trade_price?: string;
  [key: string]: unknown;
}

export interface PricePoint {
  /** Unix seconds. */
  t: number;
  p: number;
}

export interface TradesPage {
  data: Record<string, unknown>[];
  next_cursor: string;
  limit: number;
  count: number;
}

export interface OrderPlaced {
  success: boolean;
  errorMsg: string;
  orderID: string;
  transactionsHashes?: string[];
  status?: string;
  takingAmount?: string;
  makingAmount?: string;
  [key: string]: unknown;
}

export interface OrderCancelled {
  canceled: string[];
  not_canceled: Record<string, string>;
}

/** `GET /clob-markets/{condition_id}` (CLOB V2). */
export interface ClobMarketInfo {
  c: string;
  t: { t: string; o: string }[];
  mts: number;
  mos?: number;
  nr?: boolean;
  fd?: { r: number; e: number; to?: boolean };
  [key: string]: unknown;
}

const token = { token_id: str({ maxLength: 100 }) };
const body = { body: jsonBody };

/** The filters of a trades page, the account's (`/data/trades`) and a builder's (`/builder/trades`) alike. */
const TRADE_FILTERS = {
  id: str({ maxLength: 100 }),
  maker_address: str({ maxLength: 42 }),
  market: str({ maxLength: 100 }),
  asset_id: str({ maxLength: 100 }),
  before: str({ maxLength: 20 }),
  after: str({ maxLength: 20 }),
  next_cursor: str({ maxLength: 40 }),
};

export const tradingOperations = {
  'clob.health': op<string>()({}),
  'book.get': op<OrderBook>()(token),
  /** Body: `[{"token_id": "..."}, ...]`. */
  'books.post': op<OrderBook[]>()(body),
  'price.get': op<{ price: string }>()({ ...token, side: str({ maxLength: 10 }) }),
  /** Body: `[{"token_id": "...", "side": "BUY"}, ...]`; answer: token -> side -> price. */
  'prices.post': op<Record<string, Record<string, string>>>()(body),
  'midpoint.get': op<{ mid: string }>()(token),
  'pricesHistory.get': op<{ history: PricePoint[] }>()({
    market: str({ maxLength: 100 }),
    startTs: str({ maxLength: 20 }),
    endTs: str({ maxLength: 20 }),
    interval: str({ maxLength: 10 }),
    fidelity: str({ maxLength: 10 }),
  }),
  /** Body: `{"markets": [...], "start_ts", "end_ts", "interval", "fidelity"}`; answer: token -> points. */
  'pricesHistory.batch': op<{ history: Record<string, PricePoint[]> }>()(body),
  /** Unix seconds, a bare number. */
  'time.get': op<number>()({}),
  /** Body: `[{"token_id": "..."}, ...]`; answer: token -> midpoint. */
  'midpoints.post': op<Record<string, string>>()(body),
  'spread.get': op<{ spread: string }>()(token),
  /** Body: `[{"token_id": "..."}, ...]`; answer: token -> spread. */
  'spreads.post': op<Record<string, string>>()(body),
  'lastTradePrice.get': op<{ price: string; side: string }>()(token),
  /** Body: `[{"token_id": "..."}, ...]`; answer: `[{token_id, price, side}, ...]`. */
  'lastTradesPrices.post': op<{ token_id: string; price: string; side: string }[]>()(body),
  'tickSize.get': op<{ minimum_tick_size: number }>()(token),
  'negRisk.get': op<{ neg_risk: boolean }>()(token),
  'feeRate.get': op<{ base_fee: number }>()(token),
  'trades.list': op<TradesPage>()(TRADE_FILTERS),
  /** Body: Polymarket's `{"order": {...signed order...}, "owner", "orderType"}`, forwarded unchanged. */
  'order.place': op<OrderPlaced>()(body),
  /** Body: `{"orderID": "0x..."}`. */
  'order.cancel': op<OrderCancelled>()(body),
  // CLOB V2's own routes (live since 2026-04-28; research notes d, fixtures/polymarket-2026/d_clob/).
  'clob.ok': op<string>()({}),
  /** `{"version": 2}`: the order version the CLOB accepts (V2 clients sign for it). */
  'clob.version': op<{ version: number }>()({}),
  /** The compact market record: `c` condition, `t` tokens, `mts` tick size, `nr` neg risk, `fd` fees. */
  'clobMarket.get': op<ClobMarketInfo>()({ condition_id: str({ required: true, maxLength: 100 }) }),
  'marketByToken.get': op<{ condition_id: string; primary_token_id: string; secondary_token_id: string }>()({
    token_id: str({ required: true, maxLength: 100 }),
  }),
  'builderFees.get': op<{ builder_maker_fee_rate_bps: number; builder_taker_fee_rate_bps: number }>()({
    builder_code: str({ required: true, maxLength: 100 }),
  }),
  'builderTrades.list': op<TradesPage>()({ builder_code: str({ maxLength: 100 }), ...TRADE_FILTERS }),
  /** Body: `{"heartbeat_id": ""}`; answer: `{"heartbeat_id": "<uuid>"}`. */
  'heartbeat.post': op<{ heartbeat_id: string }>()(body),
  /** Orders placed before the V2 migration, Polymarket's `{data, next_cursor, limit, count}` pages. */
  'preMigrationOrders.list': op<TradesPage>()({ next_cursor: str({ maxLength: 40 }) }),
} satisfies DeclsFor<typeof tradingRoutes>;
