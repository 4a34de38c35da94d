/**
 * The official TypeScript SDK (`@polymarket/client`) against the running service, its Gamma base
 * URL pointed at the base face: listMarkets and listEvents walk the keyset routes to the end
 * (every item once, the service's own count, a bounded number of pages), search, fetching a
 * market or an event by id and by slug, series and an item's tags.
 */
import { createPublicClient, forkEnvironmentConfig } from '@polymarket/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Event, Market } from '../contract/index.ts';
import { startService, type Service } from './server.ts';
import { DEAD_UPSTREAM, fixtureEvents, fixtureMarkets, fixtureTags, tempDir } from '../testing/fixtures.ts';

let s: Service;
let base: string;
let client: ReturnType<typeof createPublicClient>;
const noWebUi = tempDir();

beforeAll(async () => {
  s = await startService({ urls: DEAD_UPSTREAM, offline: true, basePort: 0, clobPort: 0, webRoot: noWebUi.dir });
  base = s.baseUrl!;
  s.store.apply({ tags: fixtureTags(), events: fixtureEvents() });
  s.store.apply({ markets: fixtureMarkets() });
  client = createPublicClient({ environment: forkEnvironmentConfig({ name: 'marketdesk', gamma: { rest: base } }) });
});

afterAll(async () => {
  await s?.close();
  noWebUi.cleanup();
});

/** Every item of an offset listing of the service itself. */
async function served<T>(path: string): Promise<T[]> {
  const out: T[] = [];
  for (let offset = 0; ; offset += 100) {
    const page = (await (await fetch(`${base}${path}?limit=100&offset=${offset}`)).json()) as T[];
    out.push(...page);
    if (page.length < 100) return out;
  }
}

/** Walks an SDK paginator; more pages than the items allow is a loop and fails. */
async function walk<T>(pages: AsyncIterable<{ items: T[] }>, maxPages: number): Promise<T[]> {
  const out: T[] = [];
  let n = 0;
  for await (const page of pages) {
    if (++n > maxPages) throw new Error(`more than ${maxPages} pages: the walk loops`);
    out.push(...page.items);
  }
  return out;
}

/** The SDK models binary markets only and leaves the others out of listings (its docs say so). */
const binary = (m: Market) => typeof m.outcomes === 'string' && (JSON.parse(m.outcomes) as unknown[]).length === 2;

describe('@polymarket/client against the service', () => {
  it('listSeries and fetchSeries; fetchMarketTags and fetchEventTags', async () => {
    const all = await walk(client.listSeries({ pageSize: 5 }), 20);
    expect(all.length).toBeGreaterThan(5);
    expect(new Set(all.map((x) => x.id)).size).toBe(all.length);
    expect((await client.fetchSeries({ id: all[0]!.id })).id).toBe(all[0]!.id);
    const event = (await served<Event>('/events')).find((e) => e.tags.length > 0)!;
    expect((await client.fetchEventTags({ id: event.id })).map((t) => t.id)).toEqual(event.tags.map((t) => t.id));
    const market = event.markets[0]!;
    expect((await client.fetchMarketTags({ id: market.id })).length).toBeGreaterThan(0);
  });

  it('listMarkets walks every market once to the end', async () => {
    const all = (await served<Market>('/markets')).filter(binary);
    expect(all.length).toBeGreaterThan(500);
    const pageSize = 50;
    const got = await walk(client.listMarkets({ pageSize }), Math.ceil(all.length / pageSize) + 2);
    expect(got.length).toBe(all.length);
    expect(new Set(got.map((m) => m.id)).size).toBe(got.length);
    expect(new Set(got.map((m) => m.id))).toEqual(new Set(all.map((m) => m.id)));
    // listMarkets puts no bound on pageSize; the service clamps pages at 100, as Gamma does.
    const big = await walk(client.listMarkets({ pageSize: 1000 }), Math.ceil(all.length / 100) + 2);
    expect(big.map((m) => m.id)).toEqual(got.map((m) => m.id));
  });

  it('listEvents walks every event once to the end', async () => {
    const all = await served<Event>('/events');
    const pageSize = 7;
    const got = await walk(client.listEvents({ pageSize }), Math.ceil(all.length / pageSize) + 2);
    expect(got.map((e) => e.id)).toEqual(all.map((e) => e.id));
  });

  it('search finds events with their markets', async () => {
    const page = await client.search({ q: 'trump', pageSize: 5 }).firstPage();
    expect(page.items.events.length).toBeGreaterThan(0);
    expect(page.items.events.some((e) => (e.markets ?? []).length > 0)).toBe(true);
  });

  it('fetchMarket and fetchEvent by id and by slug', async () => {
    const market = (await served<Market>('/markets')).find(binary)!;
    const byId = await client.fetchMarket({ id: market.id });
    expect(byId.id).toBe(market.id);
    const bySlug = await client.fetchMarket({ slug: market.slug! });
    expect(bySlug.id).toBe(market.id);
    const event = (await served<Event>('/events'))[0]!;
    expect((await client.fetchEvent({ id: event.id })).id).toBe(event.id);
    expect((await client.fetchEvent({ slug: event.slug! })).id).toBe(event.id);
  });
});
