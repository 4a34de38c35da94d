/**
 * The grids' 7-day sparklines (issue 16), read from the local price history, so they answer
 * offline and after a restart. Markets without history in the window are left out (the grid
 * draws nothing for them); 400 when no id is given.
 */
import { badRequest, SPARKLINE_BUCKETS, SPARKLINE_DAYS, type Sparklines } from '../contract/index.ts';
import type { SparklineReads } from '../store/store-api.ts';
import type { HandlersFor } from '../contract/handlers.ts';

const DAY_S = 86_400;
/** 4 hours. */
const BUCKET_S = (SPARKLINE_DAYS * DAY_S) / SPARKLINE_BUCKETS;

export interface SparklineHandlerOptions {
  now?: () => number;
}

export function sparklineHandlers(
  store: { sparklines: SparklineReads },
  opts: SparklineHandlerOptions = {},
): HandlersFor<'markets.sparklines'> {
  return {
    'markets.sparklines': (p): Sparklines => {
      if (p.id.length === 0) throw badRequest('catalog', 'id is required');
      const nowS = Math.floor((opts.now ?? Date.now)() / 1000);
      // The last bucket ends now: its value is the latest recorded price.
      const window = { to: nowS, bucketS: BUCKET_S, buckets: SPARKLINE_BUCKETS };
      const series: Record<string, (number | null)[]> = {};
      for (const [id, s] of store.sparklines.sparklines(p.id, window)) series[id] = s;
      return { days: SPARKLINE_DAYS, buckets: SPARKLINE_BUCKETS, to: new Date(nowS * 1000).toISOString(), series };
    },
  };
}
