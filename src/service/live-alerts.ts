/**
 * Price alerts on live ticks (issue 26, part 3). The markets price rules name are held live
 * (live-interest.ts); a tick of one of them (a best bid or ask moved, a trade, a snapshot) has the
 * engine evaluate that market's price rules on its live price (`quoteOf(...).prices[0]`, only
 * while its quote is `live`) within TICK_COALESCE_MS. evaluate.ts stays the one judge of a firing:
 * this module only hands it the price.
 *
 * Once per crossing, against the catalog too: every evaluation, the sync's included, reads a live
 * market's live price instead of the catalog's lagging one (AlertEngine.setLivePrices), so a sync
 * never sees the price back on the side it was before the tick. A market whose books just stopped
 * being live (a dropped socket, a resync) keeps its last live price for LIVE_HOLD_MS, as the
 * catalog's price is not newer than it for about that long.
 */
import type { AlertEngine } from '../alerts/alert-engine.ts';
import { quoteOf, type LiveMarkets } from '../live/index.ts';
import type { Logger } from '../logger.ts';
import type { LiveInterest } from './live-interest.ts';

/** Ticks of this long are evaluated together: well within a second of the first. */
export const TICK_COALESCE_MS = 100;
/** How long a live price stays in force after its books stop being live (Gamma's price lags the book by up to a minute or so). */
export const LIVE_HOLD_MS = 120_000;

export interface LiveAlertsStart {
  live: Pick<LiveMarkets, 'on' | 'book' | 'shardIdOf'>;
  engine: Pick<AlertEngine, 'setLivePrices' | 'evaluateLive'>;
  interest: Pick<LiveInterest, 'tradingIdsOf' | 'ruleMarketOf'>;
  now?: () => number;
  log: Logger;
}

export function startLiveAlerts(a: LiveAlertsStart): { close(): void } {
  const now = a.now ?? Date.now;
  const seen = new Map<string, { price: number; at: number }>();
  a.engine.setLivePrices((marketId) => {
    const ids = a.interest.tradingIdsOf(marketId);
    if (ids) {
      const q = quoteOf(a.live, marketId, ids);
      const price = q.prices[0];
      if (q.state === 'live' && price !== null && price !== undefined) {
        seen.set(marketId, { price, at: now() });
        return { price, live: true };
      }
    }
    const last = seen.get(marketId);
    if (last && now() - last.at <= LIVE_HOLD_MS) return { price: last.price, live: false };
    seen.delete(marketId);
    return undefined;
  });

  const dirty = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  const run = () => {
    timer = undefined;
    const ids = [...dirty];
    dirty.clear();
    try {
      a.engine.evaluateLive(ids);
    } catch (e) {
      // The next tick evaluates again.
      a.log.warn(`alerts: live evaluation failed: ${(e as Error).stack ?? String(e)}`);
    }
  };
  const tick = (e: { assetId: string }) => {
    const market = a.interest.ruleMarketOf(e.assetId);
    if (market === undefined) return;
    dirty.add(market);
    if (!timer) {
      timer = setTimeout(run, TICK_COALESCE_MS);
      timer.unref();
    }
  };
  const offs = [a.live.on('price', tick), a.live.on('trade', tick), a.live.on('book', (e) => e.snapshot && tick(e))];
  return {
    close() {
      for (const off of offs) off();
      if (timer) clearTimeout(timer);
      timer = undefined;
      a.engine.setLivePrices(undefined);
    },
  };
}
