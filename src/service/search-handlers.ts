/**
 * GET /public-search and the desk's /desk/search and /tags/ranked, answered from the cache's
 * full-text index and tables (never the upstream).
 */
import { badRequest } from '../contract/index.ts';
import type { searchOperations } from '../contract/search-ops.ts';
import type { Store } from '../store/store-api.ts';
import type { HandlersFor } from '../contract/handlers.ts';

export function searchHandlers(store: Pick<Store, 'search'>): HandlersFor<keyof typeof searchOperations> {
  return {
    'search.query': (p) => {
      // A blank term is as good as none (docs/architecture.md, "Decisions": missing q is "q is required").
      if (p.q.trim() === '') throw badRequest('catalog', 'q is required');
      return store.search.search(p);
    },
    'search.desk': (p) => {
      if (p.q.trim() === '') throw badRequest('catalog', 'q is required');
      return store.search.desk(p);
    },
    'tags.ranked': (p) => store.search.rankedTags(p),
  };
}
