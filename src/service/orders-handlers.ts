/**
 * The orders and credentials operations. `orders.list` answers from the cache (after the
 * first fetch of the account, see OrdersSync.ensureLoaded); over HTTP the clob face has
 * already checked the caller's L2 signature against the same credentials.
 */
import { CredentialsError, type CredentialHolder, type Credentials } from '../auth/credentials.ts';
import { UNAUTHORIZED_BODY } from '../auth/l2.ts';
import { ApiError, badRequest } from '../contract/errors.ts';
import {
  FIRST_CURSOR,
  ORDERS_PAGE_SIZE,
  POLYMARKET_END_CURSOR as UPSTREAM_END,
  type Order,
  type OrdersPage,
  type OrdersViewPage,
  type PolymarketOrdersPage,
  type ordersOperations,
} from '../contract/orders-ops.ts';
import type { CachedOrder } from '../store/orders-store.ts';
import type { OrdersCache } from '../store/store-api.ts';
import { UpstreamError } from '../upstream/client.ts';
import type { OrdersSync } from '../sync/orders-sync.ts';
import type { CallContext, HandlersFor } from '../contract/handlers.ts';
import { polymarketOrder, specOrder } from './order-dialects.ts';
import { orderRow, ordersCsv, selectRows, type ViewQuery } from './orders-view.ts';
import { rawBody } from '../contract/raw.ts';

export const encodeCursor = (offset: number): string => Buffer.from(String(offset), 'utf8').toString('base64');

/**
 * The offset a cursor names: absent, empty or `MA==` start; anything but the canonical base64
 * of a decimal offset is a 400. Returns null for "past the end".
 */
export function decodeCursor(cursor: string | undefined): number | null {
  if (cursor === undefined || cursor === '' || cursor === FIRST_CURSOR) return 0;
  if (cursor === UPSTREAM_END) return null;
  const text = /^[A-Za-z0-9+/]{2,40}={0,2}$/.test(cursor) ? Buffer.from(cursor, 'base64').toString('utf8') : '';
  if (!/^\d{1,15}$/.test(text) || encodeCursor(Number(text)) !== cursor) throw badRequest('orders', 'invalid next_cursor');
  return Number(text);
}

/** One order from the upstream, for `order.get` when the cache does not have it (yet); null: no such order. */
export type FetchOne = (c: Credentials, id: string, signal?: AbortSignal) => Promise<CachedOrder | null>;

export function ordersHandlers(
  store: OrdersCache,
  sync: OrdersSync,
  creds: CredentialHolder,
  fetchOne?: FetchOne,
): HandlersFor<keyof typeof ordersOperations> {
  const fetchUpstream = async (c: Credentials, id: string, signal?: AbortSignal): Promise<CachedOrder | null> => {
    if (!fetchOne) return null;
    try {
      return await fetchOne(c, id, signal);
    } catch (e) {
      if (e instanceof UpstreamError && e.status === 404) return null;
      throw e;
    }
  };
  /** The account's orders joined with their markets, filtered and sorted (orders-view.ts). */
  const selected = async (q: ViewQuery) => {
    const c = creds.get();
    if (!c) throw new ApiError(401, { ...UNAUTHORIZED_BODY });
    await sync.ensureLoaded();
    return selectRows(store.joined(c.address), q);
  };
  return {
    'orders.view': async (p): Promise<OrdersViewPage> => {
      const rows = await selected(p);
      return { total: rows.length, limit: p.limit, offset: p.offset, data: rows.slice(p.offset, p.offset + p.limit).map(orderRow) };
    },
    'orders.export': async (p) => {
      const rows = await selected(p);
      const day = new Date().toISOString().slice(0, 10);
      return rawBody('text/csv; charset=utf-8', ordersCsv(rows), {
        'content-disposition': `attachment; filename="marketdesk-orders-${day}.csv"`,
      });
    },
    'orders.list': async (p, ctx): Promise<OrdersPage> => {
      const c = creds.get();
      // Over HTTP the face refused already; over IPC there is simply no account to list.
      if (!c) throw new ApiError(401, { ...UNAUTHORIZED_BODY });
      const poly = ctx.dialect === 'polymarket';
      // Each dialect's own end marker: Polymarket's clients stop only at `LTE=`, the spec's at `""`.
      const end = poly ? UPSTREAM_END : '';
      const offset = decodeCursor(p.next_cursor);
      if (offset === null) return { data: [], next_cursor: end, limit: ORDERS_PAGE_SIZE, count: 0 };
      await sync.ensureLoaded();
      const filters = {
        ...(p.id !== undefined ? { id: p.id } : {}),
        ...(p.market !== undefined ? { market: p.market } : {}),
        ...(p.asset_id !== undefined ? { assetId: p.asset_id } : {}),
      };
      const { data, more } = store.page(c.address, filters, offset, ORDERS_PAGE_SIZE);
      const next_cursor = more ? encodeCursor(offset + data.length) : end;
      if (!poly) return { data: data.map(specOrder), next_cursor, limit: ORDERS_PAGE_SIZE, count: data.length };
      const page: PolymarketOrdersPage = {
        data: data.map((o) => polymarketOrder(o, c)),
        next_cursor,
        limit: ORDERS_PAGE_SIZE,
        count: data.length,
      };
      // The declared result is the spec's page (what the app's own calls get); a POLY_* caller gets Polymarket's.
      return page as unknown as OrdersPage;
    },
    'order.get': async (p, ctx: CallContext): Promise<Order> => {
      const c = creds.get();
      if (!c) throw new ApiError(401, { ...UNAUTHORIZED_BODY });
      await sync.ensureLoaded();
      // An order placed since the last refresh is not cached yet: the upstream has it.
      let o = store.page(c.address, { id: p.id }, 0, 1).data[0] ?? (await fetchUpstream(c, p.id, ctx.signal));
      if (!o) throw new ApiError(404, { error: 'order not found' });
      // As the sync caches it: the account's address in place of the API key (the spec's dialect shows no key).
      if (o.owner.toLowerCase() === c.apiKey.toLowerCase()) o = { ...o, owner: c.address };
      return ctx.dialect === 'polymarket' ? (polymarketOrder(o, c) as unknown as Order) : specOrder(o);
    },
    'auth.apiKeys': (_p, ctx) => {
      const c = creds.get();
      // HTTP only (the face checked the caller signed with this very key): the app's own calls
      // never see the key (credentials.status leaves it out).
      if (!c || ctx.dialect === undefined) throw new ApiError(401, { ...UNAUTHORIZED_BODY });
      return { apiKeys: [c.apiKey] };
    },
    'orders.refresh': () => sync.refreshNow(),
    'orders.status': () => sync.status(),
    'credentials.status': () => creds.status(),
    'credentials.set': (p) => {
      try {
        creds.set(p);
      } catch (e) {
        // The message names the field at fault, never a value.
        if (e instanceof CredentialsError) throw badRequest('orders', e.message);
        throw e;
      }
      return creds.status();
    },
    'credentials.clear': () => {
      creds.clear();
      return creds.status();
    },
  };
}
