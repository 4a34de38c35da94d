/**
 * The market channel's `new_market` and `market_resolved` notices (issue 26, part 3), which the
 * channel sends to every socket that asked for custom features, whatever it subscribed: the live
 * layer only hears them while some asset is subscribed.
 *
 * - `market_resolved` goes into the change feed at once, as the `resolved` change the sync writes
 *   (the winner, the settled prices), unless the cache knew it already; the sync does not report it
 *   again (history-recorder.ts `resolvedLive`).
 * - Both have the market fetched again from Gamma (`GET /markets?condition_ids=…`, through the
 *   upstream client and the outbound scheduler, behind users' requests) and written to the cache.
 *   A new market's `new_market` change is written by that write (the sync's trigger, with the market
 *   in the same transaction), so a new-match alert finds the market it names. Gamma may list a new
 *   market a little after the channel announces it: it is asked again after RETRY_MS; after that
 *   the next sync brings it.
 */
import type { LiveMarketNotice, LiveMarkets } from '../live/index.ts';
import type { Logger } from '../logger.ts';
import type { CatalogWrites, LiveRecordsApi } from '../store/store-api.ts';
import { PAGE_SIZE, type GammaApi } from '../upstream/gamma.ts';

/** When a notice's market is asked again, after the first read did not bring it. */
export const RETRY_MS = [2_000, 10_000, 30_000] as const;
/** Notices within this long are read together. */
const BATCH_MS = 50;

export interface LiveNoticesStart {
  live: Pick<LiveMarkets, 'on'>;
  store: { liveRecords: Pick<LiveRecordsApi, 'byCondition' | 'resolved'> } & Pick<CatalogWrites, 'apply'>;
  /** Gamma at background priority; undefined offline (nothing is fetched). */
  gamma: Pick<GammaApi, 'page'> | undefined;
  /** The cache took markets from a refresh. */
  refreshed(): void;
  log: Logger;
}

const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

export function startLiveNotices(a: LiveNoticesStart): { close(): Promise<void> } {
  const abort = new AbortController();
  /** Condition ids (lower case) to read, with the tries made. */
  const pending = new Map<string, number>();
  const timers = new Set<NodeJS.Timeout>();
  let running: Promise<void> = Promise.resolve();
  let closed = false;
  let warned = '';

  const later = (fn: () => void, ms: number) => {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    t.unref();
    timers.add(t);
  };

  const queue = (condition: string, tries = 0) => {
    if (closed || !a.gamma || !condition) return;
    const key = condition.toLowerCase();
    if (pending.has(key)) return;
    pending.set(key, tries);
    if (pending.size !== 1) return;
    later(() => {
      running = running.then(read).catch((e: unknown) => a.log.warn(`live: refreshing announced markets failed: ${(e as Error).message}`));
    }, BATCH_MS);
  };

  /** Reads the pending markets, 100 condition ids a request, open and closed (Gamma's /markets defaults to open only). */
  const read = async () => {
    const batch = [...pending];
    pending.clear();
    for (let i = 0; i < batch.length && !closed; i += PAGE_SIZE) {
      const part = batch.slice(i, i + PAGE_SIZE);
      const wanted = new Set(part.map(([c]) => c));
      const found = new Set<string>();
      try {
        for (const closedFlag of [false, true]) {
          const markets = (await a.gamma!.page('markets', { condition_ids: [...wanted], closed: closedFlag }, abort.signal)).filter(
            (m) => typeof m.conditionId === 'string' && wanted.has(m.conditionId.toLowerCase()),
          );
          if (closed || markets.length === 0) continue;
          a.store.apply({ markets });
          for (const m of markets) found.add(String(m.conditionId).toLowerCase());
        }
        warned = '';
      } catch (e) {
        if (closed) return;
        const why = (e as Error).message;
        if (why !== warned) a.log.warn(`live: refreshing announced markets from Gamma failed: ${why}`);
        warned = why;
      }
      if (found.size > 0) a.refreshed();
      for (const [c, tries] of part) {
        const wait = RETRY_MS[tries];
        if (!found.has(c) && wait !== undefined) later(() => queue(c, tries + 1), wait);
      }
    }
  };

  const resolvedNotice = (n: LiveMarketNotice) => {
    const id = n.id !== null && /^\d{1,15}$/.test(n.id) ? n.id : n.market ? a.store.liveRecords.byCondition([n.market])[0]?.id : undefined;
    if (id !== undefined) {
      const winner = n.winningAssetId === null ? -1 : n.assetIds.indexOf(n.winningAssetId);
      const prices = winner < 0 ? null : JSON.stringify(n.assetIds.map((_, i) => (i === winner ? '1' : '0')));
      try {
        a.store.liveRecords.resolved(Number(id), text(n.message['winning_outcome']), prices);
      } catch (e) {
        a.log.warn(`live: a resolution could not be recorded: ${(e as Error).message}`);
      }
    }
    queue(n.market, RETRY_MS.length);
  };

  const offs = [a.live.on('market_resolved', resolvedNotice), a.live.on('new_market', (n) => queue(n.market))];
  return {
    async close() {
      closed = true;
      for (const off of offs) off();
      for (const t of timers) clearTimeout(t);
      timers.clear();
      abort.abort(new Error('the service is closing'));
      await running.catch(() => {});
    },
  };
}
