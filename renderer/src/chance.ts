/**
 * Chance as Polymarket shows it: a price as a whole percentage or in cents, and the spread. The
 * rules behind it (a market's chance, an event's leader, placeholders) are the contract's
 * (src/contract/market-rules.ts), shared with the service's CSV export.
 */
import type { Market } from './api.ts';
import { num } from './format.ts';

/** A price as Polymarket's chance: whole percent, "<1%" and ">99%" at the edges. */
export function fmtChance(p: number | undefined): string {
  if (p === undefined || !Number.isFinite(p)) return '—';
  if (p > 0 && p < 0.01) return '<1%';
  if (p > 0.99 && p < 1) return '>99%';
  // Through toFixed: 0.285 * 100 is 28.499…, and the price means 28.5, which rounds to 29.
  return `${Math.round(Number((Math.min(Math.max(p, 0), 1) * 100).toFixed(6)))}%`;
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
