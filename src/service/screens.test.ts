/**
 * Saved screens over HTTP (issue 16): create, list, delete with the local API token, kept in
 * `<dataDir>/screens.json` across restarts; bad screens refused without a change; a saved
 * screen's params list and export exactly the rows of a brute-force filter, and listings that
 * read the watchlist or the orders are not answered from a stale response cache.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Screen } from '../contract/index.ts';
import type { RawParams } from '../contract/params.ts';
import { parseCsv } from '../testing/csv.ts';
import { DEAD_UPSTREAM, tempDir } from '../testing/fixtures.ts';
import { NOW, bruteMarkets, syntheticCatalog, type Catalog } from '../testing/screen-model.ts';
import { OrdersStore } from '../store/orders-store.ts';
import { SCREENS_FILE } from '../store/screens-file.ts';
import { startService, type Service } from '../http/server.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

const CATALOG: Catalog = syntheticCatalog(11, 60);

async function serve(dataDir?: string): Promise<Service> {
  const web = tempDir();
  cleanups.push(web.cleanup);
  const s = await startService({
    urls: DEAD_UPSTREAM,
    offline: true,
    basePort: 0,
    clobPort: 0,
    webRoot: web.dir,
    persistDelayMs: 0,
    now: () => NOW,
    ...(dataDir !== undefined ? { dataDir } : {}),
  });
  cleanups.push(() => s.close());
  s.store.apply({ tags: CATALOG.tags, events: CATALOG.events });
  return s;
}

function dir(): string {
  const d = tempDir();
  cleanups.push(d.cleanup);
  return d.dir;
}

async function call(s: Service, method: string, p: string, body?: unknown, token = true): Promise<{ status: number; body: unknown }> {
  const headers: Record<string, string> = method === 'GET' || !token ? {} : { 'x-marketdesk-token': s.apiToken.token };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const r = await fetch(s.baseUrl + p, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  const text = await r.text();
  return { status: r.status, body: r.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text };
}

function query(params: RawParams): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) for (const x of Array.isArray(v) ? v : [v!]) q.append(k, x);
  return q.toString();
}

async function listedIds(s: Service, params: RawParams): Promise<string[]> {
  const out: string[] = [];
  for (let offset = 0; ; offset += 100) {
    const r = await call(s, 'GET', `/markets?${query({ ...params, limit: '100', offset: String(offset) })}`);
    expect(r.status).toBe(200);
    const page = r.body as { id: string }[];
    out.push(...page.map((m) => m.id));
    if (page.length < 100) return out;
  }
}

const SCREEN = {
  name: 'Coin flips ending soon',
  kind: 'markets',
  params: { md_chance_min: 0.2, md_chance_max: 0.8, md_volume_min: 1, md_ends_within_hours: 24 * 30, md_tag: ['politics'], closed: false },
};

describe('screens over HTTP', () => {
  it('creates, lists and deletes screens, kept across a restart', async () => {
    const d = dir();
    const a = await serve(d);
    expect((await call(a, 'GET', '/screens')).body).toEqual({ screens: [] });
    const created = await call(a, 'POST', '/screens', SCREEN);
    expect(created.status).toBe(200);
    const screen = created.body as Screen;
    expect(screen).toMatchObject({ name: SCREEN.name, kind: 'markets' });
    expect(screen.params).toEqual({
      md_chance_min: '0.2',
      md_chance_max: '0.8',
      md_volume_min: '1',
      md_ends_within_hours: '720',
      md_tag: ['politics'],
      closed: 'false',
    });
    const second = (await call(a, 'POST', '/screens', { name: 'Watched', kind: 'events', params: { md_watchlist: true } })).body as Screen;
    expect(second.id).not.toBe(screen.id);
    expect((await call(a, 'GET', '/screens')).body).toEqual({ screens: [screen, second] });
    await a.close();
    expect(JSON.parse(readFileSync(path.join(d, SCREENS_FILE), 'utf8')).screens).toEqual([screen, second]);

    const b = await serve(d);
    expect((await call(b, 'GET', '/screens')).body).toEqual({ screens: [screen, second] });
    expect(await call(b, 'DELETE', `/screens/${screen.id}`)).toEqual({ status: 200, body: { screens: [second] } });
    expect((await call(b, 'DELETE', `/screens/${screen.id}`)).status).toBe(404);
    await b.close();
    const c = await serve(d);
    expect((await call(c, 'GET', '/screens')).body).toEqual({ screens: [second] });
  });

  it('updates a screen in place (name, params or both); a bad change, another kind or no token change nothing', async () => {
    const d = dir();
    const a = await serve(d);
    const screen = (await call(a, 'POST', '/screens', SCREEN)).body as Screen;
    const other = (await call(a, 'POST', '/screens', { name: 'Watched', kind: 'events', params: { md_watchlist: true } })).body as Screen;
    const renamed = await call(a, 'POST', `/screens/${screen.id}`, { name: ' Renamed ' });
    expect(renamed).toEqual({ status: 200, body: { ...screen, name: 'Renamed' } });
    // As the renderer sends it: params as JSON text in the query.
    const q = new URLSearchParams({ params: JSON.stringify({ md_volume_min: 1000000 }) });
    const refiltered = await call(a, 'POST', `/screens/${screen.id}?${q}`, {});
    expect(refiltered).toEqual({ status: 200, body: { ...screen, name: 'Renamed', params: { md_volume_min: '1000000' } } });
    const kept = { screens: [refiltered.body, other] };
    for (const [body, token] of [
      [{ params: { md_chance_min: 2 } }, true],
      [{ params: { nope: 1 } }, true],
      [{ name: '' }, true],
      [{ kind: 'events' }, true],
      [{ name: 'x' }, false],
    ] as const) {
      const r = await call(a, 'POST', `/screens/${screen.id}`, body, token);
      expect(r.status, JSON.stringify(body)).toBe(token ? 400 : 401);
      expect((await call(a, 'GET', '/screens')).body).toEqual(kept);
    }
    expect((await call(a, 'POST', '/screens/ffffffffffff', { name: 'x' })).status).toBe(404);
    await a.close();
    const b = await serve(d);
    expect((await call(b, 'GET', '/screens')).body).toEqual(kept);
  });

  it('takes the fields as parameters too (the renderer over HTTP and IPC), params as JSON text', async () => {
    const s = await serve();
    const params = encodeURIComponent(JSON.stringify({ md_volume_min: 5, md_tag: ['crypto'] }));
    const viaHttp = await call(s, 'POST', `/screens?name=Busy&kind=markets&params=${params}`, {});
    expect(viaHttp.status).toBe(200);
    expect(viaHttp.body).toMatchObject({ name: 'Busy', kind: 'markets', params: { md_volume_min: '5', md_tag: ['crypto'] } });
    const viaIpc = await s.dispatch('screens.create', { name: 'Ends', kind: 'events', params: '{"md_ends_within_hours": 24}' });
    expect(viaIpc).toMatchObject({ name: 'Ends', kind: 'events', params: { md_ends_within_hours: '24' } });
    expect(await s.dispatch('screens.list', {})).toEqual((await call(s, 'GET', '/screens')).body);
    await expect(s.dispatch('screens.create', { name: 'x', kind: 'markets', params: '{oops' })).rejects.toMatchObject({ status: 400 });
  });

  it('refuses bad screens with a 400, writes without the token, and changes nothing', async () => {
    const s = await serve(dir());
    const kept = (await call(s, 'POST', '/screens', SCREEN)).body as Screen;
    const bad: unknown[] = [
      { kind: 'markets', params: {} },
      { name: ' ', kind: 'markets' },
      { name: 'x', kind: 'tags' },
      { name: 'x', kind: 'markets', params: { md_chance_min: 2 } },
      { name: 'x', kind: 'markets', params: { md_chance_min: 0.8, md_chance_max: 0.2 } },
      { name: 'x', kind: 'markets', params: { md_volume_min: 'lots' } },
      { name: 'x', kind: 'markets', params: { md_typo: 1 } },
      { name: 'x', kind: 'markets', params: { limit: 5 } },
      { name: 'x', kind: 'markets', params: { md_tag: { slug: 'a' } } },
      { name: 'x', kind: 'markets', params: { order: 'nonsense' } },
      { name: 'x', kind: 'events', params: { md_chance_min: 0.1 } },
      { name: 'x', kind: 'events', params: { md_end_after: '2027-01-01', md_end_before: '2026-01-01' } },
      [1, 2],
    ];
    for (const body of bad) {
      const r = await call(s, 'POST', '/screens', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect((r.body as { type: string }).type).toBe('bad request');
    }
    const raw = await fetch(`${s.baseUrl}/screens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-marketdesk-token': s.apiToken.token },
      body: '{not json',
    });
    expect(raw.status).toBe(400);
    expect((await call(s, 'POST', '/screens', SCREEN, false)).status).toBe(401);
    expect((await call(s, 'DELETE', `/screens/${kept.id}`, undefined, false)).status).toBe(401);
    expect((await call(s, 'GET', '/screens')).body).toEqual({ screens: [kept] });
  });

  it('refuses bad screen params on the listings, counts and exports with a 400', async () => {
    const s = await serve();
    for (const p of ['md_chance_min=0.9&md_chance_max=0.1', 'md_chance_max=1.5', 'md_spread_min=-1', 'md_ends_within_hours=0']) {
      for (const route of ['/markets', '/markets/count', '/export/markets'])
        expect((await call(s, 'GET', `${route}?${p}`)).status, p).toBe(400);
    }
    expect((await call(s, 'GET', '/events?md_volume_min=5&md_volume_max=1')).status).toBe(400);
  });
});

describe("a screen's rows", () => {
  it('lists and exports exactly the brute-force filter', async () => {
    const s = await serve();
    const screen = (await call(s, 'POST', '/screens', SCREEN)).body as Screen;
    const expected = bruteMarkets(CATALOG, screen.params, { markets: [], events: [] });
    expect(expected.length).toBeGreaterThan(0);
    expect(await listedIds(s, screen.params)).toEqual(expected);
    expect((await call(s, 'GET', `/markets/count?${query(screen.params)}`)).body).toEqual({ count: expected.length });
    const csv = await call(s, 'GET', `/export/markets?${query(screen.params)}`);
    expect(csv.status).toBe(200);
    const rows = parseCsv(csv.body as string);
    expect(rows[0]![0]).toBe('id');
    expect(rows.slice(1).map((r) => r[0])).toEqual(expected);
  });

  it('follows the watchlist and the orders, past the response cache', async () => {
    const s = await serve();
    expect(await listedIds(s, { md_watchlist: 'true' })).toEqual([]);
    const market = CATALOG.events[3]!.markets![0]!.id;
    const event = CATALOG.events[7]!.id;
    await call(s, 'POST', `/watchlist?kind=market&id=${market}`, {});
    await call(s, 'POST', `/watchlist?kind=event&id=${event}`, {});
    const watched = { markets: [market], events: [event] };
    expect(await listedIds(s, { md_watchlist: 'true' })).toEqual(bruteMarkets(CATALOG, { md_watchlist: 'true' }, watched));
    expect(await listedIds(s, { md_watchlist: 'true' })).toContain(market);

    expect(await listedIds(s, { md_has_orders: 'true' })).toEqual([]);
    const side = s.store.sideTables();
    const orders = CATALOG.orderConditions.map((market, i) => ({
      ...{ id: `0xo${i}`, status: 'LIVE', market, assetId: String(i), outcome: 'Yes', makerAddress: '0x1', owner: 'k' },
      ...{ price: '0.5', originalSize: '1', sizeMatched: '0', side: 'BUY', type: 'GTC', associateTrades: [] },
      ...{ createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z' },
    }));
    new OrdersStore(side.st, side.changed).replace('0xacct', orders, NOW);
    const withOrders = bruteMarkets(CATALOG, { md_has_orders: 'true' }, watched);
    expect(withOrders.length).toBeGreaterThan(0);
    expect(await listedIds(s, { md_has_orders: 'true' })).toEqual(withOrders);
  });
});
