/**
 * The watchlist operations (`watchlist.list`, `.add`, `.remove`) over the watchlist file, and
 * its `watchlist` push event. Adding needs the market or event in the cache (else the catalog's
 * 404); both changes are idempotent. A failed write changes nothing and is the internal error.
 */
import { badRequest, notFound, type PushEvents, type WatchKind } from '../contract/index.ts';
import type { CatalogReads } from '../store/store-api.ts';
import { MAX_WATCH_ITEMS, type WatchlistFile } from '../store/watchlist-file.ts';
import type { HandlersFor } from '../contract/handlers.ts';
import type { PushHub, PushListener } from './push.ts';

function checkId(id: string): string {
  if (!/^\d{1,15}$/.test(id)) throw badRequest('catalog', 'id is invalid');
  return String(Number(id));
}

function checkKind(kind: string): WatchKind {
  if (kind !== 'market' && kind !== 'event') throw badRequest('catalog', 'kind is invalid');
  return kind;
}

export function watchlistHandlers(
  reader: CatalogReads,
  list: WatchlistFile,
): HandlersFor<'watchlist.list' | 'watchlist.add' | 'watchlist.remove'> {
  return {
    'watchlist.list': () => ({ items: list.items() }),
    'watchlist.add': async (p) => {
      const kind = checkKind(p.kind);
      const id = checkId(p.id);
      if (!list.has(kind, id)) {
        const known = kind === 'market' ? reader.getMarket(Number(id)) : reader.getEvent(Number(id));
        if (!known) throw notFound('id');
      }
      try {
        return { items: await list.add(kind, id) };
      } catch (e) {
        if (e instanceof RangeError) throw badRequest('catalog', `the watchlist holds at most ${MAX_WATCH_ITEMS} items`);
        throw e;
      }
    },
    'watchlist.remove': async (p) => ({ items: await list.remove(checkKind(p.kind), checkId(p.id)) }),
  };
}

/** The push hub with the `watchlist` event added: sent after each change, and in the snapshot. */
export function withWatchlistPush(hub: PushHub, list: WatchlistFile): PushHub {
  const listeners = new Set<PushListener>();
  const off = list.onChange((items) => {
    const payload: PushEvents['watchlist'] = { items };
    for (const fn of listeners) {
      try {
        fn('watchlist', payload);
      } catch {
        // One broken transport must not starve the others.
      }
    }
  });
  return {
    snapshot: () => ({ ...hub.snapshot(), watchlist: { items: list.items() } }),
    subscribe(fn) {
      const unsubscribe = hub.subscribe(fn);
      listeners.add(fn);
      return () => {
        unsubscribe();
        listeners.delete(fn);
      };
    },
    close() {
      off();
      listeners.clear();
      hub.close();
    },
  };
}
