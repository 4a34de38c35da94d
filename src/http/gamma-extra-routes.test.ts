/**
 * Gamma's other read routes over real HTTP against the fixture catalog: keyset listings (walks
 * end and give every item once, with filters and orders, matching the offset listing), the
 * /events/pagination shape, series, and a market's or event's tags.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Event, EventsKeysetPage, Market, MarketsKeysetPage, Series, Tag } from '../contract/index.ts';
import { startService, type Service } from './server.ts';
import { DEAD_UPSTREAM, fixtureEvents, fixtureMarkets, fixtureTags, tempDir } from '../testing/fixtures.ts';

let s: Service;
let base: string;
const noWebUi = tempDir();

beforeAll(async () => {
  s = await startService({ urls: DEAD_UPSTREAM, offline: true, basePort: 0, clobPort: 0, webRoot: noWebUi.dir });
  base = s.baseUrl!;
  s.store.apply({ tags: fixtureTags(), events: fixtureEvents() });
  s.store.apply({ markets: fixtureMarkets() });
});

afterAll(async () => {
  await s?.close();
  noWebUi.cleanup();
});

async function get(path: string, query: Record<string, string> = {}): Promise<{ status: number; body: unknown }> {
  const qs = new URLSearchParams(query).toString();
  const res = await fetch(`${base}${path}${qs ? `?${qs}` : ''}`);
  return { status: res.status, body: await res.json() };
}

async function ok<T>(path: string, query: Record<string, string> = {}): Promise<T> {
  const r = await get(path, query);
  expect(r.status, `${path} ${JSON.stringify(query)}: ${JSON.stringify(r.body).slice(0, 300)}`).toBe(200);
  return r.body as T;
}

/** Every item of an offset listing (/markets, /events), in its order. */
async function offsetWalk<T>(path: string, query: Record<string, string>): Promise<T[]> {
  const out: T[] = [];
  for (let offset = 0; ; offset += 100) {
    const page = await ok<T[]>(path, { ...query, limit: '100', offset: String(offset) });
    out.push(...page);
    if (page.length < 100) return out;
  }
}

/** Every item of a keyset walk; fails if it takes more pages than the items allow (a loop). */
async function keysetWalk<T>(kind: 'markets' | 'events', query: Record<string, string>, limit: number, bound: number): Promise<T[]> {
  const out: T[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages <= bound / limit + 1; pages++) {
    const page = await ok<Record<string, unknown>>(`/${kind}/keyset`, {
      ...query,
      limit: String(limit),
      ...(cursor ? { after_cursor: cursor } : {}),
    });
    const items = page[kind] as T[];
    expect(items.length).toBeLessThanOrEqual(limit);
    out.push(...items);
    if (page.next_cursor === undefined) return out;
    expect(typeof page.next_cursor).toBe('string');
    expect(items.length, 'a page with a next_cursor is full').toBe(limit);
    cursor = page.next_cursor as string;
  }
  throw new Error(`/${kind}/keyset did not end within ${bound} items`);
}

const ids = (xs: { id: string }[]) => xs.map((x) => x.id);

describe('GET /markets/keyset and /events/keyset', () => {
  it('is its own route, not /markets/:id with id "keyset"', async () => {
    const m = await ok<MarketsKeysetPage>('/markets/keyset');
    expect(m.markets).toHaveLength(20);
    expect(typeof m.next_cursor).toBe('string');
    const e = await ok<EventsKeysetPage>('/events/keyset');
    expect(e.events).toHaveLength(20);
  });

  it('a walk gives every market once, in the /markets order, and ends', async () => {
    const all = await offsetWalk<Market>('/markets', { ascending: 'true' });
    expect(all.length).toBeGreaterThan(500);
    for (const limit of [7, 100]) {
      const walked = await keysetWalk<Market>('markets', {}, limit, all.length);
      expect(ids(walked)).toEqual(ids(all));
      expect(new Set(ids(walked)).size).toBe(walked.length);
    }
  });

  it('with filters and orders, a walk gives what the offset listing gives', async () => {
    const events = await offsetWalk<Event>('/events', {});
    const counts = new Map<string, number>();
    for (const e of events) for (const t of e.tags) counts.set(t.id, (counts.get(t.id) ?? 0) + 1);
    const tag = [...counts].sort((a, b) => b[1] - a[1])[0]![0];
    const filters: Record<string, string>[] = [
      { closed: 'false' },
      { closed: 'true' },
      { tag_id: tag },
      { order: 'volume24hr', ascending: 'false' },
      { order: 'endDate', ascending: 'true', active: 'true' },
    ];
    for (const f of filters) {
      const want = await offsetWalk<Market>('/markets', { ascending: 'true', ...f });
      const got = await keysetWalk<Market>('markets', f, 13, want.length);
      expect(ids(got), JSON.stringify(f)).toEqual(ids(want));
      const wantE = await offsetWalk<Event>('/events', { ascending: 'true', ...f });
      const gotE = await keysetWalk<Event>('events', f, 9, wantE.length);
      expect(ids(gotE), JSON.stringify(f)).toEqual(ids(wantE));
    }
  });

  it('an event walk gives every event once, with its markets, and ends', async () => {
    const all = await offsetWalk<Event>('/events', { ascending: 'true' });
    const walked = await keysetWalk<Event>('events', {}, 11, all.length);
    expect(walked).toEqual(all);
  });

  it('clamps a limit over 100 to 100, as Gamma does (the SDK sends any page size)', async () => {
    const m = await ok<MarketsKeysetPage>('/markets/keyset', { limit: '500' });
    expect(m.markets).toHaveLength(100);
    expect(typeof m.next_cursor).toBe('string');
    expect((await ok<EventsKeysetPage>('/events/keyset', { limit: '1000' })).events).toHaveLength(100);
    expect((await get('/markets/keyset', { limit: '0' })).status).toBe(400);
  });

  it('an empty match is one page without next_cursor', async () => {
    expect(await ok('/markets/keyset', { slug: 'no-such-market-slug' })).toEqual({ markets: [] });
    expect(await ok('/events/keyset', { slug: 'no-such-event-slug' })).toEqual({ events: [] });
  });

  it('a walk continues after its last item when a sync adds or removes items before it', async () => {
    const f = { order: 'volume24hr', ascending: 'false' };
    const first = await ok<MarketsKeysetPage>('/markets/keyset', { ...f, limit: '10' });
    const seen = ids(first.markets);
    // Lands before the cursor: a position-only cursor would give the page's last item again.
    s.store.apply({ markets: [{ id: '990100', question: 'Drift?', slug: 'drift', volume24hr: 1e15, updatedAt: '2030-01-01T00:00:00Z' }] });
    const second = await ok<MarketsKeysetPage>('/markets/keyset', { ...f, limit: '10', after_cursor: first.next_cursor! });
    seen.push(...ids(second.markets));
    const all = await offsetWalk<Market>('/markets', f);
    expect(all[0]!.id).toBe('990100');
    expect(seen).toEqual(ids(all).slice(1, 21));
  });

  it('refuses offset and a malformed cursor, as Gamma words them', async () => {
    for (const kind of ['markets', 'events']) {
      const off = await get(`/${kind}/keyset`, { offset: '0' });
      expect(off.status).toBe(400);
      expect(off.body).toMatchObject({ error: 'offset is not allowed on keyset endpoints' });
      for (const c of ['not-base64!', Buffer.from('{"o":-1}').toString('base64url'), Buffer.from('[]').toString('base64url')]) {
        const bad = await get(`/${kind}/keyset`, { after_cursor: c });
        expect(bad.status, c).toBe(400);
        expect(bad.body).toMatchObject({ error: 'after_cursor is invalid' });
      }
      const order = await get(`/${kind}/keyset`, { order: 'volume_24hr' });
      expect(order.status).toBe(400);
    }
  });
});

describe('GET /events/pagination', () => {
  it('answers {data, pagination: {hasMore, totalResults}} over the /events query', async () => {
    const all = await offsetWalk<Event>('/events', {});
    const first = await ok<{ data: Event[]; pagination: { hasMore: boolean; totalResults: number } }>('/events/pagination', {
      limit: '10',
    });
    expect(Object.keys(first).sort()).toEqual(['data', 'pagination']);
    expect(first.pagination).toEqual({ hasMore: true, totalResults: all.length });
    expect(first.data).toEqual(all.slice(0, 10));
    const last = await ok<typeof first>('/events/pagination', { limit: '10', offset: String(all.length - 3) });
    expect(last.data).toEqual(all.slice(-3));
    expect(last.pagination).toEqual({ hasMore: false, totalResults: all.length });
    const closed = await offsetWalk<Event>('/events', { closed: 'true' });
    const filtered = await ok<typeof first>('/events/pagination', { closed: 'true', limit: '100' });
    expect(filtered.pagination.totalResults).toBe(closed.length);
    expect(await ok('/events/pagination', { slug: 'no-such-event' })).toEqual({
      data: [],
      pagination: { hasMore: false, totalResults: 0 },
    });
  });
});

describe('GET /series and /series/{id}', () => {
  it('lists the cached series with their events, pages, and finds one by id', async () => {
    const events = await offsetWalk<Event>('/events', {});
    const fromEvents = new Map<string, Set<string>>();
    for (const e of events) {
      const src = fixtureEvents().find((x) => x.id === e.id);
      for (const sr of (src?.series ?? []) as { id: string }[]) {
        fromEvents.set(sr.id, (fromEvents.get(sr.id) ?? new Set()).add(e.id));
      }
    }
    expect(fromEvents.size).toBeGreaterThan(0);
    // The markets file's nested events bring series too: the fixture events' are a part of them.
    const all = await ok<Series[]>('/series', { limit: '50' });
    expect(ids(all)).toEqual(expect.arrayContaining([...fromEvents.keys()]));
    const byId = new Map(events.map((e) => [e.id, e]));
    for (const sr of all) {
      expect(ids(sr.events ?? []), sr.id).toEqual(expect.arrayContaining([...(fromEvents.get(sr.id) ?? [])]));
      for (const ref of sr.events ?? []) expect(ref.title, ref.id).toBe(byId.get(ref.id)?.title);
      expect(await ok<Series>(`/series/${sr.id}`)).toEqual(sr);
    }
    const paged = [...(await ok<Series[]>('/series', { limit: '2' })), ...(await ok<Series[]>('/series', { limit: '50', offset: '2' }))];
    expect(paged).toEqual(all);
    const bySlug = all.find((x) => typeof x.slug === 'string')!;
    expect(ids(await ok<Series[]>('/series', { slug: bySlug.slug! }))).toEqual([bySlug.id]);
    const desc = await ok<Series[]>('/series', { limit: '50', order: 'id', ascending: 'false' });
    expect(ids(desc)).toEqual(ids(all).reverse());
  });

  it('answers Gamma-style errors', async () => {
    expect((await get('/series/999999999')).status).toBe(404);
    expect((await get('/series/abc')).body).toMatchObject({ error: 'id is invalid' });
    expect((await get('/series', { order: 'volume_24hr' })).body).toMatchObject({ error: 'order fields are not valid' });
    expect((await get('/series', { limit: '51' })).status).toBe(400);
  });
});

describe('GET /markets/{id}/tags and /events/{id}/tags', () => {
  it("an event's tags are the ones it carries; a market's are its events' tags", async () => {
    const events = await offsetWalk<Event>('/events', {});
    const tagsOfMarket = new Map<string, Map<string, Tag>>();
    for (const e of events.filter((x) => x.tags.length > 0).slice(0, 40)) {
      expect(await ok<Tag[]>(`/events/${e.id}/tags`), e.id).toEqual(e.tags);
      for (const m of e.markets) {
        const seen = tagsOfMarket.get(m.id) ?? new Map<string, Tag>();
        for (const t of e.tags) seen.set(t.id, t);
        tagsOfMarket.set(m.id, seen);
      }
    }
    expect(tagsOfMarket.size).toBeGreaterThan(0);
    for (const [id, want] of [...tagsOfMarket].slice(0, 60)) {
      const got = await ok<Tag[]>(`/markets/${id}/tags`);
      const market = await ok<Market>(`/markets/${id}`);
      // Markets in several events carry all of their tags; compare by set when that happens.
      if ((market.events ?? []).length === 1) expect(ids(got).sort(), id).toEqual([...want.keys()].sort());
      for (const t of got) expect(t).toEqual(want.get(t.id) ?? t);
    }
  });

  it('answers [] for an untagged item, 404 for an unknown one, 400 for a bad id', async () => {
    const untagged = (await offsetWalk<Event>('/events', {})).find((e) => e.tags.length === 0);
    if (untagged) expect(await ok(`/events/${untagged.id}/tags`)).toEqual([]);
    for (const kind of ['markets', 'events']) {
      expect((await get(`/${kind}/999999999/tags`)).body).toMatchObject({ error: 'id not found' });
      expect((await get(`/${kind}/abc/tags`)).body).toMatchObject({ error: 'id is invalid' });
    }
  });
});
