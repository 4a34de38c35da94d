/**
 * The contract's two halves (routes.ts's plain data, the *-ops.ts parameter declarations) and
 * what is derived from them. The types already refuse a name on one side only; these check what
 * types cannot.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { operations } from './operations.ts';
import {
  ROUTES,
  alertsRoutes,
  catalogRoutes,
  dataRoutes,
  deskRoutes,
  iconRoutes,
  gammaRoutes,
  historyRoutes,
  leaderboardRoutes,
  limitsRoutes,
  localApiRoutes,
  opNames,
  ordersRoutes,
  pathPrefixes,
  searchRoutes,
  screensRoutes,
  servedOn,
  sparklineRoutes,
  liveRoutes,
  tradingRoutes,
  type RouteDef,
} from './routes.ts';

const routes = Object.entries(ROUTES) as [string, RouteDef][];

describe('contract routes', () => {
  it('no two concerns declare the same name (the spread would keep one silently)', () => {
    const groups = [
      catalogRoutes,
      gammaRoutes,
      searchRoutes,
      ordersRoutes,
      leaderboardRoutes,
      tradingRoutes,
      dataRoutes,
      limitsRoutes,
      iconRoutes,
      deskRoutes,
      localApiRoutes,
      historyRoutes,
      screensRoutes,
      sparklineRoutes,
      alertsRoutes,
      liveRoutes,
    ];
    expect(groups.reduce((n, g) => n + Object.keys(g).length, 0)).toBe(opNames.length);
  });

  it('joins every route with its parameters', () => {
    for (const [name, route] of routes) {
      const op = operations[name as keyof typeof operations];
      expect(op, name).toMatchObject(route);
      expect(op.params, name).toBeTypeOf('object');
    }
    expect(Object.keys(operations).sort()).toEqual([...opNames].sort());
  });

  it('declares every path parameter as a required parameter', () => {
    for (const [name, route] of routes) {
      for (const [, param] of route.path.matchAll(/:([A-Za-z_]+)/g)) {
        const def = (operations[name as keyof typeof operations].params as Record<string, { required?: boolean }>)[param!];
        expect(def?.required, `${name}: :${param}`).toBe(true);
      }
    }
  });

  it('gives each method and path of a face to one operation', () => {
    for (const face of ['base', 'clob'] as const) {
      const seen = routes.filter(([, r]) => servedOn(r, face)).map(([, r]) => `${r.method} ${r.path}`);
      expect(new Set(seen).size, face).toBe(seen.length);
    }
  });

  it('serves IPC-only operations on no face, and webUi ones on the base face too', () => {
    expect(servedOn(ROUTES['credentials.set'], 'clob')).toBe(false);
    expect(servedOn(ROUTES['credentials.set'], 'base')).toBe(false);
    expect(servedOn(ROUTES['orders.list'], 'base')).toBe(true);
    expect(servedOn(ROUTES['orders.list'], 'clob')).toBe(true);
    expect(servedOn(ROUTES['trades.list'], 'base')).toBe(false);
  });

  it("gives the dev proxy a prefix for every base-face route, and never '/'", () => {
    const prefixes = pathPrefixes('base');
    expect(prefixes).not.toContain('/');
    for (const [name, route] of routes.filter(([, r]) => servedOn(r, 'base'))) {
      expect(
        prefixes.some((p) => route.path === p || route.path.startsWith(`${p}/`)),
        name,
      ).toBe(true);
    }
    expect(prefixes).toEqual(expect.arrayContaining(['/markets', '/status', '/limits', '/leaderboard', '/v1', '/data']));
  });
});

describe('plain-data contract modules', () => {
  // The renderer, the preload and the build config import these: a run-time import (zod, say)
  // would ride along into their bundles.
  it.each(['routes.ts', 'push.ts', 'leaderboard-choices.ts', 'enums.ts', 'market-rules.ts'])('%s imports types only', (file) => {
    const source = readFileSync(new URL(file, import.meta.url), 'utf8');
    const imports = source.match(/^(import\s.*|export\s.*\sfrom\s.*)$/gm) ?? [];
    expect(
      imports.filter((line) => !/^(import|export) type /.test(line)),
      file,
    ).toEqual([]);
  });
});
