/**
 * The app's orders view (`orders.view`, `orders.export`): the account's cached orders joined
 * with their cached markets (orders-store.ts's `joined`), filtered by words, id, side, outcome
 * and status, sorted by any column, and paged or written out as CSV. The whole account's list is read per call:
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
  outcome?: string | undefined;
  status?: string | undefined;
  order_by: OrderViewField;
  ascending: boolean;
}

/** Rounded to 6 places: sizes and prices are short decimals, and float noise would show in a column. */
const r6 = (x: number): number => Number(x.toFixed(6));

/** The open size, the value of that size at the order's price, and the distance to the market's price (¢). */
function figures(j: JoinedOrder): { remaining: number; value: number; distance: number | null } {
  const size = Number(j.originalSize);
  const matched = Number(j.sizeMatched);
  const remaining = Number.isFinite(size) ? r6(Math.max(0, size - (Number.isFinite(matched) ? matched : 0))) : 0;
  const price = Number(j.price);
  const ok = Number.isFinite(price);
  return {
    remaining,
    value: ok ? r6(remaining * price) : 0,
    distance: ok && j.currentPrice !== null ? r6((price - j.currentPrice) * 100) : null,
  };
}

export function orderRow(j: JoinedOrder): OrderRow {
  const { position: _p, marketId, question, outcomeName, eventTitle, currentPrice, ...cached } = j;
  const f = figures(j);
  return {
    ...specOrder(cached),
    question,
    outcome_name: outcomeName,
    market_id: marketId,
    event_title: eventTitle,
    remaining: String(f.remaining),
    value: f.value,
    current_price: currentPrice,
    distance_cents: f.distance,
  };
}

/** The words of a filter text, lower-cased (whitespace separates them). */
const words = (text: string): string[] => text.toLowerCase().split(/\s+/).filter(Boolean);

/**
 * `q` matches an order by words, in any order, each a substring of its market's question, its
 * event's title or its outcome (case-insensitively), or, whole, by id (the condition id in any
 * letter case, or the token id exactly). `outcome` is the outcome's name whole, any case.
 */
function matcher(q: ViewQuery): (j: JoinedOrder) => boolean {
  const market = q.market?.trim().toLowerCase();
  const asset = q.asset_id?.trim();
  const side = q.side?.toUpperCase();
  const outcome = q.outcome?.trim().toLowerCase() || undefined;
  const status = q.status?.toLowerCase();
  const text = q.q?.trim().toLowerCase() ?? '';
  const terms = words(text);
  const byText = (j: JoinedOrder): boolean => {
    if (terms.length === 0 || j.market.toLowerCase() === text || j.assetId === text) return true;
    const hay = [j.question, j.eventTitle, j.outcomeName ?? j.outcome]
      .filter((s) => s !== null)
      .join('\n')
      .toLowerCase();
    return terms.every((t) => hay.includes(t));
  };
  return (j) =>
    (market === undefined || j.market.toLowerCase() === market) &&
    (asset === undefined || j.assetId === asset) &&
    (side === undefined || j.side.toUpperCase() === side) &&
    (outcome === undefined || (j.outcomeName ?? j.outcome).toLowerCase() === outcome) &&
    (status === undefined || j.status.toLowerCase() === status) &&
    byText(j);
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
  remaining: (j) => figures(j).remaining,
  value: (j) => figures(j).value,
  // No current price: last either way round would need a second key; lowest is as good (and stable).
  distance: (j) => figures(j).distance ?? Number.NEGATIVE_INFINITY,
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
  'remaining_size',
  'value',
  'current_price_cents',
  'distance_cents',
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
    r.remaining,
    // Numbers as numbers: a negative distance is not a formula to defuse.
    r.value,
    r.current_price === null ? null : priceCents(String(r.current_price)),
    r.distance_cents,
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
