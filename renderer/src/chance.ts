/**
 * An event's leader and its chance, as Polymarket shows them: the leading outcome first, its
 * price as a whole percentage, and markets without prices (placeholders such as "Person A")
 * left out.
 */
import type { Market } from './api.ts';
import { jsonList, num, outcomesOf } from './format.ts';

type Priced = Pick<Market, 'outcomePrices'>;
type Ranked = Pick<Market, 'id' | 'question' | 'outcomes' | 'outcomePrices' | 'clobTokenIds' | 'volumeNum' | 'volume' | 'closed'> & {
  groupItemTitle?: unknown;
};

/** A placeholder market has no price at all (outcomePrices missing, null, empty or unparsable). */
export function isPlaceholder(m: Priced): boolean {
  return !jsonList(m.outcomePrices).some((p) => num(p) !== undefined);
}

/** A market's chance within a multi-market event: its first ("Yes") price. */
export function marketChance(m: Priced): number | undefined {
  return num(jsonList(m.outcomePrices)[0]);
}

const volumeOf = (m: Ranked): number => num(m.volumeNum) ?? num(m.volume) ?? 0;

/**
 * Priced markets, leader first: by chance descending, ties by volume descending. Resolved
 * (closed) markets go after the open ones: a settled 100% is not the race's favourite.
 */
export function rankMarkets<M extends Ranked>(markets: readonly M[]): M[] {
  return markets
    .filter((m) => !isPlaceholder(m))
    .sort(
      (a, b) => Number(!!a.closed) - Number(!!b.closed) || (marketChance(b) ?? -1) - (marketChance(a) ?? -1) || volumeOf(b) - volumeOf(a),
    );
}

export interface Leader {
  /** The leading market's short title, or for a one-market event its leading outcome. */
  label: string;
  price: number;
}

/** The event's leader, or undefined when no market has a price. */
export function eventLeader(markets: readonly Ranked[]): Leader | undefined {
  const ranked = rankMarkets(markets);
  if (ranked.length === 1) {
    // One market: the outcomes are the choices (Yes/No, or two named sides).
    const best = outcomesOf(ranked[0]!)
      .filter((o) => o.price !== undefined)
      .sort((a, b) => b.price! - a.price!)[0];
    if (best) return { label: best.name, price: best.price! };
  }
  const top = ranked[0];
  const price = top ? marketChance(top) : undefined;
  if (!top || price === undefined) return undefined;
  const title = typeof top.groupItemTitle === 'string' && top.groupItemTitle.trim() ? top.groupItemTitle.trim() : undefined;
  return { label: title ?? top.question ?? top.id, price };
}

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

type Quoted = Pick<Market, 'outcomes' | 'outcomePrices' | 'clobTokenIds'>;

/**
 * A market's chance as Polymarket's market list shows it: for a Yes/No market the Yes price,
 * otherwise the highest-priced outcome (two named sides, e.g. teams). Undefined without prices.
 */
export function marketLeader(m: Quoted): { name: string; price: number } | undefined {
  const priced = outcomesOf(m).filter((o): o is typeof o & { price: number } => o.price !== undefined);
  const yes = priced.find((o) => o.name.toLowerCase() === 'yes');
  if (yes) return { name: yes.name, price: yes.price };
  const best = priced.reduce<(typeof priced)[number] | undefined>((a, o) => (!a || o.price > a.price ? o : a), undefined);
  return best ? { name: best.name, price: best.price } : undefined;
}

/** The bid-ask spread in dollars: Gamma's `spread`, else best ask minus best bid. */
export function spreadOf(m: Pick<Market, 'bestBid' | 'bestAsk'> & { spread?: unknown }): number | undefined {
  const s = num(m.spread);
  if (s !== undefined) return s;
  const bid = num(m.bestBid);
  const ask = num(m.bestAsk);
  return bid !== undefined && ask !== undefined && ask >= bid ? Math.round((ask - bid) * 1e6) / 1e6 : undefined;
}
