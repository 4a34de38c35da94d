/**
 * The service's own uses of the live layer (issue 26, part 3), started once by service.ts after
 * the alerts: what it keeps subscribed (live-interest.ts), price alerts on ticks (live-alerts.ts),
 * `new_market`/`market_resolved` into the change feed and the cache (live-notices.ts), and live
 * moves into the price history (live-history.ts). The interest is recomputed when the watchlist,
 * the alert rules, the account's orders or the catalog change.
 */
import type { AlertEngine } from '../alerts/alert-engine.ts';
import type { AlertRulesFile } from '../alerts/rules-file.ts';
import type { CredentialHolder } from '../auth/credentials.ts';
import type { LiveMarkets } from '../live/index.ts';
import type { Logger } from '../logger.ts';
import type { Store } from '../store/store-api.ts';
import type { WatchlistFile } from '../store/watchlist-file.ts';
import type { CatalogSync } from '../sync/catalog-sync.ts';
import type { OrdersSync } from '../sync/orders-sync.ts';
import type { UpstreamClient } from '../upstream/client.ts';
import { GammaApi } from '../upstream/gamma.ts';
import { startLiveAlerts } from './live-alerts.ts';
import { startLiveHistory } from './live-history.ts';
import { LiveInterest } from './live-interest.ts';
import { startLiveNotices } from './live-notices.ts';

export interface LiveUsesStart {
  live: LiveMarkets;
  store: Pick<Store, 'liveRecords' | 'side' | 'apply' | 'catalogVersion'>;
  watchlist: WatchlistFile;
  alerts: { engine: AlertEngine; rules: AlertRulesFile };
  account: { credentials: CredentialHolder; orders: OrdersSync };
  sync: CatalogSync | undefined;
  client: UpstreamClient;
  opts: { offline?: boolean; now?: () => number };
  log: Logger;
}

export interface LiveUses {
  interest: LiveInterest;
  /** Writes the live prices marked so far to the history now (tests; close does it too). */
  flushHistory(): number;
  close(): Promise<void>;
}

export function startLiveUses(a: LiveUsesStart): LiveUses {
  const { live, store, log } = a;
  const interest = new LiveInterest({
    live,
    records: store.liveRecords,
    log,
    watched() {
      const items = a.watchlist.items();
      return {
        markets: items.filter((i) => i.kind === 'market').map((i) => i.id),
        events: items.filter((i) => i.kind === 'event').map((i) => i.id),
      };
    },
    ruleMarkets: () =>
      a.alerts.rules.all().flatMap((r) => ((r.kind === 'price_cross' || r.kind === 'price_move') && r.market ? [r.market.id] : [])),
    orders() {
      const c = a.account.credentials.get();
      return c ? store.side.orders.joined(c.address).map((o) => ({ marketId: o.marketId, assetId: o.assetId })) : [];
    },
  });
  const alerts = startLiveAlerts({ live, engine: a.alerts.engine, interest, log, ...(a.opts.now ? { now: a.opts.now } : {}) });
  const notices = startLiveNotices({
    live,
    store,
    gamma: a.opts.offline ? undefined : new GammaApi(a.client, { priority: 'background' }),
    refreshed: () => interest.schedule(),
    log,
  });
  const history = startLiveHistory({ live, records: store.liveRecords, catalogVersion: () => store.catalogVersion, log });

  // A market's trading ids can come with a later sync: recomputed after each run that changed the catalog.
  let version = store.catalogVersion;
  const offs = [
    a.watchlist.onChange(() => interest.schedule()),
    a.alerts.engine.onRulesChanged(() => interest.schedule()),
    a.account.orders.onStatus((s) => {
      if (!s.refreshing) interest.schedule();
    }),
    a.sync?.onStatus((s) => {
      if (s.running || store.catalogVersion === version) return;
      version = store.catalogVersion;
      interest.schedule();
    }),
  ];
  interest.schedule();
  return {
    interest,
    flushHistory: () => history.flush(),
    async close() {
      for (const off of offs) off?.();
      alerts.close();
      await notices.close();
      history.close();
      interest.close();
    },
  };
}
