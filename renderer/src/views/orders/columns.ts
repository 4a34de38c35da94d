/** The Orders table's columns: header label, the `order_by` field it sorts by, and which way a first click sorts. */
import type { OrderRow, OrderViewField } from '../../hooks/useOrders.ts';
import { DASH, fmtDateTime, fmtDecimal, fmtMoneyFull, MINUS } from '../../format.ts';
import { fmtOrderPrice } from '../../format-trade.ts';

export interface OrderColumn {
  field: OrderViewField;
  label: string;
  numeric: boolean;
  /** Numbers and dates start with the largest/newest; text A to Z. */
  firstAscending: boolean;
  /** The cell's text (also what "Copy selected rows" copies). */
  text(r: OrderRow): string;
  /** The header's tooltip: what the column means. */
  hint?: string;
  /** The cell's tooltip, where the text needs explaining. */
  title?(r: OrderRow): string;
}

/** Cents with their sign, to a tenth: "+5¢", "−2.5¢", "0¢". */
export function fmtDistance(cents: number | null): string {
  if (cents === null) return DASH;
  const c = Math.round(cents * 10) / 10;
  if (c === 0) return '0¢';
  return `${c > 0 ? '+' : MINUS}${Math.abs(c)}¢`;
}

/** Says what the distance is measured from: the catalog's price for the order's outcome, as of the last sync. */
function distanceTitle(r: OrderRow): string {
  if (r.current_price === null) return 'The market’s price is not in the cache';
  const where = r.distance_cents === null || Math.abs(r.distance_cents) < 0.05 ? 'at' : r.distance_cents > 0 ? 'above' : 'below';
  const market = fmtOrderPrice(r.current_price);
  return `Order at ${fmtOrderPrice(r.price)}, ${where} the market’s ${market} for ${outcomeLabel(r)} (its price as of the last sync)`;
}

export const marketLabel = (r: OrderRow): string => r.question ?? `${r.market.slice(0, 10)}…`;
export const outcomeLabel = (r: OrderRow): string => r.outcome_name ?? r.outcome;

export const ORDER_COLUMNS: readonly OrderColumn[] = [
  { field: 'market', label: 'Market', numeric: false, firstAscending: true, text: (r) => `${marketLabel(r)} · ${outcomeLabel(r)}` },
  { field: 'side', label: 'Side', numeric: false, firstAscending: true, text: (r) => r.side },
  { field: 'price', label: 'Price', numeric: true, firstAscending: false, text: (r) => fmtOrderPrice(r.price) },
  { field: 'size', label: 'Size', numeric: true, firstAscending: false, text: (r) => fmtDecimal(r.originalSize) },
  { field: 'filled', label: 'Filled', numeric: true, firstAscending: false, text: (r) => fmtDecimal(r.sizeMatched) },
  {
    field: 'remaining',
    label: 'Remaining',
    numeric: true,
    firstAscending: false,
    text: (r) => fmtDecimal(r.remaining),
    hint: 'Size still open: size − filled',
  },
  {
    field: 'value',
    label: 'Value',
    numeric: true,
    firstAscending: false,
    text: (r) => fmtMoneyFull(r.value),
    hint: 'Remaining size × price: what the open part costs (buy) or pays (sell)',
  },
  {
    field: 'distance',
    label: 'Distance',
    numeric: true,
    firstAscending: false,
    text: (r) => fmtDistance(r.distance_cents),
    hint: 'Order price − the market’s price for that outcome (as of the last sync), in cents',
    title: distanceTitle,
  },
  { field: 'status', label: 'Status', numeric: false, firstAscending: true, text: (r) => r.status },
  { field: 'created_at', label: 'Created', numeric: false, firstAscending: false, text: (r) => fmtDateTime(r.createdAt) },
];

/** The selected rows as a table for the clipboard: the shown columns, plus the ids a script would want. */
export function copyRows(rows: readonly OrderRow[]): (string | null)[][] {
  return [
    ['Market', 'Outcome', ...ORDER_COLUMNS.slice(1).map((c) => c.label), 'Order id', 'Condition id', 'Token id'],
    ...rows.map((r) => [marketLabel(r), outcomeLabel(r), ...ORDER_COLUMNS.slice(1).map((c) => c.text(r)), r.id, r.market, r.assetId]),
  ];
}
