/**
 * Chance as Polymarket shows it: a price as a whole percentage or in cents, and the spread. The
 * rules behind it (a market's chance, an event's leader, placeholders) are the contract's
 * (src/contract/market-rules.ts), shared with the service's CSV export.
 */
import type { Market } from './api.ts';
import { num } from './format.ts';

/**
 * THE chance rule, for every place a price is read as a chance (grids, panels, tooltips, the
 * chart's legend): a whole percent from 1% to 99%; below 1% and above 99% one decimal ("0.4%",
 * "99.6%"), since a whole "0%" or "100%" would claim a certainty the market does not; "<0.1%" and
 * ">99.9%" for what rounds to 0 or 100 without being it. Exactly 0 and 1 read "0%" and "100%".
 */
export function fmtChance(p: number | undefined): string {
  if (p === undefined || !Number.isFinite(p)) return '—';
  const x = Math.min(Math.max(p, 0), 1);
  // Tenths of a percent, through toFixed: 0.285 * 100 is 28.499…, and the price means 28.5.
  const tenths = Math.round(Number((x * 1000).toFixed(6)));
  if (x > 0 && tenths === 0) return '<0.1%';
  if (x < 1 && tenths === 1000) return '>99.9%';
  if (x > 0 && x < 1 && (tenths < 10 || tenths > 990)) return `${(tenths / 10).toFixed(1)}%`;
  return `${Math.round(Number((x * 100).toFixed(6)))}%`;
}

/** The same price in cents, as the buy buttons show it (e.g. "29¢", "0.3¢"). */
export function fmtCents(p: number | undefined): string {
  if (p === undefined || !Number.isFinite(p)) return '—';
  // Through toFixed, as fmtChance: 0.002 * 100 is 0.19999….
  const c = Number((p * 100).toFixed(6));
  return `${c < 1 && c > 0 ? c.toFixed(1) : Math.round(c * 10) / 10}¢`;
}

/** The bid-ask spread in dollars: Gamma's `spread`, else best ask minus best bid. */
export function spreadOf(m: Pick<Market, 'bestBid' | 'bestAsk'> & { spread?: unknown }): number | undefined {
  const s = num(m.spread);
  if (s !== undefined) return s;
  const bid = num(m.bestBid);
  const ask = num(m.bestAsk);
  return bid !== undefined && ask !== undefined && ask >= bid ? Math.round((ask - bid) * 1e6) / 1e6 : undefined;
}
