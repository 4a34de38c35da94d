/**
 * The alerts' part of the composition root (service.ts): opens the rules and the fired log in the
 * data dir, builds the engine over the cache's reads, the watchlist, the screens and the account's
 * orders, and follows the catalog sync and the orders refreshes.
 */
import type { CredentialHolder } from '../auth/credentials.ts';
import type { Logger } from '../logger.ts';
import type { CatalogStore } from '../store/catalog-store.ts';
import type { ScreensFile } from '../store/screens-file.ts';
import type { WatchlistFile } from '../store/watchlist-file.ts';
import type { OrdersSync } from '../sync/orders-sync.ts';
import type { CatalogSync } from '../sync/catalog-sync.ts';
import type { UpstreamClient } from '../upstream/client.ts';
import { fetchOrder } from '../upstream/clob.ts';
import { AlertEngine, type OrderSource } from './alert-engine.ts';
import { FiredLog } from './fired-log.ts';
import { AlertRulesFile } from './rules-file.ts';
import { sqliteAlertReads } from './store-reads.ts';

export interface AlertsStart {
  store: CatalogStore;
  watchlist: WatchlistFile;
  screens: ScreensFile;
  account: { credentials: CredentialHolder };
  client: UpstreamClient;
  opts: { dataDir?: string; offline?: boolean; profile?: string; now?: () => number };
  log: Logger;
}

export async function startAlerts(a: AlertsStart) {
  const dir = a.opts.dataDir !== undefined ? { dataDir: a.opts.dataDir } : {};
  const rules = await AlertRulesFile.open({ log: a.log, ...dir });
  const fired = await FiredLog.open({ log: a.log, ...dir });
  const now = a.opts.now ?? Date.now;
  const screen = (id: string) => a.screens.list().find((s) => s.id === id);
  const orders: OrderSource = {
    current() {
      const c = a.account.credentials.get();
      if (!c) return undefined;
      const list = a.store.side.orders.joined(c.address).map((o) => ({
        id: o.id,
        marketId: o.marketId,
        question: o.question,
        outcome: o.outcomeName ?? o.outcome,
        side: o.side,
        price: o.price,
        originalSize: o.originalSize,
        sizeMatched: o.sizeMatched,
      }));
      return { account: c.address.toLowerCase(), orders: list };
    },
    ...(a.opts.offline
      ? {}
      : {
          async lookup(id: string) {
            const c = a.account.credentials.get();
            if (!c) return null;
            const family = a.opts.profile === 'kuest' ? ('KUEST' as const) : ('POLY' as const);
            return fetchOrder(a.client, c, id, { now, family });
          },
        }),
  };
  const engine = new AlertEngine({
    rules,
    fired,
    reads: sqliteAlertReads(a.store.sideTables().st, a.store.reader, a.store.search),
    watched() {
      const items = a.watchlist.items();
      return {
        markets: items.filter((i) => i.kind === 'market').map((i) => i.id),
        events: items.filter((i) => i.kind === 'event').map((i) => i.id),
      };
    },
    screen,
    orders,
    now,
    log: a.log,
  });
  const offs: (() => void)[] = [];
  return {
    engine,
    deps: { engine, rules, fired, reader: a.store.reader, screen },
    follow(sync: CatalogSync | undefined, ordersSync: OrdersSync) {
      if (sync) offs.push(engine.watchSync(sync));
      offs.push(engine.watchOrders(ordersSync));
    },
    async close() {
      for (const off of offs) off();
      await engine.flush();
    },
  };
}
