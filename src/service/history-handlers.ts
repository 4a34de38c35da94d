/**
 * The catalog's memory (issue 16): a market's price and activity history, market and event
 * revisions, and the change feed, all read from the cache file (so they answer offline and
 * after a restart). 400 for a malformed id or an empty window, 404 for an item never cached.
 */
import { badRequest, notFound, type ChangesPage, type MarketHistory, type RevisionsPage } from '../contract/index.ts';
import type { CatalogStore } from '../store/catalog-store.ts';
import type { Entity } from '../store/history-reader.ts';
import type { HandlersFor } from '../contract/handlers.ts';

const DAY_S = 86_400;

export interface HistoryHandlerOptions {
  now?: () => number;
}

const iso = (s: number) => new Date(s * 1000).toISOString();

export function historyHandlers(
  store: CatalogStore,
  opts: HistoryHandlerOptions = {},
): HandlersFor<'markets.history' | 'markets.revisions' | 'events.revisions' | 'changes.list'> {
  const nowS = () => Math.floor((opts.now ?? Date.now)() / 1000);

  /** The numeric id of a known item: 400 when malformed, 404 when the cache never had it. */
  function known(entity: Entity, id: string): number {
    if (!/^\d{1,15}$/.test(id)) throw badRequest('catalog', 'id is invalid');
    const n = Number(id);
    if (!store.history.known(entity, n)) throw notFound('id');
    return n;
  }

  const revisions = (entity: Entity, p: { id: string; limit: number; offset: number }): RevisionsPage => ({
    id: p.id,
    ...store.history.revisions(entity, known(entity, p.id), p.limit, p.offset),
  });

  return {
    'markets.history': (p): MarketHistory => {
      const to = p.to ?? nowS();
      const from = p.from ?? to - 7 * DAY_S;
      if (from > to) throw badRequest('catalog', 'from is after to');
      const id = known('market', p.id);
      return { id: p.id, from: iso(from), to: iso(to), points: store.history.history(id, from, to) };
    },
    'markets.revisions': (p) => revisions('market', p),
    'events.revisions': (p) => revisions('event', p),
    'changes.list': (p): ChangesPage => {
      const since = p.since ?? nowS() - DAY_S;
      const watching = store.changes.watchingSince();
      return {
        since: iso(since),
        watchingSince: watching === null ? null : iso(watching),
        ...store.changes.list(since, p.kind ?? [], p.limit, p.offset),
      };
    },
  };
}
