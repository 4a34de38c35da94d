/**
 * The order book as a trader reads it: best bid, best ask and the spread, then the levels
 * nearest the spread with their cumulative dollar total and depth (0–1 of the deepest side
 * shown). The service passes Polymarket's order (best LAST); this sorts anyway, so a
 * reordered answer cannot put a worse price on top.
 */
import type { OutcomeBook } from '../../../src/contract/desk-ops.ts';

export interface BookRow {
  price: number;
  size: number;
  /** Cumulative dollars (price × size) from the best level to this one. */
  total: number;
  /** total / the larger side's total: the depth bar's width. */
  depth: number;
}

export interface BookView {
  /** Highest price first, so the best ask sits just above the spread (Polymarket's layout). */
  asks: BookRow[];
  /** Best (highest) first, just below the spread. */
  bids: BookRow[];
  bestBid: number | undefined;
  bestAsk: number | undefined;
  spread: number | undefined;
}

type Raw = { price: string; size: string };

function side(levels: readonly Raw[], bestFirst: (a: number, b: number) => number, n: number): BookRow[] {
  const parsed = levels
    .map((l) => ({ price: Number(l.price), size: Number(l.size) }))
    .filter((l) => Number.isFinite(l.price) && Number.isFinite(l.size) && l.size > 0)
    .sort((a, b) => bestFirst(a.price, b.price))
    .slice(0, n);
  let total = 0;
  return parsed.map((l) => {
    total += l.price * l.size;
    return { ...l, total, depth: 0 };
  });
}

export function bookView(book: OutcomeBook | null | undefined, levels = 8): BookView {
  const bids = side(book?.bids ?? [], (a, b) => b - a, levels);
  const asks = side(book?.asks ?? [], (a, b) => a - b, levels);
  const deepest = Math.max(bids.at(-1)?.total ?? 0, asks.at(-1)?.total ?? 0);
  for (const r of [...bids, ...asks]) r.depth = deepest > 0 ? r.total / deepest : 0;
  const bestBid = bids[0]?.price;
  const bestAsk = asks[0]?.price;
  const spread = bestBid !== undefined && bestAsk !== undefined ? Math.round((bestAsk - bestBid) * 1e6) / 1e6 : undefined;
  return { asks: asks.reverse(), bids, bestBid, bestAsk, spread };
}
