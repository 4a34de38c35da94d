import { readFileSync } from 'node:fs';
import { FIXTURES_DIR } from './fixture-catalog.ts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { GammaEvent, GammaMarket, GammaTag } from '../contract/gamma.ts';
import { createSyntheticCatalog, type FakeCatalog } from './catalog.ts';
import { loadFixtureCatalog } from './fixture-catalog.ts';
import { startFakeUpstream, type FakeUpstream } from './server.ts';
import { timeKey } from './time-format.ts';

const DIR = `${FIXTURES_DIR}/`;
const marketsFile = JSON.parse(readFileSync(`${DIR}markets_active_2026-02.json`, 'utf8')) as GammaMarket[];

async function get(
  up: FakeUpstream,
  path: string,
  init?: RequestInit,
): Promise<{ status: number; body: any; text: string; headers: Headers }> {
  const res = await fetch(up.url + path, init);
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, body, text, headers: res.headers };
}

const ids = (items: { id: string }[]) => items.map((x) => x.id);
const byNum = (a: string, b: string) => Number(a) - Number(b);

describe('fake Gamma over HTTP (fixtures)', () => {
  let up: FakeUpstream;
  let catalog: FakeCatalog;
  beforeAll(async () => {
    catalog = await loadFixtureCatalog(DIR);
    up = await startFakeUpstream({ catalog });
  });
  afterAll(() => up.close());

  it('listens on 127.0.0.1 and a free port', () => {
    expect(up.url).toBe(`http://127.0.0.1:${up.port}`);
    expect(up.port).toBeGreaterThan(0);
  });

  it('lists 20 markets by numeric id ascending by default, as a bare array', async () => {
    const { status, body, headers } = await get(up, '/markets');
    expect(status).toBe(200);
    expect(headers.get('content-type')).toMatch(/^application\/json/);
    expect(Array.isArray(body)).toBe(true);
    const all = catalog.marketRecords().map((r) => r.id);
    expect(ids(body)).toEqual(all.slice(0, 20));
    expect(ids(body)).toEqual([...ids(body)].sort(byNum));
  });

  it('clamps limit to 100 silently and pages with offset', async () => {
    expect((await get(up, '/markets?limit=150')).body).toHaveLength(100);
    expect((await get(up, '/events?limit=500')).body).toHaveLength(100);
    expect((await get(up, '/markets?limit=0')).body).toEqual([]);
    const all = catalog.marketRecords().map((r) => r.id);
    expect(ids((await get(up, '/markets?limit=5&offset=20')).body)).toEqual(all.slice(20, 25));
    expect((await get(up, '/markets?offset=2000')).status).toBe(200);
  });

  it('refuses offsets above 2000 with the keyset hint', async () => {
    expect(await get(up, '/markets?offset=2001')).toMatchObject({
      status: 422,
      body: { type: 'validation error', error: 'offset too large, use /markets/keyset for deeper pagination' },
    });
    expect((await get(up, '/events?offset=5000')).body).toEqual({
      type: 'validation error',
      error: 'offset too large, use /events/keyset for deeper pagination',
    });
  });

  it('rejects malformed integers and booleans', async () => {
    for (const q of ['limit=abc', 'limit=-1', 'offset=1.5', 'closed=maybe', 'id=1,2', 'tag_id=x']) {
      const r = await get(up, `/markets?${q}`);
      expect(r.status, q).toBe(422);
      expect(r.body.type).toBe('validation error');
    }
  });

  it('takes camelCase order fields only', async () => {
    expect(await get(up, '/markets?order=volume_24hr')).toMatchObject({
      status: 422,
      body: { type: 'validation error', error: 'order fields are not valid' },
    });
    expect((await get(up, '/events?order=id,nope')).status).toBe(422);
    expect((await get(up, '/markets?order=volume24hr')).status).toBe(200);
  });

  it('sorts numerically (volume is a string), descending by default, missing values last', async () => {
    const desc = (await get(up, '/markets?order=volume&limit=100')).body as GammaMarket[];
    const v = desc.map((m) => Number(m.volume));
    for (let i = 1; i < v.length; i++) expect(v[i]).toBeLessThanOrEqual(v[i - 1]!);
    // The tail of the ascending order holds the markets without volume24hr.
    const tail = (await get(up, `/markets?order=volume24hr&ascending=true&limit=100&offset=${catalog.counts.markets - 50}`))
      .body as GammaMarket[];
    expect(tail.at(-1)).not.toHaveProperty('volume24hr');
    const head = (await get(up, '/markets?order=volume24hr&ascending=true&limit=100')).body as GammaMarket[];
    const h = head.map((m) => m.volume24hr as number);
    for (let i = 1; i < h.length; i++) expect(h[i]).toBeGreaterThanOrEqual(h[i - 1]!);
  });

  it('sorts dates across Gamma formats and by several fields', async () => {
    const closed = (await get(up, '/markets?order=closedTime&ascending=false&closed=true&limit=100')).body as GammaMarket[];
    const t = closed.filter((m) => m.closedTime).map((m) => timeKey(m.closedTime!));
    expect(t.length).toBeGreaterThan(50);
    for (let i = 1; i < t.length; i++) expect(t[i]).toBeLessThanOrEqual(t[i - 1]!);
    const events = (await get(up, '/events?order=endDate,title&ascending=true&limit=100')).body as GammaEvent[];
    for (let i = 1; i < events.length; i++) {
      const [a, b] = [events[i - 1]!, events[i]!];
      const [ta, tb] = [timeKey(a.endDate as string), timeKey(b.endDate as string)];
      expect(ta <= tb || Number.isNaN(tb)).toBe(true);
      if (ta === tb) expect(a.title! <= b.title!).toBe(true);
    }
  });

  it('filters by active, closed and archived', async () => {
    const open = (await get(up, '/markets?closed=false&limit=100')).body as GammaMarket[];
    expect(open.length).toBe(100);
    expect(open.every((m) => m.closed === false)).toBe(true);
    const closed = (await get(up, '/markets?closed=true&limit=100')).body as GammaMarket[];
    expect(closed.length).toBeGreaterThan(0);
    expect(closed.every((m) => m.closed === true)).toBe(true);
    const inactive = (await get(up, '/events?active=false&limit=100')).body as GammaEvent[];
    expect(inactive.every((e) => e.active !== true)).toBe(true);
    const archived = (await get(up, '/markets?archived=true')).body as GammaMarket[];
    expect(archived.every((m) => m.archived === true)).toBe(true);
  });

  it('takes repeated id, slug and condition_ids keys', async () => {
    expect(ids((await get(up, '/markets?id=517311&id=12&id=1')).body)).toEqual(['12', '517311']);
    const [a, b] = [marketsFile[3]!, marketsFile[7]!];
    expect(ids((await get(up, `/markets?slug=${a.slug}&slug=${b.slug}`)).body)).toEqual([a.id, b.id]);
    expect((await get(up, `/markets?slug=${a.slug!.slice(0, 10)}`)).body).toEqual([]); // exact match only
    expect(ids((await get(up, `/markets?condition_ids=${b.conditionId}&condition_ids=${a.conditionId}`)).body)).toEqual([a.id, b.id]);
    expect(ids((await get(up, '/events?id=16282&id=14629')).body)).toEqual(['14629', '16282']);
    expect(ids((await get(up, '/markets?id=517311&closed=true')).body)).toEqual([]); // filters combine
  });

  it('matches markets by the tags of their events', async () => {
    const tagged = (await get(up, '/markets?tag_id=21&limit=100')).body as GammaMarket[];
    expect(tagged.length).toBeGreaterThan(0);
    for (const m of tagged) {
      const events = catalog.marketRecord(m.id)!.eventIds.map((e) => catalog.getEvent(e)!);
      expect(events.some((e) => e.tags?.some((t) => t.id === '21'))).toBe(true);
    }
    const events = (await get(up, '/events?tag_id=21&limit=100')).body as GammaEvent[];
    expect(events.length).toBeGreaterThan(0);
    expect(events.every((e) => e.tags!.some((t) => t.id === '21'))).toBe(true);
  });

  it('ignores unknown parameters', async () => {
    expect((await get(up, '/markets?search=bitcoin&cursor=abc')).text).toBe((await get(up, '/markets')).text);
  });

  it('serves events with their markets, or without them on include_markets=false', async () => {
    const [withM] = (await get(up, '/events?id=16282')).body as GammaEvent[];
    expect(withM!.markets!.length).toBeGreaterThan(5);
    const [without] = (await get(up, '/events?id=16282&include_markets=false')).body as GammaEvent[];
    expect(without).not.toHaveProperty('markets');
  });

  it('answers single items by id and slug, with Gamma errors', async () => {
    // A single item is the catalog's market with Gamma's `$schema` first (2026 captures).
    const m = marketsFile[0]!;
    const single = JSON.stringify({ $schema: 'https://gamma-api.polymarket.com/schemas/Market.json', ...catalog.getMarket(m.id) });
    expect((await get(up, `/markets/${m.id}`)).text).toBe(single);
    expect((await get(up, `/markets/slug/${m.slug}`)).text).toBe(single);
    expect(await get(up, '/markets/abc')).toMatchObject({ status: 422, body: { type: 'validation error', error: 'id is invalid' } });
    expect(await get(up, '/markets/1')).toMatchObject({ status: 404, body: { type: 'not found error', error: 'id not found' } });
    expect(await get(up, '/markets/slug/no-such-market')).toMatchObject({
      status: 404,
      body: { type: 'not found error', error: 'slug not found' },
    });
    expect(await get(up, '/markets/slug/has%20space')).toMatchObject({
      status: 422,
      body: { type: 'validation error', error: 'slug is invalid' },
    });
    expect((await get(up, '/events/16282')).body.id).toBe('16282');
    expect((await get(up, '/events/slug/how-many-people-will-trump-deport-in-2025')).body.id).toBe('16282');
    expect((await get(up, '/events/0x12')).status).toBe(422);
    expect((await get(up, '/events/123456789')).status).toBe(404);
  });

  it('serves tags: a default page of 100, offsets, ids and case-insensitive slugs', async () => {
    const page = (await get(up, '/tags')).body as GammaTag[];
    expect(page).toHaveLength(100);
    expect((await get(up, '/tags?limit=2&offset=1')).body).toEqual(page.slice(1, 3));
    expect((await get(up, '/tags?limit=5000')).body.length).toBe(Math.min(1000, catalog.counts.tags));
    expect((await get(up, '/tags/21')).body.label).toBe('Crypto');
    expect((await get(up, '/tags/slug/CRYPTO')).body.id).toBe('21');
    expect((await get(up, '/tags/abc')).status).toBe(422);
    expect((await get(up, '/tags/99999999')).body).toEqual({ type: 'not found error', error: 'id not found' });
  });

  it('answers unknown routes and methods', async () => {
    // `/` is the CLOB's health route (trading.ts), served on the same port.
    for (const p of ['/nope', '/markets/1/2/3', '/public-search']) {
      expect(await get(up, p)).toMatchObject({ status: 404, body: { type: 'not found error', error: 'not found' } });
    }
    expect((await get(up, '/markets', { method: 'POST', body: '{}' })).status).toBe(405);
  });

  it('pages with keyset cursors and omits next_cursor on the last page', async () => {
    const first = await get(up, '/markets/keyset?limit=2');
    expect(Object.keys(first.body)).toEqual(['$schema', 'markets', 'next_cursor']);
    expect(first.body.$schema).toBe('https://gamma-api.polymarket.com/schemas/MarketsKeysetListResponse.json');
    expect(ids(first.body.markets)).toEqual(
      catalog
        .marketRecords()
        .slice(0, 2)
        .map((r) => r.id),
    );
    const second = await get(up, `/markets/keyset?limit=2&after_cursor=${encodeURIComponent(first.body.next_cursor)}`);
    expect(ids(second.body.markets)).toEqual(
      catalog
        .marketRecords()
        .slice(2, 4)
        .map((r) => r.id),
    );
    const last = await get(up, '/markets/keyset?id=12&id=43');
    expect(last.body).toEqual({
      $schema: 'https://gamma-api.polymarket.com/schemas/MarketsKeysetListResponse.json',
      markets: [catalog.getMarket('12'), catalog.getMarket('43')],
    });
    // Gamma's /events/keyset took 500 until September 2026 and clamps at 100 since (docs/upstream/polymarket-2026.md).
    expect((await get(up, '/events/keyset?limit=1000')).body.events).toHaveLength(100);
  });

  it('refuses offset and bad cursors on keyset routes', async () => {
    expect(await get(up, '/markets/keyset?offset=0')).toMatchObject({
      status: 422,
      body: { type: 'validation error', error: 'offset is not allowed on keyset endpoints' },
    });
    expect((await get(up, '/events/keyset?offset=10')).body.error).toBe('offset is not allowed on keyset endpoints');
    expect((await get(up, '/markets/keyset?after_cursor=garbage')).status).toBe(422);
    const c = (await get(up, '/markets/keyset?limit=1')).body.next_cursor;
    expect((await get(up, `/markets/keyset?order=volume&after_cursor=${c}`)).status).toBe(422); // cursor from another order
  });

  it('logs what it served', async () => {
    up.requests.clear();
    const before = Date.now();
    await get(up, '/markets?id=12&id=43&closed=false');
    await get(up, '/markets/abc');
    const after = Date.now();
    expect(up.requests.entries).toMatchObject([
      { method: 'GET', path: '/markets', query: { id: ['12', '43'], closed: 'false' }, status: 200 },
      { method: 'GET', path: '/markets/abc', query: {}, status: 422 },
    ]);
    // Arrival times on this host's clock, in order, within the calls.
    const [t1, t2] = up.requests.entries.map((e) => e.time);
    expect(t1).toBeGreaterThanOrEqual(before);
    expect(t2).toBeGreaterThanOrEqual(t1!);
    expect(t2).toBeLessThanOrEqual(after);
    expect(up.requests.count((e) => e.status === 422)).toBe(1);
  });
});

describe('fake Gamma over HTTP (synthetic)', () => {
  let up: FakeUpstream;
  let catalog: FakeCatalog;
  beforeAll(async () => {
    catalog = createSyntheticCatalog({ markets: 2500, seed: 11 });
    up = await startFakeUpstream({ catalog });
  });
  afterAll(() => up.close());

  async function walk(path: string, key: 'markets' | 'events', cursor?: string): Promise<{ id: string; [k: string]: unknown }[]> {
    const out: { id: string }[] = [];
    for (let pages = 0; pages < 1000; pages++) {
      const { status, body } = await get(up, path + (cursor ? `&after_cursor=${encodeURIComponent(cursor)}` : ''));
      expect(status).toBe(200);
      out.push(...body[key]);
      if (!('next_cursor' in body)) return out;
      expect(body[key]).toHaveLength(100);
      cursor = body.next_cursor;
    }
    throw new Error('walk did not end');
  }

  it('a keyset walk returns every matching market exactly once', async () => {
    const got = await walk('/markets/keyset?closed=false&limit=100', 'markets');
    const want = catalog
      .marketRecords()
      .filter((r) => r.obj.closed === false)
      .map((r) => r.id);
    expect(got.map((m) => m.id)).toEqual(want);
    expect(got.every((m) => m.closed === false && Array.isArray(m.events))).toBe(true);
  });

  it('a keyset walk returns every matching event exactly once, markets included', async () => {
    const got = await walk('/events/keyset?closed=false&limit=100', 'events');
    const want = catalog.eventRecords().filter((r) => r.obj.closed === false);
    expect(got.map((e) => e.id)).toEqual(want.map((r) => r.id));
    expect(got.reduce((n, e) => n + (e.markets as unknown[]).length, 0)).toBe(want.reduce((n, r) => n + r.marketIds.length, 0));
  });

  it('keyset walks in a field order too, each item once', async () => {
    const got = await walk('/markets/keyset?order=volume24hr&ascending=false&limit=100', 'markets');
    expect(new Set(got.map((m) => m.id)).size).toBe(catalog.counts.markets);
    const v = got.map((m) => m.volume24hr as number | undefined);
    const firstMissing = v.indexOf(undefined);
    expect(v.slice(firstMissing).every((x) => x === undefined)).toBe(true);
    const present = v.slice(0, firstMissing) as number[];
    for (let i = 1; i < present.length; i++) expect(present[i]).toBeLessThanOrEqual(present[i - 1]!);
  });

  it('a walk survives changes between pages', async () => {
    const first = await get(up, '/markets/keyset?limit=100');
    const removed = catalog.marketRecords()[150]!.id;
    catalog.removeMarket(removed);
    const rest = await walk('/markets/keyset?limit=100', 'markets', first.body.next_cursor);
    expect(rest.map((m) => m.id)).toEqual(
      catalog
        .marketRecords()
        .slice(100)
        .map((r) => r.id),
    );
    expect(rest.map((m) => m.id)).not.toContain(removed);
  });

  it('shows a changed market first when ordered by updatedAt descending', async () => {
    const target = catalog.marketRecords()[1234]!.id;
    catalog.updateMarket(target, { liquidity: '1.5', liquidityNum: 1.5 });
    const [top] = (await get(up, '/markets?order=updatedAt&ascending=false&limit=1')).body as GammaMarket[];
    expect(top!.id).toBe(target);
    expect(top!.liquidity).toBe('1.5');
    const [topEvent] = (await get(up, '/events?order=updatedAt&ascending=false&limit=1')).body as GammaEvent[];
    expect(topEvent!.markets!.map((m) => m.id)).toContain(target);
  });

  // How fast it serves is the bench's business (the sync bench runs against it); here, that it records it.
  it('records how long each answer took in its request log', async () => {
    up.requests.clear();
    for (let i = 0; i < 3; i++) await get(up, `/markets?limit=100&offset=${i * 100}`);
    // One entry per answer, in order, each the request it answered.
    expect(up.requests.entries.map((e) => [e.method, e.path, e.query['offset'], e.status])).toEqual([
      ['GET', '/markets', '0', 200],
      ['GET', '/markets', '100', 200],
      ['GET', '/markets', '200', 200],
    ]);
    // A duration from a real clock: a number, not negative, is all a unit test can know of it.
    for (const e of up.requests.entries) expect(Number.isFinite(e.ms) && e.ms! >= 0, `ms ${e.ms}`).toBe(true);
  });
});

describe('fake Gamma without keyset routes', () => {
  let up: FakeUpstream | undefined;
  afterEach(async () => {
    await up?.close();
    up = undefined;
  });

  it('answers 404 on the keyset paths so clients fall back to offsets', async () => {
    up = await startFakeUpstream({ catalog: createSyntheticCatalog({ markets: 50, seed: 1 }), keyset: false });
    expect(await get(up, '/markets/keyset')).toMatchObject({ status: 404, body: { type: 'not found error', error: 'not found' } });
    expect((await get(up, '/events/keyset?limit=5')).status).toBe(404);
    expect((await get(up, '/markets?limit=5')).body).toHaveLength(5);
  });

  it('can use a smaller offset cap', async () => {
    up = await startFakeUpstream({ catalog: createSyntheticCatalog({ markets: 50, seed: 1 }), maxOffset: 10 });
    expect((await get(up, '/markets?offset=10')).status).toBe(200);
    expect((await get(up, '/markets?offset=11')).status).toBe(422);
  });
});
