/**
 * Sync against a synthetic catalog: the counts match what the cache must hold, and the
 * listing filters agree with a brute-force filter over the generated data (property test,
 * several seeds and sizes).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations, parseParams, type RawParams } from '../contract/index.ts';
import { createSyntheticCatalog, DEFAULT_NOW, type FakeCatalog, type FakeUpstream } from '../fake-upstream/index.ts';
import { parseTs } from '../logger.ts';
import { expectedCache, startFake, syncAgainst, type Harness } from '../testing/sync-harness.ts';
import type { GammaEvent, GammaMarket } from '../contract/gamma.ts';

const DAY = 86_400_000;
const HORIZON = 7 * DAY;

interface World {
  catalog: FakeCatalog;
  fake: FakeUpstream;
  h: Omit<Harness, 'fake'>;
  markets: GammaMarket[];
  events: GammaEvent[];
  /** market id -> tag ids of its events */
  marketTags: Map<string, Set<string>>;
}

async function world(markets: number, seed: number): Promise<World> {
  const catalog = createSyntheticCatalog({ markets, seed });
  const fake = await startFake(catalog);
  const h = await syncAgainst(fake, { sync: { now: () => DEFAULT_NOW, horizonMs: HORIZON } });
  await h.sync.syncNow('full');
  const want = expectedCache(catalog, DEFAULT_NOW - HORIZON);
  const marketTags = new Map<string, Set<string>>();
  for (const r of catalog.eventRecords()) {
    const e = catalog.getEvent(r.id)!;
    for (const m of e.markets ?? []) {
      const set = marketTags.get(m.id) ?? new Set<string>();
      for (const t of e.tags ?? []) set.add(t.id);
      marketTags.set(m.id, set);
    }
  }
  return { catalog, fake, h, markets: want.markets, events: want.events, marketTags };
}

type Sort = 'id' | 'volume' | 'endDate' | 'volume24hr' | 'createdAt' | 'liquidity';

function sortKey(m: GammaMarket, s: Sort): number | null {
  switch (s) {
    case 'id':
      return Number(m.id);
    case 'volume':
      return typeof m.volumeNum === 'number' ? m.volumeNum : m.volume !== undefined ? Number(m.volume) : null;
    case 'liquidity':
      return typeof m.liquidityNum === 'number' ? m.liquidityNum : m.liquidity !== undefined ? Number(m.liquidity) : null;
    case 'volume24hr':
      return typeof m['volume24hr'] === 'number' ? (m['volume24hr'] as number) : null;
    case 'endDate':
      return parseTs(m['endDate']);
    case 'createdAt':
      return parseTs(m.createdAt);
  }
}

interface Query {
  active?: boolean;
  closed?: boolean;
  archived?: boolean;
  tagIndex?: number;
  /** Gamma's range and id-list filters: quantiles (0-1000) of the cached values, indexes of markets. */
  volumeMin?: number;
  volumeMax?: number;
  endMin?: number;
  endMax?: number;
  idPicks?: number[];
  order?: Sort;
  ascending: boolean;
  limit: number;
  offset: number;
}

/** The value at quantile `q` (0-1000) of a field over the cached markets, as a range bound. */
const sortedValues = new WeakMap<World, Map<Sort, number[]>>();
function quantile(w: World, s: Sort, q: number | undefined): number | undefined {
  if (q === undefined) return undefined;
  const byWorld = sortedValues.get(w) ?? new Map<Sort, number[]>();
  sortedValues.set(w, byWorld);
  let vs = byWorld.get(s);
  if (!vs) {
    vs = w.markets
      .map((m) => sortKey(m, s))
      .filter((v): v is number => v !== null)
      .sort((a, b) => a - b);
    byWorld.set(s, vs);
  }
  return vs[Math.floor((q / 1000) * (vs.length - 1))];
}

/** Gamma's ranges and id list: a market without volume counts as 0, one without an end date never matches. */
function rangeFilter(w: World, q: Query): (m: GammaMarket) => boolean {
  const vMin = quantile(w, 'volume', q.volumeMin);
  const vMax = quantile(w, 'volume', q.volumeMax);
  const eMin = quantile(w, 'endDate', q.endMin);
  const eMax = quantile(w, 'endDate', q.endMax);
  const ids = q.idPicks && new Set(q.idPicks.map((i) => w.markets[i % w.markets.length]!.id));
  return (m) => {
    const vol = sortKey(m, 'volume') ?? 0;
    const end = sortKey(m, 'endDate');
    if (vMin !== undefined && vol < vMin) return false;
    if (vMax !== undefined && vol > vMax) return false;
    if (eMin !== undefined && (end === null || end < eMin)) return false;
    if (eMax !== undefined && (end === null || end > eMax)) return false;
    return !ids || ids.has(m.id);
  };
}

/** The brute-force answer: filter, then sort with nulls last and ties by id. */
function bruteForce(w: World, q: Query, tagId: string | undefined): string[] {
  const inRanges = rangeFilter(w, q);
  let rows = w.markets.filter(
    (m) =>
      inRanges(m) &&
      (q.active === undefined || m.active === q.active) &&
      (q.closed === undefined || m.closed === q.closed) &&
      (q.archived === undefined || m.archived === q.archived) &&
      (tagId === undefined || (w.marketTags.get(m.id)?.has(tagId) ?? false)),
  );
  const sort = q.order ?? 'id';
  const asc = q.order ? q.ascending : true;
  rows = [...rows].sort((a, b) => {
    const ka = sortKey(a, sort);
    const kb = sortKey(b, sort);
    const byId = asc ? Number(a.id) - Number(b.id) : Number(b.id) - Number(a.id);
    // Missing values go last in both directions, among themselves by id in the sort's direction.
    if (ka === null && kb === null) return byId;
    if (ka === null) return 1;
    if (kb === null) return -1;
    const d = asc ? ka - kb : kb - ka;
    return d !== 0 ? d : byId;
  });
  return rows.slice(q.offset, q.offset + q.limit).map((m) => m.id);
}

function served(w: World, q: Query, tagId: string | undefined): string[] {
  const raw: RawParams = { limit: String(q.limit), offset: String(q.offset) };
  for (const k of ['active', 'closed', 'archived'] as const) if (q[k] !== undefined) raw[k] = String(q[k]);
  if (tagId !== undefined) raw['tag_id'] = tagId;
  const bound = (s: Sort, v: number | undefined) => {
    const b = quantile(w, s, v);
    return b === undefined ? undefined : s === 'endDate' ? new Date(b).toISOString() : String(b);
  };
  for (const [name, s, v] of [
    ['volume_num_min', 'volume', q.volumeMin],
    ['volume_num_max', 'volume', q.volumeMax],
    ['end_date_min', 'endDate', q.endMin],
    ['end_date_max', 'endDate', q.endMax],
  ] as const) {
    const b = bound(s, v);
    if (b !== undefined) raw[name] = b;
  }
  if (q.idPicks) raw['id'] = q.idPicks.map((i) => w.markets[i % w.markets.length]!.id);
  if (q.order) {
    raw['order'] = q.order;
    raw['ascending'] = String(q.ascending);
  }
  const p = parseParams(operations['markets.list'].params, raw);
  if (!p.ok) throw new Error(p.message);
  return w.h.store.reader.listMarkets(p.value).map((m) => m.id);
}

const queryArb = (maxOffset: number) =>
  fc.record(
    {
      active: fc.option(fc.boolean(), { nil: undefined }),
      closed: fc.option(fc.boolean(), { nil: undefined }),
      archived: fc.option(fc.boolean(), { nil: undefined }),
      tagIndex: fc.option(fc.nat(400), { nil: undefined }),
      volumeMin: fc.option(fc.nat(1000), { nil: undefined, freq: 3 }),
      volumeMax: fc.option(fc.nat(1000), { nil: undefined, freq: 3 }),
      endMin: fc.option(fc.nat(1000), { nil: undefined, freq: 3 }),
      endMax: fc.option(fc.nat(1000), { nil: undefined, freq: 3 }),
      idPicks: fc.option(fc.array(fc.nat(), { minLength: 1, maxLength: 40 }), { nil: undefined, freq: 4 }),
      order: fc.option(fc.constantFrom<Sort>('id', 'volume', 'endDate', 'volume24hr', 'createdAt', 'liquidity'), { nil: undefined }),
      ascending: fc.boolean(),
      limit: fc.integer({ min: 1, max: 100 }),
      offset: fc.oneof(fc.nat(200), fc.nat(maxOffset)),
    },
    { requiredKeys: ['ascending', 'limit', 'offset'] },
  );

describe.each([
  { markets: 20_000, seed: 1, runs: 150 },
  { markets: 4_000, seed: 2, runs: 100 },
  { markets: 4_000, seed: 3, runs: 100 },
])('synthetic catalog of $markets markets, seed $seed', ({ markets, seed, runs }) => {
  let w: World;
  beforeAll(async () => {
    w = await world(markets, seed);
  });
  afterAll(async () => {
    await w?.h.close();
    await w?.fake.close();
  });

  it('caches exactly the open catalog plus what closed within the horizon', () => {
    const counts = w.h.store.reader.counts();
    expect(counts.markets).toBe(w.markets.length);
    expect(counts.events).toBe(w.events.length);
    expect(counts.tags).toBe(w.catalog.counts.tags);
    // Most of the catalog is open; some closed markets were kept, the old closed ones dropped.
    expect(w.markets.length).toBeGreaterThan(markets * 0.7);
    expect(w.markets.some((m) => m.closed === true)).toBe(true);
    expect(w.markets.length).toBeLessThan(w.catalog.counts.markets);
  });

  it('answers GET /markets filters, tags, sorts and pages like a brute-force filter', () => {
    const tags = w.catalog.tags().map((t) => t.id);
    fc.assert(
      fc.property(queryArb(w.markets.length), (q) => {
        const tagId = q.tagIndex === undefined ? undefined : tags[q.tagIndex % tags.length];
        expect(served(w, q, tagId)).toEqual(bruteForce(w, q, tagId));
      }),
      { numRuns: runs, seed },
    );
  });

  it('answers GET /events status and tag filters like a brute-force filter', () => {
    const tags = w.catalog.tags().map((t) => t.id);
    fc.assert(
      fc.property(
        fc.option(fc.boolean(), { nil: undefined }),
        fc.option(fc.nat(400), { nil: undefined }),
        fc.nat(300),
        (closed, tagIndex, offset) => {
          const tagId = tagIndex === undefined ? undefined : tags[tagIndex % tags.length]!;
          const raw: RawParams = { limit: '100', offset: String(offset) };
          if (closed !== undefined) raw['closed'] = String(closed);
          if (tagId !== undefined) raw['tag_id'] = tagId;
          const p = parseParams(operations['events.list'].params, raw);
          if (!p.ok) throw new Error(p.message);
          const got = w.h.store.reader.listEvents(p.value).map((e) => e.id);
          const want = w.events
            .filter(
              (e) => (closed === undefined || e.closed === closed) && (tagId === undefined || (e.tags ?? []).some((t) => t.id === tagId)),
            )
            .map((e) => e.id)
            .sort((a, b) => Number(a) - Number(b))
            .slice(offset, offset + 100);
          expect(got).toEqual(want);
        },
      ),
      { numRuns: Math.ceil(runs / 2), seed },
    );
  });
});
