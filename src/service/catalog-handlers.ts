/**
 * The catalog operations, answered from the cache.
 */
import { badRequest, notFound, type LiveStatus, type ServiceStatus } from '../contract/index.ts';
import type { Store } from '../store/store-api.ts';
import type { CatalogSync } from '../sync/catalog-sync.ts';
import { savedHistoryStatus } from '../sync/history-walk.ts';
import type { catalogOperations } from '../contract/catalog-ops.ts';
import type { HandlersFor } from '../contract/handlers.ts';

function pathId(id: string): number {
  if (!/^\d{1,15}$/.test(id)) throw badRequest('catalog', 'id is invalid');
  return Number(id);
}

function found<T>(v: T | undefined, what: 'id' | 'slug'): T {
  if (v === undefined) throw notFound(what);
  return v;
}

export interface StatusSource {
  profile: string;
  offline: boolean;
  version: string;
  sync: CatalogSync | undefined;
  /** The live layer's health (src/live/). */
  live: () => LiveStatus;
}

export function catalogHandlers(store: Store, status: StatusSource): HandlersFor<keyof typeof catalogOperations> {
  const r = store.reader;
  return {
    'markets.list': (p) => r.listMarkets(p),
    'markets.get': (p) => found(r.getMarket(pathId(p.id)), 'id'),
    'markets.bySlug': (p) => found(r.getMarketBySlug(p.slug), 'slug'),
    'events.list': (p) => r.listEvents(p),
    'events.get': (p) => found(r.getEvent(pathId(p.id)), 'id'),
    'events.bySlug': (p) => found(r.getEventBySlug(p.slug), 'slug'),
    'tags.list': (p) => r.listTags(p.limit, p.offset),
    'tags.get': (p) => found(r.getTag(pathId(p.id)), 'id'),
    'tags.bySlug': (p) => found(r.getTagBySlug(p.slug), 'slug'),
    'service.status': (): ServiceStatus => {
      const history = status.sync ? undefined : savedHistoryStatus(store);
      const sync = status.sync?.status() ?? {
        ...(history ? { history } : {}),
        phase: 'offline' as const,
        running: false,
        progress: { events: 0, markets: 0, tags: 0, pages: 0 },
        lastSuccessAt: store.getMeta('lastSyncAt') ?? null,
        lastError: null,
        lastFullSyncAt: store.getMeta('lastFullSyncAt') ?? null,
        online: false,
      };
      return {
        version: status.version,
        profile: status.profile,
        offline: status.offline || !sync.online,
        counts: r.counts(),
        catalogVersion: store.catalogVersion,
        sync,
        persistedAt: store.persistedAt?.toISOString() ?? null,
        storage: store.storageStatus(),
        live: status.live(),
      };
    },
  };
}
