/**
 * A synthetic catalog for the screen filters (values full of ties, NULLs, missing keys and a
 * malformed price list) and the filters' definition written out in JS over it: the brute force
 * a screen's rows are checked against.
 */
import type { RawParams } from '../contract/params.ts';
import type { GammaEvent, GammaMarket, GammaTag } from '../contract/gamma.ts';

export const NOW = Date.parse('2026-06-01T00:00:00Z');
const HOUR = 3_600_000;

export function rng(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

export const TAGS: GammaTag[] = ['politics', 'sports', 'crypto', 'elections', 'nba', 'ai', 'weather', 'rare'].map((slug, i) => ({
  id: String(100 + i),
  slug,
  label: slug.toUpperCase(),
}));
const WORDS = ['Will', 'Trump', 'win', 'BTC', 'rain', '100%', 'a_b', 'Lakers', 'election', 'AI'];
const PRICES = [undefined, null, '["0.5", "0.5"]', '["0.05", "0.95"]', '["0.2", "0.8"]', '["0.95", "0.05"]', '[]', 'oops', '["1", "0"]'];
const SMALL = [undefined, -0.2, -0.05, 0, 0.01, 0.05, 0.3];
const SPREADS = [undefined, 0, 0.01, 0.02, 0.1, 0.5];
const MONEY = [undefined, 0, 5, 100, 100, 2500, 1e6];
const ENDS = [undefined, -48, -1, 1, 12, 24 * 7, 24 * 30, 24 * 400];

export interface Catalog {
  tags: GammaTag[];
  events: GammaEvent[];
  /** condition ids with open orders. */
  orderConditions: string[];
}

export function syntheticCatalog(seed = 7, events = 40): Catalog {
  const r = rng(seed);
  const pick = <T>(a: readonly T[]): T => a[Math.floor(r() * a.length)]!;
  const iso = (h: number | undefined) => (h === undefined ? undefined : new Date(NOW + h * HOUR).toISOString());
  const out: GammaEvent[] = [];
  let mid = 1;
  for (let e = 1; e <= events; e++) {
    const markets: GammaMarket[] = [];
    for (let k = Math.floor(r() * 6); k >= 0; k--) {
      const id = mid++;
      const m: GammaMarket = { id: String(id), conditionId: `0xC${id}`, question: `${pick(WORDS)} ${pick(WORDS)} ${id}?` };
      const set = (key: string, v: unknown) => {
        if (v !== undefined) m[key] = v;
      };
      set('outcomePrices', pick(PRICES));
      set('oneDayPriceChange', pick(SMALL));
      set('spread', pick(SPREADS));
      set('volumeNum', pick(MONEY));
      set('volume24hr', pick(MONEY));
      set('liquidityNum', pick(MONEY));
      set('endDate', iso(pick(ENDS)));
      m.active = true;
      m.closed = r() < 0.2;
      markets.push(m);
    }
    const tags = TAGS.filter(() => r() < 0.25);
    out.push({
      id: String(e),
      slug: `event-${e}`,
      title: `${pick(WORDS)} event ${e}`,
      active: true,
      closed: r() < 0.2,
      volume: pick(MONEY),
      volume24hr: pick(MONEY),
      liquidity: pick(MONEY),
      endDate: iso(pick(ENDS)),
      markets,
      tags,
    } as GammaEvent);
  }
  const conditions = out.flatMap((e) => e.markets ?? []).map((m) => m.conditionId!);
  return { tags: TAGS, events: out, orderConditions: conditions.filter(() => r() < 0.1) };
}

/** The raw value of a parameter as one string (the model reads single values) or a list. */
const one = (p: RawParams, k: string): string | undefined => (Array.isArray(p[k]) ? (p[k] as string[])[0] : (p[k] as string | undefined));
const many = (p: RawParams, k: string): string[] => (p[k] === undefined ? [] : Array.isArray(p[k]) ? (p[k] as string[]) : [p[k] as string]);
const n = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** SQLite's CAST(json_extract(prices, '$[0]') AS REAL) on valid JSON, NULL otherwise. */
function chance(prices: unknown): number | null {
  if (typeof prices !== 'string') return null;
  let a: unknown;
  try {
    a = JSON.parse(prices);
  } catch {
    return null;
  }
  if (!Array.isArray(a) || a[0] === undefined || a[0] === null) return null;
  const v = Number.parseFloat(String(a[0]));
  return Number.isFinite(v) ? v : 0;
}

function inRange(v: number | null, p: RawParams, key: string, missingAs: number | null): boolean {
  const min = one(p, `${key}_min`);
  const max = one(p, `${key}_max`);
  if (min === undefined && max === undefined) return true;
  const x = v ?? missingAs;
  return x !== null && (min === undefined || x >= Number(min)) && (max === undefined || x <= Number(max));
}

function endOk(end: unknown, p: RawParams): boolean {
  const after = one(p, 'md_end_after');
  const before = one(p, 'md_end_before');
  const within = one(p, 'md_ends_within_hours');
  if (after === undefined && before === undefined && within === undefined) return true;
  const t = typeof end === 'string' ? Date.parse(end) : Number.NaN;
  if (Number.isNaN(t)) return false;
  if (after !== undefined && t < Date.parse(after)) return false;
  if (before !== undefined && t > Date.parse(before)) return false;
  return within === undefined || (t >= NOW && t <= NOW + Number(within) * HOUR);
}

/** Has every md_tag and no md_not_tag (slugs, any case). */
function tagsOk(slugs: Set<string>, p: RawParams): boolean {
  return many(p, 'md_tag').every((s) => slugs.has(s.toLowerCase())) && !many(p, 'md_not_tag').some((s) => slugs.has(s.toLowerCase()));
}

/**
 * md_q: every word of the text starts a word of `text` (any case; words are runs of letters and
 * digits, the search index's reading of this ASCII catalog). Text without a word matches nothing.
 */
function textOk(text: unknown, p: RawParams): boolean {
  const q = one(p, 'md_q');
  if (q === undefined || q.trim() === '') return true;
  const words = (s: string) =>
    s
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter(Boolean);
  const have = typeof text === 'string' ? words(text) : [];
  const want = words(q);
  return want.length > 0 && want.every((w) => have.some((h) => h.startsWith(w)));
}

function flagOk(p: RawParams, key: string, has: boolean): boolean {
  const v = one(p, key);
  return v === undefined || (v === 'true') === has;
}

export interface Watched {
  markets: string[];
  events: string[];
}

/** The ids (ascending) of the markets the screen `p` selects, by definition. */
export function bruteMarkets(c: Catalog, p: RawParams, w: Watched): string[] {
  const seen = new Map<string, { m: GammaMarket; events: GammaEvent[] }>();
  for (const e of c.events)
    for (const m of e.markets ?? []) {
      const s = seen.get(m.id) ?? { m, events: [] };
      s.events.push(e);
      seen.set(m.id, s);
    }
  const orders = new Set(c.orderConditions.map((x) => x.toLowerCase()));
  return [...seen.values()]
    .filter(({ m, events }) => {
      const slugs = new Set(events.flatMap((e) => (e.tags ?? []).map((t) => t.slug!.toLowerCase())));
      const watched = w.markets.includes(m.id) || events.some((e) => w.events.includes(e.id));
      return (
        inRange(chance(m.outcomePrices), p, 'md_chance', null) &&
        inRange(n(m['oneDayPriceChange']), p, 'md_change24h', null) &&
        inRange(n(m['spread']), p, 'md_spread', null) &&
        inRange(n(m.volumeNum), p, 'md_volume', 0) &&
        inRange(n(m['volume24hr']), p, 'md_volume24h', 0) &&
        inRange(n(m.liquidityNum), p, 'md_liquidity', 0) &&
        endOk(m['endDate'], p) &&
        tagsOk(slugs, p) &&
        textOk(m.question, p) &&
        flagOk(p, 'md_watchlist', watched) &&
        flagOk(p, 'md_has_orders', orders.has(m.conditionId!.toLowerCase())) &&
        (one(p, 'closed') === undefined || String(m.closed) === one(p, 'closed'))
      );
    })
    .map(({ m }) => m.id)
    .sort((a, b) => Number(a) - Number(b));
}

/** The ids (ascending) of the events the screen `p` selects, by definition. */
export function bruteEvents(c: Catalog, p: RawParams, w: Watched): string[] {
  const orders = new Set(c.orderConditions.map((x) => x.toLowerCase()));
  return c.events
    .filter((e) => {
      const ms = e.markets ?? [];
      const watched = w.events.includes(e.id) || ms.some((m) => w.markets.includes(m.id));
      return (
        inRange(n(e['volume']), p, 'md_volume', 0) &&
        inRange(n(e['volume24hr']), p, 'md_volume24h', 0) &&
        inRange(n(e['liquidity']), p, 'md_liquidity', 0) &&
        endOk(e['endDate'], p) &&
        tagsOk(new Set((e.tags ?? []).map((t) => t.slug!.toLowerCase())), p) &&
        textOk(e.title, p) &&
        flagOk(p, 'md_watchlist', watched) &&
        flagOk(
          p,
          'md_has_orders',
          ms.some((m) => orders.has(m.conditionId!.toLowerCase())),
        ) &&
        (one(p, 'closed') === undefined || String(e.closed) === one(p, 'closed'))
      );
    })
    .map((e) => e.id)
    .sort((a, b) => Number(a) - Number(b));
}
