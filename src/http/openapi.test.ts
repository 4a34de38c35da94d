/**
 * `GET /openapi.json` (src/contract/openapi.ts, served by openapi-route.ts): each face's document
 * is valid OpenAPI 3.1, holds exactly that face's contract routes, maps the parameter
 * declarations to JSON Schema, names the auth headers the faces check, and is served behind the
 * same guards and rate limits as every other GET.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterEach, describe, expect, it } from 'vitest';
import type { Credentials } from '../auth/credentials.ts';
import { HEADER_FAMILIES, l2Headers } from '../auth/l2.ts';
import type { Dispatch } from '../contract/handlers.ts';
import { API_TOKEN_HEADER } from '../contract/local-api-ops.ts';
import { FACES, L2_FAMILIES, OPENAPI_PATH, l2HeaderNames, openApiDocument, openApiPath, type JsonSchema } from '../contract/openapi.ts';
import { ROUTES, opNames, servedOn, type Face, type RouteDef } from '../contract/routes.ts';
import { InboundLimiter } from '../limits/inbound.ts';
import { DEFAULT_LIMITS } from '../limits/table.ts';
import { silentLogger } from '../logger.ts';
import { PACKAGE_VERSION } from '../package-root.ts';
import { buildFace } from './face.ts';

const dispatch = (async () => ({ ok: true })) as unknown as Dispatch;
const HOST = { host: '127.0.0.1:7310' };

type Doc = { openapi: string; info: { version: string }; paths: Record<string, Record<string, JsonSchema>>; components: JsonSchema };
const docs = new Map<Face, Doc>();
/** Built once per face: each build converts every parameter's zod schema. */
const doc = (face: Face): Doc => {
  if (!docs.has(face)) docs.set(face, openApiDocument(face, { version: PACKAGE_VERSION }) as unknown as Doc);
  return docs.get(face)!;
};
const op = (face: Face, method: string, path: string) => doc(face).paths[path]![method] as JsonSchema & { parameters: JsonSchema[] };
const param = (face: Face, method: string, path: string, name: string) => op(face, method, path).parameters.find((p) => p['name'] === name);

const httpRoutes = () => opNames.map((n) => [n, ROUTES[n] as RouteDef] as const).filter(([, r]) => r.http !== false);

const apps: { close(): Promise<unknown> }[] = [];
afterEach(async () => {
  while (apps.length) await apps.pop()!.close();
});

async function face(f: Face, limits?: InboundLimiter) {
  const app = await buildFace({ face: f, dispatch, log: silentLogger, ...(limits ? { limits } : {}) });
  apps.push(app);
  return app;
}

describe('the OpenAPI documents', () => {
  for (const f of FACES) {
    it(`the ${f} face's is valid OpenAPI 3.1`, async () => {
      const v = new Validator();
      const res = await v.validate(structuredClone(doc(f)) as unknown as Record<string, unknown>);
      expect(res.errors ?? []).toEqual([]);
      expect(res.valid).toBe(true);
      expect(v.version).toBe('3.1');
    });

    it(`the ${f} face's holds every route of that face and none of the other's`, () => {
      const paths = doc(f).paths;
      const listed = new Set(Object.entries(paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`)));
      const expected = new Set([`GET ${OPENAPI_PATH}`]);
      for (const [name, r] of httpRoutes()) {
        const key = `${r.method} ${openApiPath(r.path)}`;
        if (servedOn(r, f)) {
          expected.add(key);
          expect(paths[openApiPath(r.path)]?.[r.method.toLowerCase()]?.['operationId'], name).toBe(name);
        }
      }
      expect([...listed].sort()).toEqual([...expected].sort());
      // IPC-only operations are on no face.
      const ids = Object.values(paths).flatMap((ops) => Object.values(ops).map((o) => o['operationId']));
      for (const n of opNames.filter((n) => (ROUTES[n] as RouteDef).http === false)) expect(ids).not.toContain(n);
    });
  }

  it('declares each path template parameter once, as a required path parameter, and no parameter twice', () => {
    for (const f of FACES) {
      for (const [path, ops] of Object.entries(doc(f).paths)) {
        const names = [...path.matchAll(/{([^}]+)}/g)].map((m) => m[1]);
        for (const [method, o] of Object.entries(ops)) {
          const params = (o['parameters'] ?? []) as { name: string; in: string; required?: boolean }[];
          const where = `${f} ${method} ${path}`;
          const inPath = params.filter((p) => p.in === 'path');
          expect(inPath.map((p) => p.name).sort(), where).toEqual([...names].sort());
          for (const p of inPath) expect(p.required, where).toBe(true);
          const keys = params.map((p) => `${p.in} ${p.name}`);
          expect(new Set(keys).size, where).toBe(keys.length);
        }
      }
    }
  });

  it('no route appears on a face that does not serve it', () => {
    for (const [name, r] of httpRoutes()) {
      for (const f of FACES) {
        const there = doc(f).paths[openApiPath(r.path)]?.[r.method.toLowerCase()];
        if (!servedOn(r, f)) expect(there?.['operationId'], `${name} on ${f}`).not.toBe(name);
      }
    }
  });

  it('carries the package version and the default address', () => {
    expect(doc('base').info.version).toBe(PACKAGE_VERSION);
    expect(doc('clob').openapi).toBe('3.1.0');
  });

  it('maps the parameter declarations to JSON Schema', () => {
    expect(param('base', 'get', '/markets', 'limit')).toMatchObject({
      in: 'query',
      schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
    });
    expect(param('base', 'get', '/markets', 'active')!['schema']).toEqual({ type: 'boolean' });
    expect(param('base', 'get', '/markets', 'ascending')!['schema']).toEqual({ type: 'boolean', default: false });
    expect(param('base', 'get', '/markets', 'id')).toMatchObject({ schema: { type: 'array', items: { type: 'integer', minimum: 0 } } });
    expect(param('base', 'get', '/markets', 'event_slug')).toMatchObject({ 'x-aliases': ['eventSlug'] });
    expect(param('base', 'get', '/markets', 'related_tags')!['schema']).toEqual({ type: 'string', enum: ['false', '0'] });
    expect(param('base', 'get', '/markets', 'md_chance_min')!['schema']).toEqual({ type: 'number', minimum: 0, maximum: 1 });
    expect(param('base', 'get', '/markets', 'start_date_min')!['schema']).toEqual({ type: 'string' });
    expect(param('base', 'get', '/v1/leaderboard', 'category')!['schema']).toMatchObject({ type: 'string', default: 'OVERALL' });
    expect(param('base', 'get', '/public-search', 'q')).toMatchObject({ required: true, schema: { type: 'string', maxLength: 500 } });
    expect(param('base', 'get', '/markets/{id}', 'id')).toMatchObject({ in: 'path', required: true });
    expect(param('base', 'get', '/icons/{kind}/{id}', 'kind')).toMatchObject({ in: 'path', required: true });
    // A body is the request body, not a parameter.
    expect(param('clob', 'post', '/order', 'body')).toBeUndefined();
    expect(op('clob', 'post', '/order')['requestBody']).toMatchObject({ required: true, content: { 'application/json': {} } });
  });

  it('describes the error answers with their bodies', () => {
    const list = op('base', 'get', '/markets')['responses'] as Record<string, JsonSchema>;
    expect(list['400']).toMatchObject({ content: { 'application/json': { schema: { $ref: '#/components/schemas/CatalogError' } } } });
    expect(list['404']).toBeUndefined();
    const board = op('base', 'get', '/v1/leaderboard')['responses'] as Record<string, JsonSchema>;
    expect(board['400']).toMatchObject({ content: { 'application/json': { schema: { $ref: '#/components/schemas/PlainError' } } } });
    const order = op('clob', 'get', '/data/order/{id}')['responses'] as Record<string, JsonSchema>;
    expect(Object.keys(order)).toEqual(expect.arrayContaining(['200', '400', '401', '403', '404', '429', '500']));
    expect(JSON.stringify(doc('clob'))).not.toContain('CatalogError');
  });

  it("names the auth headers the faces check: the local API token, and l2.ts's L2 headers", () => {
    expect([...L2_FAMILIES]).toEqual([...HEADER_FAMILIES]);
    const creds: Credentials = { apiKey: 'k', secret: 'c2VjcmV0', passphrase: 'p', address: '0x0' };
    for (const family of HEADER_FAMILIES) {
      expect(l2HeaderNames(family).sort()).toEqual(Object.keys(l2Headers(creds, { method: 'GET', path: '/' }, { family })).sort());
    }
    const base = doc('base').components['securitySchemes'] as Record<string, JsonSchema>;
    expect(base['localApiToken']).toEqual(expect.objectContaining({ type: 'apiKey', in: 'header', name: API_TOKEN_HEADER }));
    expect(base['POLY_SIGNATURE']).toMatchObject({ type: 'apiKey', in: 'header', name: 'POLY_SIGNATURE' });
    expect(op('base', 'post', '/watchlist')['security']).toEqual([{ localApiToken: [] }]);
    expect(op('base', 'get', '/markets')['security']).toBeUndefined();
    const l2 = op('clob', 'get', '/data/orders')['security'] as Record<string, string[]>[];
    expect(l2.map((r) => Object.keys(r).sort())).toEqual(HEADER_FAMILIES.map((f) => l2HeaderNames(f).sort()));
    // The clob face has no writes that take the local token.
    expect(doc('clob').components['securitySchemes']).not.toHaveProperty('localApiToken');
  });
});

describe('GET /openapi.json', () => {
  for (const f of FACES) {
    it(`the ${f} face serves its own document`, async () => {
      const app = await face(f);
      const res = await app.inject({ method: 'GET', url: OPENAPI_PATH, headers: HOST });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json()).toEqual(JSON.parse(JSON.stringify(doc(f))));
      // Kept once built: the same bytes again.
      const again = await app.inject({ method: 'GET', url: OPENAPI_PATH, headers: HOST });
      expect(again.body).toBe(res.body);
    });
  }

  it('passes the guards of every GET: a foreign Host or another site is refused', async () => {
    const app = await face('base');
    const rebound = await app.inject({ method: 'GET', url: OPENAPI_PATH, headers: { host: 'evil.example:7310' } });
    expect(rebound.statusCode).toBe(403);
    expect(rebound.json()).toEqual({ type: 'forbidden', error: 'host not allowed' });
    const foreign = await app.inject({ method: 'GET', url: OPENAPI_PATH, headers: { ...HOST, origin: 'https://evil.example' } });
    expect(foreign.statusCode).toBe(403);
    const clob = await face('clob');
    const noSite = await clob.inject({ method: 'GET', url: OPENAPI_PATH, headers: { ...HOST, 'sec-fetch-site': 'cross-site' } });
    expect(noSite.statusCode).toBe(403);
    expect(noSite.json()).toEqual({ error: 'cross-site request refused' });
    // The page's own origin is fine.
    const same = await app.inject({ method: 'GET', url: OPENAPI_PATH, headers: { ...HOST, origin: 'http://127.0.0.1:7310' } });
    expect(same.statusCode).toBe(200);
  });

  it('is counted by the inbound rate limits like any route of its face', async () => {
    const table = { ...DEFAULT_LIMITS, windows: [{ name: 'tiny', limit: 1, seconds: 10, routes: ['class:catalog'] }] };
    const app = await face('base', new InboundLimiter({ table, now: () => 0 }));
    const first = await app.inject({ method: 'GET', url: OPENAPI_PATH, headers: HOST });
    expect(first.statusCode).toBe(200);
    expect(first.headers['ratelimit-policy']).toBe('"tiny";q=1;w=10');
    const second = await app.inject({ method: 'GET', url: OPENAPI_PATH, headers: HOST });
    expect(second.statusCode).toBe(429);
    expect(second.headers['retry-after']).toBeDefined();
  });
});
