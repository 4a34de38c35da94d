import type { ChartInterval } from '../../../src/contract/enums.ts';

/**
 * The chart's data, as uPlot takes it: one x array (unix seconds, ascending, the union of every
 * outcome's timestamps) and one y array per outcome in ¢ (0–100), null where that outcome has
 * no point (drawn across, `spanGaps`).
 */
export interface History {
  name: string;
  history: { t: number; p: number }[];
}

export function alignHistories(outcomes: readonly History[]): [number[], ...(number | null)[][]] {
  const xs = [...new Set(outcomes.flatMap((o) => o.history.map((h) => h.t)))].filter(Number.isFinite).sort((a, b) => a - b);
  const at = new Map(xs.map((t, i) => [t, i]));
  const ys = outcomes.map((o) => {
    const y: (number | null)[] = new Array(xs.length).fill(null);
    for (const h of o.history) {
      const i = at.get(h.t);
      if (i !== undefined && Number.isFinite(h.p)) y[i] = Math.round(h.p * 1e4) / 100;
    }
    return y;
  });
  return [xs, ...ys];
}

/** Whether any outcome has a point to draw. */
export function hasHistory(outcomes: readonly History[]): boolean {
  return outcomes.some((o) => o.history.length > 0);
}

/** Each interval's span in seconds; 'all' has none (all of the local history older than the upstream's). */
export const INTERVAL_S = {
  '1h': 3600,
  '6h': 6 * 3600,
  '1d': 86_400,
  '1w': 7 * 86_400,
  '1m': 30 * 86_400,
  all: null,
} as const satisfies Record<ChartInterval, number | null>;

/** A local snapshot (markets.history): the first outcome's price, 0..1. */
export interface LocalPoint {
  t: number;
  price: number | null;
}

export interface MergedHistories {
  /** The upstream's series, then one local series per outcome that has one (dashed). */
  series: History[];
  dashed: boolean[];
  /** Where the upstream's series start (epoch seconds) when local history fills before it; null when nothing was filled. */
  localBefore: number | null;
  /** The upstream had no points at all: the chart is local history only. */
  localOnly: boolean;
}

/**
 * Fills the part of the interval the upstream's `/prices-history` does not reach (a short
 * upstream history, or an offline copy from a while back) from the local history: points in
 * [from, upstream start), the value in force at `from` moved to `from`. Local history is the
 * first outcome's price; a binary market's second outcome is 1 - p, other outcomes get none.
 * Each local series ends at its outcome's first upstream point, so the dashed part meets the
 * line. Filled only when the gap is worth seeing: more than 1/24 of the interval (an hour for 'all').
 */
export function mergeLocalHistory(
  upstream: readonly History[],
  local: readonly LocalPoint[],
  from: number | null,
  to: number,
): MergedHistories {
  const firsts = upstream.map((o) => o.history[0]?.t).filter((t): t is number => t !== undefined);
  const start = firsts.length > 0 ? Math.min(...firsts) : to + 1;
  const span = from === null ? null : to - from;
  const gap = span === null ? 3600 : span / 24;
  const lo = from ?? Number.NEGATIVE_INFINITY;
  const known = local.filter((p): p is { t: number; price: number } => p.price !== null && Number.isFinite(p.price));
  const fill = known.filter((p, i) => p.t < start && (p.t >= lo || known[i + 1] === undefined || known[i + 1]!.t >= lo));
  const noFill: MergedHistories = { series: [...upstream], dashed: upstream.map(() => false), localBefore: null, localOnly: false };
  if (fill.length === 0 || start - Math.max(lo, fill[0]!.t) <= gap) return noFill;
  const points = fill.map((p) => ({ t: Math.max(p.t, lo), p: p.price }));
  const binary = upstream.length === 2;
  const locals: History[] = [];
  upstream.forEach((o, i) => {
    if (i > 1 || (i === 1 && !binary)) return;
    const history = points.map((q) => ({ t: q.t, p: i === 0 ? q.p : Math.round((1 - q.p) * 1e4) / 1e4 }));
    const join = o.history[0];
    if (join && join.t > history.at(-1)!.t) history.push(join);
    locals.push({ name: `${o.name} · local`, history });
  });
  return {
    series: [...upstream, ...locals],
    dashed: [...upstream.map(() => false), ...locals.map(() => true)],
    localBefore: firsts.length > 0 ? start : null,
    localOnly: firsts.length === 0,
  };
}

/** A live price of each outcome at one second (the stream's quotes while the page is open). */
export interface LivePoint {
  t: number;
  prices: (number | null)[];
}

/**
 * The chart's series with the live points after their last point: each of the first `count`
 * series (the upstream's, one per outcome) gets the points later than its own last one where its
 * outcome has a price. The local series (dashed, before the upstream's) are left as they are.
 */
export function appendLive(series: readonly History[], count: number, points: readonly LivePoint[]): History[] {
  if (points.length === 0) return [...series];
  return series.map((s, i) => {
    if (i >= count) return s;
    const last = s.history.at(-1)?.t ?? Number.NEGATIVE_INFINITY;
    const extra = points
      .filter((p) => p.t > last && p.prices[i] !== null && p.prices[i] !== undefined)
      .map((p) => ({ t: p.t, p: p.prices[i]! }));
    return extra.length === 0 ? s : { ...s, history: [...s.history, ...extra] };
  });
}

/** Adds a live point, one per second at most (a newer price in the same second replaces it); keeps the last `max`. */
export function addLivePoint(points: readonly LivePoint[], p: LivePoint, max = 3600): LivePoint[] {
  const last = points.at(-1);
  if (last && p.t < last.t) return [...points];
  const kept = last && last.t === p.t ? points.slice(0, -1) : points;
  return [...kept, p].slice(-max);
}

/** What a drawn chart really covers, and how its last point compares with the price above it. */
export interface Coverage {
  /** The first and last drawn time (unix seconds) over every series. */
  from: number;
  to: number;
  /** Seconds from the last point to `now`. */
  lastAgeS: number;
  /**
   * The last point is older than the interval lets one expect (a twenty-fourth of it, at least
   * 10 minutes; 2 days for ALL): the chart stops before now, e.g. an old offline copy.
   */
  lagging: boolean;
  /** The first outcome's last drawn price (0..1) and its time, if it has one. */
  lastPrice: { t: number; p: number } | undefined;
  /**
   * `lastPrice` differs from the price shown above the chart (by half a cent or more), or
   * undefined when either is missing.
   */
  priceGap: number | undefined;
}

/**
 * The coverage of the chart's aligned data (alignHistories: x in seconds, y in ¢) at `now`
 * (seconds), against the first outcome's price shown above it (0..1). Undefined with no points.
 */
export function chartCoverage(
  data: readonly (readonly (number | null)[])[],
  interval: ChartInterval,
  now: number,
  price: number | undefined,
): Coverage | undefined {
  const xs = data[0] as readonly number[] | undefined;
  if (!xs || xs.length === 0) return undefined;
  const from = xs[0]!;
  const to = xs[xs.length - 1]!;
  const span = INTERVAL_S[interval];
  const allowed = span === null ? 2 * 86_400 : Math.max(span / 24, 600);
  const ys = data[1] ?? [];
  let lastPrice: Coverage['lastPrice'];
  for (let i = ys.length - 1; i >= 0; i--) {
    const y = ys[i];
    if (y !== null && y !== undefined) {
      lastPrice = { t: xs[i]!, p: Math.round(y * 100) / 1e4 };
      break;
    }
  }
  const gap = lastPrice && price !== undefined ? Math.round((price - lastPrice.p) * 1e4) / 1e4 : undefined;
  return {
    from,
    to,
    lastAgeS: Math.max(0, now - to),
    lagging: now - to > allowed,
    lastPrice,
    priceGap: gap !== undefined && Math.abs(gap) >= 0.005 ? gap : undefined,
  };
}
