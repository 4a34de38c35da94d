/**
 * The catalog routes through real HTTP: filters, sorting, paging, shapes and the by-id/by-slug
 * lookups of GET /markets, /events and /tags, checked against answers computed by brute force
 * over the fixture JSON (never by asking the store). Parameter validation, error bodies and
 * hostile input are in catalog-params.test.ts.
 */
import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_ORDER_FIELDS, MARKET_ORDER_FIELDS } from '../contract/operations.ts';
import { startService, type Service } from './server.ts';
import { DEAD_UPSTREAM, fixtureEvents, fixtureMarkets, fixtureTags, readFixture, tempDir } from '../testing/fixtures.ts';
import type { GammaEvent, GammaMarket, GammaTag } from '../contract/gamma.ts';

type Obj = Record<string, unknown>;
type Served = Obj & { id: string };
type Query = Record<string, string>;

// ---- fixtures -------------------------------------------------------------------------------

const TAGS = fixtureTags();
const EVENTS = fixtureEvents();
const MARKETS = fixtureMarkets();
const NAUTILUS_MARKETS = [
  'gamma_market.json',
  'gamma_market_closed_binary_accepting_false.json',
  'gamma_market_closed_binary_accepting_true.json',
  'gamma_market_closed_nonbinary_legacy.json',
  'gamma_market_closed_zero_zero_legacy.json',
  'gamma_market_sports_market_map_handicap.json',
  'gamma_market_sports_market_money_line.json',
].map((f) => readFixture<GammaMarket>(`nautilus_trader/${f}`));
const NAUTILUS_TAGS = readFixture<GammaTag[]>('nautilus_trader/gamma_tags.json');
const WALLET = '0x91430CaD2d3975766499717fA0D66A78D814E5c5';

// ---- brute-force model of the cache ---------------------------------------------------------

/** Timestamps as epoch ms, parsed here (not with the code under test's parser). */
function ts(v: unknown): number | null {
  if (typeof v !== 'string') return null;
  const m = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(Z|[+-]\d{2}(?::?\d{2})?)$/.exec(v);
  if (!m) throw new Error(`unexpected timestamp in a fixture: ${v}`);
  const [, y, mo, d, h, mi, s, frac, zone] = m;
  const ms = frac ? Number(frac.slice(0, 3).padEnd(3, '0')) : 0;
  let t = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), ms);
  if (zone && zone !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    t -= sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || '0')) * 60_000;
  }
  return t;
}

function num(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return null;
}

const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const lower = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v.toLowerCase() : null);
const byNumericId = (a: string, b: string) => Number(a) - Number(b);

/**
 * What the cache should hold after the batches below, following the writer's documented rules:
 * a market or event replaces the stored copy unless the stored one is at least as new
 * (`updatedAt`); an event from an event listing has its complete `markets`, a market from a
 * market listing its complete `events`; a market carries the tags of its events.
 */
class Model {
  markets = new Map<string, Obj>();
  events = new Map<string, Obj>();
  /** Every copy of each tag seen, in the order written. */
  tagCopies = new Map<string, Obj[]>();
  eventTags = new Map<string, string[]>();
  eventSeries = new Map<string, string[]>();
  /** market id -> event id -> position of the market inside the event. */
  links = new Map<string, Map<string, number>>();

  private put(map: Map<string, Obj>, o: Obj): void {
    const stored = map.get(String(o.id));
    const incoming = ts(o.updatedAt);
    if (stored && incoming !== null) {
      const t = ts(stored.updatedAt);
      if (t !== null && t >= incoming) return;
    }
    map.set(String(o.id), o);
  }

  private tag(t: Obj): void {
    const id = String(t.id);
    this.tagCopies.set(id, [...(this.tagCopies.get(id) ?? []), t]);
  }

  private event(e: GammaEvent, topLevel: boolean): void {
    const { markets, tags, series, ...rest } = e;
    this.put(this.events, rest);
    if (Array.isArray(tags)) {
      for (const t of tags) this.tag(t);
      this.eventTags.set(e.id, [...new Set(tags.map((t) => t.id))]);
    }
    if (Array.isArray(series))
      this.eventSeries.set(
        e.id,
        series.map((s) => String(s.slug).toLowerCase()),
      );
    if (topLevel && Array.isArray(markets)) {
      const keep = new Set<string>();
      markets.forEach((m, position) => {
        this.market(m, false);
        keep.add(m.id);
        this.linksOf(m.id).set(e.id, position);
      });
      for (const [mid, evs] of this.links) if (evs.has(e.id) && !keep.has(mid)) evs.delete(e.id);
    }
  }

  private market(m: GammaMarket, topLevel: boolean): void {
    const { events, ...rest } = m;
    this.put(this.markets, rest);
    if (topLevel && Array.isArray(events)) {
      for (const e of events) this.event(e, false);
      const ids = events.map((e) => e.id);
      const links = this.linksOf(m.id);
      const same = links.size === ids.length && ids.every((id) => links.has(id));
      if (!same) {
        for (const eid of [...links.keys()]) if (!ids.includes(eid)) links.delete(eid);
        for (const eid of ids) if (!links.has(eid)) links.set(eid, 1_000_000);
      }
    }
  }

  private linksOf(mid: string): Map<string, number> {
    let l = this.links.get(mid);
    if (!l) {
      l = new Map();
      this.links.set(mid, l);
    }
    return l;
  }

  apply(batch: { tags?: GammaTag[]; events?: GammaEvent[]; markets?: GammaMarket[] }): void {
    for (const t of batch.tags ?? []) this.tag(t);
    for (const e of batch.events ?? []) this.event(e, true);
    for (const m of batch.markets ?? []) this.market(m, true);
  }

  /** The ids of a market's events, in the order served (position, then id). */
  eventsOfMarket(mid: string): string[] {
    const l = this.links.get(mid) ?? new Map<string, number>();
    return [...l.entries()]
      .filter(([eid]) => this.events.has(eid))
      .sort((a, b) => a[1] - b[1] || byNumericId(a[0], b[0]))
      .map(([eid]) => eid);
  }

  marketsOfEvent(eid: string): string[] {
    const out: [string, number][] = [];
    for (const [mid, l] of this.links) {
      const p = l.get(eid);
      if (p !== undefined && this.markets.has(mid)) out.push([mid, p]);
    }
    return out.sort((a, b) => a[1] - b[1] || byNumericId(a[0], b[0])).map(([mid]) => mid);
  }

  tagsOfMarket(mid: string): Set<string> {
    return new Set(this.eventsOfMarket(mid).flatMap((eid) => this.eventTags.get(eid) ?? []));
  }

  creatorOfMarket(m: Obj): string | null {
    return lower(m.creator) ?? lower(m.submitted_by);
  }

  /** The newest copy of a tag (by `updatedAt`; a copy without one counts as oldest). */
  newestTag(id: string): Obj {
    const copies = this.tagCopies.get(id) ?? [];
    let best = copies[0]!;
    for (const c of copies) if ((ts(c.updatedAt) ?? -Infinity) > (ts(best.updatedAt) ?? -Infinity)) best = c;
    return best;
  }

  allMarkets(): Obj[] {
    return [...this.markets.values()];
  }

  allEvents(): Obj[] {
    return [...this.events.values()];
  }

  allTagIds(): string[] {
    return [...this.tagCopies.keys()].sort(byNumericId);
  }
}

const model = new Model();
model.apply({ tags: TAGS, events: EVENTS });
model.apply({ markets: MARKETS });
model.apply({ tags: NAUTILUS_TAGS, markets: NAUTILUS_MARKETS });

// ---- sorting, by brute force ------------------------------------------------------------------

type Key = number | string | null;
type KeyFn = (o: Obj) => Key;

/** A JSON-text list (Gamma's `outcomes`, `outcomePrices`), parsed here; anything else is empty. */
function jsonArr(v: unknown): unknown[] {
  if (Array.isArray(v)) return v;
  if (typeof v !== 'string') return [];
  try {
    const p: unknown = JSON.parse(v);
    return Array.isArray(p) ? p : [];
  } catch {
    return [];
  }
}
const prices = (m: Obj) => jsonArr(m.outcomePrices).map(num);
/** Polymarket's chance: the Yes outcome's price, else the highest-priced outcome's (the first on a tie). */
function chanceOf(m: Obj): number | null {
  const names = jsonArr(m.outcomes).map((n) => String(n).toLowerCase());
  const p = prices(m);
  const yes = names.indexOf('yes');
  if (yes >= 0 && p[yes] !== null && p[yes] !== undefined) return p[yes]!;
  let best: number | null = null;
  names.forEach((_, i) => {
    const x = p[i] ?? null;
    if (x !== null && (best === null || x > best)) best = x;
  });
  return best;
}
/** A numeric column's value: a number only (anything else is kept aside, not sorted by). */
const real = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
/**
 * An event's leader: its priced markets (any price), open first, then by first price and volume, both
 * descending, in the event's order on ties. One such market: its chance (Yes, else the highest price); more: the first's
 * first price. Its 24h change is that market's.
 */
function leaderOf(e: Obj): { chance: number | null; change: number | null } {
  const ranked = model
    .marketsOfEvent(String(e.id))
    .map((id) => model.markets.get(id)!)
    .filter((m) => prices(m).some((p) => p !== null))
    .sort(
      (a, b) =>
        Number(!!a.closed) - Number(!!b.closed) ||
        (prices(b)[0] ?? -1) - (prices(a)[0] ?? -1) ||
        (num(b.volumeNum) ?? num(b.volume) ?? 0) - (num(a.volumeNum) ?? num(a.volume) ?? 0),
    );
  const top = ranked[0];
  if (!top) return { chance: null, change: null };
  const change = real(top.oneDayPriceChange);
  // One market: the event reads as its market does (its chance: Yes, else the highest price).
  if (ranked.length === 1) return { chance: chanceOf(top), change };
  return { chance: prices(top)[0] ?? null, change };
}
const abs = (v: number | null) => (v === null ? null : Math.abs(v));

const MARKET_KEYS: Record<(typeof MARKET_ORDER_FIELDS)[number], KeyFn> = {
  id: (m) => Number(m.id),
  slug: (m) => text(m.slug),
  question: (m) => text(m.question),
  // Money that Gamma sends as strings sorts by its numeric value.
  volume: (m) => num(m.volume) ?? num(m.volumeNum),
  volumeNum: (m) => num(m.volumeNum) ?? num(m.volume),
  volume24hr: (m) => num(m.volume24hr),
  volume1wk: (m) => num(m.volume1wk),
  liquidity: (m) => num(m.liquidity) ?? num(m.liquidityNum),
  liquidityNum: (m) => num(m.liquidityNum) ?? num(m.liquidity),
  startDate: (m) => ts(m.startDate),
  endDate: (m) => ts(m.endDate),
  createdAt: (m) => ts(m.createdAt),
  updatedAt: (m) => ts(m.updatedAt),
  closedTime: (m) => ts(m.closedTime),
  chance: chanceOf,
  oneDayPriceChange: (m) => real(m.oneDayPriceChange),
  oneDayPriceChangeSize: (m) => abs(real(m.oneDayPriceChange)),
  spread: (m) => real(m.spread),
};

const EVENT_KEYS: Record<(typeof EVENT_ORDER_FIELDS)[number], KeyFn> = {
  id: (e) => Number(e.id),
  slug: (e) => lower(e.slug),
  title: (e) => text(e.title),
  volume: (e) => num(e.volume),
  volume24hr: (e) => num(e.volume24hr),
  volume1wk: (e) => num(e.volume1wk),
  liquidity: (e) => num(e.liquidity),
  startDate: (e) => ts(e.startDate),
  endDate: (e) => ts(e.endDate),
  createdAt: (e) => ts(e.createdAt),
  updatedAt: (e) => ts(e.updatedAt),
  closedTime: (e) => ts(e.closedTime),
  chance: (e) => leaderOf(e).chance,
  oneDayPriceChange: (e) => leaderOf(e).change,
  oneDayPriceChangeSize: (e) => abs(leaderOf(e).change),
};

/** Strings compare by code point (UTF-8 byte order), numbers numerically. */
function cmpKey(a: Exclude<Key, null>, b: Exclude<Key, null>): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return Buffer.compare(Buffer.from(String(a), 'utf8'), Buffer.from(String(b), 'utf8'));
}

/**
 * Expected order: by each key in turn, missing values last whichever the direction, then by
 * id. Ties break by id in the requested direction (as a trailing `id` column would).
 */
function expectedOrder(items: Obj[], keys: KeyFn[], ascending: boolean): string[] {
  const dir = ascending ? 1 : -1;
  return [...items]
    .sort((a, b) => {
      for (const k of keys) {
        const x = k(a);
        const y = k(b);
        if (x === null && y === null) continue;
        if (x === null) return 1;
        if (y === null) return -1;
        const c = cmpKey(x, y);
        if (c !== 0) return dir * c;
      }
      return dir * byNumericId(String(a.id), String(b.id));
    })
    .map((o) => String(o.id));
}

const idsAscending = (items: Obj[]) => items.map((o) => String(o.id)).sort(byNumericId);

// ---- HTTP helpers ---------------------------------------------------------------------------

let s: Service;
let base: string;
// The web UI is pointed at an empty directory so the answers do not depend on whether
// `npm run build` has produced out/renderer (see catalog-params.test.ts for the built case).
const noWebUi = tempDir();

beforeAll(async () => {
  s = await startService({
    urls: DEAD_UPSTREAM,
    offline: true,
    basePort: 0,
    clobPort: 0,
    webRoot: noWebUi.dir,
    sites: { 'test-site': [WALLET.toLowerCase()], 'empty-site': [] },
  });
  base = s.baseUrl!;
  s.store.apply({ tags: fixtureTags(), events: fixtureEvents() });
  s.store.apply({ markets: fixtureMarkets() });
  s.store.apply({ tags: NAUTILUS_TAGS, markets: NAUTILUS_MARKETS });
});

afterAll(async () => {
  await s?.close();
  noWebUi.cleanup();
});

function url(path: string, query: Query = {}): string {
  const qs = new URLSearchParams(query).toString();
  return `${base}${path}${qs ? `?${qs}` : ''}`;
}

async function getJson<T = unknown>(path: string, query: Query = {}): Promise<{ status: number; body: T; contentType: string }> {
  const res = await fetch(url(path, query));
  const raw = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    throw new Error(`${path}?${new URLSearchParams(query)}: not JSON (${res.status}): ${raw.slice(0, 200)}`);
  }
  return { status: res.status, body: body as T, contentType: res.headers.get('content-type') ?? '' };
}

async function ok<T = Served[]>(path: string, query: Query = {}): Promise<T> {
  const r = await getJson<T>(path, query);
  // The message is built only on failure: stringifying every page would dominate the run time.
  if (r.status !== 200) expect.fail(`${path}?${new URLSearchParams(query)} -> ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
  if (!r.contentType.startsWith('application/json')) expect.fail(`${path}: content-type ${r.contentType}`);
  return r.body;
}

/** Every item of a listing, walking pages of `limit` with `offset`. */
async function walk(path: string, query: Query = {}, limit = 100): Promise<Served[]> {
  const out: Served[] = [];
  for (let offset = 0; ; offset += limit) {
    if (offset > 100_000) throw new Error('paging does not end');
    const page = await ok(path, { ...query, limit: String(limit), offset: String(offset) });
    expect(Array.isArray(page)).toBe(true);
    expect(page.length).toBeLessThanOrEqual(limit);
    out.push(...page);
    if (page.length < limit) return out;
  }
}

const ids = (items: { id: string }[]) => items.map((i) => i.id);

/** Runs `fn` over `items`, `width` at a time. */
async function pmap<T, R>(items: readonly T[], width: number, fn: (t: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]!);
      }
    }),
  );
  return out;
}

// ---- shape checks ---------------------------------------------------------------------------

const MARKET_SPEC: Record<string, 'string' | 'boolean'> = {
  id: 'string',
  question: 'string',
  conditionId: 'string',
  slug: 'string',
  resolutionSource: 'string',
  endDate: 'string',
  startDate: 'string',
  image: 'string',
  icon: 'string',
  description: 'string',
  outcomes: 'string',
  clobTokenIds: 'string',
  active: 'boolean',
  closed: 'boolean',
  archived: 'boolean',
  createdAt: 'string',
  updatedAt: 'string',
  questionID: 'string',
};
const EVENT_SPEC: Record<string, 'string' | 'boolean'> = {
  id: 'string',
  ticker: 'string',
  slug: 'string',
  title: 'string',
  description: 'string',
  resolutionSource: 'string',
  startDate: 'string',
  endDate: 'string',
  image: 'string',
  icon: 'string',
  active: 'boolean',
  closed: 'boolean',
  archived: 'boolean',
  createdAt: 'string',
  updatedAt: 'string',
};

/**
 * The spec fields carry the cached copy's exact values and types; nothing served is made up.
 * (Plain comparisons first, `expect` only on a mismatch: thousands of objects go through here.)
 */
function checkFields(actual: Obj, stored: Obj, spec: Record<string, string>, skip: readonly string[], what: string): void {
  for (const [k, type] of Object.entries(spec)) {
    if (k in stored) {
      if (typeof actual[k] !== type) expect(typeof actual[k], `${what}.${k}`).toBe(type);
      if (!isDeepStrictEqual(actual[k], stored[k])) expect(actual[k], `${what}.${k}`).toEqual(stored[k]);
    } else if (k in actual) {
      expect(actual, `${what}: ${k} is absent upstream, so absent here`).not.toHaveProperty(k);
    }
  }
  for (const [k, v] of Object.entries(actual)) {
    if (skip.includes(k)) continue;
    if (!(k in stored)) expect(stored, `${what}: served key ${k} is not in the cached copy`).toHaveProperty(k);
    if (!isDeepStrictEqual(v, stored[k])) expect(v, `${what}.${k}`).toEqual(stored[k]);
  }
}

function eventRef(eid: string): Obj {
  const e = model.events.get(eid)!;
  const ref: Obj = { id: eid };
  for (const k of ['ticker', 'slug', 'title']) if (typeof e[k] === 'string') ref[k] = e[k];
  return ref;
}

function checkMarket(actual: Obj, what = `market ${String(actual.id)}`): void {
  const stored = model.markets.get(String(actual.id));
  expect(stored, `${what} is not in the cache model`).toBeDefined();
  checkFields(actual, stored!, MARKET_SPEC, ['events'], what);
  expect(Array.isArray(actual.events), `${what}.events is an array`).toBe(true);
  expect(actual.events, `${what}.events`).toEqual(model.eventsOfMarket(String(actual.id)).map(eventRef));
}

/** Tags inside events: the stable fields equal the event's own copy; the rest match some copy. */
function checkEventTags(actual: Obj, eid: string): void {
  expect(Array.isArray(actual.tags), `event ${eid}.tags is an array`).toBe(true);
  const tags = actual.tags as Obj[];
  expect(
    tags.map((t) => t.id),
    `event ${eid} tag ids in order`,
  ).toEqual(model.eventTags.get(eid) ?? []);
  for (const t of tags) {
    const copies = model.tagCopies.get(String(t.id))!;
    const own = copies[0]!;
    expect(typeof t.id).toBe('string');
    for (const k of ['label', 'slug', 'createdAt']) {
      if (k in own) expect(t[k], `tag ${String(t.id)}.${k}`).toEqual(own[k]);
    }
    if ('updatedAt' in t)
      expect(
        copies.map((c) => c.updatedAt),
        `tag ${String(t.id)}.updatedAt`,
      ).toContain(t.updatedAt);
    else
      expect(
        copies.some((c) => !('updatedAt' in c)),
        `tag ${String(t.id)} has no updatedAt`,
      ).toBe(true);
    if ('requiresTranslation' in t) expect(typeof t.requiresTranslation).toBe('boolean');
  }
}

function checkEvent(actual: Obj, what = `event ${String(actual.id)}`): void {
  const eid = String(actual.id);
  const stored = model.events.get(eid);
  expect(stored, `${what} is not in the cache model`).toBeDefined();
  checkFields(actual, stored!, EVENT_SPEC, ['tags', 'markets'], what);
  checkEventTags(actual, eid);
  expect(Array.isArray(actual.markets), `${what}.markets is an array`).toBe(true);
  const markets = actual.markets as Obj[];
  expect(
    markets.map((m) => m.id),
    `${what} market ids in order`,
  ).toEqual(model.marketsOfEvent(eid));
  for (const m of markets) {
    expect(m, `${what}: a nested market has no events`).not.toHaveProperty('events');
    checkFields(m, model.markets.get(String(m.id))!, MARKET_SPEC, [], `${what} > market ${String(m.id)}`);
  }
}

// ---- the tests ------------------------------------------------------------------------------

describe('the brute-force model itself', () => {
  it('covers every fixture item and parses every timestamp the sorts use', () => {
    expect(model.markets.size).toBeGreaterThan(MARKETS.length);
    expect(model.events.size).toBeGreaterThan(EVENTS.length);
    for (const m of model.allMarkets()) for (const k of ['startDate', 'endDate', 'createdAt', 'updatedAt', 'closedTime']) ts(m[k]);
    for (const e of model.allEvents()) for (const k of ['startDate', 'endDate', 'createdAt', 'updatedAt', 'closedTime']) ts(e[k]);
    // The fixtures exercise what the filters must handle.
    expect(model.allMarkets().some((m) => m.closed === true)).toBe(true);
    expect(model.allMarkets().some((m) => m.active === false)).toBe(true);
    expect(model.allMarkets().some((m) => m.archived === true)).toBe(true);
    expect(model.allMarkets().some((m) => model.tagsOfMarket(String(m.id)).size > 0)).toBe(true);
    expect([...model.eventSeries.values()].flat().length).toBeGreaterThan(0);
  });

  it('agrees with the service on the catalog counts', async () => {
    const status = await ok<{ counts: { markets: number; events: number; tags: number } }>('/status');
    expect(status.counts.markets).toBe(model.markets.size);
    expect(status.counts.events).toBe(model.events.size);
    expect(status.counts.tags).toBe(model.tagCopies.size);
  });
});

describe('GET /markets filters agree with brute force', () => {
  const all = () => model.allMarkets();

  it('no filter: every cached market, id ascending', async () => {
    expect(ids(await walk('/markets'))).toEqual(idsAscending(all()));
  });

  for (const flag of ['active', 'closed', 'archived'] as const) {
    for (const v of [true, false]) {
      it(`${flag}=${v}`, async () => {
        const got = await walk('/markets', { [flag]: String(v) });
        expect(ids(got)).toEqual(idsAscending(all().filter((m) => m[flag] === v)));
      });
    }
  }

  it('closed=true returns exactly the cached closed markets (nested ones inside open events too)', async () => {
    const got = await walk('/markets', { closed: 'true' });
    const closed = idsAscending(all().filter((m) => m.closed === true));
    expect(closed.length).toBeGreaterThanOrEqual(12);
    expect(ids(got)).toEqual(closed);
    for (const m of got) expect(m.closed).toBe(true);
  });

  it('flags combine (active=true&closed=false&archived=false)', async () => {
    const got = await walk('/markets', { active: 'true', closed: 'false', archived: 'false' });
    expect(ids(got)).toEqual(idsAscending(all().filter((m) => m.active === true && m.closed === false && m.archived === false)));
  });

  it('tag_id: a market matches when one of its events carries the tag (every known tag)', async () => {
    await pmap(model.allTagIds(), 8, async (tid) => {
      const got = await walk('/markets', { tag_id: tid });
      const want = idsAscending(all().filter((m) => model.tagsOfMarket(String(m.id)).has(tid)));
      expect(ids(got), `tag_id=${tid}`).toEqual(want);
    });
  });

  it('tag_slug and its alias tag give the same answer as tag_id; slugs are case-insensitive', async () => {
    // Every third tag that some event carries (tag_id above covers all of them).
    const used = [...new Set([...model.eventTags.values()].flat())].sort(byNumericId).filter((_, i) => i % 3 === 0);
    await pmap(used, 8, async (tid) => {
      const slug = String(model.tagCopies.get(tid)![0]!.slug);
      const want = idsAscending(all().filter((m) => model.tagsOfMarket(String(m.id)).has(tid)));
      expect(ids(await walk('/markets', { tag_slug: slug })), `tag_slug=${slug}`).toEqual(want);
      expect(ids(await walk('/markets', { tag: slug })), `tag=${slug}`).toEqual(want);
      expect(ids(await walk('/markets', { tag: slug.toUpperCase() })), `tag=${slug.toUpperCase()}`).toEqual(want);
      expect(ids(await walk('/markets', { tag: slug, tag_slug: slug })), 'tag and tag_slug agreeing').toEqual(want);
      expect(ids(await walk('/markets', { tag_id: tid, tag: slug })), 'tag_id and tag naming the same tag').toEqual(want);
    });
  });

  it('a tag slug nobody has, or tag_id and tag naming different tags, match nothing', async () => {
    expect(await ok('/markets', { tag: 'no-such-tag-slug' })).toEqual([]);
    expect(await ok('/markets', { tag_slug: 'no-such-tag-slug' })).toEqual([]);
    expect(await ok('/markets', { tag_id: '999999999' })).toEqual([]);
    expect(await ok('/markets', { tag_id: '2', tag: 'trump' })).toEqual([]);
  });

  it('event_id: the markets of that event (every cached event)', async () => {
    await pmap(model.allEvents(), 8, async (e) => {
      const eid = String(e.id);
      const want = idsAscending(all().filter((m) => model.eventsOfMarket(String(m.id)).includes(eid)));
      expect(want.length).toBeGreaterThan(0);
      expect(ids(await walk('/markets', { event_id: eid })), `event_id=${eid}`).toEqual(want);
    });
    expect(await ok('/markets', { event_id: '999999999' })).toEqual([]);
  });

  it('event_slug and its alias eventSlug (every cached event)', async () => {
    await pmap(model.allEvents(), 8, async (e) => {
      const slug = String(e.slug);
      const want = idsAscending(
        all().filter((m) => model.eventsOfMarket(String(m.id)).some((eid) => model.events.get(eid)!.slug === slug)),
      );
      expect(ids(await walk('/markets', { event_slug: slug })), `event_slug=${slug}`).toEqual(want);
      expect(ids(await walk('/markets', { eventSlug: slug })), `eventSlug=${slug}`).toEqual(want);
      expect(ids(await walk('/markets', { event_slug: slug, eventSlug: slug })), 'both, agreeing').toEqual(want);
    });
    expect(await ok('/markets', { event_slug: 'no-such-event' })).toEqual([]);
  });

  it('conditionId and its alias condition_id match case-insensitively', async () => {
    const sample = all().filter((_, i) => i % 25 === 0);
    await pmap(sample, 8, async (m) => {
      const cid = String(m.conditionId);
      const want = idsAscending(all().filter((x) => String(x.conditionId).toLowerCase() === cid.toLowerCase()));
      expect(want).toContain(String(m.id));
      for (const [k, v] of [
        ['conditionId', cid],
        ['condition_id', cid],
        ['conditionId', cid.toUpperCase()],
        ['condition_id', `0x${cid.slice(2).toUpperCase()}`],
      ] as const) {
        expect(ids(await ok('/markets', { [k]: v })), `${k}=${v}`).toEqual(want);
      }
    });
    expect(await ok('/markets', { conditionId: `0x${'0'.repeat(64)}` })).toEqual([]);
  });

  it('slug matches exactly', async () => {
    const sample = all().filter((_, i) => i % 20 === 0);
    await pmap(sample, 8, async (m) => {
      const slug = String(m.slug);
      expect(ids(await ok('/markets', { slug })), `slug=${slug}`).toEqual(idsAscending(all().filter((x) => x.slug === slug)));
      expect(await ok('/markets', { slug: `${slug}-x` })).toEqual([]);
      expect(await ok('/markets', { slug: slug.toUpperCase() }), 'slug is exact, not case-folded').toEqual([]);
    });
  });

  it('creator: a 0x wallet matches the markets it submitted, case-insensitively', async () => {
    const want = idsAscending(all().filter((m) => model.creatorOfMarket(m) === WALLET.toLowerCase()));
    expect(want.length).toBeGreaterThan(0);
    expect(want.length).toBeLessThan(model.markets.size); // the legacy markets have no creator
    expect(ids(await walk('/markets', { creator: WALLET }))).toEqual(want);
    expect(ids(await walk('/markets', { creator: WALLET.toLowerCase() }))).toEqual(want);
    expect(ids(await walk('/markets', { creator: `0x${WALLET.slice(2).toUpperCase()}` }))).toEqual(want);
  });

  it('creator: a configured site stands for its wallets; an unknown site or wallet matches nothing', async () => {
    const want = idsAscending(all().filter((m) => model.creatorOfMarket(m) === WALLET.toLowerCase()));
    expect(ids(await walk('/markets', { creator: 'test-site' }))).toEqual(want);
    expect(await ok('/markets', { creator: 'empty-site' })).toEqual([]);
    expect(await ok('/markets', { creator: 'no-such-site' })).toEqual([]);
    expect(await ok('/markets', { creator: `0x${'1'.repeat(40)}` })).toEqual([]);
  });

  it('filters combine with each other and with paging', async () => {
    const tid = '2'; // politics: a tag with many markets
    const want = idsAscending(all().filter((m) => model.tagsOfMarket(String(m.id)).has(tid) && m.closed === false && m.active === true));
    expect(want.length).toBeGreaterThan(10);
    expect(ids(await walk('/markets', { tag_id: tid, closed: 'false', active: 'true' }, 7))).toEqual(want);
  });
});

describe('GET /events filters agree with brute force', () => {
  const all = () => model.allEvents();

  it('no filter: every cached event, id ascending', async () => {
    expect(ids(await walk('/events'))).toEqual(idsAscending(all()));
  });

  for (const flag of ['active', 'closed', 'archived'] as const) {
    for (const v of [true, false]) {
      it(`${flag}=${v}`, async () => {
        const got = await walk('/events', { [flag]: String(v) });
        expect(ids(got)).toEqual(idsAscending(all().filter((e) => e[flag] === v)));
      });
    }
  }

  it('tag_id, tag_slug and tag (every known tag)', async () => {
    await pmap(model.allTagIds(), 8, async (tid) => {
      const want = idsAscending(all().filter((e) => (model.eventTags.get(String(e.id)) ?? []).includes(tid)));
      const slug = String(model.tagCopies.get(tid)![0]!.slug);
      expect(ids(await walk('/events', { tag_id: tid })), `tag_id=${tid}`).toEqual(want);
      expect(ids(await walk('/events', { tag_slug: slug })), `tag_slug=${slug}`).toEqual(want);
      expect(ids(await walk('/events', { tag: slug.toUpperCase() })), `tag=${slug.toUpperCase()}`).toEqual(want);
    });
    expect(await ok('/events', { tag: 'no-such-tag-slug' })).toEqual([]);
  });

  it('series_slug (every series in the fixtures)', async () => {
    const slugs = [...new Set([...model.eventSeries.values()].flat())];
    expect(slugs.length).toBeGreaterThan(5);
    for (const slug of slugs) {
      const want = idsAscending(all().filter((e) => (model.eventSeries.get(String(e.id)) ?? []).includes(slug)));
      expect(want.length).toBeGreaterThan(0);
      expect(ids(await walk('/events', { series_slug: slug })), `series_slug=${slug}`).toEqual(want);
    }
    expect(await ok('/events', { series_slug: 'no-such-series' })).toEqual([]);
  });

  it('slug (every cached event)', async () => {
    await pmap(all(), 8, async (e) => {
      const slug = String(e.slug);
      expect(ids(await ok('/events', { slug })), `slug=${slug}`).toEqual(idsAscending(all().filter((x) => x.slug === slug)));
    });
    expect(await ok('/events', { slug: 'no-such-event' })).toEqual([]);
  });

  it('creator: events whose markets a wallet created; a site; unknown site -> []', async () => {
    const want = idsAscending(
      all().filter(
        (e) =>
          lower(e.creator) === WALLET.toLowerCase() ||
          model.marketsOfEvent(String(e.id)).some((mid) => model.creatorOfMarket(model.markets.get(mid)!) === WALLET.toLowerCase()),
      ),
    );
    expect(want.length).toBeGreaterThan(0);
    expect(ids(await walk('/events', { creator: WALLET }))).toEqual(want);
    expect(ids(await walk('/events', { creator: WALLET.toUpperCase().replace('0X', '0x') }))).toEqual(want);
    expect(ids(await walk('/events', { creator: 'test-site' }))).toEqual(want);
    expect(await ok('/events', { creator: 'no-such-site' })).toEqual([]);
    expect(await ok('/events', { creator: `0x${'1'.repeat(40)}` })).toEqual([]);
  });
});

describe('sorting', () => {
  const cases = [
    ...MARKET_ORDER_FIELDS.map((f) => ({ path: '/markets', field: f as string, keys: [MARKET_KEYS[f]], items: () => model.allMarkets() })),
    ...EVENT_ORDER_FIELDS.map((f) => ({ path: '/events', field: f as string, keys: [EVENT_KEYS[f]], items: () => model.allEvents() })),
    { path: '/markets', field: 'volume24hr,id', keys: [MARKET_KEYS.volume24hr, MARKET_KEYS.id], items: () => model.allMarkets() },
    { path: '/markets', field: 'closedTime,volume', keys: [MARKET_KEYS.closedTime, MARKET_KEYS.volume], items: () => model.allMarkets() },
    { path: '/markets', field: 'endDate,question', keys: [MARKET_KEYS.endDate, MARKET_KEYS.question], items: () => model.allMarkets() },
    { path: '/markets', field: 'volume,volumeNum', keys: [MARKET_KEYS.volume], items: () => model.allMarkets() },
    {
      path: '/markets',
      field: ' volume24hr , liquidity ',
      keys: [MARKET_KEYS.volume24hr, MARKET_KEYS.liquidity],
      items: () => model.allMarkets(),
    },
    { path: '/events', field: 'volume24hr,id', keys: [EVENT_KEYS.volume24hr, EVENT_KEYS.id], items: () => model.allEvents() },
    { path: '/events', field: 'closedTime,title', keys: [EVENT_KEYS.closedTime, EVENT_KEYS.title], items: () => model.allEvents() },
  ];

  for (const c of cases) {
    for (const ascending of [true, false]) {
      it(`${c.path}?order=${c.field}&ascending=${ascending}: sorted, missing last, ties by id; pages agree`, async () => {
        const want = expectedOrder(c.items(), c.keys, ascending);
        const q = { order: c.field, ascending: String(ascending) };
        // Every page of 100, end to end.
        expect(ids(await walk(c.path, q))).toEqual(want);
        // Walking in pages of 7 gives the same sequence as the pages of 100 (boundaries elsewhere).
        const small: Served[] = [];
        for (let off = 0; off < 49; off += 7) small.push(...(await ok(c.path, { ...q, limit: '7', offset: String(off) })));
        expect(ids(small)).toEqual(want.slice(0, 49));
        // Pages that straddle the end of the values that are present.
        const present = c.items().filter((o) => c.keys[0]!(o) !== null).length;
        if (present > 0 && present < want.length) {
          for (const [off, lim] of [
            [present - 1, 1],
            [present - 2, 5],
            [present, 3],
            [present + 1, 4],
          ] as const) {
            if (off < 0) continue;
            const page = await ok(c.path, { ...q, offset: String(off), limit: String(lim) });
            expect(ids(page), `offset=${off}&limit=${lim}`).toEqual(want.slice(off, off + lim));
          }
        }
      });
    }
  }

  it('order without ascending sorts descending (ascending defaults to false)', async () => {
    expect(ids(await walk('/markets', { order: 'volume' }))).toEqual(expectedOrder(model.allMarkets(), [MARKET_KEYS.volume], false));
    expect(ids(await walk('/events', { order: 'volume' }))).toEqual(expectedOrder(model.allEvents(), [EVENT_KEYS.volume], false));
  });

  it('without order the default is id ascending, numerically, whatever ascending says', async () => {
    const wantM = idsAscending(model.allMarkets());
    // Numeric, not string, order: the fixtures mix 2-digit and 7-digit ids.
    expect(wantM[0]).toBe('12');
    expect(ids(await walk('/markets', { ascending: 'false' }))).toEqual(wantM);
    expect(ids(await walk('/markets', { ascending: 'true' }))).toEqual(wantM);
    expect(ids(await walk('/events', { ascending: 'false' }))).toEqual(idsAscending(model.allEvents()));
  });

  it('an empty order is the default order', async () => {
    expect(ids(await ok('/markets', { order: '', limit: '100' }))).toEqual(idsAscending(model.allMarkets()).slice(0, 100));
  });

  it('order=volume sorts the string `volume` by its numeric value', async () => {
    const page = await ok('/markets', { order: 'volume', ascending: 'false', limit: '100' });
    const values = page.map((m) => Number(m.volume));
    for (let i = 1; i < values.length; i++) expect(values[i - 1]!).toBeGreaterThanOrEqual(values[i]!);
    for (const m of page) expect(typeof m.volume).toBe('string');
  });
});

describe('shapes and types', () => {
  it('every market of markets_active_2026-02.json, by id, matches the fixture field by field', async () => {
    await pmap(MARKETS, 16, async (fx) => {
      const m = await ok<Served>(`/markets/${fx.id}`);
      checkMarket(m);
      // Straight from the fixture (this file's markets are the newest copies).
      for (const k of Object.keys(MARKET_SPEC)) {
        if (k in fx) expect(m[k], `${fx.id}.${k}`).toEqual(fx[k]);
        else expect(m).not.toHaveProperty(k);
      }
      expect(typeof m.outcomes).toBe('string');
      expect(typeof m.clobTokenIds).toBe('string');
      expect(m.events).toEqual(
        (fx.events ?? []).map((e) => {
          const ref: Obj = { id: e.id };
          for (const k of ['ticker', 'slug', 'title'] as const) if (e[k] !== undefined) ref[k] = model.events.get(e.id)![k];
          return ref;
        }),
      );
    });
  });

  it('the markets nested in events_active_2025-06.json and the nautilus markets, by id', async () => {
    const nested = EVENTS.flatMap((e) => e.markets ?? []);
    await pmap([...nested, ...NAUTILUS_MARKETS], 16, async (fx) => checkMarket(await ok<Served>(`/markets/${fx.id}`)));
  });

  it('a market whose upstream copy has no events serves events: []', async () => {
    const legacy = NAUTILUS_MARKETS.filter((m) => m.events === undefined);
    expect(legacy.length).toBeGreaterThan(0);
    for (const fx of legacy) expect((await ok<Served>(`/markets/${fx.id}`)).events).toEqual([]);
  });

  it('a key missing upstream stays missing (endDate, groupItemTitle, volume24hr)', async () => {
    for (const key of ['endDate', 'groupItemTitle', 'volume24hr']) {
      const fx = MARKETS.find((m) => !(key in m));
      expect(fx, key).toBeDefined();
      expect(await ok<Served>(`/markets/${fx!.id}`)).not.toHaveProperty(key);
    }
  });

  it('listed markets have the same shape as by id (every page of /markets)', async () => {
    for (const m of await walk('/markets')) checkMarket(m);
  });

  it('every event of events_active_2025-06.json, by id: spec fields, tags and markets', async () => {
    await pmap(EVENTS, 8, async (fx) => {
      const e = await ok<Served>(`/events/${fx.id}`);
      checkEvent(e);
      for (const t of e.tags as Obj[]) {
        for (const [k, v] of Object.entries(t)) {
          if (k === 'id' || k === 'label' || k === 'slug' || k === 'createdAt' || k === 'updatedAt')
            expect(typeof v, `tag.${k}`).toBe('string');
          if (k === 'requiresTranslation') expect(typeof v).toBe('boolean');
        }
      }
    });
  });

  it('events known only from markets (no tags upstream) serve tags: [] and their markets', async () => {
    const onlyNested = model.allEvents().filter((e) => !EVENTS.some((x) => x.id === e.id));
    expect(onlyNested.length).toBeGreaterThan(10);
    await pmap(onlyNested, 8, async (fx) => {
      const e = await ok<Served>(`/events/${String(fx.id)}`);
      checkEvent(e);
      expect(e.tags).toEqual([]);
    });
  });

  it('listed events have the same shape as by id (every page of /events)', async () => {
    for (const e of await walk('/events')) checkEvent(e);
  });

  it('an event that is newer in the markets file is served in its newer form (updatedAt wins)', async () => {
    const older = EVENTS.find((e) => MARKETS.some((m) => m.events?.some((x) => x.id === e.id)))!;
    expect(older).toBeDefined();
    const newer = MARKETS.flatMap((m) => m.events ?? []).find((x) => x.id === older.id)!;
    expect(ts(newer.updatedAt)!).toBeGreaterThan(ts(older.updatedAt)!);
    const e = await ok<Served>(`/events/${older.id}`);
    expect(e.updatedAt).toBe(newer.updatedAt);
  });

  it('empty listings are [] (not null, not missing)', async () => {
    for (const path of ['/markets', '/events']) {
      const r = await getJson(path, { slug: 'no-such-slug' });
      expect(r.status).toBe(200);
      expect(r.body).toEqual([]);
    }
  });
});

describe('by id and by slug', () => {
  it('/markets/slug/{slug} answers what /markets/{id} answers', async () => {
    await pmap(
      model.allMarkets().filter((_, i) => i % 10 === 0),
      8,
      async (m) => {
        const byId = await ok<Served>(`/markets/${String(m.id)}`);
        const bySlug = await ok<Served>(`/markets/slug/${encodeURIComponent(String(m.slug))}`);
        expect(bySlug).toEqual(byId);
      },
    );
  });

  it('/events/slug/{slug} answers what /events/{id} answers', async () => {
    await pmap(
      model.allEvents().filter((_, i) => i % 5 === 0),
      8,
      async (e) => {
        const byId = await ok<Served>(`/events/${String(e.id)}`);
        const bySlug = await ok<Served>(`/events/slug/${encodeURIComponent(String(e.slug))}`);
        expect(bySlug).toEqual(byId);
      },
    );
  });

  it('/tags/{id} and /tags/slug/{slug} (case-insensitive) for every cached tag', async () => {
    await pmap(model.allTagIds(), 16, async (tid) => {
      const t = await ok<Served>(`/tags/${tid}`);
      expect(t.id).toBe(tid);
      const slug = String(model.tagCopies.get(tid)![0]!.slug);
      expect(t.slug).toBe(slug);
      expect(await ok<Served>(`/tags/slug/${encodeURIComponent(slug)}`)).toEqual(t);
      expect(await ok<Served>(`/tags/slug/${encodeURIComponent(slug.toUpperCase())}`)).toEqual(t);
    });
  });

  it('/tags/{id} of a tag seen only in tags_default_page serves that copy exactly (spec fields)', async () => {
    const nestedIds = new Set(EVENTS.flatMap((e) => (e.tags ?? []).map((t) => t.id)));
    const only = TAGS.filter((t) => !nestedIds.has(t.id));
    expect(only.length).toBeGreaterThan(50);
    await pmap(only, 16, async (fx) => {
      const t = await ok<Served>(`/tags/${fx.id}`);
      for (const k of ['id', 'label', 'slug', 'createdAt', 'updatedAt', 'requiresTranslation']) {
        if (k in fx) expect(t[k], `${fx.id}.${k}`).toEqual(fx[k]);
        else expect(t).not.toHaveProperty(k);
      }
      for (const [k, v] of Object.entries(t)) expect(v, `${fx.id}.${k}`).toEqual(fx[k]);
    });
  });

  it('a tag keeps its newest copy: an older copy nested in an event does not overwrite it', async () => {
    const nestedIds = new Set(EVENTS.flatMap((e) => (e.tags ?? []).map((t) => t.id)));
    const both = TAGS.filter((t) => nestedIds.has(t.id));
    expect(both.length).toBeGreaterThan(0);
    for (const fx of both) {
      const newest = model.newestTag(fx.id);
      expect(newest).toBe(fx);
      const t = await ok<Served>(`/tags/${fx.id}`);
      for (const k of ['label', 'slug', 'createdAt', 'updatedAt', 'requiresTranslation']) {
        expect(t[k], `/tags/${fx.id} ${k}`).toEqual(fx[k]);
      }
    }
  });
});

describe('GET /tags', () => {
  it('default page: the first 100 tags by id', async () => {
    const page = await ok('/tags');
    expect(page.length).toBe(100);
    expect(ids(page)).toEqual(model.allTagIds().slice(0, 100));
  });

  it('limit 1000 gives every tag; limit/offset pages agree with it', async () => {
    const all = await ok('/tags', { limit: '1000' });
    expect(ids(all)).toEqual(model.allTagIds());
    const walked: Served[] = [];
    for (let off = 0; off < all.length; off += 37) walked.push(...(await ok('/tags', { limit: '37', offset: String(off) })));
    expect(ids(walked)).toEqual(ids(all));
    expect(await ok('/tags', { limit: '1', offset: String(all.length - 1) })).toEqual([all[all.length - 1]]);
    expect(await ok('/tags', { offset: String(all.length) })).toEqual([]);
    expect(await ok('/tags', { offset: '1000000000' })).toEqual([]);
  });
});
