/**
 * Gamma's keyset, pagination, series and tags routes in the section 8 table: the keyset and
 * pagination listings count as the listings they page through, the rest as catalog routes.
 */
import { describe, expect, it } from 'vitest';
import { gammaRoutes } from '../contract/routes.ts';
import { CompiledTable, DEFAULT_LIMITS } from './table.ts';

const table = new CompiledTable(DEFAULT_LIMITS);
const windowsOf = (route: string) => table.plan(route, 'unlisted').windows.map((w) => w.def.name);

describe('limit rows of the Gamma extra routes', () => {
  it('keyset listings count with /markets and /events, and in the listings and catalog rows', () => {
    expect(windowsOf('GET /markets/keyset')).toEqual(['catalog', 'markets', 'listings']);
    expect(windowsOf('GET /events/keyset')).toEqual(['catalog', 'events', 'listings']);
    expect(windowsOf('GET /events/pagination')).toEqual(['catalog', 'events', 'listings']);
  });

  it('series and an item’s tags are catalog routes', () => {
    for (const r of ['GET /series', 'GET /series/:id', 'GET /markets/:id/tags', 'GET /events/:id/tags']) {
      expect(windowsOf(r), r).toEqual(['catalog']);
    }
  });

  it('every route of the group is named in the table (none falls back to a face default)', () => {
    for (const def of Object.values(gammaRoutes)) {
      expect(table.plan(`${def.method} ${def.path}`, 'unlisted').cls, def.path).toBe('catalog');
    }
  });
});
