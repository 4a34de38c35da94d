/**
 * `GET /data/orders` on the clob face through real HTTP, against the fake upstream CLOB: L2
 * auth (signed here the way clob-client signs, not with src/auth), cursor paging and filters,
 * the normalised order shape, the cache (scheduled and on-demand refresh, offline serving),
 * the IPC-only operations, and that no credential value reaches a log line or a response.
 */
import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { Credentials } from '../auth/credentials.ts';
import type { Order, OrdersPage } from '../contract/index.ts';
import {
  createFakeOrders,
  createSyntheticCatalog,
  FakeCatalog,
  startFakeUpstream,
  type FakeUpstream,
  type RawOrder,
} from '../fake-upstream/index.ts';
import { startService, type Service, type ServiceOptions } from './server.ts';
import type { Logger } from '../logger.ts';
import { DEAD_UPSTREAM, tempDir } from '../testing/fixtures.ts';

const CREDS: Credentials = {
  apiKey: '3f0b6c2e-91d4-4a7e-b8c5-0d2e6f1a9b47',
  secret: 'wN2-kq8_Zx4Lr7Tb1Yc9Vd3Fe6Gh0Jm5Pa_Qs-Ut8Io=',
  passphrase: 'e4c1f0b7a9d25c6e8f3b1a0d9c7e5f2a4b6d8c0e1f3a5b7c9d2e4f6a8b0c1d3e',
  address: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
};
const OTHER: Credentials = {
  apiKey: '9a8b7c6d-0000-4000-8000-123456789abc',
  secret: Buffer.alloc(32, 3).toString('base64url'),
  passphrase: 'z'.repeat(64),
  address: '0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65',
};
const SECRETS = [CREDS, OTHER].flatMap((c) => [c.apiKey, c.secret, c.passphrase]);
const UNAUTHORIZED = '{"error":"Unauthorized/Invalid api key"}';
const SPEC_FIELDS = [
  'assetId',
  'associateTrades',
  'createdAt',
  'id',
  'makerAddress',
  'market',
  'originalSize',
  'outcome',
  'owner',
  'price',
  'side',
  'sizeMatched',
  'status',
  'type',
  'updatedAt',
];

// ---- a client, written from clob-client's signing code, independent of src/auth ----------------

function sign(c: Credentials, ts: number, method: string, path: string): string {
  const key = Buffer.from(c.secret.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  return createHmac('sha256', key).update(`${ts}${method}${path}`).digest('base64').replace(/\+/g, '-').replace(/\//g, '_');
}

function headers(c: Credentials, opts: { ts?: number; family?: string; address?: string } = {}): Record<string, string> {
  const ts = opts.ts ?? Math.floor(Date.now() / 1000);
  // KUEST by default: these tests read the spec's dialect (POLY_* callers get Polymarket's, clients/clob-client.test.ts).
  const p = opts.family ?? 'KUEST';
  return {
    [`${p}_ADDRESS`]: opts.address ?? c.address,
    [`${p}_SIGNATURE`]: sign(c, ts, 'GET', '/data/orders'),
    [`${p}_TIMESTAMP`]: String(ts),
    [`${p}_API_KEY`]: c.apiKey,
    [`${p}_PASSPHRASE`]: c.passphrase,
  };
}

// ---- harness -----------------------------------------------------------------------------------

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

const logged: string[] = [];
const captureLog: Logger = { info: (m) => logged.push(m), warn: (m) => logged.push(m) };

async function fake(opts: { orders?: RawOrder[]; credentials?: Credentials } = {}): Promise<FakeUpstream> {
  const up = await startFakeUpstream({
    catalog: createSyntheticCatalog({ markets: 60, seed: 2 }),
    clob: { credentials: opts.credentials ?? CREDS, ...(opts.orders ? { orders: opts.orders } : {}) },
  });
  cleanups.push(() => up.close());
  return up;
}

async function service(up: FakeUpstream | undefined, opts: Partial<ServiceOptions> = {}): Promise<Service> {
  const urls = up ? { gamma: up.url, clob: up.url, data: up.url } : DEAD_UPSTREAM;
  const s = await startService({
    urls,
    basePort: 0,
    clobPort: 0,
    credentials: CREDS,
    log: captureLog,
    client: { baseDelayMs: 1, maxDelayMs: 5, maxRetries: 1 },
    ...opts,
  });
  cleanups.push(() => s.close());
  return s;
}

interface Answer {
  status: number;
  text: string;
  body: any;
}
const bodies: string[] = [];

async function get(s: Service, query: string, h: Record<string, string> = headers(CREDS)): Promise<Answer> {
  const res = await fetch(`${s.clobUrl}/data/orders${query}`, { headers: h });
  const text = await res.text();
  bodies.push(text);
  return { status: res.status, text, body: JSON.parse(text) };
}

/** Every page from `first`, checking the paging invariants on the way. */
async function walk(s: Service, filters = '', first: string | null = 'MA=='): Promise<{ orders: Order[]; pages: OrdersPage[] }> {
  const pages: OrdersPage[] = [];
  let cursor: string | null = first;
  for (;;) {
    const sep = filters ? '&' : '';
    const q = cursor === null ? `?${filters}` : `?${filters}${sep}next_cursor=${encodeURIComponent(cursor)}`;
    const r = await get(s, q);
    expect(r.status).toBe(200);
    const page = r.body as OrdersPage;
    expect(page.limit).toBe(100);
    expect(page.count).toBe(page.data.length);
    pages.push(page);
    if (page.next_cursor === '') break;
    expect(page.data).toHaveLength(100);
    cursor = page.next_cursor;
  }
  return { orders: pages.flatMap((p) => p.data), pages };
}

// ---- tests -------------------------------------------------------------------------------------

describe('GET /data/orders: L2 auth', () => {
  it('answers a request signed by an independent client implementation', async () => {
    const s = await service(await fake());
    const r = await get(s, '');
    expect(r.status).toBe(200);
    expect(r.body.data).toHaveLength(100);
  });

  it('refuses a wrong secret, passphrase, key, address, a stale or future timestamp, and each missing header', async () => {
    const s = await service(await fake());
    const now = Math.floor(Date.now() / 1000);
    const good = headers(CREDS, { family: 'POLY' });
    const cases: [string, Record<string, string>][] = [
      ['wrong secret', headers({ ...CREDS, secret: OTHER.secret })],
      ['wrong passphrase', { ...good, POLY_PASSPHRASE: OTHER.passphrase }],
      ['wrong key', { ...good, POLY_API_KEY: OTHER.apiKey }],
      ['wrong address', { ...good, POLY_ADDRESS: OTHER.address }],
      // Well outside the 300 s window (the exact boundaries are in src/auth/l2.test.ts).
      ['stale timestamp', headers(CREDS, { ts: now - 400 })],
      ['future timestamp', headers(CREDS, { ts: now + 400 })],
      ['another account', headers(OTHER)],
      ['no headers', {}],
      ...Object.keys(good).map((name): [string, Record<string, string>] => {
        const { [name]: _gone, ...rest } = good;
        return [`missing ${name}`, rest];
      }),
    ];
    for (const [what, h] of cases) {
      const res = await fetch(`${s.clobUrl}/data/orders`, { headers: h });
      expect(res.status, what).toBe(401);
      expect(res.headers.get('content-type'), what).toMatch(/^application\/json/);
      expect(await res.text(), what).toBe(UNAUTHORIZED);
    }
  });

  it('accepts a lower-case address, the KUEST_* headers, and one signature for every page', async () => {
    const s = await service(await fake());
    expect((await get(s, '', headers(CREDS, { address: CREDS.address.toLowerCase() }))).status).toBe(200);
    // Not through get(): a POLY_* caller gets Polymarket's orders, whose `owner` is the caller's own API key.
    expect((await fetch(`${s.clobUrl}/data/orders`, { headers: headers(CREDS, { family: 'POLY' }) })).status).toBe(200);
    const once = headers(CREDS);
    expect((await get(s, '?next_cursor=MA==', once)).status).toBe(200);
    expect((await get(s, '?next_cursor=MTAw', once)).status).toBe(200);
  });

  it('checks auth before anything else, and without configured credentials refuses everyone', async () => {
    const s = await service(await fake());
    expect((await get(s, '?next_cursor=%%%', {})).text).toBe(UNAUTHORIZED);
    const none = await service(await fake(), { credentials: undefined });
    expect((await get(none, '')).text).toBe(UNAUTHORIZED);
    expect((await get(none, '', {})).text).toBe(UNAUTHORIZED);
  });
});

describe("GET /data/orders on the base face (the web UI's own origin)", () => {
  it('answers as the clob face does, with the same L2 auth and error bodies', async () => {
    const s = await service(await fake());
    const onBase = (query: string, h: Record<string, string>) => fetch(`${s.baseUrl}/data/orders${query}`, { headers: h });
    for (const q of ['', '?next_cursor=MTAw', '?next_cursor=MjAw&market=x']) {
      const res = await onBase(q, headers(CREDS));
      expect(res.status, q).toBe(200);
      expect(await res.text(), q).toBe((await get(s, q)).text);
    }
    for (const h of [{}, headers(OTHER), headers({ ...CREDS, secret: OTHER.secret })]) {
      const res = await onBase('', h);
      expect(res.status).toBe(401);
      expect(await res.text()).toBe(UNAUTHORIZED);
    }
    const bad = await onBase('?next_cursor=abc', headers(CREDS));
    expect([bad.status, await bad.text()]).toEqual([400, '{"error":"invalid next_cursor"}']);
    // Only the operations the contract marks `webUi`: the rest of the clob face stays there.
    expect((await fetch(`${s.baseUrl}/data/trades`, { headers: headers(CREDS) })).status).toBe(404);
  });
});

describe('GET /data/orders: paging, filters, shape', () => {
  it('walks every cached order exactly once from MA== to an empty cursor', async () => {
    const up = await fake();
    const s = await service(up);
    const { orders, pages } = await walk(s);
    expect(pages.map((p) => p.count)).toEqual([100, 100, 75]);
    expect(pages.map((p) => p.next_cursor)).toEqual(['MTAw', 'MjAw', '']);
    expect(orders.map((o) => o.id)).toEqual(up.clob!.orders.map((o) => o.id));
    expect(new Set(orders.map((o) => o.id)).size).toBe(orders.length);
    // No cursor, or an empty one, starts at the beginning too.
    expect((await walk(s, '', null)).orders).toEqual(orders);
    expect((await get(s, '?next_cursor=')).body.data).toEqual(pages[0]!.data);
    // Polymarket's end marker sent back: the empty last page.
    expect((await get(s, '?next_cursor=LTE=')).body).toEqual({ data: [], next_cursor: '', limit: 100, count: 0 });
    // Past the end: nothing, and no further cursor.
    expect((await get(s, `?next_cursor=${Buffer.from('5000').toString('base64')}`)).body).toEqual({
      data: [],
      next_cursor: '',
      limit: 100,
      count: 0,
    });
  });

  it("serves the fake upstream's snake_case orders as spec Orders with every field of the right type", async () => {
    const up = await fake();
    const s = await service(up);
    const { orders } = await walk(s);
    const raw = new Map(up.clob!.orders.map((o) => [o.id, o]));
    for (const o of orders) {
      expect(Object.keys(o).sort()).toEqual(SPEC_FIELDS);
      for (const f of SPEC_FIELDS)
        if (f !== 'associateTrades') expect(typeof (o as unknown as Record<string, unknown>)[f], f).toBe('string');
      expect(Array.isArray(o.associateTrades) && o.associateTrades.every((t) => typeof t === 'string')).toBe(true);
      const r = raw.get(o.id)!;
      expect(o).toEqual({
        id: r.id,
        status: 'live',
        market: r.market,
        assetId: r.asset_id,
        outcome: r.outcome,
        makerAddress: r.maker_address,
        // The owner is the API key upstream; the service shows the account's address instead.
        owner: CREDS.address,
        price: r.price,
        originalSize: r.original_size,
        sizeMatched: r.size_matched,
        side: r.side,
        type: r.order_type,
        associateTrades: r.associate_trades,
        createdAt: new Date(r.created_at * 1000).toISOString(),
        updatedAt: new Date(r.created_at * 1000).toISOString(),
      });
      expect(o.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    }
    expect(orders.some((o) => o.side === 'BUY')).toBe(true);
    expect(orders.some((o) => o.associateTrades.length > 0)).toBe(true);
  });

  it('combines filters with paging', async () => {
    // Two markets only, so a market holds more than a page of orders.
    const markets = [
      { conditionId: `0x${'a'.repeat(64)}`, tokenIds: ['111', '112'], outcomes: ['Yes', 'No'] },
      { conditionId: `0x${'b'.repeat(64)}`, tokenIds: ['221', '222'], outcomes: ['Up', 'Down'] },
    ];
    const raw = createFakeOrders({ count: 420, seed: 9, markets, minMarkets: 0, owner: CREDS.apiKey, maker: CREDS.address });
    const s = await service(await fake({ orders: raw }));
    const expected = (f: (o: RawOrder) => boolean) => raw.filter(f).map((o) => o.id);
    const a = markets[0]!.conditionId;
    const byMarket = await walk(s, `market=${a}`);
    expect(byMarket.pages.length).toBeGreaterThan(1);
    expect(byMarket.orders.map((o) => o.id)).toEqual(expected((o) => o.market === a));
    // Condition ids in any letter case name the same market.
    expect((await walk(s, `market=${a.toUpperCase().replace('0X', '0x')}`)).orders).toEqual(byMarket.orders);
    const both = await walk(s, `market=${a}&asset_id=112`);
    expect(both.orders.map((o) => o.id)).toEqual(expected((o) => o.market === a && o.asset_id === '112'));
    expect((await walk(s, `market=${a}&asset_id=221`)).orders).toEqual([]);
    const one = raw[317]!;
    expect((await walk(s, `id=${one.id}&market=${one.market}`)).orders.map((o) => o.id)).toEqual([one.id]);
    // Unknown parameters (clob-client's geo_block_token) are ignored.
    expect((await walk(s, `market=${a}&geo_block_token=t`)).orders).toEqual(byMarket.orders);
  });

  it('answers a malformed cursor with 400 invalid next_cursor', async () => {
    const s = await service(await fake());
    const b64 = (t: string) => Buffer.from(t).toString('base64');
    for (const c of ['abc', '!!', 'LTE', 'MA=', 'MA===', b64('x'), b64('-5'), b64('1.5'), b64('00'), b64(' 1'), 'M'.repeat(600)]) {
      const r = await get(s, `?next_cursor=${encodeURIComponent(c)}`);
      expect(r.status, c).toBe(400);
      expect(r.text, c).toBe('{"error":"invalid next_cursor"}');
    }
  });
});

describe('orders cache', () => {
  it('serves the cached list offline, and when the upstream is down', async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const first = await service(await fake(), { dataDir: t.dir });
    const online = (await walk(first)).orders;
    await first.close();
    const offline = await service(undefined, { dataDir: t.dir, offline: true });
    expect((await walk(offline)).orders).toEqual(online);
    expect(offline.orders.status()).toMatchObject({ configured: true, offline: true, count: 275 });
    await offline.close();
    const down = await service(undefined, { dataDir: t.dir });
    expect((await walk(down)).orders).toEqual(online);
  });

  it('refreshes on its schedule', async () => {
    const up = await fake();
    const s = await service(up, { autoSync: true, ordersIntervalMs: 20 });
    await expect.poll(() => s.orders.status().fetchedAt).not.toBeNull();
    up.clob!.orders = up.clob!.orders.slice(0, 130);
    await expect.poll(async () => (await walk(s)).orders.length).toBe(130);
  });

  it('refreshes on demand, stamping changed orders with the time it saw them change', async () => {
    const up = await fake();
    // The injected clock also times local auth and upstream signatures: keep it near the real one.
    let now = Math.floor(Date.now() / 60_000) * 60_000;
    const s = await service(up, { now: () => now });
    await walk(s);
    const [changed, kept] = up.clob!.orders;
    up.clob!.orders = [{ ...changed!, size_matched: '1.5' }, ...up.clob!.orders.slice(1, 200)];
    now += 60_000;
    const status = await s.dispatch('orders.refresh', {});
    const at = new Date(now).toISOString();
    expect(status).toMatchObject({ configured: true, refreshing: false, count: 200, fetchedAt: at, lastError: null });
    const { orders } = await walk(s);
    expect(orders).toHaveLength(200);
    expect(orders[0]).toMatchObject({ id: changed!.id, sizeMatched: '1.5', updatedAt: at });
    expect(orders[1]!.updatedAt).toBe(new Date(kept!.created_at * 1000).toISOString());
  });
});

describe('orders and credentials over IPC', () => {
  it('lists without HTTP auth, and keeps set/clear, refresh and status off HTTP', async () => {
    const s = await service(await fake());
    const page = await s.dispatch('orders.list', { next_cursor: 'MTAw' });
    expect(page.count).toBe(100);
    expect(await s.dispatch('credentials.status', {})).toEqual({ configured: true, address: CREDS.address });
    for (const [method, path] of [
      ['GET', '/credentials'],
      ['POST', '/credentials'],
      ['DELETE', '/credentials'],
      ['POST', '/orders/refresh'],
      ['GET', '/orders/status'],
    ]) {
      for (const url of [s.clobUrl, s.baseUrl]) {
        const res = await fetch(`${url}${path}`, { method, headers: headers(CREDS) });
        expect(res.status, `${method} ${url}${path}`).toBe(404);
      }
    }
  });

  it("switches accounts: the old account's orders go, the route follows the new credentials", async () => {
    const s = await service(await fake());
    expect((await walk(s)).orders).toHaveLength(275);
    // The fake upstream knows only CREDS: the new account's refresh fails, and nothing of CREDS stays.
    expect(await s.dispatch('credentials.set', { ...OTHER })).toEqual({ configured: true, address: OTHER.address });
    expect(s.orders.status()).toMatchObject({ configured: true, count: 0, fetchedAt: null });
    expect((await get(s, '')).text).toBe(UNAUTHORIZED);
    // The first request for the new account waits for its first fetch, which the upstream refuses.
    expect((await get(s, '', headers(OTHER))).body).toEqual({ data: [], next_cursor: '', limit: 100, count: 0 });
    expect(s.orders.status().lastError).toMatch(/answered 401/);
    await expect(s.dispatch('credentials.set', { ...OTHER, address: 'not-an-address' })).rejects.toMatchObject({
      status: 400,
      body: { error: 'credentials: address must be a 0x address (40 hex digits)' },
    });
    expect(await s.dispatch('credentials.clear', {})).toEqual({ configured: false });
    await expect(s.dispatch('orders.list', {})).rejects.toMatchObject({ status: 401, body: { error: 'Unauthorized/Invalid api key' } });
    expect((await get(s, '', headers(OTHER))).text).toBe(UNAUTHORIZED);
  });
});

describe('secrets', () => {
  it('never appear in a log line or a response body', async () => {
    // Every failure path: upstream refusing the credentials, bad local auth, bad input, switching accounts.
    const up = await fake({ credentials: OTHER });
    const s = await service(up, { autoSync: true, ordersIntervalMs: 20 });
    await expect.poll(() => s.orders.status().lastError).toMatch(/401/);
    await get(s, '', headers({ ...CREDS, passphrase: OTHER.passphrase }));
    await get(s, '?next_cursor=zz');
    await get(s, '');
    await s.dispatch('credentials.set', { ...OTHER });
    await expect.poll(() => s.orders.status().fetchedAt).not.toBeNull();
    for (const p of [
      { ...OTHER, address: 'x' },
      { ...OTHER, bogus: '1' },
    ]) {
      bodies.push(JSON.stringify(await s.dispatch('credentials.set', p as never).catch((e: { body: unknown }) => e.body)));
    }
    bodies.push(JSON.stringify(s.orders.status()), JSON.stringify(await s.dispatch('credentials.status', {})));
    await s.close();
    expect(logged.some((l) => /orders refresh failed/.test(l))).toBe(true);
    for (const secret of SECRETS) {
      for (const line of logged) expect(line).not.toContain(secret);
      for (const body of bodies) expect(body).not.toContain(secret);
    }
  });
});

describe('an empty catalog', () => {
  it('still serves orders (they do not depend on the catalog)', async () => {
    const up = await startFakeUpstream({ catalog: new FakeCatalog(), clob: { credentials: CREDS } });
    cleanups.push(() => up.close());
    const s = await service(up);
    expect((await walk(s)).orders).toHaveLength(275);
  });
});
