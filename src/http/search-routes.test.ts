/**
 * GET /public-search through real HTTP against the real fixtures: parameters, bounds and
 * error bodies, the answer's shape, paging, and matching checked against a brute-force model
 * (src/testing/search-model.ts) over the events as GET /events serves them. Ranking, index
 * upkeep and the hostile-input sweep are in src/store/search-index.test.ts.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Event, SearchResult } from '../contract/index.ts';
import { startService, type Service } from './server.ts';
import { DEAD_UPSTREAM, fixtureEvents, fixtureMarkets, fixtureTags, tempDir } from '../testing/fixtures.ts';
import { docOf, matches, terms, words, type Doc } from '../testing/search-model.ts';
import { dumpEvents } from '../testing/sync-harness.ts';

const WALLET = '0x91430CaD2d3975766499717fA0D66A78D814E5c5';
/** Every fixture market has WALLET as its creator; this event is another site's. */
const OTHER_WALLET = `0x${'ab'.repeat(20)}`;
const OTHER_SITE_EVENT = {
  id: '990001',
  ticker: 'other-site',
  slug: 'other-site',
  title: 'Will another site list this?',
  description: 'Not ours.',
  updatedAt: '2026-01-01T00:00:00Z',
  markets: [
    {
      id: '990002',
      question: 'Will another site list this?',
      slug: 'other-site-m',
      submitted_by: OTHER_WALLET,
      updatedAt: '2026-01-01T00:00:00Z',
    },
  ],
};

let s: Service;
let base: string;
let events: Event[];
let docs: Doc[];
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
  s.store.apply({ events: [OTHER_SITE_EVENT] });
  events = dumpEvents(s.store);
  docs = events.map(docOf);
});

afterAll(async () => {
  await s?.close();
  noWebUi.cleanup();
});

async function get(query: Record<string, string> | string): Promise<{ status: number; body: unknown }> {
  const qs = typeof query === 'string' ? query : new URLSearchParams(query).toString();
  const res = await fetch(`${base}/public-search${qs ? `?${qs}` : ''}`);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  return { status: res.status, body: await res.json() };
}

async function search(query: Record<string, string>): Promise<SearchResult> {
  const r = await get(query);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body as SearchResult;
}

/** Every page of a search, checking the pages fit together. */
async function walk(q: string, extra: Record<string, string> = {}, per = 7): Promise<string[]> {
  const ids: string[] = [];
  for (let page = 1; ; page++) {
    const r = await search({ q, limit_per_type: String(per), page: String(page), ...extra });
    expect(r.events.length).toBeLessThanOrEqual(per);
    ids.push(...r.events.map((e) => e.id));
    expect(r.pagination.hasMore).toBe(ids.length < r.pagination.totalResults);
    if (!r.pagination.hasMore) {
      expect(ids.length).toBe(r.pagination.totalResults);
      return ids;
    }
    expect(r.events.length).toBe(per);
  }
}

const expected = (q: string) =>
  docs
    .filter((d) => matches(d, terms(q)))
    .map((d) => d.id)
    .sort();
const sorted = (ids: string[]) => [...ids].sort();

describe('parameters and errors', () => {
  const bad = (error: string) => ({ status: 400, body: { type: 'bad request', error } });

  it('q is required: missing, empty or blank', async () => {
    for (const qs of ['', 'q=', 'q=%20%20%20', 'q=%09%0A', 'q=%E2%80%83', 'limit_per_type=5']) {
      expect(await get(qs)).toEqual(bad('q is required'));
    }
  });

  it('bounds and types name the parameter', async () => {
    const cases: [string, string][] = [
      ['limit_per_type=0', 'limit_per_type must be an integer between 1 and 500'],
      ['limit_per_type=501', 'limit_per_type must be an integer between 1 and 500'],
      ['limit_per_type=-1', 'limit_per_type must be an integer between 1 and 500'],
      ['limit_per_type=2.5', 'limit_per_type must be an integer between 1 and 500'],
      ['limit_per_type=1e2', 'limit_per_type must be an integer between 1 and 500'],
      ['limit_per_type=', 'limit_per_type must be an integer between 1 and 500'],
      ['page=0', 'page must be an integer >= 1'],
      ['page=-3', 'page must be an integer >= 1'],
      ['page=x', 'page must be an integer >= 1'],
      ['search_tags=yes', 'search_tags must be true or false'],
      ['search_profiles=2', 'search_profiles must be true or false'],
      [`q=${'a'.repeat(501)}`, 'q must be a string of at most 500 characters'],
      ['q=a&q=b', 'q must be given once'],
    ];
    for (const [qs, error] of cases) {
      expect(await get(qs.startsWith('q=') ? qs : `q=bitcoin&${qs}`), qs).toEqual(bad(error));
    }
  });

  it('accepts the bounds themselves, booleans as 1/0, and ignores unknown parameters', async () => {
    for (const qs of [
      'limit_per_type=1',
      'limit_per_type=500',
      'page=1',
      'search_tags=0',
      'search_profiles=1',
      'search_profiles=true',
      'events_status=active',
      'keep_closed_markets=0',
      'sort=volume',
      'optimized=true',
      `q2=${'x'.repeat(100)}`,
    ]) {
      expect((await get(`q=bitcoin&${qs}`)).status, qs).toBe(200);
    }
  });

  it('the defaults: 25 per type, page 1, tags on, no profiles', async () => {
    const r = await search({ q: 'will' });
    expect(Object.keys(r).sort()).toEqual(['events', 'pagination', 'tags']);
    expect(r.events).toHaveLength(25);
    expect(r.pagination).toEqual({ hasMore: true, totalResults: expected('will').length });
    expect(r.events.map((e) => e.id)).toEqual((await search({ q: 'will', page: '1', limit_per_type: '25' })).events.map((e) => e.id));
    expect((await search({ q: 'trump' })).tags.length).toBeGreaterThan(0);
    expect(await search({ q: 'trump', search_profiles: 'true' })).toEqual(await search({ q: 'trump' }));
  });
});

describe('the answer', () => {
  it('a nested market carries every field the same market has at /markets/{id}, but `events`', async () => {
    const r = await search({ q: 'will', limit_per_type: '500' });
    const nested = r.events.flatMap((e) => e.markets);
    expect(nested.length).toBeGreaterThan(0);
    for (const m of nested.slice(0, 200)) {
      const res = await fetch(`${base}/markets/${m.id}`);
      expect(res.status, m.id).toBe(200);
      const { events: _events, ...own } = (await res.json()) as Record<string, unknown>;
      expect(m, m.id).toEqual(own);
    }
    // Polymarket's Market schema requires it; the projection used to drop it.
    expect(nested.some((m) => typeof m['marketMakerAddress'] === 'string')).toBe(true);
  });

  it('always has events, tags and pagination, [] when empty', async () => {
    for (const q of ['zzzqqqxxx', '***', '"', '()', 'NEAR']) {
      expect(await search({ q }), q).toEqual({ events: [], tags: [], pagination: { hasMore: false, totalResults: 0 } });
    }
  });

  it('events are EventRefs carrying all their markets, closed ones too, with the spec 2.1 fields (not `events`) and prices', async () => {
    const r = await search({ q: 'will', limit_per_type: '500' });
    expect(r.events.length).toBe(r.pagination.totalResults);
    for (const e of r.events) {
      const served = events.find((x) => x.id === e.id)!;
      const ref: Record<string, unknown> = { id: served.id };
      for (const k of ['ticker', 'slug', 'title'] as const) if (served[k] !== undefined) ref[k] = served[k];
      // Each nested market is the market as /events nests it: whole, values and types kept.
      expect(e).toEqual({ ...ref, markets: served.markets });
      for (const m of e.markets) expect(m).not.toHaveProperty('events');
    }
    const withClosed = events.find((e) => e.closed !== true && e.markets.some((m) => m.closed === true));
    expect(withClosed).toBeDefined();
    const hit = (await search({ q: withClosed!.title!, limit_per_type: '500' })).events.find((e) => e.id === withClosed!.id);
    expect(hit?.markets.some((m) => m.closed === true)).toBe(true);
  });

  it('tags: id, label, slug and the number of cached events carrying the tag', async () => {
    const r = await search({ q: 'trump', limit_per_type: '500' });
    expect(r.tags.length).toBeGreaterThan(1);
    for (const t of r.tags) {
      expect(Object.keys(t).sort()).toEqual(['event_count', 'id', 'label', 'slug']);
      expect(t.event_count, t.label).toBe(events.filter((e) => e.tags.some((x) => x.id === t.id)).length);
      expect(words(`${t.label} ${t.slug}`).some((w) => w.startsWith('trump'))).toBe(true);
    }
    // Every tag whose label or slug has the word is found.
    const all = new Map(events.flatMap((e) => e.tags).map((t) => [t.id, t]));
    const want = [...all.values()].filter((t) => words(`${t.label} ${t.slug}`).some((w) => w.startsWith('trump'))).map((t) => t.id);
    expect(
      r.tags
        .map((t) => t.id)
        .filter((id) => all.has(id))
        .sort(),
    ).toEqual(want.sort());
  });

  it('tags are ranked: a label hit first, then the most used', async () => {
    const r = await search({ q: 'crypto', limit_per_type: '500' });
    const crypto = r.tags.find((t) => t.slug === 'crypto');
    expect(r.tags[0]).toEqual(crypto);
  });

  it('search_tags=false leaves tags out; limit_per_type bounds tags too; page pages tags', async () => {
    expect((await search({ q: 'trump', search_tags: 'false' })).tags).toEqual([]);
    const all = (await search({ q: 'e', limit_per_type: '500' })).tags;
    expect(all.length).toBeGreaterThan(6);
    const p1 = await search({ q: 'e', limit_per_type: '3' });
    const p2 = await search({ q: 'e', limit_per_type: '3', page: '2' });
    expect([...p1.tags, ...p2.tags]).toEqual(all.slice(0, 6));
  });

  it('creator: a wallet, a site, an unknown site or wallet', async () => {
    const wallet = WALLET.toLowerCase();
    const ofSite = new Set(
      events
        .filter(
          (e) =>
            String(e['creator'] ?? '').toLowerCase() === wallet ||
            e.markets.some((m) => String(m['creator'] || m['submitted_by'] || '').toLowerCase() === wallet),
        )
        .map((e) => e.id),
    );
    expect(ofSite.size).toBeGreaterThan(0);
    const want = expected('will').filter((id) => ofSite.has(id));
    expect(want.length).toBeGreaterThan(0);
    expect(want.length).toBeLessThan(expected('will').length);
    expect(sorted(await walk('will', { creator: WALLET }))).toEqual(want);
    expect(sorted(await walk('will', { creator: 'test-site' }))).toEqual(want);
    const empty = { events: [], tags: [], pagination: { hasMore: false, totalResults: 0 } };
    expect(await search({ q: 'will', creator: 'empty-site' })).toEqual(empty);
    expect(await search({ q: 'will', creator: 'no-such-site' })).toEqual(empty);
    expect((await search({ q: 'will', creator: `0x${'1'.repeat(40)}` })).events).toEqual([]);
    expect((await search({ q: 'will', creator: OTHER_WALLET.toUpperCase().replace('0X', '0x') })).events.map((e) => e.id)).toEqual([
      OTHER_SITE_EVENT.id,
    ]);
    // Tags count only the site's events.
    for (const t of (await search({ q: 'trump', creator: WALLET, limit_per_type: '500' })).tags) {
      expect(t.event_count).toBe(events.filter((e) => ofSite.has(e.id) && e.tags.some((x) => x.id === t.id)).length);
      expect(t.event_count).toBeGreaterThan(0);
    }
  });
});

describe('paging', () => {
  it('pages never overlap and together give exactly totalResults events', async () => {
    for (const [q, per] of [
      ['will', 7],
      ['e', 10],
      ['trump', 3],
      ['2025', 11],
    ] as const) {
      const ids = await walk(q, {}, per);
      expect(new Set(ids).size, q).toBe(ids.length);
      expect(sorted(ids), q).toEqual(expected(q));
    }
  });

  it('a page past the end is empty but keeps the total', async () => {
    const total = expected('trump').length;
    for (const page of ['100', '999999999999999']) {
      const r = await search({ q: 'trump', page, limit_per_type: '500' });
      expect(r.events).toEqual([]);
      expect(r.tags).toEqual([]);
      expect(r.pagination).toEqual({ hasMore: false, totalResults: total });
    }
  });

  it('the same query gives the same order every time', async () => {
    const a = await walk('will', {}, 9);
    expect(await walk('will', {}, 9)).toEqual(a);
    expect(await walk('will', {}, 25)).toEqual(a);
  });
});

describe('matching, against the fixtures', () => {
  it('the words of an event title find that event on page 1', async () => {
    const sample = events.filter((e) => typeof e.title === 'string' && words(e.title).length > 0);
    expect(sample.length).toBeGreaterThan(100);
    for (const e of sample) {
      const r = await search({ q: e.title! });
      expect(
        r.events.map((x) => x.id),
        e.title,
      ).toContain(e.id);
    }
  });

  it('single words from titles, two-word queries: exactly the events that have them', async () => {
    const vocab = [...new Set(docs.flatMap((d) => d.columns[0]!))].filter((w) => /^[a-z]{3,}$/.test(w)).sort();
    const pick = (i: number) => vocab[(i * 7919) % vocab.length]!;
    for (let i = 0; i < 40; i++) {
      const q = i % 2 ? pick(i) : `${pick(i)} ${pick(i + 1)}`;
      expect(sorted(await walk(q, {}, 50)), q).toEqual(expected(q));
    }
  });

  it('a word only in a nested market question finds its event', async () => {
    const other = new Set(docs.flatMap((d) => [...d.columns[0]!, ...d.columns[1]!, ...d.columns[3]!, ...d.columns[4]!]));
    const found: string[] = [];
    for (const d of docs) {
      const w = d.columns[2]!.find((x) => !other.has(x) && /^[a-z]{4,}$/.test(x));
      if (!w) continue;
      found.push(w);
      const ids = await walk(`${w} `, {}, 50);
      expect(ids, w).toContain(d.id);
      expect(sorted(ids), w).toEqual(expected(w));
    }
    expect(found.length).toBeGreaterThan(3);
  });

  it('case and accents do not matter', async () => {
    const want = await walk('bitcoin');
    expect(want.length).toBeGreaterThan(1);
    for (const q of ['Bitcóin', 'BITCOIN', 'BİTCOİN', 'bítcöín', 'Bitco\u0301in']) expect(await walk(q), q).toEqual(want);
  });

  it('the last word is a prefix; the others are whole words', async () => {
    expect(sorted(await walk('bitc'))).toEqual(expected('bitcoin'));
    expect(sorted(await walk('bitc'))).toEqual(expected('bitc'));
    expect(await walk('bitc price')).toEqual([]); // only the last word is a prefix
    expect(sorted(await walk('price bitc'))).toEqual(expected('price bitc'));
    const one = await walk('t', {}, 50);
    expect(sorted(one)).toEqual(expected('t'));
    expect(one.length).toBeGreaterThan(100);
  });

  it('quoted phrases match as phrases; an unclosed quote is a phrase being typed', async () => {
    // "will trump": adjacent in some events; both words, not adjacent, in others.
    const both = expected('will trump');
    const phrase = expected('"will trump"');
    expect(phrase.length).toBeGreaterThan(0);
    expect(phrase.length).toBeLessThan(both.length);
    expect(sorted(await walk('"will trump"'))).toEqual(phrase);
    expect(sorted(await walk('"Will Trump"'))).toEqual(phrase);
    expect(sorted(await walk('"will trum'))).toEqual(expected('"will trum'));
    expect(sorted(await walk('"will trum"'))).toEqual([]); // closed: no prefix
    expect(sorted(await walk('"will trump" deport'))).toEqual(expected('"will trump" deport'));
  });

  it('query syntax is plain text', async () => {
    expect(sorted(await walk('trump AND deport'))).toEqual(expected('trump and deport'));
    expect(sorted(await walk('trump OR deport'))).toEqual(expected('trump or deport'));
    expect(await walk('trump NOT deport')).toEqual(await walk('trump not deport'));
    expect(sorted(await walk('trump -deport'))).toEqual(expected('trump deport'));
    expect(sorted(await walk('(trump) deport*'))).toEqual(expected('trump deport'));
    expect(sorted(await walk('title:trump'))).toEqual(expected('title trump'));
    expect(sorted(await walk('trump NEAR/2 deport'))).toEqual(expected('trump near 2 deport'));
    expect(sorted(await walk('^trump'))).toEqual(expected('trump'));
  });
});

describe('hostile input over HTTP', () => {
  it('never answers 500 (300 random queries)', async () => {
    const piece = fc.oneof(
      fc.constantFrom(
        'NEAR',
        'NEAR/3',
        '*',
        '-',
        '"',
        'AND',
        'OR',
        'NOT',
        '(',
        ')',
        ':',
        '^',
        'title:',
        '{',
        '}',
        "'",
        '\\',
        '%',
        '\u0000',
        '\uFEFF',
        'é',
        '𝔘',
        '😀',
      ),
      fc.string({ unit: 'grapheme', maxLength: 12 }),
      fc.string({ unit: 'binary', maxLength: 8 }),
      fc.string({ unit: 'grapheme-ascii', minLength: 40, maxLength: 120 }),
    );
    const query = fc.array(piece, { maxLength: 10 }).map((p) => p.join(' '));
    await fc.assert(
      fc.asyncProperty(query, fc.integer({ min: 1, max: 3 }), async (q, page) => {
        const res = await fetch(`${base}/public-search?${new URLSearchParams({ q, page: String(page) })}`);
        const body = (await res.json()) as Record<string, unknown>;
        expect([200, 400]).toContain(res.status);
        if (res.status === 200) expect(Object.keys(body).sort()).toEqual(['events', 'pagination', 'tags']);
        else expect(body.type).toBe('bad request');
      }),
      { numRuns: 300, seed: 42 },
    );
  });
});

describe('the desk routes: /desk/search and /tags/ranked', () => {
  async function desk(path: string): Promise<{ status: number; body: Record<string, unknown> }> {
    const res = await fetch(`${base}${path}`);
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  it('bad input is a 400 naming it', async () => {
    for (const q of ['', '%20%20']) {
      const r = await desk(`/desk/search?q=${q}`);
      expect(r.status).toBe(400);
      expect(r.body['error']).toBe('q is required');
    }
    expect((await desk('/desk/search')).status).toBe(400);
    const big = await desk('/desk/search?q=a&limit_per_type=101');
    expect(big.status).toBe(400);
    expect(String(big.body['error'])).toContain('limit_per_type');
    const neg = await desk('/tags/ranked?min_open=-1');
    expect(neg.status).toBe(400);
    expect(String(neg.body['error'])).toContain('min_open');
  });

  it('/desk/search: the public answer plus matched_markets per event, and a typo corrected', async () => {
    const word = words(events[0]!.title ?? '').find((w) => w.length >= 6 && /^\p{L}+$/u.test(w))!;
    const plain = await desk(`/desk/search?q=${encodeURIComponent(word)}&limit_per_type=5`);
    const pub = await search({ q: word, limit_per_type: '5' });
    expect(plain.status).toBe(200);
    const got = plain.body as unknown as SearchResult & { events: { matched_markets: string[] }[] };
    expect(got.events.map((e) => e.id)).toEqual(pub.events.map((e) => e.id));
    for (const e of got.events) expect(Array.isArray(e.matched_markets)).toBe(true);
    expect(plain.body).not.toHaveProperty('corrected');
    // A letter dropped from the middle: unless that is itself a catalog word, the answer is corrected.
    const typo = word.slice(0, 3) + word.slice(4);
    if (!docs.some((d) => d.columns.some((c) => c.some((w) => w.startsWith(typo))))) {
      const r = await desk(`/desk/search?q=${encodeURIComponent(typo)}&limit_per_type=5`);
      expect(r.status).toBe(200);
      expect((r.body['corrected'] as { from: string }).from).toBe(typo);
      const off = await desk(`/desk/search?q=${encodeURIComponent(typo)}&correct=false`);
      expect(off.body).not.toHaveProperty('corrected');
    }
  });

  it('/tags/ranked is not /tags/{id}: tags by open markets, with the rule', async () => {
    const r = await desk('/tags/ranked');
    expect(r.status).toBe(200);
    expect(r.body['min_open']).toBe(3);
    const tags = r.body['tags'] as { id: string; open_markets: number }[];
    expect(tags.length).toBeGreaterThan(0);
    for (const t of tags) expect(t.open_markets).toBeGreaterThanOrEqual(3);
    expect(tags.map((t) => t.open_markets)).toEqual(tags.map((t) => t.open_markets).sort((a, b) => b - a));
  });
});
