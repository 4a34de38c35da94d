/**
 * Every Gamma listing parameter of GET /markets and /events, served from the cache: the fake
 * upstream serves the real fixtures, the service syncs them, and each parameter (and a few
 * combinations) must give the same ids from the service as from the fake upstream (which
 * implements Gamma's filters), or, where the fake does not implement one, as a brute-force
 * filter over the fixture catalog. Each case must also change the answer, so a parameter the
 * service dropped fails here. Parameters whose data the cache lacks must be a 400 naming them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFixtureCatalog, type FakeCatalog, type FakeUpstream } from '../fake-upstream/index.ts';
import { startService, type Service } from './server.ts';
import { FIXTURES_DIR } from '../testing/fixtures.ts';
import { startFake } from '../testing/sync-harness.ts';

type Obj = Record<string, unknown>;

let catalog: FakeCatalog;
let fake: FakeUpstream;
let service: Service;

beforeAll(async () => {
  catalog = await loadFixtureCatalog(FIXTURES_DIR);
  fake = await startFake(catalog);
  service = await startService({
    urls: { gamma: fake.url, clob: fake.url, data: fake.url },
    basePort: 0,
    clobPort: 0,
    // The fixtures are old: a horizon of 20 years keeps every closed one.
    horizonMs: 20 * 365 * 86_400_000,
  });
  await service.sync!.syncNow('full');
});

afterAll(async () => {
  await service?.close();
  await fake?.close();
});

async function get(base: string, path: string): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${base}${path}`);
  return { status: res.status, body: await res.json() };
}

/** All matching ids, page by page (both sides cap `limit` at 100). */
async function allIds(base: string, path: string, query: string): Promise<string[]> {
  const out: string[] = [];
  for (let offset = 0; ; offset += 100) {
    const r = await get(base, `${path}?${query}${query ? '&' : ''}limit=100&offset=${offset}`);
    if (r.status !== 200) expect.fail(`${base}${path}?${query} -> ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
    const page = r.body as { id: string }[];
    out.push(...page.map((x) => x.id));
    if (page.length < 100) return out;
  }
}

const markets = (): Obj[] => catalog.marketRecords().map((r) => catalog.getMarket(r.id) as unknown as Obj);
const events = (): Obj[] => catalog.eventRecords().map((r) => catalog.getEvent(r.id) as unknown as Obj);
const byId = (a: string, b: string) => Number(a) - Number(b);
const idsOf = (items: Obj[], pred: (o: Obj) => boolean) =>
  items
    .filter(pred)
    .map((o) => String(o.id))
    .sort(byId);
const q = (pairs: [string, string | number][]) => pairs.map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`).join('&');

function numberOf(v: unknown): number | null {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && v !== '' && Number.isFinite(Number(v))) return Number(v);
  return null;
}

/** The middle value of a field: a range bound that splits the catalog. */
function median(items: Obj[], get: (o: Obj) => number | null): number {
  const vs = items
    .map(get)
    .filter((v): v is number => v !== null)
    .sort((a, b) => a - b);
  return vs[Math.floor(vs.length / 2)]!;
}

/**
 * A bound 1 ms past an item's instant: the cache keeps milliseconds while a few fixture times
 * carry microseconds, so a bound equal to an item's truncated time would compare differently.
 */
const iso = (ms: number) => new Date(ms + 1).toISOString();
const dateOf = (v: unknown) => (typeof v === 'string' && v !== '' ? Date.parse(v.replace(' ', 'T').replace(/\+00$/, 'Z')) : null);

interface Case {
  path: '/markets' | '/events';
  query: string;
  /** Brute force over the fixture catalog, for filters the fake upstream does not implement. */
  want?: string[];
}

/** The service's ids equal the oracle's, and differ from the unfiltered listing (not a no-op). */
async function check(c: Case): Promise<void> {
  const served = await allIds(service.baseUrl!, c.path, c.query);
  const want = c.want ?? (await allIds(fake.url, c.path, c.query));
  const order = /(?:^|&)(order=[^&]*(?:&ascending=[^&]*)?)/.exec(c.query)?.[1] ?? '';
  // Under an `order` the sets must agree; the order itself is catalog-routes.test.ts's subject
  // (and one fixture event's volume differs between its copies, which moves it in the sort).
  const norm = (ids: string[]) => (order ? [...ids].sort(byId) : ids);
  expect(norm(served), `${c.path}?${c.query}`).toEqual(norm(want));
  const unfiltered = await allIds(service.baseUrl!, c.path, order);
  expect(served.length, `${c.path}?${c.query} matches something`).toBeGreaterThan(0);
  expect(served, `${c.path}?${c.query} filters`).not.toEqual(unfiltered);
}

describe('GET /markets: every Gamma filter, against the fake upstream', () => {
  it('id, one and repeated', async () => {
    const ids = catalog.marketRecords().map((r) => r.id);
    await check({ path: '/markets', query: q([['id', ids[7]!]]) });
    await check({
      path: '/markets',
      query: q([
        ['id', ids[30]!],
        ['id', ids[3]!],
        ['id', '999999999'],
      ]),
    });
  });

  it('slug, one and repeated', async () => {
    const [a, b] = markets().slice(5, 7);
    await check({ path: '/markets', query: q([['slug', a!.slug as string]]) });
    await check({
      path: '/markets',
      query: q([
        ['slug', a!.slug as string],
        ['slug', b!.slug as string],
      ]),
    });
  });

  it('clob_token_ids: the market trading that token, not the unfiltered [0]', async () => {
    const withTokens = markets().filter((m) => typeof m.clobTokenIds === 'string' && m.clobTokenIds.length > 4);
    const m = withTokens[withTokens.length - 3]!;
    const token = (JSON.parse(m.clobTokenIds as string) as string[])[1]!;
    await check({ path: '/markets', query: q([['clob_token_ids', token]]) });
    const served = await allIds(service.baseUrl!, '/markets', q([['clob_token_ids', token]]));
    expect(served).toEqual([String(m.id)]);
    const other = (JSON.parse(withTokens[2]!.clobTokenIds as string) as string[])[0]!;
    await check({
      path: '/markets',
      query: q([
        ['clob_token_ids', token],
        ['clob_token_ids', other],
      ]),
    });
  });

  it('condition_ids, repeated', async () => {
    const ms = markets().filter((m) => typeof m.conditionId === 'string' && m.conditionId !== '');
    await check({
      path: '/markets',
      query: q([
        ['condition_ids', ms[4]!.conditionId as string],
        ['condition_ids', ms[40]!.conditionId as string],
      ]),
    });
  });

  it('question_ids and market_maker_address (brute force)', async () => {
    const ms = markets();
    const qid = ms.find((m) => typeof m.questionID === 'string' && m.questionID !== '')!.questionID as string;
    await check({ path: '/markets', query: q([['question_ids', qid]]), want: idsOf(ms, (m) => m.questionID === qid) });
    const mm = ms.find((m) => typeof m.marketMakerAddress === 'string' && m.marketMakerAddress !== '')!.marketMakerAddress as string;
    await check({
      path: '/markets',
      query: q([['market_maker_address', mm.toLowerCase()]]),
      want: idsOf(ms, (m) => typeof m.marketMakerAddress === 'string' && m.marketMakerAddress.toLowerCase() === mm.toLowerCase()),
    });
  });

  it('volume_num_min/max and liquidity_num_min/max', async () => {
    const ms = markets();
    const vol = median(ms, (m) => numberOf(m.volumeNum) ?? numberOf(m.volume));
    const liq = median(ms, (m) => numberOf(m.liquidityNum) ?? numberOf(m.liquidity));
    await check({ path: '/markets', query: q([['volume_num_min', vol]]) });
    await check({ path: '/markets', query: q([['volume_num_max', vol]]) });
    await check({
      path: '/markets',
      query: q([
        ['volume_num_min', vol / 10],
        ['volume_num_max', vol * 10],
      ]),
    });
    await check({ path: '/markets', query: q([['liquidity_num_min', liq]]) });
    await check({ path: '/markets', query: q([['liquidity_num_max', liq]]) });
    // 0 inside the range: markets without liquidity count as 0, on both sides.
    await check({
      path: '/markets',
      query: q([
        ['liquidity_num_min', 0],
        ['liquidity_num_max', liq],
      ]),
    });
  });

  it('start_date_min/max and end_date_min/max', async () => {
    const ms = markets();
    const start = median(ms, (m) => dateOf(m.startDate));
    const end = median(ms, (m) => dateOf(m.endDate));
    await check({ path: '/markets', query: q([['start_date_min', iso(start)]]) });
    await check({ path: '/markets', query: q([['start_date_max', iso(start)]]) });
    await check({ path: '/markets', query: q([['end_date_min', iso(end)]]) });
    await check({
      path: '/markets',
      query: q([
        ['end_date_max', iso(end)],
        ['start_date_min', iso(start - 365 * 86_400_000)],
      ]),
    });
  });

  it('a date alone is midnight UTC, and other ISO forms mean the same instant', async () => {
    const day = new Date(median(markets(), (m) => dateOf(m.endDate))).toISOString().slice(0, 10);
    const want = await allIds(service.baseUrl!, '/markets', q([['end_date_min', `${day}T00:00:00.000Z`]]));
    for (const v of [day, `${day}T00:00:00Z`, `${day}T00:00:00`, `${day} 00:00:00+00`, `${day}T02:00:00+02:00`]) {
      expect(await allIds(service.baseUrl!, '/markets', q([['end_date_min', v]])), v).toEqual(want);
    }
  });

  it('closed_time_min/max, uma_resolution_status, game_id, sports_market_types, decimalized (brute force)', async () => {
    const ms = markets();
    const closed = median(ms, (m) => dateOf(m.closedTime));
    await check({
      path: '/markets',
      query: q([['closed_time_min', iso(closed)]]),
      want: idsOf(ms, (m) => (dateOf(m.closedTime) ?? -Infinity) >= closed + 1),
    });
    await check({ path: '/markets', query: q([['decimalized', 'true']]), want: idsOf(ms, (m) => m.orderPriceMinTickSize === 0.001) });
    await check({ path: '/markets', query: q([['decimalized', 'false']]), want: idsOf(ms, (m) => m.orderPriceMinTickSize === 0.01) });
    const sport = ms.find((m) => typeof m.sportsMarketType === 'string')!;
    await check({
      path: '/markets',
      query: q([['sports_market_types', sport.sportsMarketType as string]]),
      want: idsOf(ms, (m) => m.sportsMarketType === sport.sportsMarketType),
    });
    const game = ms.find((m) => typeof m.gameId === 'string')!;
    await check({ path: '/markets', query: q([['game_id', game.gameId as string]]), want: idsOf(ms, (m) => m.gameId === game.gameId) });
    const uma = ms.find((m) => typeof m.umaResolutionStatus === 'string');
    if (uma) {
      const s = uma.umaResolutionStatus as string;
      await check({ path: '/markets', query: q([['uma_resolution_status', s]]), want: idsOf(ms, (m) => m.umaResolutionStatus === s) });
    }
  });

  it('combinations, with an order', async () => {
    const ms = markets();
    const vol = median(ms, (m) => numberOf(m.volumeNum) ?? numberOf(m.volume));
    await check({
      path: '/markets',
      query: `${q([
        ['closed', 'false'],
        ['volume_num_min', vol],
      ])}&order=volumeNum&ascending=false`,
    });
    await check({
      path: '/markets',
      query: `${q([
        ['liquidity_num_min', 1],
        ['end_date_min', iso(Date.UTC(2025, 0, 1))],
      ])}&order=endDate&ascending=true`,
    });
    const ids = catalog.marketRecords().map((r) => r.id);
    await check({ path: '/markets', query: q([...ids.slice(0, 60).map((id) => ['id', id] as [string, string]), ['volume_num_min', vol]]) });
  });

  it('include_tag adds each market its tags (those of its events); without it there are none', async () => {
    const [m] = (await get(service.baseUrl!, '/markets?include_tag=true&limit=1&tag_slug=crypto')).body as Obj[];
    expect(m).toBeDefined();
    expect((m!.tags as Obj[]).map((t) => t.slug)).toContain('crypto');
    const [plain] = (await get(service.baseUrl!, '/markets?limit=1&tag_slug=crypto')).body as Obj[];
    expect(plain).not.toHaveProperty('tags');
  });
});

describe('GET /events: every Gamma filter', () => {
  it('id and slug, one and repeated', async () => {
    const es = events();
    await check({ path: '/events', query: q([['id', es[3]!.id as string]]) });
    await check({
      path: '/events',
      query: q([
        ['id', es[3]!.id as string],
        ['id', es[50]!.id as string],
      ]),
    });
    await check({
      path: '/events',
      query: q([
        ['slug', es[8]!.slug as string],
        ['slug', es[9]!.slug as string],
      ]),
    });
  });

  it('volume_min/max, liquidity_min/max, start/end_date_min/max, featured', async () => {
    const es = events();
    const vol = median(es, (e) => numberOf(e.volume));
    const liq = median(es, (e) => numberOf(e.liquidity));
    await check({ path: '/events', query: q([['volume_min', vol]]) });
    await check({ path: '/events', query: q([['volume_max', vol]]) });
    await check({ path: '/events', query: q([['liquidity_min', liq]]) });
    await check({ path: '/events', query: q([['liquidity_max', liq]]) });
    await check({ path: '/events', query: q([['start_date_min', iso(median(es, (e) => dateOf(e.startDate)))]]) });
    await check({ path: '/events', query: q([['start_date_max', iso(median(es, (e) => dateOf(e.startDate)))]]) });
    await check({ path: '/events', query: q([['end_date_min', iso(median(es, (e) => dateOf(e.endDate)))]]) });
    await check({ path: '/events', query: q([['end_date_max', iso(median(es, (e) => dateOf(e.endDate)))]]) });
    await check({ path: '/events', query: q([['featured', 'true']]) });
    await check({ path: '/events', query: q([['featured', 'false']]) });
    await check({
      path: '/events',
      query: `${q([
        ['volume_min', vol],
        ['closed', 'false'],
      ])}&order=volume&ascending=false`,
    });
  });

  it('exclude_tag_id, series_id, recurrence, title_search (brute force)', async () => {
    const es = events();
    const tagsOf = (e: Obj) => ((e.tags as Obj[] | undefined) ?? []).map((t) => String(t.id));
    const seriesOf = (e: Obj) => (e.series as Obj[] | undefined) ?? [];
    const tag = tagsOf(es.find((e) => tagsOf(e).length > 0)!)[0]!;
    await check({ path: '/events', query: q([['exclude_tag_id', tag]]), want: idsOf(es, (e) => !tagsOf(e).includes(tag)) });
    const sid = String(seriesOf(es.find((e) => seriesOf(e).length > 0)!)[0]!.id);
    await check({
      path: '/events',
      query: q([['series_id', sid]]),
      want: idsOf(es, (e) => seriesOf(e).some((s) => String(s.id) === sid)),
    });
    const rec = es.flatMap(seriesOf).find((s) => typeof s.recurrence === 'string' && s.recurrence !== '');
    if (rec) {
      const r = rec.recurrence as string;
      await check({ path: '/events', query: q([['recurrence', r]]), want: idsOf(es, (e) => seriesOf(e).some((s) => s.recurrence === r)) });
    }
    await check({
      path: '/events',
      query: q([['title_search', 'bitcoin']]),
      want: idsOf(es, (e) => typeof e.title === 'string' && e.title.toLowerCase().includes('bitcoin')),
    });
  });

  it('include_markets=false leaves the markets key out', async () => {
    const [e] = (await get(service.baseUrl!, '/events?limit=1&include_markets=false')).body as Obj[];
    expect(e).not.toHaveProperty('markets');
    const [withMarkets] = (await get(service.baseUrl!, '/events?limit=1')).body as Obj[];
    expect(withMarkets).toHaveProperty('markets');
  });
});

describe('known Gamma parameters are never ignored', () => {
  const bad = (error: string) => ({ status: 400, body: { type: 'bad request', error } });

  for (const [path, name, noop] of [
    ['/markets', 'related_tags', 'false'],
    ['/markets', 'cyom', undefined],
    ['/markets', 'rewards_min_size', undefined],
    ['/markets', 'rfq_enabled', undefined],
    ['/markets', 'position_ids', undefined],
    ['/markets', 'locale', undefined],
    ['/markets', 'tag_match', 'any'],
    ['/events', 'related_tags', 'false'],
    ['/events', 'cyom', undefined],
    ['/events', 'include_chat', 'false'],
    ['/events', 'include_template', 'false'],
    ['/events', 'include_best_lines', 'false'],
    ['/events', 'include_children', 'false'],
    ['/events', 'live', undefined],
    ['/events', 'start_time_min', undefined],
    ['/events', 'start_time_max', undefined],
    ['/events', 'tag_match', 'all'],
    ['/events', 'game_id', undefined],
    ['/events', 'event_date', undefined],
    ['/events', 'event_week', undefined],
    ['/events', 'featured_order', undefined],
    ['/events', 'created_by', undefined],
    ['/events', 'parent_event_id', undefined],
    ['/events', 'partner_slug', undefined],
    ['/events', 'locale', undefined],
  ] as const) {
    it(`${path}?${name}: 400 "not supported by this cache"${noop ? `, except the no-op ${name}=${noop}` : ''}`, async () => {
      expect(await get(service.baseUrl!, `${path}?${name}=true`)).toEqual(bad(`${name} is not supported by this cache`));
      expect(await get(service.baseUrl!, `${path}?${name}=1&${name}=2`)).toEqual(bad(`${name} is not supported by this cache`));
      if (noop) {
        const plain = await get(service.baseUrl!, `${path}?limit=5`);
        expect(await get(service.baseUrl!, `${path}?limit=5&${name}=${noop}`)).toEqual(plain);
      }
    });
  }

  for (const [path, query, name] of [
    ['/markets', 'id=abc', 'id'],
    ['/markets', 'id=1&id=x', 'id'],
    ['/markets', 'volume_num_min=lots', 'volume_num_min'],
    ['/markets', 'liquidity_num_max=1e', 'liquidity_num_max'],
    ['/markets', 'start_date_min=yesterday', 'start_date_min'],
    ['/markets', 'end_date_max=2025-13-45', 'end_date_max'],
    ['/markets', 'decimalized=maybe', 'decimalized'],
    ['/markets', 'volume_num_min=1&volume_num_min=2', 'volume_num_min'],
    ['/events', 'id=-1', 'id'],
    ['/events', 'volume_min=NaN', 'volume_min'],
    ['/events', 'exclude_tag_id=x', 'exclude_tag_id'],
    ['/events', 'end_date_min=2025-01-01T25:00:00Z', 'end_date_min'],
    ['/events', 'include_markets=no', 'include_markets'],
  ] as const) {
    it(`${path}?${query}: 400 naming ${name}`, async () => {
      const r = await get(service.baseUrl!, `${path}?${query}`);
      expect(r.status).toBe(400);
      expect((r.body as { error: string }).error).toContain(name);
    });
  }

  it('exclude_tag_id overlapping tag_id is a 400, as on Gamma', async () => {
    const r = await get(service.baseUrl!, '/events?tag_id=2&exclude_tag_id=5&exclude_tag_id=2');
    expect(r).toEqual(bad('exclude_tag_id must not include tag_id'));
  });

  it('the spec bounds stand: limit outside 1-100 is a 400', async () => {
    expect((await get(service.baseUrl!, '/markets?limit=101&id=1')).status).toBe(400);
    expect((await get(service.baseUrl!, '/events?limit=0&slug=a')).status).toBe(400);
  });

  it('parameters Gamma does not know stay ignored', async () => {
    const plain = await get(service.baseUrl!, '/markets?limit=7');
    expect(await get(service.baseUrl!, '/markets?limit=7&volume_min=5&tag_ids=1&search=x')).toEqual(plain);
  });
});
