/**
 * The grids' "7d" cell: a tiny SVG polyline of the market's local price history (7 days in 4-hour
 * buckets). A fixed-size box, so nothing around it moves when the line arrives; the points are
 * computed once per answer (sparkline-path.ts).
 */
import { memo } from 'react';
import { fmtCents } from '../chance.ts';
import { SPARK_H, SPARK_W, sparkPath } from './sparkline-path.ts';
import { useSparkline } from './useSparkline.ts';
import './Sparkline.css';

// One price rule everywhere (chance.ts).
const cents = fmtCents;

export const SparkCell = memo(function SparkCell({ id }: { id: string }) {
  const entry = useSparkline(id);
  const path = entry?.series ? sparkPath(entry.series) : undefined;
  const label =
    entry === undefined
      ? undefined
      : path && path.first !== null && path.last !== null
        ? `7 days: ${cents(path.first)} to ${cents(path.last)}`
        : 'No local price history yet';
  return (
    <svg
      className="sparkline"
      width={SPARK_W}
      height={SPARK_H}
      viewBox={`0 0 ${SPARK_W} ${SPARK_H}`}
      role="img"
      aria-label={label ?? 'Loading 7-day history'}
      data-testid="sparkline"
      data-state={entry === undefined ? 'loading' : path ? 'drawn' : 'none'}
      data-trend={path?.trend}
    >
      {label ? <title>{label}</title> : null}
      {path ? <polyline points={path.points} /> : null}
    </svg>
  );
});
