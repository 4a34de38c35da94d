/**
 * Sparklines (issue 16): the last 7 days of many markets' local price history at once, cut into
 * fixed buckets, for the grids' "7d" column. One request per block of rows, one SQL read.
 * Its route is routes.ts's `sparklineRoutes`.
 */
import { op, type DeclsFor } from './define.ts';
import { int, list } from './params.ts';
import type { sparklineRoutes } from './routes.ts';

/** Ids one request may ask for: two blocks of grid rows. */
export const SPARKLINE_MAX_IDS = 200;
export const SPARKLINE_DAYS = 7;
/** 42 buckets of 4 hours: finer than a 60-pixel cell needs, coarse enough to stay small. */
export const SPARKLINE_BUCKETS = 42;

export interface Sparklines {
  days: number;
  buckets: number;
  /** ISO 8601: the end of the last bucket (the time of the answer). */
  to: string;
  /**
   * By market id: the first outcome's price (0..1) at the end of each bucket, oldest first, the
   * last value carried forward; null before the market's history begins. Markets with no local
   * history in the window (or unknown ids) are left out: the grid draws nothing rather than a
   * made-up flat line.
   */
  series: Record<string, (number | null)[]>;
}

export const sparklineOperations = {
  'markets.sparklines': op<Sparklines>()({
    id: { ...list(int({ min: 0, max: 999_999_999_999_999 }), { maxItems: SPARKLINE_MAX_IDS }), required: true as const },
  }),
} satisfies DeclsFor<typeof sparklineRoutes>;
