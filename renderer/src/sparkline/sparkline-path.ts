/**
 * A sparkline's drawing, computed once per series and kept (a WeakMap on the series array the
 * service answered): the grid's recycled rows then only swap an attribute.
 */
export type Series = readonly (number | null)[];

export interface SparkPath {
  /** SVG polyline points ("x,y x,y ..."); empty when fewer than one value is known. */
  points: string;
  /** 'up', 'down' or 'flat': the last value against the first known one. */
  trend: 'up' | 'down' | 'flat';
  first: number | null;
  last: number | null;
}

export const SPARK_W = 64;
export const SPARK_H = 18;
/** Keeps a line at 0 or 1 (or a flat one) inside the box, not on its edge. */
const PAD = 1.5;
const cache = new WeakMap<Series, SparkPath>();

/**
 * x spreads the buckets over the width (a series that starts late starts right of the left
 * edge); y is scaled to the series' own range (at least 2 points of chance, so noise stays flat).
 */
export function sparkPath(series: Series): SparkPath {
  const hit = cache.get(series);
  if (hit) return hit;
  const known = series.filter((v): v is number => v !== null);
  const first = known[0] ?? null;
  const last = known.at(-1) ?? null;
  let lo = Math.min(...known);
  let hi = Math.max(...known);
  if (hi - lo < 0.02) {
    const mid = (hi + lo) / 2;
    lo = mid - 0.01;
    hi = mid + 0.01;
  }
  const step = series.length > 1 ? (SPARK_W - 2 * PAD) / (series.length - 1) : 0;
  const pts: string[] = [];
  series.forEach((v, i) => {
    if (v === null) return;
    const x = PAD + i * step;
    const y = PAD + (1 - (v - lo) / (hi - lo)) * (SPARK_H - 2 * PAD);
    pts.push(`${x.toFixed(1)},${y.toFixed(1)}`);
  });
  // One known value: a short flat stroke at the right end, so it is seen.
  if (pts.length === 1) pts.unshift(`${(SPARK_W - PAD - 4).toFixed(1)},${pts[0]!.split(',')[1]}`);
  const trend = first === null || last === null || Math.abs(last - first) < 0.005 ? 'flat' : last > first ? 'up' : 'down';
  const out = { points: pts.join(' '), trend, first, last } as const;
  cache.set(series, out);
  return out;
}
