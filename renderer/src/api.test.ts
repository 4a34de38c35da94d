import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { operations, servedOn, type OpName } from '../../src/contract/index.ts';
import { apiBase, ROUTES, routeUrl, toQuery, type Route } from './api.ts';

/** Every `call('op', ...)` in the renderer's sources. */
function calledOps(): string[] {
  const dir = new URL('./', import.meta.url);
  const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => /\.tsx?$/.test(f) && !f.includes('.test.'));
  const ops = files.flatMap((f) => [...readFileSync(new URL(f, dir), 'utf8').matchAll(/\bcall\(\s*'([^']+)'/g)].map((m) => m[1]!));
  return [...new Set(ops)].sort();
}

describe('renderer api client', () => {
  it('finds the API one level above the web-mode page', () => {
    expect(apiBase('http://127.0.0.1:7310/app/').href).toBe('http://127.0.0.1:7310/');
    expect(apiBase('http://127.0.0.1:7310/app/index.html').href).toBe('http://127.0.0.1:7310/');
    expect(new URL('markets?limit=50', apiBase('http://127.0.0.1:7310/app/')).href).toBe('http://127.0.0.1:7310/markets?limit=50');
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

  it('calls only operations the contract has, each reachable from where it is called', () => {
    const ops = calledOps();
    expect(ops).toContain('markets.list');
    for (const op of ops) {
      expect(operations[op as OpName], op).toBeDefined();
      const route: Route = ROUTES[op as OpName];
      // Web mode reaches base-face routes only; IPC-only ones are called in the desktop app only.
      expect(servedOn(route, 'base') || route.http === false, `${op} is unreachable in web mode`).toBe(true);
    }
  });
});
