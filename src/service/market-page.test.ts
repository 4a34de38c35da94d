/**
 * markets.chart and markets.book against the fake upstream's CLOB (`/prices-history`, `/book`)
 * for fixture markets: the live answer is the upstream's own per token; it is kept in the cache,
 * refetched only when older than its age limit, answered `stale: true` once the upstream is
 * gone (also after a restart on the same data dir), and 503 when nothing was kept.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { CHART_INTERVALS, type MarketBook, type MarketChart } from '../contract/index.ts';
import { createSyntheticCatalog, startFakeUpstream, type FakeUpstream } from '../fake-upstream/index.ts';
import { DEAD_UPSTREAM, fixtureEvents, fixtureMarkets, fixtureTags, tempDir } from '../testing/fixtures.ts';
import { CHART_QUERY } from './market-page-handlers.ts';
import { startService, type Service } from '../http/server.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

// The recordings predate `version`: as v1 markets (CTF token ids), which is what they were.
const MARKETS = fixtureMarkets().map((m) => ({ ...m, version: 'v1' }));
const MARKET = MARKETS[0]!;
const TOKENS = JSON.parse(MARKET.clobTokenIds as string) as string[];
const OUTCOMES = JSON.parse(MARKET.outcomes as string) as string[];

interface World {
  s: Service;
  fake: FakeUpstream | undefined;
  later(ms: number): void;
}

async function world(opts: { dataDir?: string; upstream?: boolean } = {}): Promise<World> {
  const web = tempDir();
  cleanups.push(web.cleanup);
  let fake: FakeUpstream | undefined;
  if (opts.upstream !== false) {
    const f = await startFakeUpstream({ catalog: createSyntheticCatalog({ markets: 3, seed: 2 }) });
    fake = f;
    cleanups.push(() => f.close());
  }
  let skew = 0;
  const s = await startService({
    urls: fake ? { gamma: fake.url, clob: fake.url, data: fake.url } : DEAD_UPSTREAM,
    basePort: 0,
    clobPort: 0,
    webRoot: web.dir,
    persistDelayMs: 0,
    now: () => Date.now() + skew,
    client: { baseDelayMs: 1, maxDelayMs: 5, maxRetries: 1 },
    ...(opts.dataDir !== undefined ? { dataDir: opts.dataDir } : {}),
  });
  cleanups.push(() => s.close());
  if (s.store.reader.getMarket(Number(MARKET.id)) === undefined) {
    s.store.apply({ tags: fixtureTags(), events: fixtureEvents() });
    s.store.apply({ markets: MARKETS });
  }
  return { s, fake, later: (ms) => (skew += ms) };
}

async function get<T>(s: Service, p: string): Promise<{ status: number; body: T }> {
  const r = await fetch(s.baseUrl + p);
  return { status: r.status, body: (await r.json()) as T };
}

async function upstream<T>(fake: FakeUpstream, p: string): Promise<T> {
  return (await (await fetch(fake.url + p)).json()) as T;
}

const count = (fake: FakeUpstream, path: string) => fake.requests.count((e) => e.path === path);

describe('markets.chart', () => {
  it.each(CHART_INTERVALS)('%s: each outcome’s history is the upstream’s /prices-history', async (interval) => {
    const { s, fake } = await world();
    const { status, body } = await get<MarketChart>(s, `/markets/${MARKET.id}/chart?interval=${interval}`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ id: MARKET.id, interval, stale: false });
    expect(Date.parse(body.fetchedAt!)).not.toBeNaN();
    const q = CHART_QUERY[interval];
    const expected = await Promise.all(
      TOKENS.map(async (t, i) => ({
        name: OUTCOMES[i],
        tokenId: t,
        history: (
          await upstream<{ history: unknown[] }>(fake!, `/prices-history?market=${t}&interval=${q.interval}&fidelity=${q.fidelity}`)
        ).history,
      })),
    );
    expect(body.outcomes).toEqual(expected);
    expect(body.outcomes[0]!.history.length).toBeGreaterThan(10);
  });

  it('defaults to 1d and refuses an unknown interval', async () => {
    const { s } = await world();
    expect((await get<MarketChart>(s, `/markets/${MARKET.id}/chart`)).body.interval).toBe('1d');
    const bad = await get<Record<string, string>>(s, `/markets/${MARKET.id}/chart?interval=5y`);
    expect(bad.status).toBe(400);
    expect(bad.body['type']).toBe('bad request');
  });

  it('is kept for 60 s, then fetched again', async () => {
    const { s, fake, later } = await world();
    await get(s, `/markets/${MARKET.id}/chart?interval=1w`);
    const n = count(fake!, '/prices-history');
    expect(n).toBe(TOKENS.length);
    later(59_000);
    await get(s, `/markets/${MARKET.id}/chart?interval=1w`);
    expect(count(fake!, '/prices-history')).toBe(n);
    later(2_000);
    await get(s, `/markets/${MARKET.id}/chart?interval=1w`);
    expect(count(fake!, '/prices-history')).toBe(2 * n);
  });

  it('answers the kept copy with stale: true once the upstream is gone', async () => {
    const { s, fake, later } = await world();
    const live = (await get<MarketChart>(s, `/markets/${MARKET.id}/chart?interval=1m`)).body;
    await fake!.close();
    later(120_000);
    const { status, body } = await get<MarketChart>(s, `/markets/${MARKET.id}/chart?interval=1m`);
    expect(status).toBe(200);
    expect(body).toEqual({ ...live, stale: true });
    // Nothing kept for this interval: 503, the catalog family's body.
    const none = await get<Record<string, string>>(s, `/markets/${MARKET.id}/chart?interval=1d`);
    expect(none.status).toBe(503);
    expect(none.body['type']).toBe('service unavailable');
    expect(typeof none.body['error']).toBe('string');
  });
});

describe('markets.book', () => {
  it('each outcome’s book is the upstream’s /book (best last), refetched after 2 s', async () => {
    const { s, fake, later } = await world();
    const { status, body } = await get<MarketBook>(s, `/markets/${MARKET.id}/book`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ id: MARKET.id, stale: false });
    for (const [i, t] of TOKENS.entries()) {
      const b = await upstream<Record<string, unknown>>(fake!, `/book?token_id=${t}`);
      expect(body.outcomes[i]).toEqual({
        name: OUTCOMES[i],
        tokenId: t,
        book: { bids: b['bids'], asks: b['asks'], tick_size: b['tick_size'], last_trade_price: b['last_trade_price'] },
      });
    }
    const n = count(fake!, '/book');
    await get(s, `/markets/${MARKET.id}/book`);
    expect(count(fake!, '/book')).toBe(n);
    later(2_001);
    await get(s, `/markets/${MARKET.id}/book`);
    expect(count(fake!, '/book')).toBeGreaterThan(n);
  });

  it('a token the CLOB has no book for answers book: null', async () => {
    const { s } = await world();
    s.store.apply({ markets: [{ ...MARKET, id: '99000001', slug: 'no-book', clobTokenIds: JSON.stringify([TOKENS[0], '0']) }] });
    const { body } = await get<MarketBook>(s, '/markets/99000001/book');
    expect(body.outcomes.map((o) => o.book === null)).toEqual([false, true]);
  });
});

describe('market page lookups', () => {
  it('an unknown market is the catalog 404, a malformed id 400', async () => {
    const { s } = await world();
    for (const p of ['/markets/99999999/chart', '/markets/99999999/book']) {
      expect(await get(s, p)).toEqual({ status: 404, body: { type: 'not found error', error: 'id not found' } });
    }
    expect((await get(s, '/markets/abc/book')).status).toBe(400);
  });

  it('a market without token ids answers empty outcomes and why, asking the upstream nothing', async () => {
    const { s, fake } = await world();
    const OFF = 'Trading is off for this market: this v1 market has no clobTokenIds.';
    s.store.apply({ markets: [{ ...MARKET, id: '99000002', slug: 'no-tokens', clobTokenIds: undefined }] });
    expect((await get(s, '/markets/99000002/chart')).body).toEqual({
      id: '99000002',
      interval: '1d',
      fetchedAt: null,
      stale: false,
      outcomes: [],
      tradingOff: OFF,
    });
    expect((await get(s, '/markets/99000002/book')).body).toEqual({
      id: '99000002',
      fetchedAt: null,
      stale: false,
      outcomes: [],
      tradingOff: OFF,
    });
    expect(count(fake!, '/book') + count(fake!, '/prices-history')).toBe(0);
  });

  it('the kept chart and book survive a restart and answer offline, stale', async () => {
    const d = tempDir();
    cleanups.push(d.cleanup);
    const a = await world({ dataDir: d.dir });
    const chart = (await get<MarketChart>(a.s, `/markets/${MARKET.id}/chart?interval=all`)).body;
    const book = (await get<MarketBook>(a.s, `/markets/${MARKET.id}/book`)).body;
    await a.s.close();
    const b = await world({ dataDir: d.dir, upstream: false });
    // Within its age limit a kept copy is simply current; past it, with no upstream, it is stale.
    expect((await get<MarketChart>(b.s, `/markets/${MARKET.id}/chart?interval=all`)).body).toEqual(chart);
    b.later(61_000);
    expect((await get<MarketChart>(b.s, `/markets/${MARKET.id}/chart?interval=all`)).body).toEqual({ ...chart, stale: true });
    expect((await get<MarketBook>(b.s, `/markets/${MARKET.id}/book`)).body).toEqual({ ...book, stale: true });
    expect(await b.s.dispatch('markets.book', { id: MARKET.id })).toEqual({ ...book, stale: true });
  });
});
