/**
 * Live numbers: a market's chance, 24h change and spread as the stream has them, with a brief
 * highlight of the direction of each move and the number's freshness (live, stale with its age,
 * or as of the last sync) on the element (`data-freshness`) and in its tooltip. Without a live
 * quote (not streaming, offline, a market that cannot trade) they show the catalog's values,
 * labelled as of the last sync: nothing claims to be live that is not.
 */
import type { ReactNode } from 'react';
import { quoteFreshness, type Freshness, type LiveQuote } from '../../../src/contract/live.ts';
import { eventLeader, marketChance, marketLeader, outcomesOf, rankMarkets } from '../../../src/contract/market-rules.ts';
import type { Market } from '../api.ts';
import { fmtCents, fmtChance, spreadOf } from '../chance.ts';
import { changeCell, outcomePrices, outcomesTitle } from '../components/cells.tsx';
import { fmtChange, num } from '../format.ts';
import { useStreamStatus, useTick, type Tick } from './store.ts';
import { useHoldMarket } from './view.ts';
import './stream.css';

/**
 * The market with the quote's numbers in place of the catalog's: each outcome's price (the
 * catalog's where the stream has none), best bid and ask, the spread, and the 24h change moved
 * by as much as the first outcome's price moved since the sync (Gamma's change is the first
 * outcome's, against its price 24 h ago, which the sync did not change).
 */
export function withQuote(m: Market, q: LiveQuote | undefined): Market {
  if (!q) return m;
  const catalog = outcomesOf(m);
  const prices = catalog.map((o, i) => q.prices[i] ?? o.price ?? null);
  const out: Market = { ...m, outcomePrices: JSON.stringify(prices.map((p) => (p === null ? '' : String(p)))) };
  const was = marketChance(m);
  const now = q.prices[0];
  const change = num(m['oneDayPriceChange']);
  if (change !== undefined && was !== undefined && now !== null && now !== undefined) {
    out['oneDayPriceChange'] = Math.round((change + now - was) * 1e6) / 1e6;
  }
  if (q.bestBid !== null && q.bestAsk !== null) {
    out.bestBid = q.bestBid;
    out.bestAsk = q.bestAsk;
    out.spread = q.bestAsk >= q.bestBid ? Math.round((q.bestAsk - q.bestBid) * 1e6) / 1e6 : undefined;
  }
  return out;
}

/** The freshness of a market's live numbers now. */
export function useFreshness(tick: Tick | undefined): Freshness {
  const seen = useStreamStatus();
  return quoteFreshness(tick?.quote, seen?.status, seen?.now ?? Date.now(), seen ? seen.now - seen.at : 0);
}

export function fmtAge(ms: number): string {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s} s` : s < 3600 ? `${Math.round(s / 60)} min` : `${Math.round(s / 3600)} h`;
}

export function freshnessText(f: Freshness): string {
  return f.kind === 'live' ? 'Live' : f.kind === 'stale' ? `Stale: no update for ${fmtAge(f.ageMs)}` : 'As of the last sync';
}

/** A market's quote while the component is mounted (it holds the market in the window's live view). */
export function useMarketTick(id: string): { tick: Tick | undefined; fresh: Freshness } {
  useHoldMarket(id);
  const tick = useTick(id);
  const fresh = useFreshness(tick);
  return { tick: fresh.kind === 'sync' ? undefined : tick, fresh };
}

/** The element a live number sits in: freshness, the highlight of its last move, and its upstream time (the bench reads it). */
function LiveValue(p: { tick: Tick | undefined; fresh: Freshness; title: string | undefined; children: ReactNode; flash?: boolean }) {
  const { tick, fresh } = p;
  const flash = p.flash !== false && fresh.kind === 'live' && tick?.dir ? ` tick-${tick.dir}` : '';
  const title = [p.title, freshnessText(fresh)].filter(Boolean).join('\n');
  return (
    <span
      // A new key per move restarts the highlight.
      key={tick?.moves ?? 0}
      className={`live-value fresh-${fresh.kind}${flash}`}
      data-freshness={fresh.kind}
      data-live-ts={tick?.quote.timestamp ?? undefined}
      title={title}
    >
      {p.children}
    </span>
  );
}

export function LiveChance({ m }: { m: Market }) {
  const { tick, fresh } = useMarketTick(m.id);
  const lm = withQuote(m, tick?.quote);
  const l = marketLeader(lm);
  return (
    <LiveValue tick={tick} fresh={fresh} title={l ? `${l.name}: ${fmtChance(l.price)} chance, ${fmtCents(l.price)}` : undefined}>
      {fmtChance(l?.price)}
    </LiveValue>
  );
}

export function LiveChange({ m }: { m: Market }) {
  const { tick, fresh } = useMarketTick(m.id);
  const v = withQuote(m, tick?.quote)['oneDayPriceChange'];
  return (
    <LiveValue
      tick={tick}
      fresh={fresh}
      title={num(v) === undefined ? undefined : `${fmtChange(v)} points of chance in 24 hours`}
      flash={num(v) !== undefined}
    >
      {changeCell(v)}
    </LiveValue>
  );
}

export function LiveSpread({ m }: { m: Market }) {
  const { tick, fresh } = useMarketTick(m.id);
  const lm = withQuote(m, tick?.quote);
  const title =
    lm.bestBid !== undefined && lm.bestAsk !== undefined ? `Bid ${fmtCents(lm.bestBid)} · Ask ${fmtCents(lm.bestAsk)}` : undefined;
  return (
    <LiveValue tick={tick} fresh={fresh} title={title} flash={false}>
      {fmtCents(spreadOf(lm))}
    </LiveValue>
  );
}

/** A section's freshness label: "Live", "Stale · 12 s", or "As of the last sync". */
export function FreshnessLabel({ fresh, testId }: { fresh: Freshness; testId?: string }) {
  const text = fresh.kind === 'live' ? 'Live' : fresh.kind === 'stale' ? `Stale · ${fmtAge(fresh.ageMs)}` : 'As of the last sync';
  return (
    <span className={`fresh-label fresh-${fresh.kind}`} data-freshness={fresh.kind} data-testid={testId} title={freshnessText(fresh)}>
      {fresh.kind === 'sync' ? null : <span className="dot" aria-hidden="true" />}
      {text}
    </span>
  );
}

/** An event's leader's chance: its leading market streams while the row is on screen (the others stay as of the sync). */
export function LiveLeaderChance({ markets }: { markets: readonly Market[] }) {
  const top = rankMarkets(markets)[0];
  const { tick, fresh } = useMarketTick(top?.id ?? '');
  const live = tick && top ? markets.map((m) => (m.id === top.id ? withQuote(m, tick.quote) : m)) : markets;
  const l = eventLeader(live);
  return (
    <LiveValue
      tick={tick}
      fresh={top ? fresh : { kind: 'sync' }}
      title={l ? `${l.label}: ${fmtChance(l.price)} chance, ${fmtCents(l.price)}` : undefined}
    >
      {fmtChance(l?.price)}
    </LiveValue>
  );
}

/** The outcomes with their prices (the grid's Outcomes column), live like the chance. */
export function LiveOutcomes({ m }: { m: Market }) {
  const { tick, fresh } = useMarketTick(m.id);
  const lm = withQuote(m, tick?.quote);
  return (
    <LiveValue tick={tick} fresh={fresh} title={outcomesTitle(lm)} flash={false}>
      {outcomePrices(lm)}
    </LiveValue>
  );
}
