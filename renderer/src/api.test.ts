import { describe, expect, it } from 'vitest';
import { operations, type OpName } from '../../src/contract/index.ts';
import { LEADERBOARD_CATEGORIES as C, LEADERBOARD_ORDERS as O, LEADERBOARD_PERIODS as P } from '../../src/contract/leaderboard-ops.ts';
import { apiBase, LEADERBOARD_CATEGORIES, LEADERBOARD_ORDER, LEADERBOARD_PERIODS, ROUTES, routeUrl, toQuery, type Route } from './api.ts';

describe('renderer api client', () => {
  it('finds the API one level above the web-mode page', () => {
    expect(apiBase('http://127.0.0.1:7310/app/').href).toBe('http://127.0.0.1:7310/');
    expect(apiBase('http://127.0.0.1:7310/app/index.html').href).toBe('http://127.0.0.1:7310/');
    expect(new URL('markets?limit=50', apiBase('http://127.0.0.1:7310/app/')).href).toBe(
      'http://127.0.0.1:7310/markets?limit=50',
    );
  });

  it('encodes parameters like the HTTP face expects them', () => {
    expect(toQuery({})).toBe('');
    expect(toQuery({ limit: 50, closed: false, tag_slug: undefined, order: 'volumeNum,id' })).toBe(
      '?limit=50&closed=false&order=volumeNum%2Cid',
    );
    expect(toQuery({ id: ['1', '2'] })).toBe('?id=1&id=2');
  });

  it('fills path parameters and sends the rest as the query', () => {
    expect(routeUrl(ROUTES['markets.get'], { id: '12' })).toBe('markets/12');
    expect(routeUrl(ROUTES['search.query'], { q: 'a b', page: 2 })).toBe('public-search?q=a+b&page=2');
  });

  it('mirrors the contract: every route the renderer uses has the contract face, method and path', () => {
    for (const [op, route] of Object.entries(ROUTES)) {
      const def = operations[op as OpName] as { face: string; method: string; path: string; http?: false; auth?: 'l2'; webUi?: true };
      expect(def, op).toBeDefined();
      const r: Route = route;
      expect({ face: r.face, method: r.method, path: r.path, http: r.http, auth: r.auth, webUi: r.webUi }, op).toEqual({
        face: def.face, method: def.method, path: def.path, http: def.http, auth: def.auth, webUi: def.webUi,
      });
    }
  });

  it('offers the leaderboard choices the contract accepts', () => {
    expect(LEADERBOARD_CATEGORIES).toEqual(C);
    expect(LEADERBOARD_PERIODS).toEqual(P);
    expect(LEADERBOARD_ORDER).toEqual(O);
  });
});
