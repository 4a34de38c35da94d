/**
 * The account side of the service (credentials, L2 auth, cached orders) and the leaderboard,
 * composed here so service.ts only wires them in.
 */
import { CredentialHolder, type Credentials } from '../auth/credentials.ts';
import { DEFAULT_WINDOW_S, verifyL2, type L2Request } from '../auth/l2.ts';
import type { Store } from '../store/store-api.ts';
import type { Logger } from '../logger.ts';
import { LeaderboardCache } from '../sync/leaderboard-cache.ts';
import { OrdersSync } from '../sync/orders-sync.ts';
import type { UpstreamClient } from '../upstream/client.ts';
import { fetchOrder } from '../upstream/clob.ts';
import { leaderboardHandlers } from './leaderboard-handlers.ts';
import { ordersHandlers } from './orders-handlers.ts';

export interface OrdersLeaderboardOptions {
  credentials?: Credentials;
  /** Orders refresh period (default 30 s). */
  ordersIntervalMs?: number;
  /** Leaderboard time-to-live (default 60 s). */
  leaderboardTtlMs?: number;
  /** Accepted L2 timestamp skew, seconds (default 300). */
  authWindowS?: number;
  /** The clock for auth windows, order times and the leaderboard TTL (tests inject one). */
  now?: () => number;
  profile?: string;
  offline: boolean;
  log: Logger;
}

export function createOrdersAndLeaderboard(store: Pick<Store, 'side'>, client: UpstreamClient, opts: OrdersLeaderboardOptions) {
  const now = opts.now ?? Date.now;
  const upstream = opts.offline ? undefined : client;
  const credentials = new CredentialHolder(opts.credentials);
  const ordersStore = store.side.orders;
  const orders = new OrdersSync(ordersStore, upstream, credentials, {
    now,
    log: opts.log,
    family: opts.profile === 'kuest' ? 'KUEST' : 'POLY',
    ...(opts.ordersIntervalMs !== undefined ? { intervalMs: opts.ordersIntervalMs } : {}),
  });
  const leaderboard = new LeaderboardCache(store.side.leaderboard, upstream, {
    now,
    log: opts.log,
    ...(opts.leaderboardTtlMs !== undefined ? { ttlMs: opts.leaderboardTtlMs } : {}),
  });
  const orderFetch = (signal: AbortSignal | undefined) => ({
    now,
    family: opts.profile === 'kuest' ? ('KUEST' as const) : ('POLY' as const),
    ...(signal ? { signal } : {}),
  });
  // Cached orders of an account other than the configured one (credentials changed while the
  // service was down) are dropped at start, like a change at run time drops them.
  ordersStore.clear(credentials.get()?.address);
  return {
    orders,
    leaderboard,
    credentials,
    handlers: {
      ...ordersHandlers(
        ordersStore,
        orders,
        credentials,
        upstream ? (c, id, signal) => fetchOrder(upstream, c, id, orderFetch(signal)) : undefined,
      ),
      ...leaderboardHandlers(leaderboard),
    },
    authenticate: (req: L2Request) => verifyL2(credentials.get(), req, { nowMs: now(), windowS: opts.authWindowS ?? DEFAULT_WINDOW_S }),
    async stop() {
      await Promise.all([orders.stop(), leaderboard.stop()]);
    },
  };
}
