/** The Orders table's columns: header label, the `order_by` field it sorts by, and which way a first click sorts. */
import type { OrderRow, OrderViewField } from '../../hooks/useOrders.ts';
import { fmtDateTime, fmtDecimal } from '../../format.ts';
import { fmtOrderPrice } from '../../format-trade.ts';

export interface OrderColumn {
  field: OrderViewField;
  label: string;
  numeric: boolean;
  /** Numbers and dates start with the largest/newest; text A to Z. */
  firstAscending: boolean;
  /** The cell's text (also what "Copy selected rows" copies). */
  text(r: OrderRow): string;
}

export const marketLabel = (r: OrderRow): string => r.question ?? `${r.market.slice(0, 10)}…`;
export const outcomeLabel = (r: OrderRow): string => r.outcome_name ?? r.outcome;

export const ORDER_COLUMNS: readonly OrderColumn[] = [
  { field: 'market', label: 'Market', numeric: false, firstAscending: true, text: (r) => `${marketLabel(r)} · ${outcomeLabel(r)}` },
  { field: 'side', label: 'Side', numeric: false, firstAscending: true, text: (r) => r.side },
  { field: 'price', label: 'Price', numeric: true, firstAscending: false, text: (r) => fmtOrderPrice(r.price) },
  { field: 'size', label: 'Size', numeric: true, firstAscending: false, text: (r) => fmtDecimal(r.originalSize) },
  { field: 'filled', label: 'Filled', numeric: true, firstAscending: false, text: (r) => fmtDecimal(r.sizeMatched) },
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
