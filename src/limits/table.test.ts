/**
 * The built-in table is keyed by contract operation: every route it names is an operation's
 * `METHOD /path`, so a path changed in src/contract/routes.ts moves its limits with it. A
 * `--limits` file still names routes as strings, any path at all.
 */
import { describe, expect, it } from 'vitest';
import { ROUTES, opNames } from '../contract/routes.ts';
import { DEFAULT_LIMITS, parseLimitsTable, routeName } from './table.ts';

const named = (): string[] => [
  ...DEFAULT_LIMITS.windows.flatMap((w) => [...w.routes, ...(w.reserve?.for ?? [])]),
  ...Object.values(DEFAULT_LIMITS.classes).flat(),
  ...DEFAULT_LIMITS.apiKeyRoutes,
];

describe('the built-in limits table', () => {
  it("names an operation as the inbound limiter sees its route: method and the contract's path", () => {
    expect(routeName('markets.get')).toBe(`GET ${ROUTES['markets.get'].path}`);
    expect(routeName('order.cancel')).toBe(`DELETE ${ROUTES['order.cancel'].path}`);
  });

  it('names only contract operations and classes', () => {
    const ops = new Set(opNames.map(routeName));
    const classes = new Set(
      Object.keys(DEFAULT_LIMITS.classes)
        .map((c) => `class:${c}`)
        .concat('class:images'),
    );
    for (const r of named()) expect(ops.has(r) || classes.has(r), r).toBe(true);
  });

  it('a limits file names routes as strings, contract operations or not', () => {
    const t = parseLimitsTable({
      windows: [{ name: 'odd', limit: 5, seconds: 1, routes: ['GET /comments', 'GET /markets/:id', 'class:catalog'] }],
      classes: { catalog: ['GET /comments'] },
      apiKeyRoutes: ['POST /order'],
    });
    expect(t.windows[0]!.routes).toEqual(['GET /comments', 'GET /markets/:id', 'class:catalog']);
    expect(t.classes).toEqual({ catalog: ['GET /comments'] });
    expect(t.apiKeyRoutes).toEqual(['POST /order']);
  });
});
