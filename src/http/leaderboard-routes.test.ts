/**
 * `GET /v1/leaderboard` on the base face through real HTTP, against the fake Data API: every
 * parameter, bound and enum, unknown fields, the entry shape, and the cache (hits, TTL expiry on
 * an injected clock, stale boards served while the upstream fails, internal_error with nothing
 * cached).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LEADERBOARD_CATEGORIES, LEADERBOARD_ORDERS, LEADERBOARD_PERIODS } from '../contract/leaderboard-ops.ts';
import { FakeCatalog, startFakeUpstream, type FakeUpstream } from '../fake-upstream/index.ts';
import { startService, type Service, type ServiceOptions } from './server.ts';
import { tempDir } from '../testing/fixtures.ts';

const ENTRY_KEYS = ['pnl', 'profileImage', 'proxyWallet', 'rank', 'userName', 'verifiedBadge', 'vol', 'xUsername'];

let up: FakeUpstream;
beforeAll(async () => {
  up = await startFakeUpstream({ catalog: new FakeCatalog() });
});
afterAll(() => up.close());

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  up.faults.clear();
  while (cleanups.length) await cleanups.pop()!();
});

async function service(opts: Partial<ServiceOptions> = {}): Promise<Service> {
  const s = await startService({
    urls: { gamma: up.url, clob: up.url, data: up.url },
    basePort: 0,
    clobPort: 0,
    client: { baseDelayMs: 1, maxDelayMs: 5, maxRetries: 0 },
    ...opts,
  });
  cleanups.push(() => s.close());
  return s;
}

async function get(s: Service, query = ''): Promise<{ status: number; text: string; body: any }> {
  const res = await fetch(`${s.baseUrl}/v1/leaderboard${query}`);
  const text = await res.text();
  return { status: res.status, text, body: JSON.parse(text) };
}

const board = (c = 'OVERALL', p = 'DAY', o = 'PNL') => up.leaderboard.board(c, p, o);
const lbRequests = () => up.requests.count((e) => e.path === '/v1/leaderboard');

describe('GET /v1/leaderboard: parameters', () => {
  let s: Service;
  beforeAll(async () => {
    s = await startService({
      urls: { gamma: up.url, clob: up.url, data: up.url },
      basePort: 0,
      clobPort: 0,
      client: { baseDelayMs: 1, maxDelayMs: 5 },
    });
  });
  afterAll(() => s.close());

  it('defaults to OVERALL, DAY, PNL, 25 from offset 0, as a bare array of spec entries', async () => {
    const r = await get(s);
    expect(r.status).toBe(200);
    expect(r.body).toEqual(board().slice(0, 25));
    for (const e of r.body) {
      expect(Object.keys(e).sort()).toEqual(ENTRY_KEYS);
      expect(typeof e.rank).toBe('string');
      expect(typeof e.vol).toBe('number');
      expect(typeof e.pnl).toBe('number');
      expect(typeof e.userName).toBe('string');
      expect(typeof e.profileImage).toBe('string');
      expect(e.xUsername === null || typeof e.xUsername === 'string').toBe(true);
      expect(e.verifiedBadge === null || typeof e.verifiedBadge === 'boolean').toBe(true);
    }
    expect(r.body.some((e: { xUsername: unknown }) => e.xUsername === null)).toBe(true);
  });

  it('serves every category, period and order', async () => {
    // Each value once (a board costs up to 21 upstream requests; all 80 combinations add nothing).
    const combos = [
      ...LEADERBOARD_CATEGORIES.map((c, i) => [c, LEADERBOARD_PERIODS[i % 4]!, LEADERBOARD_ORDERS[i % 2]!] as const),
      ...LEADERBOARD_PERIODS.map((p) => ['OVERALL', p, 'VOL'] as const),
    ];
    for (const [c, p, o] of combos) {
      expect((await get(s, `?category=${c}&timePeriod=${p}&orderBy=${o}&limit=50`)).body, `${c}/${p}/${o}`).toEqual(
        board(c, p, o).slice(0, 50),
      );
    }
  });

  it('pages with limit 1..50 and offset 0..1000, to the end of what the upstream allows', async () => {
    const deep = board('OVERALL', 'ALL', 'VOL');
    expect((await get(s, '?timePeriod=ALL&orderBy=VOL&limit=1')).body).toEqual(deep.slice(0, 1));
    expect((await get(s, '?timePeriod=ALL&orderBy=VOL&limit=50&offset=1000')).body).toEqual(deep.slice(1000, 1050));
    expect((await get(s, '?timePeriod=ALL&orderBy=VOL&limit=7&offset=333')).body).toEqual(deep.slice(333, 340));
    // A short board simply runs out.
    const short = board('WEATHER', 'DAY', 'PNL');
    expect((await get(s, '?category=WEATHER&limit=50')).body).toEqual(short);
    expect((await get(s, '?category=WEATHER&offset=1000')).body).toEqual([]);
  });

  it('filters by user (any letter case) and userName, then pages', async () => {
    const b = board('POLITICS', 'WEEK', 'PNL');
    const e = b[612]!;
    for (const user of [e.proxyWallet, e.proxyWallet.toLowerCase(), e.proxyWallet.toUpperCase().replace('0X', '0x')]) {
      expect((await get(s, `?category=POLITICS&timePeriod=WEEK&user=${user}`)).body).toEqual([e]);
    }
    expect((await get(s, `?category=POLITICS&timePeriod=WEEK&userName=${e.userName.toUpperCase()}`)).body).toEqual([e]);
    expect((await get(s, `?category=POLITICS&timePeriod=WEEK&user=${e.proxyWallet}&userName=${e.userName}`)).body).toEqual([e]);
    expect((await get(s, `?category=POLITICS&timePeriod=WEEK&user=${e.proxyWallet}&userName=someone-else`)).body).toEqual([]);
    expect((await get(s, `?category=POLITICS&timePeriod=WEEK&user=${e.proxyWallet}&offset=1`)).body).toEqual([]);
    expect((await get(s, `?category=POLITICS&timePeriod=WEEK&user=0x${'0'.repeat(40)}`)).body).toEqual([]);
  });

  it('refuses out-of-range and malformed values with invalid <param> parameter', async () => {
    const cases: [string, string][] = [
      ['limit=0', 'limit'],
      ['limit=51', 'limit'],
      ['limit=abc', 'limit'],
      ['limit=1.5', 'limit'],
      ['limit=', 'limit'],
      ['offset=-1', 'offset'],
      ['offset=1001', 'offset'],
      ['offset=1e2', 'offset'],
      ['category=GEOPOLITICS', 'category'],
      ['category=overall', 'category'],
      ['category=ESPORTS', 'category'],
      ['category=', 'category'],
      ['timePeriod=YEAR', 'timePeriod'],
      ['timePeriod=day', 'timePeriod'],
      ['orderBy=ROI', 'orderBy'],
      ['user=alice', 'user'],
      ['user=0x123', 'user'],
      [`userName=${'x'.repeat(101)}`, 'userName'],
      ['limit=5&limit=6', 'limit'],
    ];
    for (const [q, param] of cases) {
      const r = await get(s, `?${q}`);
      expect(r.status, q).toBe(400);
      expect(r.text, q).toBe(JSON.stringify({ error: `invalid ${param} parameter` }));
    }
  });

  it('refuses an unrecognised parameter with unknown_field', async () => {
    for (const name of ['foo', 'username', 'sortBy', 'Category']) {
      const r = await get(s, `?category=OVERALL&${name}=1`);
      expect(r.status).toBe(400);
      expect(r.text).toBe(JSON.stringify({ error: `unknown_field: ${name}` }));
    }
  });
});

describe('leaderboard cache', () => {
  it('fetches a board once, serves every page and filter from the cache until the TTL passes', async () => {
    let now = Date.parse('2026-05-01T00:00:00Z');
    const s = await service({ now: () => now, leaderboardTtlMs: 60_000 });
    up.requests.clear();
    expect((await get(s, '?category=CRYPTO&timePeriod=ALL')).body).toEqual(board('CRYPTO', 'ALL', 'PNL').slice(0, 25));
    const first = lbRequests();
    // A full first page, then the other 20 pages of the depth at once.
    expect(first).toBe(21);
    await get(s, '?category=CRYPTO&timePeriod=ALL&offset=850&limit=50');
    await get(s, `?category=CRYPTO&timePeriod=ALL&user=${board('CRYPTO', 'ALL', 'PNL')[5]!.proxyWallet}`);
    now += 59_999;
    await get(s, '?category=CRYPTO&timePeriod=ALL');
    expect(lbRequests()).toBe(first);
    // Another order is another board.
    await get(s, '?category=CRYPTO&timePeriod=ALL&orderBy=VOL');
    expect(lbRequests()).toBe(first * 2);
    expect(await s.dispatch('leaderboard.meta', { category: 'CRYPTO', timePeriod: 'ALL' })).toEqual({
      category: 'CRYPTO',
      timePeriod: 'ALL',
      orderBy: 'PNL',
      fetchedAt: '2026-05-01T00:00:00.000Z',
      stale: false,
      entries: 900,
      truncated: false,
    });
    now += 1;
    expect((await s.dispatch('leaderboard.meta', { category: 'CRYPTO', timePeriod: 'ALL' })).stale).toBe(true);
    await get(s, '?category=CRYPTO&timePeriod=ALL');
    expect(lbRequests()).toBe(first * 3);
    expect((await s.dispatch('leaderboard.meta', { category: 'CRYPTO', timePeriod: 'ALL' })).fetchedAt).toBe(new Date(now).toISOString());
  });

  it('counts a board whole, and says when it goes deeper than the Data API pages', async () => {
    const s = await service();
    // Deeper than the 1,050 entries the Data API can be paged to: that many kept, marked truncated.
    const deep = board('OVERALL', 'ALL', 'VOL');
    expect(deep.length).toBeGreaterThan(1050);
    await get(s, '?category=OVERALL&timePeriod=ALL&orderBy=VOL');
    expect(await s.dispatch('leaderboard.meta', { category: 'OVERALL', timePeriod: 'ALL', orderBy: 'VOL' })).toMatchObject({
      entries: 1050,
      truncated: true,
    });
    // A short board: all of it, not truncated.
    const short = board('WEATHER', 'WEEK', 'VOL');
    expect(short.length).toBeLessThan(50);
    await get(s, '?category=WEATHER&timePeriod=WEEK&orderBy=VOL');
    expect(await s.dispatch('leaderboard.meta', { category: 'WEATHER', timePeriod: 'WEEK', orderBy: 'VOL' })).toMatchObject({
      entries: short.length,
      truncated: false,
    });
  });

  it('shares one fetch between concurrent requests for a board', async () => {
    const s = await service();
    up.requests.clear();
    const answers = await Promise.all([0, 50, 100, 150].map((o) => get(s, `?category=SPORTS&timePeriod=MONTH&offset=${o}&limit=50`)));
    expect(answers.map((a) => a.body)).toEqual([0, 50, 100, 150].map((o) => board('SPORTS', 'MONTH', 'PNL').slice(o, o + 50)));
    expect(lbRequests()).toBe(21);
  });

  it('serves a stale board while the upstream fails, and from disk when offline', async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    let now = Date.parse('2026-05-01T00:00:00Z');
    const s = await service({ now: () => now, dataDir: t.dir });
    const fresh = (await get(s, '?category=TECH&limit=50')).body;
    now += 3_600_000;
    up.faults.push({ kind: '500', match: '/v1/leaderboard' }, 100);
    const stale = await get(s, '?category=TECH&limit=50');
    expect(stale.status).toBe(200);
    expect(stale.body).toEqual(fresh);
    expect(await s.dispatch('leaderboard.meta', { category: 'TECH' })).toMatchObject({
      stale: true,
      fetchedAt: '2026-05-01T00:00:00.000Z',
    });
    // The same over HTTP, for web mode.
    const meta = await fetch(`${s.baseUrl}/leaderboard/meta?category=TECH`);
    expect(await meta.json()).toEqual({
      category: 'TECH',
      timePeriod: 'DAY',
      orderBy: 'PNL',
      fetchedAt: '2026-05-01T00:00:00.000Z',
      stale: true,
      entries: board('TECH').length,
      truncated: false,
    });
    await s.close();
    up.faults.clear();
    up.requests.clear();
    const offline = await service({ dataDir: t.dir, offline: true });
    expect((await get(offline, '?category=TECH&limit=50')).body).toEqual(fresh);
    expect((await get(offline, '?category=TECH&limit=5&offset=3')).body).toEqual(fresh.slice(3, 8));
    expect(lbRequests()).toBe(0);
  });

  it('answers 500 internal_error when the upstream fails and nothing is cached', async () => {
    const s = await service();
    up.faults.push({ kind: '500', match: '/v1/leaderboard' }, 10);
    const r = await get(s, '?category=ECONOMICS');
    expect(r.status).toBe(500);
    expect(r.text).toBe('{"error":"internal_error"}');
    const offline = await service({ offline: true });
    expect((await get(offline, '?category=MENTIONS')).text).toBe('{"error":"internal_error"}');
    // Bad input is still a 400 first.
    expect((await get(offline, '?category=NOPE')).status).toBe(400);
  });
});
