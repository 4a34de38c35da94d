/**
 * Which of a search hit's markets the Search view lists (pure, so the e2e journeys compute the same
 * rows): the markets the words matched (the service's `matched_markets`) always, first, then the
 * event's other markets in the event panel's order (rankMarkets: leader first, placeholders
 * hidden) up to MARKETS_SHOWN in all.
 */
import { rankMarkets } from '../../../src/contract/market-rules.ts';
import type { DeskSearchEvent } from '../../../src/contract/operations.ts';
import type { Market } from '../../../src/contract/types.ts';

export const MARKETS_SHOWN = 6;

export interface ShownMarkets {
  markets: { market: Market; matched: boolean }[];
  /** The event's other (ranked, non-placeholder) markets, not listed. */
  more: number;
}

export function shownMarkets(event: Pick<DeskSearchEvent, 'markets' | 'matched_markets'>, max = MARKETS_SHOWN): ShownMarkets {
  const ranked = rankMarkets(event.markets);
  const hit = new Set(event.matched_markets);
  const matched = ranked.filter((m) => hit.has(m.id));
  const others = ranked.filter((m) => !hit.has(m.id)).slice(0, Math.max(0, max - matched.length));
  return {
    markets: [...matched.map((market) => ({ market, matched: true })), ...others.map((market) => ({ market, matched: false }))],
    more: ranked.length - matched.length - others.length,
  };
}
