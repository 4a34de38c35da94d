/**
 * The account's live orders (spec 2.4, 4.4, 5) and the credentials behind them; their routes
 * are routes.ts's `ordersRoutes`.
 *
 * `GET /data/orders` on the clob face needs L2 auth (`auth: 'l2'`, checked by the face before
 * dispatch); the app itself calls it over IPC without signing, being its own user. The base
 * face serves it too (`webUi`), for the web UI, which signs it with credentials the user typed
 * into that browser tab. The other operations here are the desktop app's only (`http: false`):
 * refreshing on demand, the orders cache's state, and setting or clearing credentials, which
 * must never be reachable over HTTP.
 */
import { z } from 'zod';
import { op, type DeclsFor } from './define.ts';
import { ORDER_STATUSES, ORDER_VIEW_FIELDS } from './enums.ts';
import { bool, int, oneOf, str, type ParamDef } from './params.ts';
import type { RawBody } from './raw.ts';
import type { ordersRoutes } from './routes.ts';

/**
 * Spec 2.4. `status` is lower-case (`live`, `matched`, `delayed`, `unmatched`, ...: docs/architecture.md,
 * "Decisions"),
 * whatever spelling the upstream used (`LIVE`, `ORDER_STATUS_LIVE`). `createdAt` is when the
 * order was placed; `updatedAt` the upstream's, or else when the service last saw it change.
 */
export interface Order {
  id: string;
  status: string;
  market: string;
  assetId: string;
  outcome: string;
  makerAddress: string;
  owner: string;
  price: string;
  originalSize: string;
  sizeMatched: string;
  side: string;
  type: string;
  associateTrades: string[];
  createdAt: string;
  updatedAt: string;
}

/** Spec 4.4: `next_cursor` is base64 of the next offset, `""` on the last page. */
export interface OrdersPage {
  data: Order[];
  next_cursor: string;
  limit: number;
  count: number;
}

/**
 * An order in Polymarket's own CLOB shape (docs/upstream/clob-data-limits.md §2.5), what a
 * `POLY_*`-signed caller gets: snake_case, upper-case status, decimal strings, `expiration` as
 * string seconds, `created_at` as integer seconds, `owner` the API key.
 */
export interface PolymarketOrder {
  id: string;
  status: string;
  owner: string;
  maker_address: string;
  market: string;
  asset_id: string;
  side: string;
  original_size: string;
  size_matched: string;
  price: string;
  outcome: string;
  expiration: string;
  order_type: string;
  associate_trades: string[];
  created_at: number;
}

/** Polymarket's page: as OrdersPage, but `LTE=` on the last page. */
export interface PolymarketOrdersPage {
  data: PolymarketOrder[];
  next_cursor: string;
  limit: number;
  count: number;
}

export interface OrdersStatus {
  /** Credentials are configured (the address is in `credentials.status`). */
  configured: boolean;
  refreshing: boolean;
  /** Orders cached for the configured account. */
  count: number;
  /** When the cached list was last fetched whole from the upstream. */
  fetchedAt: string | null;
  lastError: string | null;
  /** The service never contacts the upstream (`--offline`). */
  offline: boolean;
}

export interface CredentialsStatus {
  configured: boolean;
  address?: string;
}

export const ORDERS_PAGE_SIZE = 100;
/** The cursor of the first page: base64("0"). */
export const FIRST_CURSOR = 'MA==';
/** Polymarket's cursor after the last page: base64("-1"). */
export const POLYMARKET_END_CURSOR = 'LTE=';

/**
 * The app's orders view (`orders.view`): the spec's order joined with the cached market it
 * belongs to. The joined fields are null when that market is not in the cache.
 */
export interface OrderRow extends Order {
  /** The market's question. */
  question: string | null;
  /** The outcome the order's token stands for, from the market's outcomes and clobTokenIds. */
  outcome_name: string | null;
  /** The cached market's id, to open it. */
  market_id: string | null;
  /** The title of the market's (first) event. */
  event_title: string | null;
  /** Size still open: `originalSize` − `sizeMatched`, a decimal string like the sizes. */
  remaining: string;
  /** What the open part costs (a buy) or pays (a sell) at the order's price: remaining × price, in dollars. */
  value: number;
  /**
   * The cached market's price for this order's outcome (its `outcomePrices` entry as of the last
   * catalog sync, the price the grids show), in dollars; null when the market or its price is not cached.
   */
  current_price: number | null;
  /** Order price − current price, in cents (negative: the order sits below the market); null without a current price. */
  distance_cents: number | null;
}

export interface OrdersViewPage {
  /** Orders matching the filters, over all pages. */
  total: number;
  limit: number;
  offset: number;
  data: OrderRow[];
}

export { ORDER_STATUSES, ORDER_VIEW_FIELDS, type OrderViewField } from './enums.ts';
export const ORDERS_VIEW_MAX_LIMIT = 500;

/** The filters and sort both the view and its export take. */
const viewFilters = {
  // Words, in any order, each found in the market's question, its event's title or the order's
  // outcome; or a whole condition id or token id.
  q: str({ maxLength: 200 }),
  market: str({ maxLength: 200 }),
  asset_id: str({ maxLength: 200 }),
  side: oneOf(['BUY', 'SELL', 'buy', 'sell']),
  // The outcome's name ("Yes", "No", a candidate), any letter case, whole.
  outcome: str({ maxLength: 200 }),
  status: oneOf(ORDER_STATUSES),
  order_by: oneOf(ORDER_VIEW_FIELDS, { default: 'created_at' }),
  ascending: bool({ default: false }),
};

export const ordersOperations = {
  'orders.list': op<OrdersPage>()({
    // Any malformed cursor, however long, gets the one `invalid next_cursor` answer (the handler decodes it).
    id: str(),
    market: str(),
    asset_id: str(),
    next_cursor: { schema: z.string(), rule: 'a cursor' } as ParamDef<string>,
  }),
  'orders.view': op<OrdersViewPage>()({
    ...viewFilters,
    limit: int({ min: 1, max: ORDERS_VIEW_MAX_LIMIT, default: ORDERS_PAGE_SIZE }),
    offset: int({ min: 0, max: 1_000_000, default: 0 }),
  }),
  // CSV of every row the same filters and sort select (text/csv, an attachment).
  'orders.export': op<RawBody>()(viewFilters),
  // Either dialect's order (the declared type is the spec's, what the app's own calls get).
  'order.get': op<Order>()({ id: str({ required: true, maxLength: 200 }) }),
  'auth.apiKeys': op<{ apiKeys: string[] }>()({}),
  'orders.refresh': op<OrdersStatus>()({}),
  'orders.status': op<OrdersStatus>()({}),
  'credentials.status': op<CredentialsStatus>()({}),
  'credentials.set': op<CredentialsStatus>()({
    apiKey: str({ required: true, maxLength: 512 }),
    secret: str({ required: true, maxLength: 512 }),
    passphrase: str({ required: true, maxLength: 512 }),
    address: str({ required: true, maxLength: 42 }),
  }),
  'credentials.clear': op<CredentialsStatus>()({}),
} satisfies DeclsFor<typeof ordersRoutes>;
