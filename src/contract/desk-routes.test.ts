/**
 * The desk routes in the contract (issue 13): declared on the base face, proxied by the dev
 * server, and classed by the inbound limit table as catalog routes (the service's own extra
 * base-face routes, table.ts), not as the `/markets` or `/events` listings they sit beside.
 */
import { describe, expect, it } from 'vitest';
import { InboundLimiter } from '../limits/inbound.ts';
import { operations } from './operations.ts';
import { ROUTES, deskRoutes, pathPrefixes, servedOn } from './routes.ts';

const DESK_OPS = [
  'markets.count',
  'events.count',
  'watchlist.list',
  'watchlist.add',
  'watchlist.remove',
  'catalog.export',
  'markets.chart',
  'markets.book',
] as const;

describe('desk routes', () => {
  it('are all declared, joined and served on the base face', () => {
    expect(Object.keys(deskRoutes).sort()).toEqual([...DESK_OPS].sort());
    for (const name of DESK_OPS) {
      expect(ROUTES[name], name).toBe(deskRoutes[name]);
      expect(operations[name].params, name).toBeTypeOf('object');
      expect(servedOn(ROUTES[name], 'base'), name).toBe(true);
      expect(servedOn(ROUTES[name], 'clob'), name).toBe(false);
    }
  });

  it('are reached through the dev proxy: /watchlist and /export get their own prefixes', () => {
    expect(pathPrefixes('base')).toEqual(expect.arrayContaining(['/watchlist', '/export', '/markets', '/events']));
  });

  it('count in the catalog window only, not in the /markets and /events listing windows', () => {
    const limiter = new InboundLimiter();
    const windows = (name: (typeof DESK_OPS)[number]) =>
      limiter.plan(`${ROUTES[name].method} ${ROUTES[name].path}`, 'base').windows.map((w) => w.def.name);
    for (const name of DESK_OPS) expect(windows(name), name).toEqual(['catalog']);
    expect(limiter.plan('GET /markets', 'base').windows.map((w) => w.def.name)).toContain('markets');
  });

  it('take the listings’ filters for counts, and no paging', () => {
    const count = operations['markets.count'].params as Record<string, unknown>;
    const list = operations['markets.list'].params as Record<string, unknown>;
    for (const k of ['limit', 'offset', 'order', 'ascending']) expect(count[k], k).toBeUndefined();
    for (const k of Object.keys(list).filter((k) => !['limit', 'offset', 'order', 'ascending'].includes(k))) {
      expect(count[k], k).toBe(list[k]);
    }
    expect(Object.keys(operations['events.count'].params)).toContain('title_search');
  });
});
