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

/**
 * The answers of CLOB V2's other routes (issue 25), as `@polymarket/clob-client-v2` 1.1.0 types
 * them (its `types/clob.d.ts`; the names are its own). This layer imports no client, so the shapes
 * are written out here; src/clients/clob-client-v2.test.ts checks that the client's own types
 * accept them. Index signatures keep fields the CLOB adds later.
 */
export interface PaginationPayload<T = Record<string, unknown>> {
  limit: number;
  count: number;
  /** base64 of the next offset; `LTE=` after the last page. */
  next_cursor: string;
  data: T[];
}

export interface ClobToken {
  token_id: string;
  outcome: string;
  price: number;
  winner: boolean;
}

export interface ClobRewardsRate {
  asset_address: string;
  rewards_daily_rate: number;
}

/** One market as the CLOB lists it (`GET /markets`, `/sampling-markets`, `/markets/{condition_id}`). */
export interface ClobMarket {
  condition_id: string;
  question_id: string;
  question: string;
  description: string;
  market_slug: string;
  end_date_iso: string | null;
  game_start_time: string | null;
  active: boolean;
  closed: boolean;
  archived: boolean;
  accepting_orders: boolean;
  accepting_order_timestamp: string | null;
  enable_order_book: boolean;
  minimum_order_size: number;
  minimum_tick_size: number;
  seconds_delay: number;
  fpmm: string;
  maker_base_fee: number;
  taker_base_fee: number;
  notifications_enabled: boolean;
  neg_risk: boolean;
  neg_risk_market_id: string;
  neg_risk_request_id: string;
  icon: string;
  image: string;
  rewards: { rates: ClobRewardsRate[] | null; min_size: number; max_spread: number };
  is_50_50_outcome: boolean;
  tokens: ClobToken[];
  tags: string[];
  [key: string]: unknown;
}

/** `GET /simplified-markets` and `/sampling-simplified-markets`: the trading part of a market. */
export interface SimplifiedMarket {
  condition_id: string;
  rewards: ClobMarket['rewards'];
  tokens: ClobToken[];
  active: boolean;
  closed: boolean;
  archived: boolean;
  accepting_orders: boolean;
  [key: string]: unknown;
}

/** `GET /markets/live-activity/{condition_id}`: the market's latest trades (clob-client-v2's MarketTradeEvent). */
export interface MarketTradeEvent {
  event_type: string;
  market: { condition_id: string; asset_id: string; question: string; icon: string; slug: string };
  user: { address: string; username: string; profile_picture: string; optimized_profile_picture: string; pseudonym: string };
  side: string;
  size: string;
  fee_rate_bps: string;
  price: string;
  outcome: string;
  outcome_index: number;
  transaction_hash: string;
  timestamp: string;
}

export interface RewardsConfig {
  asset_address: string;
  start_date: string;
  end_date: string;
  rate_per_day: number;
  total_rewards: number;
}

/** A market's liquidity rewards (`/rewards/markets/current`, `/rewards/markets/{condition_id}`). */
export interface MarketReward {
  condition_id: string;
  question: string;
  market_slug: string;
  event_slug: string;
  image: string;
  rewards_max_spread: number;
  rewards_min_size: number;
  tokens: { token_id: string; outcome: string; price: number }[];
  rewards_config: RewardsConfig[];
  [key: string]: unknown;
}

export interface UserEarning {
  date: string;
  condition_id: string;
  asset_address: string;
  maker_address: string;
  earnings: number;
  asset_rate: number;
}

export interface TotalUserEarning {
  date: string;
  asset_address: string;
  maker_address: string;
  earnings: number;
  asset_rate: number;
}

export interface UserRewardsEarning extends MarketReward {
  maker_address: string;
  market_competitiveness: number;
  earning_percentage: number;
  earnings: { asset_address: string; earnings: number; asset_rate: number }[];
}

/** One of the account's notifications (`id` and `timestamp` as @polymarket/client reads them). */
export interface ClobNotification {
  id: number;
  type: number;
  owner: string;
  payload: unknown;
  timestamp: number;
}

export interface BalanceAllowance {
  /** Base units (6 decimals), as a decimal string. */
  balance: string;
  /** Spender address -> allowance, base units. */
  allowances: Record<string, string>;
}

/** An API key's credentials as the CLOB answers them (clob-client-v2's ApiKeyRaw). */
export interface ApiKeyRaw {
  apiKey: string;
  secret: string;
  passphrase: string;
}

export interface BuilderApiKey {
  key: string;
  secret: string;
  passphrase: string;
}

/** A builder key as listed: `revokedAt` only once revoked. */
export interface BuilderApiKeyInfo {
  key: string;
  createdAt?: string;
  revokedAt?: string;
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

const cursor = str({ maxLength: 40 });
/** A CLOB listing's cursor: absent is the first page (`MA==`, base64 of offset 0), so that is what goes upstream. */
const FIRST_PAGE: ParamDef<string> & { default: string } = { ...cursor, default: 'MA==' };
const condition = { condition_id: str({ required: true, maxLength: 100 }) };
/** The account's wallet kind (0 EOA, 1 proxy, 2 Safe, 3 deposit wallet), which the clients send with account reads. */
const signatureType = str({ maxLength: 2 });
const BALANCE = { asset_type: str({ maxLength: 20 }), token_id: str({ maxLength: 100 }), signature_type: signatureType };
const EARNINGS = { date: str({ maxLength: 10 }), signature_type: signatureType };

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
  // The CLOB's market reads (issue 25). The listings' cursor defaults to the first page's, as the CLOB reads none.
  'clobMarkets.list': op<PaginationPayload<ClobMarket>>()({ next_cursor: FIRST_PAGE }),
  'clobMarkets.get': op<ClobMarket>()(condition),
  'simplifiedMarkets.list': op<PaginationPayload<SimplifiedMarket>>()({ next_cursor: FIRST_PAGE }),
  'samplingMarkets.list': op<PaginationPayload<ClobMarket>>()({ next_cursor: FIRST_PAGE }),
  'samplingSimplifiedMarkets.list': op<PaginationPayload<SimplifiedMarket>>()({ next_cursor: FIRST_PAGE }),
  'marketLiveActivity.get': op<MarketTradeEvent[]>()(condition),
  'rewardsCurrent.list': op<PaginationPayload<MarketReward>>()({ next_cursor: cursor, sponsored: str({ maxLength: 10 }) }),
  'rewardsMarket.get': op<PaginationPayload<MarketReward>>()({ ...condition, next_cursor: cursor, sponsored: str({ maxLength: 10 }) }),
  /** Body: `[{order, owner, orderType}, ...]` (at most 15), each as for `POST /order`; answer: one result per order. */
  'orders.place': op<OrderPlaced[]>()(body),
  /** Body: `["0x<order id>", ...]`. */
  'orders.cancel': op<OrderCancelled>()(body),
  'orders.cancelAll': op<OrderCancelled>()({}),
  /** Body: `{"market": "0x<condition id>", "asset_id": "<token id>"}` (either or both). */
  'orders.cancelMarket': op<OrderCancelled>()(body),
  'orderScoring.get': op<{ scoring: boolean }>()({ order_id: str({ maxLength: 100 }) }),
  /** Body: `["0x<order id>", ...]`; answer: order id -> scoring. */
  'ordersScoring.post': op<Record<string, boolean>>()(body),
  'notifications.list': op<ClobNotification[]>()({ signature_type: signatureType }),
  /** `ids`: comma-separated notification ids. */
  'notifications.drop': op<unknown>()({ ids: str({ maxLength: 20_000 }), signature_type: signatureType }),
  'balanceAllowance.get': op<BalanceAllowance>()(BALANCE),
  'balanceAllowance.update': op<unknown>()(BALANCE),
  'rewardsEarnings.list': op<PaginationPayload<UserEarning>>()({ ...EARNINGS, next_cursor: cursor }),
  'rewardsEarningsTotal.get': op<TotalUserEarning[]>()(EARNINGS),
  'rewardsPercentages.get': op<Record<string, number>>()({ signature_type: signatureType }),
  'rewardsUserMarkets.list': op<PaginationPayload<UserRewardsEarning>>()({
    ...EARNINGS,
    next_cursor: cursor,
    order_by: str({ maxLength: 40 }),
    position: str({ maxLength: 10 }),
    no_competition: str({ maxLength: 10 }),
    page_size: str({ maxLength: 10 }),
  }),
  'closedOnly.get': op<{ closed_only: boolean }>()({}),
  /** L1: the caller's `POLY_ADDRESS`, `POLY_SIGNATURE`, `POLY_TIMESTAMP`, `POLY_NONCE` go upstream unchanged. */
  'apiKey.create': op<ApiKeyRaw>()({}),
  'apiKey.derive': op<ApiKeyRaw>()({}),
  /** Revokes the configured API key upstream: marketdesk's own L2 calls fail until it is given another. */
  'apiKey.delete': op<string>()({}),
  'readonlyApiKey.create': op<{ apiKey: string }>()({}),
  'readonlyApiKeys.list': op<string[]>()({}),
  /** Body: `{"key": "<readonly key>"}`. */
  'readonlyApiKey.delete': op<boolean>()(body),
  'builderApiKey.create': op<BuilderApiKey>()({}),
  'builderApiKeys.list': op<BuilderApiKeyInfo[]>()({}),
  'builderApiKey.revoke': op<string>()({}),
} satisfies DeclsFor<typeof tradingRoutes>;
