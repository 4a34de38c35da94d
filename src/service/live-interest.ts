/**
 * What the service itself keeps live on the market channel (issue 26, part 3): the trading ids
 * (contract/market-rules.ts `tradingIds`) of the markets on the watchlist and the open markets of
 * watched events, of the markets price alerts name, and of the markets of the account's open
 * orders, each held under its own owner (`watchlist`, `alerts`, `orders`) with LiveMarkets' reference
 * counts. Recomputed when one of those lists or the catalog changes (a market's ids may only come
 * with a later sync); what is no longer wanted is released. Offline LiveMarkets opens nothing.
 */
import { tradingIds } from '../contract/market-rules.ts';
import type { LiveMarkets } from '../live/index.ts';
import { silentLogger, type Logger } from '../logger.ts';
import type { LiveRecordsApi, MarketTradingFields } from '../store/store-api.ts';

export const INTEREST_OWNERS = ['watchlist', 'alerts', 'orders'] as const;
export type InterestOwner = (typeof INTEREST_OWNERS)[number];

/** A watched event's open markets kept live, the most traded first: a big event's long tail is not watched. */
export const EVENT_MARKETS = 50;
/** All watched events' markets together, at most (about four sockets' worth of outcomes). */
export const EVENT_MARKETS_TOTAL = 1_000;

export interface InterestSources {
  live: Pick<LiveMarkets, 'acquire'>;
  records: Pick<LiveRecordsApi, 'tradingFields' | 'eventMarkets'>;
  /** The watchlist's market and event ids. */
  watched(): { markets: string[]; events: string[] };
  /** The markets price_cross and price_move rules name. */
  ruleMarkets(): string[];
  /** The configured account's open orders: the cached market (null when not cached) and the asset. */
  orders(): { marketId: string | null; assetId: string }[];
  log?: Logger;
}

export class LiveInterest {
  /** Per owner, asset id -> its release. */
  private readonly held = new Map<InterestOwner, Map<string, () => void>>(INTEREST_OWNERS.map((o) => [o, new Map()]));
  /** Market id -> its trading ids, for every market held. */
  private idsOf = new Map<string, string[]>();
  /** The alert rules' assets -> their market. */
  private ruleAssets = new Map<string, string>();
  private queued = false;
  private closed = false;
  private readonly log: Logger;

  constructor(private readonly src: InterestSources) {
    this.log = src.log ?? silentLogger;
  }

  /** Recomputes soon: changes made in one tick are taken together. */
  schedule(): void {
    if (this.queued || this.closed) return;
    this.queued = true;
    queueMicrotask(() => {
      this.queued = false;
      try {
        this.recompute();
      } catch (e) {
        // The next change tries again; nothing held is lost meanwhile.
        this.log.warn(`live: the service's subscriptions could not be recomputed: ${(e as Error).message}`);
      }
    });
  }

  /** The trading ids of a market held by any owner; undefined when none holds it. */
  tradingIdsOf(marketId: string): string[] | undefined {
    return this.idsOf.get(marketId);
  }

  /** The market of an asset held for the alert rules; undefined for any other asset. */
  ruleMarketOf(assetId: string): string | undefined {
    return this.ruleAssets.get(assetId);
  }

  /** The assets held for an owner. */
  assets(owner: InterestOwner): string[] {
    return [...this.held.get(owner)!.keys()];
  }

  recompute(): void {
    if (this.closed) return;
    const { records } = this.src;
    const want = new Map<InterestOwner, Set<string>>(INTEREST_OWNERS.map((o) => [o, new Set()]));
    const idsOf = new Map<string, string[]>();
    const ruleAssets = new Map<string, string>();
    const take = (owner: InterestOwner, markets: readonly MarketTradingFields[]): void => {
      for (const m of markets) {
        if (m.closed) continue;
        const t = tradingIds(m);
        if (!t.ok) continue;
        idsOf.set(m.id, t.ids);
        for (const id of t.ids) {
          want.get(owner)!.add(id);
          if (owner === 'alerts') ruleAssets.set(id, m.id);
        }
      }
    };
    const watched = this.src.watched();
    take('watchlist', records.tradingFields(watched.markets));
    take('watchlist', records.eventMarkets(watched.events, EVENT_MARKETS).slice(0, EVENT_MARKETS_TOTAL));
    take('alerts', records.tradingFields(this.src.ruleMarkets()));
    const orders = this.src.orders();
    take('orders', records.tradingFields(orders.flatMap((o) => (o.marketId === null ? [] : [o.marketId]))));
    // An order's market not cached yet: its own asset, which the CLOB named.
    for (const o of orders) if (o.marketId === null) want.get('orders')!.add(o.assetId);
    for (const owner of INTEREST_OWNERS) {
      const held = this.held.get(owner)!;
      const wanted = want.get(owner)!;
      for (const [id, release] of held) {
        if (wanted.has(id)) continue;
        release();
        held.delete(id);
      }
      for (const id of wanted) if (!held.has(id)) held.set(id, this.src.live.acquire([id], owner));
    }
    this.idsOf = idsOf;
    this.ruleAssets = ruleAssets;
  }

  /** Releases everything; nothing is held again. */
  close(): void {
    this.closed = true;
    for (const held of this.held.values()) {
      for (const release of held.values()) release();
      held.clear();
    }
    this.idsOf = new Map();
    this.ruleAssets = new Map();
  }
}
