/**
 * The one pager of the offset-paged tables (Orders, Leaderboard): first, previous, next, the
 * range shown ("1–100 of 275", or "26–50" when the total is unknown) and the page size.
 */
import { fmtInt } from '../format.ts';
import './Pager.css';

export interface PagerProps {
  offset: number;
  limit: number;
  /** Rows on this page. */
  count: number;
  /** Rows over all pages; undefined when the source does not say (then Next follows a full page). */
  total?: number | undefined;
  /** The largest offset the source accepts. */
  maxOffset?: number;
  onOffset(offset: number): void;
  /** Page sizes to choose from; none: no size picker. */
  sizes?: readonly number[];
  onLimit?(limit: number): void;
  /** What is counted ("orders", "traders"), for screen readers and the range line. */
  noun: string;
}

export function Pager({ offset, limit, count, total, maxOffset = Number.MAX_SAFE_INTEGER, onOffset, sizes, onLimit, noun }: PagerProps) {
  const last = offset + count;
  const hasNext = (total !== undefined ? last < total : count >= limit) && offset + limit <= maxOffset;
  const range = count === 0 ? '0' : `${fmtInt(offset + 1)}–${fmtInt(last)}`;
  return (
    <nav className="pager" aria-label={`Pages of ${noun}`}>
      <button type="button" className="btn" disabled={offset === 0} onClick={() => onOffset(0)}>
        « First
      </button>
      <button type="button" className="btn" disabled={offset === 0} onClick={() => onOffset(Math.max(0, offset - limit))}>
        ← Previous
      </button>
      <span className="pager-range" data-testid="pager-range" aria-live="polite">
        {range}
        {total !== undefined ? ` of ${fmtInt(total)}` : ''} {noun}
      </span>
      <button type="button" className="btn" disabled={!hasNext} onClick={() => onOffset(offset + limit)}>
        Next →
      </button>
      {sizes && onLimit ? (
        <label className="pager-size">
          <span className="field-label">Per page</span>
          <select value={limit} onChange={(e) => onLimit(Number(e.target.value))}>
            {sizes.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
      ) : null}
    </nav>
  );
}
