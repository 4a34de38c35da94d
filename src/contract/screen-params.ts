/**
 * The screen filters (issue 16): marketdesk's own listing parameters of `/markets` and `/events`
 * (and so of their counts and CSV exports). All start with `md_`, so none can collide with a
 * Gamma parameter. Each value is checked here; `screenRangeError` checks the pairs (min <= max).
 */
import { z } from 'zod';
import { bool, date, int, list, num, str, type ParamDef } from './params.ts';

/** A finite number between `min` and `max` inclusive (a chance is 0..1). */
function numIn(min: number, max: number): ParamDef<number> {
  return { schema: num().schema.pipe(z.number().min(min).max(max)), rule: `a number between ${min} and ${max}` };
}

/** A tag slug, as `/tags` lists it. Repeatable: `md_tag=a&md_tag=b`. */
const tagSlugs = list(str({ maxLength: 100 }), { maxItems: 50 });

/** The filters both listings take. Money missing upstream counts as 0 (as Gamma's own ranges). */
const common = {
  md_volume_min: num(),
  md_volume_max: num(),
  md_volume24h_min: num(),
  md_volume24h_max: num(),
  md_liquidity_min: num(),
  md_liquidity_max: num(),
  /** End date on or after / on or before (ISO 8601). */
  md_end_after: date(),
  md_end_before: date(),
  /** Ends from now to now + N hours (at most 10 years). */
  md_ends_within_hours: int({ min: 1, max: 87_600 }),
  /** Has every one of these tags. */
  md_tag: tagSlugs,
  /** Has none of these tags. */
  md_not_tag: tagSlugs,
  /** Text in the question (markets) or the title (events), any case. */
  md_q: str({ maxLength: 200 }),
  /** true: on the watchlist (a market, or one of a watched event); false: not on it. */
  md_watchlist: bool(),
  /** true: the account has open orders on it (an event: on one of its markets); false: none. */
  md_has_orders: bool(),
};

export const eventScreenParams = common;

export const marketScreenParams = {
  ...common,
  /** The first outcome's price (Gamma's `outcomePrices[0]`), 0..1. */
  md_chance_min: numIn(0, 1),
  md_chance_max: numIn(0, 1),
  /** `oneDayPriceChange`, in price units (-0.05 = down 5 points). */
  md_change24h_min: numIn(-1, 1),
  md_change24h_max: numIn(-1, 1),
  md_spread_min: numIn(0, 1),
  md_spread_max: numIn(0, 1),
};

type Ranges = Partial<Record<keyof typeof marketScreenParams, unknown>>;

const PAIRS = ['chance', 'change24h', 'spread', 'volume', 'volume24h', 'liquidity'] as const;

/** The message of the first range whose min exceeds its max, or of an empty date window; null when all are sound. */
export function screenRangeError(p: Ranges): string | null {
  for (const k of PAIRS) {
    const min = p[`md_${k}_min`];
    const max = p[`md_${k}_max`];
    if (typeof min === 'number' && typeof max === 'number' && min > max) return `md_${k}_min must not exceed md_${k}_max`;
  }
  const after = p.md_end_after;
  const before = p.md_end_before;
  if (typeof after === 'number' && typeof before === 'number' && after > before) return 'md_end_after must not be later than md_end_before';
  return null;
}
