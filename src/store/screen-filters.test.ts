/**
 * The screen filters (issue 16) against their definition: for random screens over a synthetic
 * catalog, every page of `/markets` and `/events`, their counts and their export ids equal a
 * brute-force filter over all rows in JS. Bad ranges are a 400; the chance range reads its index.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, operations, parseParams, type OpName } from '../contract/index.ts';
import type { RawParams } from '../contract/params.ts';
import { NOW, TAGS, bruteEvents, bruteMarkets, rng, syntheticCatalog, type Watched } from '../testing/screen-model.ts';
import { CatalogStore } from './catalog-store.ts';
import { OrdersStore } from './orders-store.ts';

const catalog = syntheticCatalog();
let store: CatalogStore;
let watched: Watched = { markets: [], events: [] };

beforeAll(async () => {
  store = await CatalogStore.open({});
  store.apply({ tags: catalog.tags, events: catalog.events });
  const side = store.sideTables();
  const order = (market: string, i: number) => ({
    id: `0xO${i}`,
    status: 'LIVE',
    market,
    assetId: `${i}`,
    outcome: 'Yes',
    makerAddress: '0x1',
    owner: 'k',
    price: '0.5',
    originalSize: '10',
    sizeMatched: '0',
    side: 'BUY',
    type: 'GTC',
    associateTrades: [],
    createdAt: '2026-01-01T00:00:00Z',
    updatedAt: '2026-01-01T00:00:00Z',
  });
  new OrdersStore(side.st, side.changed).replace('0xacct', catalog.orderConditions.map(order), NOW);
  store.reader.setScreenScope({
    watched: () => ({ markets: watched.markets.map(Number), events: watched.events.map(Number) }),
    now: () => NOW,
  });
});
afterAll(() => store.close());

function parsed<K extends OpName>(op: K, raw: RawParams) {
  const r = parseParams(operations[op].params, raw);
  if (!r.ok) throw new Error(r.message);
  return r.value as never;
}

function allMarketIds(raw: RawParams): string[] {
  const out: string[] = [];
  for (let offset = 0; ; offset += 50) {
    const page = store.reader.listMarkets(parsed('markets.list', { ...raw, limit: '50', offset: String(offset) }));
    out.push(...page.map((m) => m.id));
    if (page.length < 50) return out;
  }
}

function allEventIds(raw: RawParams): string[] {
  const out: string[] = [];
  for (let offset = 0; ; offset += 50) {
    const page = store.reader.listEvents(parsed('events.list', { ...raw, limit: '50', offset: String(offset), include_markets: 'false' }));
    out.push(...page.map((e) => e.id));
    if (page.length < 50) return out;
  }
}

const opt = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined });
/** A group of parameters, left out 3 times in 4: a screen of every filter at once would almost always be empty. */
const sometimes = <T extends object>(a: fc.Arbitrary<T>): fc.Arbitrary<Partial<T>> =>
  fc.oneof({ arbitrary: fc.constant({}), weight: 3 }, { arbitrary: a, weight: 1 });
const range = (key: string, values: readonly number[]) =>
  sometimes(fc.record({ [`${key}_min`]: opt(fc.constantFrom(...values)), [`${key}_max`]: opt(fc.constantFrom(...values)) }));
const slugs = fc.subarray([...TAGS.map((t) => t.slug!), 'Politics', 'no-such-tag'], { maxLength: 2 });
const common = fc.record({
  volume: range('md_volume', [0, 1, 100, 2500]),
  volume24: range('md_volume24h', [0, 5, 100, 1e6]),
  liquidity: range('md_liquidity', [0, 100, 2500]),
  end: sometimes(
    fc.record({
      md_end_after: opt(fc.constantFrom('2026-05-31', '2026-06-01T12:00:00Z', '2027-01-01')),
      md_end_before: opt(fc.constantFrom('2026-06-02', '2026-07-01', '2030-01-01')),
      md_ends_within_hours: opt(fc.constantFrom('1', '24', '168', '720')),
    }),
  ),
  tags: sometimes(fc.record({ md_tag: opt(slugs), md_not_tag: opt(slugs) })),
  text: sometimes(fc.record({ md_q: opt(fc.constantFrom('trump', 'WIN', '100%', 'a_b', 'event 1', '')) })),
  watch: sometimes(fc.record({ md_watchlist: fc.constantFrom('true', 'false') })),
  orders: sometimes(fc.record({ md_has_orders: fc.constantFrom('true', 'false') })),
  closed: sometimes(fc.record({ closed: fc.constantFrom('true', 'false') })),
});
const marketOnly = fc.record({
  chance: range('md_chance', [0, 0.05, 0.2, 0.5, 0.95, 1]),
  change: range('md_change24h', [-0.2, -0.05, 0, 0.05]),
  spread: range('md_spread', [0, 0.01, 0.1]),
});
const watchlists = fc.oneof(
  fc.constant<Watched>({ markets: [], events: [] }),
  fc.record({ markets: fc.subarray(['1', '2', '3', '10', '40', '77']), events: fc.subarray(['1', '5', '9', '30']) }),
);

/** The flattened parameters, without the unset ones and without ranges whose min exceeds their max (their 400 is tested below). */
function flat(parts: Record<string, Record<string, unknown>>): RawParams {
  const out: RawParams = {};
  for (const part of Object.values(parts)) for (const [k, v] of Object.entries(part)) if (v !== undefined) out[k] = v as string | string[];
  for (const k of Object.keys(out)) {
    if (!k.endsWith('_min')) continue;
    const max = `${k.slice(0, -4)}_max`;
    if (out[max] !== undefined && Number(out[k]) > Number(out[max])) delete out[max];
  }
  if (out['md_end_after'] !== undefined && out['md_end_before'] !== undefined && out['md_end_after'] > out['md_end_before'])
    delete out['md_end_before'];
  return stringify(out);
}

function stringify(p: Record<string, unknown>): RawParams {
  return Object.fromEntries(Object.entries(p).map(([k, v]) => [k, Array.isArray(v) ? v.map(String) : String(v)]));
}

describe('screen filters against a brute-force filter', () => {
  it('markets: every page, the count and the export ids', () => {
    fc.assert(
      fc.property(common, marketOnly, watchlists, (c, m, w) => {
        watched = w;
        const raw = flat({ ...c, ...m });
        const expected = bruteMarkets(catalog, raw, w);
        expect(allMarketIds(raw)).toEqual(expected);
        expect(store.reader.countMarkets(parsed('markets.count', raw))).toBe(expected.length);
        expect(store.reader.exportMarketIds(parsed('markets.list', raw)).map(String)).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('events: every page and the count', () => {
    fc.assert(
      fc.property(common, watchlists, (c, w) => {
        watched = w;
        const raw = flat(c);
        const expected = bruteEvents(catalog, raw, w);
        expect(allEventIds(raw)).toEqual(expected);
        expect(store.reader.countEvents(parsed('events.count', raw))).toBe(expected.length);
      }),
      { numRuns: 200 },
    );
  });

  it('the model is not trivial: screens select some rows and not all', () => {
    watched = { markets: [], events: [] };
    const all = bruteMarkets(catalog, {}, watched).length;
    for (const raw of [{ md_chance_min: '0.2', md_chance_max: '0.5' }, { md_tag: 'politics' }, { md_has_orders: 'true' }]) {
      const n = allMarketIds(raw).length;
      expect(n, JSON.stringify(raw)).toBeGreaterThan(0);
      expect(n, JSON.stringify(raw)).toBeLessThan(all);
    }
  });
});

/**
 * md_q against its definition, over every row the listing gives without filters: each word of the
 * text (SQLite's own unicode61 tokenizer, the search index's) starts a word of the row's question
 * (markets) or title (events). Texts in any case, with diacritics and punctuation; questions spread
 * over multi-market events (an event's document holds all its questions) and a market with no event.
 */
describe('md_q against a brute-force filter over all rows', () => {
  const VOCAB = ['Élection', 'election', 'Straße', "Trump's", 'BTC/USD', '100%', 'a_b', 'ÉTÉ', 'naïve', 'Rain', 'rainbow', 'win', 'WINNER'];
  const QUERIES = [
    'elect',
    'ÉLECTION',
    'trump s',
    "trump's win",
    'btc usd',
    'usd',
    '100',
    'été',
    'naive',
    'rain',
    'RAINB',
    'win',
    'winner',
    'a b',
  ];
  let text: CatalogStore;
  beforeAll(async () => {
    text = await CatalogStore.open({});
    const r = rng(3);
    const pick = () => VOCAB[Math.floor(r() * VOCAB.length)]!;
    const events = Array.from({ length: 30 }, (_, e) => ({
      id: String(e + 1),
      slug: `t-${e + 1}`,
      title: `${pick()} ${pick()} event`,
      markets: Array.from({ length: 1 + (e % 4) }, (_, k) => ({ id: String(e * 10 + k + 1), question: `${pick()} ${pick()}?` })),
    }));
    text.apply({ events, markets: [{ id: '999', question: 'Élection rainbow, no event', events: [] }] });
  });
  afterAll(() => text.close());

  const tokens = (s: string): string[] =>
    text.statements.db.exec('SELECT token FROM temp.search_tokens WHERE input = ?', [s])[0]?.values.map((r) => String(r[0])) ?? [];
  const matches = (q: string, s: string | undefined) => {
    const want = tokens(q);
    const have = tokens(s ?? '');
    return want.length > 0 && want.every((w) => have.some((h) => h.startsWith(w)));
  };
  function all<T extends { id: string }>(read: (offset: number) => T[]): T[] {
    const out: T[] = [];
    for (let offset = 0; ; offset += 50) {
      const page = read(offset);
      out.push(...page);
      if (page.length < 50) return out;
    }
  }
  const markets = (raw: RawParams) =>
    all((o) => text.reader.listMarkets(parsed('markets.list', { ...raw, limit: '50', offset: String(o) })));
  const events = (raw: RawParams) =>
    all((o) => text.reader.listEvents(parsed('events.list', { ...raw, limit: '50', offset: String(o), include_markets: 'false' })));

  it('markets and events: exactly the rows whose words the text starts, with the count', () => {
    const everyMarket = markets({});
    const everyEvent = events({});
    expect(everyMarket.map((m) => m.id)).toContain('999');
    for (const q of QUERIES) {
      const expected = everyMarket.filter((m) => matches(q, m.question)).map((m) => m.id);
      expect(expected.length, q).toBeGreaterThan(0);
      expect(expected.length, q).toBeLessThan(everyMarket.length);
      expect(
        markets({ md_q: q }).map((m) => m.id),
        q,
      ).toEqual(expected);
      expect(text.reader.countMarkets(parsed('markets.count', { md_q: q })), q).toBe(expected.length);
      const expectedEvents = everyEvent.filter((e) => matches(q, e.title)).map((e) => e.id);
      expect(
        events({ md_q: q }).map((e) => e.id),
        q,
      ).toEqual(expectedEvents);
      expect(text.reader.countEvents(parsed('events.count', { md_q: q })), q).toBe(expectedEvents.length);
    }
  });

  it('combines with ranges, sorts and paging; a text without a word matches nothing, an empty one is no filter', () => {
    const everyMarket = markets({});
    expect(markets({ md_q: '  ' }).length).toBe(everyMarket.length);
    expect(markets({ md_q: '%?!' })).toEqual([]);
    expect(events({ md_q: '/' })).toEqual([]);
    // With a range (money missing counts as 0: every market) and a sort by question, ties by id.
    const sorted = markets({ md_q: 'rain', order: 'question', ascending: 'true', md_volume_min: '0' });
    const rainy = everyMarket.filter((m) => matches('rain', m.question));
    rainy.sort((a, b) => (a.question! < b.question! ? -1 : a.question! > b.question! ? 1 : Number(a.id) - Number(b.id)));
    expect(sorted.map((m) => m.id)).toEqual(rainy.map((m) => m.id));
    const page = text.reader.listMarkets(parsed('markets.list', { md_q: 'win', order: 'id', ascending: 'false', limit: '2', offset: '1' }));
    const expected = everyMarket.filter((m) => matches('win', m.question)).map((m) => m.id);
    expect(page.map((m) => m.id)).toEqual(expected.sort((a, b) => Number(b) - Number(a)).slice(1, 3));
  });
});

describe('bad screens', () => {
  const status = (fn: () => unknown) => {
    try {
      fn();
    } catch (e) {
      return e instanceof ApiError ? e.status : -1;
    }
    return 200;
  };
  it('refuses a min above its max, a chance outside 0..1 and a closed date window with a 400', () => {
    for (const [k, lo, hi] of [
      ['md_chance', '0.6', '0.4'],
      ['md_volume', '10', '1'],
      ['md_spread', '0.2', '0.1'],
      ['md_change24h', '0.1', '-0.1'],
    ] as const) {
      expect(status(() => store.reader.listMarkets(parsed('markets.list', { [`${k}_min`]: lo, [`${k}_max`]: hi })))).toBe(400);
      expect(status(() => store.reader.countMarkets(parsed('markets.count', { [`${k}_min`]: lo, [`${k}_max`]: hi })))).toBe(400);
    }
    expect(status(() => store.reader.listEvents(parsed('events.list', { md_liquidity_min: '5', md_liquidity_max: '1' })))).toBe(400);
    expect(status(() => store.reader.listEvents(parsed('events.list', { md_end_after: '2027-01-01', md_end_before: '2026-01-01' })))).toBe(
      400,
    );
    // Even when another filter already matches nothing.
    expect(status(() => store.reader.listMarkets(parsed('markets.list', { tag: 'no-such', md_volume_min: '2', md_volume_max: '1' })))).toBe(
      400,
    );
    for (const raw of [{ md_chance_min: '1.5' }, { md_chance_max: '-0.1' }, { md_ends_within_hours: '0' }, { md_watchlist: 'yes' }]) {
      expect(parseParams(operations['markets.list'].params, raw).ok, JSON.stringify(raw)).toBe(false);
    }
  });
});

describe('screen plans', () => {
  /** The plan of the read of `table` ids or count `run` makes (EXPLAIN QUERY PLAN of that traced statement). */
  function plan(table: 'markets' | 'events', run: () => unknown): string {
    const seen: [string, unknown[]][] = [];
    store.statements.trace = (sql, bind) => seen.push([sql, bind]);
    try {
      run();
    } finally {
      store.statements.trace = undefined;
    }
    const [sql, bind] = seen.find(([sql]) => new RegExp(`^SELECT (\\w\\.id|count\\(\\*\\)) FROM ${table} `).test(sql)) ?? ['', []];
    return JSON.stringify(store.statements.db.exec(`EXPLAIN QUERY PLAN ${sql}`, bind as never));
  }

  it('tests every range in the screen index, never in the rows (the chance expression included)', () => {
    const raw = { md_chance_min: '0.1', md_chance_max: '0.9', md_volume_min: '1', md_spread_max: '0.5', md_change24h_min: '-1' };
    for (const extra of [{}, { active: 'true', closed: 'false', order: 'volume24hr' }, { md_tag: 'politics' }]) {
      const list = plan('markets', () => store.reader.listMarkets(parsed('markets.list', { ...raw, ...extra })));
      expect(list, JSON.stringify(extra)).toContain('USING COVERING INDEX markets_screen_ranges');
      const count = plan('markets', () => store.reader.countMarkets(parsed('markets.count', { ...raw, ...extra })));
      expect(count, JSON.stringify(extra)).toContain('USING COVERING INDEX markets_screen_ranges');
    }
    const events = plan('events', () => store.reader.listEvents(parsed('events.list', { md_volume_min: '1', md_ends_within_hours: '24' })));
    expect(events).toContain('USING COVERING INDEX events_screen_ranges');
  });

  it('with text, still reads the screen index; the search index is read once, then probed per candidate', () => {
    const raw = { md_chance_min: '0.1', md_volume_min: '1', md_ends_within_hours: '720', md_q: 'trump win', order: 'volume24hr' };
    const list = plan('markets', () => store.reader.listMarkets(parsed('markets.list', raw)));
    expect(list).toContain('USING INDEX markets_screen_ranges');
    expect(list).toContain('LIST SUBQUERY');
    expect(list).toContain('SCAN search_fts VIRTUAL TABLE');
    // Not one market_events lookup per matching event per candidate (the `+` in textTerm).
    expect(list).not.toContain('market_id=? AND event_id=?');
    const events = plan('events', () => store.reader.listEvents(parsed('events.list', { md_volume_min: '1', md_q: 'event' })));
    expect(events).toContain('USING COVERING INDEX events_screen_ranges');
    expect(events).toContain('SCAN search_fts VIRTUAL TABLE');
  });
});
