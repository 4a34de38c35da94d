/**
 * The orders and credentials operations. `orders.list` answers from the cache (after the
 * first fetch of the account, see OrdersSync.ensureLoaded); over HTTP the clob face has
 * already checked the caller's L2 signature against the same credentials.
 */
import { CredentialsError, type CredentialHolder } from '../auth/credentials.ts';
import { UNAUTHORIZED_BODY } from '../auth/l2.ts';
import { ApiError, badRequest } from '../contract/errors.ts';
import { FIRST_CURSOR, ORDERS_PAGE_SIZE, type OrdersPage, type ordersOperations } from '../contract/orders-ops.ts';
import type { OrdersStore } from '../store/orders-store.ts';
import type { OrdersSync } from '../sync/orders-sync.ts';
import type { HandlersFor } from './dispatch.ts';

/** Polymarket's end marker, base64("-1"): a client that sends it back gets the empty last page. */
const UPSTREAM_END = 'LTE=';

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

export function ordersHandlers(store: OrdersStore, sync: OrdersSync, creds: CredentialHolder): HandlersFor<keyof typeof ordersOperations> {
  return {
    'orders.list': async (p): Promise<OrdersPage> => {
      const c = creds.get();
      // Over HTTP the face refused already; over IPC there is simply no account to list.
      if (!c) throw new ApiError(401, { ...UNAUTHORIZED_BODY });
      const offset = decodeCursor(p.next_cursor);
      if (offset === null) return { data: [], next_cursor: '', limit: ORDERS_PAGE_SIZE, count: 0 };
      await sync.ensureLoaded();
      const filters = {
        ...(p.id !== undefined ? { id: p.id } : {}),
        ...(p.market !== undefined ? { market: p.market } : {}),
        ...(p.asset_id !== undefined ? { assetId: p.asset_id } : {}),
      };
      const { data, more } = store.page(c.address, filters, offset, ORDERS_PAGE_SIZE);
      return { data, next_cursor: more ? encodeCursor(offset + data.length) : '', limit: ORDERS_PAGE_SIZE, count: data.length };
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
