/**
 * One side of the order book as table rows: price (¢), shares, cumulative total, and a depth
 * bar (the row's background, `--depth` wide, set through the CSSOM so the CSP allows it).
 */
import type { CSSProperties } from 'react';
import { fmtCents } from '../chance.ts';
import type { BookRow } from './book.ts';

const shares = new Intl.NumberFormat(undefined, { maximumFractionDigits: 2 });
/** The running total in one precision down the column (cents), so its digits line up: "$0.84", "$1,234.50". */
const dollars = new Intl.NumberFormat(undefined, {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

export function BookLevels({ rows, side }: { rows: BookRow[]; side: 'ask' | 'bid' }) {
  if (rows.length === 0) {
    return (
      <tr className={`book-${side} book-none`}>
        <td colSpan={3} className="muted">
          No {side === 'ask' ? 'asks' : 'bids'}
        </td>
      </tr>
    );
  }
  return rows.map((r) => (
    <tr
      key={r.price}
      className={`book-${side}`}
      data-testid={`book-${side}`}
      style={{ '--depth': `${(r.depth * 100).toFixed(1)}%` } as CSSProperties}
    >
      <td className="num book-price value">{fmtCents(r.price)}</td>
      <td className="num value">{shares.format(r.size)}</td>
      <td className="num value">{dollars.format(r.total)}</td>
    </tr>
  ));
}
