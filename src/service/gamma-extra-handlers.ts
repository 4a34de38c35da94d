/**
 * Gamma's other read routes (contract/gamma-extra-ops.ts), answered from the cache: keyset
 * listings and /events/pagination over the /markets and /events queries, series, and tags.
 */
import { badRequest, notFound, type EventsKeysetPage, type MarketsKeysetPage } from '../contract/index.ts';
import { KEYSET_MAX_LIMIT, type gammaExtraOperations } from '../contract/gamma-extra-ops.ts';
import type { Store } from '../store/store-api.ts';
import type { HandlersFor } from '../contract/handlers.ts';
import { keysetPage } from './keyset-cursor.ts';

function pathId(id: string): number {
  if (!/^\d{1,15}$/.test(id)) throw badRequest('catalog', 'id is invalid');
  return Number(id);
}

function found<T>(v: T | undefined): T {
  if (v === undefined) throw notFound('id');
  return v;
}

export function gammaExtraHandlers(store: Pick<Store, 'reader' | 'series'>): HandlersFor<keyof typeof gammaExtraOperations> {
  const r = store.reader;
  // Statements are per store; the reader holds nothing else, so one per call costs nothing.
  const series = () => store.series;
  return {
    'markets.keyset': (raw): MarketsKeysetPage => {
      const p = { ...raw, limit: Math.min(raw.limit, KEYSET_MAX_LIMIT) };
      const { items, next } = keysetPage((offset, limit) => r.listMarkets({ ...p, offset, limit }), p);
      return next === undefined ? { markets: items } : { markets: items, next_cursor: next };
    },
    'events.keyset': (raw): EventsKeysetPage => {
      const p = { ...raw, limit: Math.min(raw.limit, KEYSET_MAX_LIMIT) };
      const { items, next } = keysetPage((offset, limit) => r.listEvents({ ...p, offset, limit }), p);
      return next === undefined ? { events: items } : { events: items, next_cursor: next };
    },
    'events.pagination': (p) => {
      const total = { count: 0 };
      const data = r.listEvents(p, total);
      return { data, pagination: { hasMore: p.offset + data.length < total.count, totalResults: total.count } };
    },
    'markets.tags': (p) => found(series().tagsOf('market', pathId(p.id))),
    'events.tags': (p) => found(series().tagsOf('event', pathId(p.id))),
    'series.list': (p) => series().listSeries(p),
    'series.get': (p) => found(series().getSeries(pathId(p.id))),
  };
}
