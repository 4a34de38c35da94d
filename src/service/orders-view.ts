/**
 * The app's orders view (`orders.view`, `orders.export`): the account's cached orders joined
 * with their cached markets (orders-store.ts's `joined`), filtered by market name or id, sorted
 * by any column, and paged or written out as CSV. The whole account's list is read per call:
 * a few thousand orders filter and sort in milliseconds, and a name filter needs the join anyway.
 */
import type { OrderRow, OrderViewField } from '../contract/orders-ops.ts';
import type { JoinedOrder } from '../store/orders-store.ts';
import { csvRow } from './export-csv.ts';
import { specOrder } from './order-dialects.ts';

export interface ViewQuery {
  q?: string | undefined;
  market?: string | undefined;
  asset_id?: string | undefined;
  side?: string | undefined;
  order_by: OrderViewField;
  ascending: boolean;
}

export function orderRow(j: JoinedOrder): OrderRow {
  const { position: _p, marketId, question, outcomeName, eventTitle, ...cached } = j;
  return { ...specOrder(cached), question, outcome_name: outcomeName, market_id: marketId, event_title: eventTitle };
}

/**
 * `q` matches a market by name (its question or its event's title, case-insensitively, as a
 * substring) or by id (the condition id in any letter case, or the token id exactly).
 */
function matcher(q: ViewQuery): (j: JoinedOrder) => boolean {
  const market = q.market?.trim().toLowerCase();
  const asset = q.asset_id?.trim();
  const side = q.side?.toUpperCase();
  const text = q.q?.trim().toLowerCase();
  return (j) =>
    (market === undefined || j.market.toLowerCase() === market) &&
    (asset === undefined || j.assetId === asset) &&
    (side === undefined || j.side.toUpperCase() === side) &&
    (!text ||
      j.market.toLowerCase() === text ||
      j.assetId === text ||
      !!j.question?.toLowerCase().includes(text) ||
      !!j.eventTitle?.toLowerCase().includes(text));
}

const numeric = (v: string): number => {
  const n = Number(v);
  return Number.isFinite(n) ? n : Number.NEGATIVE_INFINITY;
};

/**
 * Each column's sort key, computed once per row (a comparator parsing dates or folding case on
 * every comparison took most of the time at a few thousand orders). Text keys are lower-cased;
 * rows without a cached market sort after the named ones by question.
 */
const KEY: Record<OrderViewField, (j: JoinedOrder) => number | string> = {
  created_at: (j) => Date.parse(j.createdAt) || 0,
  price: (j) => numeric(j.price),
  size: (j) => numeric(j.originalSize),
  filled: (j) => numeric(j.sizeMatched),
  market: (j) => (j.question === null ? `\uffff${j.market}` : j.question.toLowerCase()),
  outcome: (j) => (j.outcomeName ?? j.outcome).toLowerCase(),
  side: (j) => j.side.toLowerCase(),
  status: (j) => j.status.toLowerCase(),
  // "0" is no expiry: last when ascending, as the furthest.
  expiration: (j) => numeric(j.expiration) || Number.POSITIVE_INFINITY,
};

/**
 * The matching orders in the asked order; ties keep the upstream's order (newest first) either
 * way. Still the store's rows: the caller makes OrderRows of the page it answers with.
 */
export function selectRows(joined: readonly JoinedOrder[], q: ViewQuery): JoinedOrder[] {
  const key = KEY[q.order_by];
  const dir = q.ascending ? 1 : -1;
  return joined
    .filter(matcher(q))
    .map((j) => ({ j, key: key(j) }))
    .sort((a, b) => (a.key < b.key ? -dir : a.key > b.key ? dir : a.j.position - b.j.position))
    .map((x) => x.j);
}

// ---- CSV ---------------------------------------------------------------------------------------

export const ORDERS_CSV_HEADER = [
  'id',
  'created_at',
  'market',
  'question',
  'outcome',
  'side',
  'price_cents',
  'original_size',
  'size_matched',
  'status',
  'asset_id',
  'expiration',
] as const;

/** A decimal price in dollars as cents, exactly as written ("0.375" -> "37.5"), without float noise. */
export function priceCents(price: string): string {
  const n = Number(price);
  if (!Number.isFinite(n)) return price;
  return String(Number((n * 100).toFixed(6)));
}

/** The CSV record of one row (RFC 4180 quoting and formula defusing: export-csv.ts, shared with catalog.export). */
export function csvLine(j: JoinedOrder): string {
  const r = orderRow(j);
  return csvRow([
    r.id,
    r.createdAt,
    r.market,
    r.question,
    r.outcome_name ?? r.outcome,
    r.side,
    priceCents(r.price),
    r.originalSize,
    r.sizeMatched,
    r.status,
    r.assetId,
    j.expiration,
  ]);
}

/** The export's body: the header, then the rows a chunk at a time (the face streams it). */
export async function* ordersCsv(rows: readonly JoinedOrder[]): AsyncIterable<string> {
  yield `${ORDERS_CSV_HEADER.join(',')}\r\n`;
  const CHUNK = 200;
  for (let i = 0; i < rows.length; i += CHUNK)
    yield rows
      .slice(i, i + CHUNK)
      .map(csvLine)
      .join('');
}
