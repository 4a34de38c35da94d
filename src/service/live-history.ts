/**
 * The local price history records live moves (issue 26, part 3). Every live market's ticks (best
 * bid or ask, trades) mark it; at most once per FLUSH_MS its quote (`quoteOf`, only while `live`)
 * goes to the store in one transaction for all the marked markets, where the same snapshot rule as
 * the sync's decides what is kept (0.1 point, at most one per market per 5 minutes unless a 2-point
 * jump; history-schema.ts), moves are reported and old snapshots thinned as after a sync batch. So
 * 1,000 messages a second are one write a second, and a committed write is on disk (the store's WAL).
 */
import { tradingIds } from '../contract/market-rules.ts';
import { quoteOf, type LiveMarkets } from '../live/index.ts';
import type { Logger } from '../logger.ts';
import type { LivePricePoint, LiveRecordsApi } from '../store/store-api.ts';

/** At most one history write this often. */
export const FLUSH_MS = 1_000;

export interface LiveHistoryStart {
  live: Pick<LiveMarkets, 'on' | 'book' | 'shardIdOf'>;
  records: Pick<LiveRecordsApi, 'byCondition' | 'recordPrices'>;
  /** The catalog's version: a market's ids are read again after it moved. */
  catalogVersion(): number;
  flushMs?: number;
  log: Logger;
}

const key = (p: LivePricePoint) => [p.price, p.bid, p.ask, p.last].map((v) => (v === null ? '' : Math.round(v * 10_000))).join();

export function startLiveHistory(a: LiveHistoryStart): { flush(): number; close(): void } {
  /** Condition ids (lower case) of markets that ticked since the last write. */
  const dirty = new Set<string>();
  /** Condition id -> the cached market and its trading ids; null: not cached (or not tradable). */
  const markets = new Map<string, { id: string; ids: string[] } | null>();
  let version = a.catalogVersion();
  /** What was last written per market, so an unchanged quote is not sent again. */
  const sent = new Map<string, string>();
  let timer: NodeJS.Timeout | undefined;
  let warned = '';

  const lookUp = (conditions: string[]) => {
    if (a.catalogVersion() !== version) {
      version = a.catalogVersion();
      markets.clear();
    }
    const missing = conditions.filter((c) => !markets.has(c));
    if (missing.length === 0) return;
    for (const c of missing) markets.set(c, null);
    for (const m of a.records.byCondition(missing)) {
      const c = m.conditionId?.toLowerCase();
      const t = tradingIds(m);
      // Two cached markets on one condition id: the lowest id (read first) is the one.
      if (c !== undefined && t.ok && !m.closed && markets.get(c) === null) markets.set(c, { id: m.id, ids: t.ids });
    }
  };

  /** Writes the marked markets' live quotes now; returns the snapshots the store kept. */
  const flush = (): number => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (dirty.size === 0) return 0;
    const conditions = [...dirty];
    dirty.clear();
    const points: LivePricePoint[] = [];
    try {
      lookUp(conditions);
      for (const c of conditions) {
        const m = markets.get(c);
        if (!m) continue;
        const q = quoteOf(a.live, m.id, m.ids);
        const price = q.prices[0];
        if (q.state !== 'live' || price === null || price === undefined) continue;
        const p: LivePricePoint = { marketId: Number(m.id), price, bid: q.bestBid, ask: q.bestAsk, last: q.lastTradePrice };
        if (sent.get(m.id) !== key(p)) points.push(p);
      }
      if (points.length === 0) return 0;
      const written = a.records.recordPrices(points);
      for (const p of points) sent.set(String(p.marketId), key(p));
      warned = '';
      return written;
    } catch (e) {
      // Not written (a full disk, a closed store): the next tick of each market tries again.
      const why = (e as Error).message;
      if (why !== warned) a.log.warn(`live: recording live prices failed: ${why}`);
      warned = why;
      return 0;
    }
  };

  const tick = (e: { market: string }) => {
    if (!e.market) return;
    dirty.add(e.market.toLowerCase());
    if (!timer) {
      timer = setTimeout(flush, a.flushMs ?? FLUSH_MS);
      timer.unref();
    }
  };
  const offs = [a.live.on('price', tick), a.live.on('trade', tick)];
  return {
    flush,
    close() {
      for (const off of offs) off();
      flush();
    },
  };
}
