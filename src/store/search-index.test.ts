/**
 * The search index and ranking below HTTP: relevance and tie-break order, the index kept in
 * step by sync (incremental and full, bulk load into an empty cache), removal and pruning,
 * persistence, migration of a v1 cache file, and 10,000 hostile queries through the
 * dispatcher. FTS4's own integrity check compares the index with the rows after every change.
 */
import { writeFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isApiError, operations, parseParams, type RawParams, type SearchResult } from '../contract/index.ts';
import { createSyntheticCatalog, DEFAULT_NOW, type FakeUpstream } from '../fake-upstream/index.ts';
import { startService, type Service } from '../http/server.ts';
import { DEAD_UPSTREAM, fixtureEvents, fixtureMarkets, fixtureTags, tempDir } from '../testing/fixtures.ts';
import { dropColumnsAfter } from '../testing/crash-harness.ts';
import { docOf, matches, terms, words } from '../testing/search-model.ts';
import { dumpEvents, startFake, syncAgainst } from '../testing/sync-harness.ts';
import type { GammaEvent } from '../contract/gamma.ts';
import { CACHE_FILE, CatalogStore } from './catalog-store.ts';
import { SCHEMA_VERSION } from './schema.ts';
import { sqlEngine } from './sqlite.ts';

const DAY = 86_400_000;
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

function params(raw: RawParams) {
  const p = parseParams(operations['search.query'].params, raw);
  if (!p.ok) throw new Error(p.message);
  return p.value;
}

/** Every matching event id, in rank order, page by page. */
function allIds(store: CatalogStore, q: string, raw: RawParams = {}): string[] {
  const out: string[] = [];
  for (let page = 1; ; page++) {
    const r: SearchResult = store.search.search(params({ q, limit_per_type: '200', page: String(page), ...raw }));
    out.push(...r.events.map((e) => e.id));
    if (!r.pagination.hasMore) {
      expect(out.length).toBe(r.pagination.totalResults);
      return out;
    }
  }
}

/** What the rows say should match: brute force over the events as the catalog serves them. */
function expectedIds(store: CatalogStore, q: string): string[] {
  return dumpEvents(store)
    .map(docOf)
    .filter((d) => matches(d, terms(q)))
    .map((d) => d.id)
    .sort();
}

async function memoryStore(): Promise<CatalogStore> {
  const store = await CatalogStore.open();
  cleanups.push(() => store.close());
  return store;
}

const ts = (day: number) => new Date(Date.UTC(2026, 0, day)).toISOString();

function event(id: number, title: string, extra: Partial<GammaEvent> = {}): GammaEvent {
  return { id: String(id), ticker: `ev-${id}`, slug: `ev-${id}`, title, description: 'Plain words.', updatedAt: ts(1), ...extra };
}

describe('ranking', () => {
  it('relevance first (a title hit beats description hits), then volume, nulls last, then id', async () => {
    const store = await memoryStore();
    const zebra = 'zebrafish';
    store.apply({
      events: [
        event(1, 'Alpha', {
          volume: 1e9,
          description: `${zebra} ${zebra} ${zebra} in the description`,
          markets: [{ id: '101', question: 'Alpha?', description: `${zebra} `.repeat(20), updatedAt: ts(1) }],
        }),
        event(2, `${zebra} derby`, { volume: 1 }),
        event(3, `${zebra} derby`, { volume: 50 }),
        event(4, `${zebra} derby`),
        event(5, `${zebra} derby`, { volume: 7 }),
        event(6, `${zebra} derby`, { volume: 7 }),
        event(7, 'Other', { volume: 1e8, markets: [{ id: '107', question: `A ${zebra} question?`, updatedAt: ts(1) }] }),
        event(8, 'Unrelated', { volume: 1e10 }),
      ],
    });
    expect(allIds(store, zebra)).toEqual(['3', '5', '6', '2', '4', '7', '1']);
    // Every word must match.
    store.apply({ events: [event(9, `${zebra} quokka`, { volume: 0 })] });
    expect(allIds(store, 'zebrafish quokka')).toEqual(['9']);
    expect(allIds(store, 'zebrafish derby')).toEqual(['3', '5', '6', '2', '4']);
  });

  it('a rarer word weighs more (idf), and the word statistics follow writes', async () => {
    const store = await memoryStore();
    // 1 has "walrus" in its title, 2 has "narwhal" there; each has the other word in its description.
    store.apply({
      events: [
        event(1, 'walrus cup', { description: 'narwhal', volume: 1 }),
        event(2, 'narwhal cup', { description: 'walrus', volume: 2 }),
        ...Array.from({ length: 6 }, (_, i) => event(10 + i, `narwhal round ${i}`)),
      ],
    });
    // "narwhal" is common, "walrus" rare: the title hit on the rare word ranks first.
    expect(allIds(store, 'walrus narwhal')).toEqual(['1', '2']);
    // Now "walrus" becomes the common one: the statistics kept for the first query must go.
    store.apply({ events: Array.from({ length: 20 }, (_, i) => event(30 + i, `walrus race ${i}`)) });
    expect(allIds(store, 'walrus narwhal')).toEqual(['2', '1']);
  });

  it('tags rank by relevance, then by how many events carry them, then id; tags no event carries are left out', async () => {
    const store = await memoryStore();
    const tag = (id: string, label: string) => ({ id, label, slug: label.toLowerCase().replace(/ /g, '-'), updatedAt: ts(1) });
    store.apply({
      tags: [tag('1', 'Weather Extra'), tag('2', 'Weather'), tag('3', 'Climate'), tag('4', 'Weather Extra Two')],
      events: [
        event(1, 'a', { tags: [tag('1', 'Weather Extra'), tag('2', 'Weather')] }),
        event(2, 'b', { tags: [tag('1', 'Weather Extra')] }),
        event(3, 'c', { tags: [tag('3', 'Climate')] }),
      ],
    });
    const r = store.search.search(params({ q: 'weather' }));
    expect(r.tags).toEqual([
      { id: '1', label: 'Weather Extra', slug: 'weather-extra', event_count: 2 },
      { id: '2', label: 'Weather', slug: 'weather', event_count: 1 },
    ]);
    expect(store.search.search(params({ q: 'weather', search_tags: 'false' })).tags).toEqual([]);
    expect(store.search.search(params({ q: 'clim' })).tags.map((t) => t.id)).toEqual(['3']);
  });
});

describe('the index follows the rows', () => {
  it('after writes, renames, removal and pruning (fixtures)', async () => {
    const store = await memoryStore();
    store.apply({ tags: fixtureTags(), events: fixtureEvents() });
    store.apply({ markets: fixtureMarkets() });
    store.search.verify();
    const victim = dumpEvents(store, { closed: 'false' })[3]!;
    expect(allIds(store, victim.title!)).toContain(victim.id);

    // A newer copy with a new title and a new market question.
    store.apply({
      events: [
        {
          ...victim,
          title: 'Capybara referendum',
          updatedAt: ts(400),
          tags: undefined,
          markets: victim.markets.map((m, i) => ({ ...m, question: i === 0 ? 'Wombat question?' : m.question, updatedAt: ts(400) })),
        } as GammaEvent,
      ],
    });
    store.search.verify();
    expect(allIds(store, 'capybara')).toEqual([victim.id]);
    expect(allIds(store, 'wombat')).toEqual([victim.id]);
    const oldWord = words(victim.title!).find((w) => expectedIds(store, w).length === 0);
    if (oldWord) expect(allIds(store, oldWord)).toEqual([]);

    // A tag renamed.
    store.apply({ tags: [{ id: '21', label: 'Cryptids', slug: 'cryptids', updatedAt: ts(400) }] });
    expect(store.search.search(params({ q: 'cryptids' })).tags.map((t) => t.id)).toEqual(['21']);
    store.search.verify();

    // Removing a market changes its event's document; removing the event drops it.
    const multi = dumpEvents(store).find((e) => e.markets.length > 2)!;
    const question = multi.markets[1]!.question!;
    store.remove('markets', [Number(multi.markets[1]!.id)]);
    store.search.verify();
    expect(allIds(store, question).sort()).toEqual(expectedIds(store, question));
    store.remove('events', [Number(victim.id)]);
    store.search.verify();
    expect(allIds(store, 'capybara')).toEqual([]);

    // Pruning closed events drops them from search too.
    store.apply({
      events: [
        event(777, 'Dodo extinction', {
          closed: true,
          closedTime: ts(1),
          markets: [{ id: '7771', question: 'Dodo back?', closed: true, closedTime: ts(1), updatedAt: ts(1) }],
        }),
      ],
    });
    expect(allIds(store, 'dodo')).toEqual(['777']);
    store.prune(Date.UTC(2100, 0, 1));
    store.search.verify();
    expect(allIds(store, 'dodo')).toEqual([]);
    for (const q of ['will', 'trump', 'e']) expect(allIds(store, q).sort(), q).toEqual(expectedIds(store, q));
  });

  it('volume-only updates leave the documents alone; search_order follows the volume', async () => {
    const store = await memoryStore();
    store.apply({ events: [event(1, 'Okapi one', { volume: 5 }), event(2, 'Okapi two', { volume: 9 })] });
    expect(allIds(store, 'okapi')).toEqual(['2', '1']);
    store.apply({ events: [event(1, 'Okapi one', { volume: 50, updatedAt: ts(2) })] });
    store.search.verify();
    expect(allIds(store, 'okapi')).toEqual(['1', '2']);
  });

  it('through sync: full sync into an empty cache (bulk load), incremental changes, removal', async () => {
    const catalog = createSyntheticCatalog({ markets: 1500, seed: 13 });
    const fake: FakeUpstream = await startFake(catalog);
    cleanups.push(() => fake.close());
    const h = await syncAgainst(fake, { sync: { now: () => DEFAULT_NOW, horizonMs: 7 * DAY } });
    cleanups.push(() => h.close());
    await h.sync.syncNow('full');
    h.store.search.verify();
    const events = dumpEvents(h.store);
    const vocab = [...new Set(events.flatMap((e) => words(e.title ?? '')))].filter((w) => w.length > 3).sort();
    for (let i = 0; i < 12; i++) {
      const w = (k: number) => vocab[(i * k) % vocab.length]!;
      const q = i % 3 === 2 ? w(31).slice(0, 2) : i % 3 === 1 ? `${w(17)} ${w(29)}` : w(13);
      expect(allIds(h.store, q).sort(), q).toEqual(expectedIds(h.store, q));
    }

    const open = dumpEvents(h.store, { closed: 'false' });
    const renamed = open[4]!;
    const withMarkets = open.find((e) => e.id !== renamed.id && e.markets.length > 1 && e.markets.every((m) => m.closed !== true))!;
    const closing = withMarkets.markets[0]!;
    const gone = open.find((e) => e.id !== renamed.id && e.id !== withMarkets.id)!;
    const grows = open.find((e) => ![renamed.id, withMarkets.id, gone.id].includes(e.id))!;
    catalog.updateEvent(renamed.id, { title: 'Narwhal jamboree tomorrow?' });
    catalog.updateMarket(closing.id, {
      closed: true,
      active: false,
      closedTime: '2026-10-31 23:00:00+00',
      question: 'Axolotl closing market?',
    });
    catalog.addMarket(
      {
        id: '88888888',
        question: 'Pangolin newcomer market?',
        slug: 'pangolin',
        conditionId: `0x${'cd'.repeat(32)}`,
        active: true,
        closed: false,
      },
      { eventId: renamed.id },
    );
    // Only the new link changes this event's document (its own row is rewritten unchanged).
    catalog.addMarket(
      { id: '88888889', question: 'Tapir addition?', slug: 'tapir', conditionId: `0x${'ef'.repeat(32)}`, active: true, closed: false },
      { eventId: grows.id },
    );
    await h.sync.syncNow('incremental');
    expect(h.sync.status().lastError).toBeNull();
    h.store.search.verify();
    expect(allIds(h.store, 'narwhal jamboree')).toEqual([renamed.id]);
    expect(allIds(h.store, 'pangolin')).toEqual([renamed.id]);
    expect(allIds(h.store, 'tapir')).toEqual([grows.id]);
    expect(allIds(h.store, renamed.title!).sort()).toEqual(expectedIds(h.store, renamed.title!));
    const hit = h.store.search.search(params({ q: 'axolotl' })).events;
    expect(hit.map((e) => e.id)).toEqual([withMarkets.id]);
    expect(hit[0]!.markets.find((m) => m.id === closing.id)?.closed).toBe(true);

    // The upstream drops an event: the next full sync (into a populated cache, so no bulk
    // load) removes it, and search with it.
    catalog.removeEvent(gone.id);
    expect(allIds(h.store, gone.title!)).toContain(gone.id);
    await h.sync.syncNow('full');
    h.store.search.verify();
    expect(allIds(h.store, gone.title!)).not.toContain(gone.id);
    expect(allIds(h.store, 'narwhal')).toEqual([renamed.id]);
  });

  it('a bulk load that fails half way still leaves a complete, maintained index', async () => {
    const store = await memoryStore();
    await expect(
      store.bulkLoad(async () => {
        store.apply({ events: [event(1, 'Ibex first'), event(2, 'Ibex second')] });
        throw new Error('network gone');
      }),
    ).rejects.toThrow('network gone');
    store.search.verify();
    expect(allIds(store, 'ibex').sort()).toEqual(['1', '2']);
    store.apply({ events: [event(2, 'Markhor second', { updatedAt: ts(3) })] });
    store.search.verify();
    expect(allIds(store, 'ibex')).toEqual(['1']);
  });
});

describe('persistence', () => {
  const dir = tempDir();
  afterAll(() => dir.cleanup());

  it('the index is saved with the cache and works after reopening', async () => {
    const d = path.join(dir.dir, 'saved');
    const a = await CatalogStore.open({ dataDir: d });
    a.apply({ tags: fixtureTags(), events: fixtureEvents() });
    const before = allIds(a, 'trump');
    // Writing the file (sql.js export) keeps the connection's tokenizer and rank function.
    await a.persist();
    expect(allIds(a, 'trump')).toEqual(before);
    await a.close();
    const b = await CatalogStore.open({ dataDir: d });
    cleanups.push(() => b.close());
    expect(allIds(b, 'trump')).toEqual(before);
    b.search.verify();
  });

  it('a v1 cache file (no index) migrates and gets its index built from the rows', async () => {
    const d = path.join(dir.dir, 'v1');
    const a = await CatalogStore.open({ dataDir: d });
    a.apply({ tags: fixtureTags(), events: fixtureEvents() });
    a.apply({ markets: fixtureMarkets() });
    const want = allIds(a, 'will');
    const wantTags = a.search.search(params({ q: 'trump' })).tags;
    await a.close();
    // Make it the v1 file an older build wrote: the v1 tables with the same rows, nothing newer.
    const file = path.join(d, CACHE_FILE);
    const SQL = await sqlEngine();
    const db = new SQL.Database(readFileSync(file));
    const v1 = ['markets', 'events', 'market_events', 'tags', 'event_tags', 'market_tags', 'series', 'event_series', 'meta'];
    const newer = (type: string) =>
      db
        .exec(`SELECT name FROM sqlite_master WHERE type = '${type}' AND tbl_name NOT IN (${v1.map((t) => `'${t}'`).join(', ')})`)[0]
        ?.values.map((r) => String(r[0])) ?? [];
    // v1 had no triggers at all.
    for (const name of db.exec(`SELECT name FROM sqlite_master WHERE type = 'trigger'`)[0]?.values.map((r) => String(r[0])) ?? [])
      db.exec(`DROP TRIGGER "${name}"`);
    for (const name of newer('view')) db.exec(`DROP VIEW "${name}"`);
    // Virtual tables first: they drop their own shadow tables.
    for (const name of db
      .exec(`SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%'`)[0]
      ?.values.map((r) => String(r[0])) ?? [])
      db.exec(`DROP TABLE "${name}"`);
    for (const name of newer('table')) db.exec(`DROP TABLE IF EXISTS "${name}"`);
    dropColumnsAfter(db, 1, v1);
    db.exec('PRAGMA user_version = 1');
    expect(db.exec(`SELECT count(*) FROM sqlite_master WHERE name LIKE 'search%' OR name LIKE 'tag_fts%'`)[0]!.values[0]![0]).toBe(0);
    writeFileSync(file, db.export());
    db.close();

    const b = await CatalogStore.open({ dataDir: d, persistDelayMs: 0 });
    cleanups.push(() => b.close());
    b.search.verify();
    expect(allIds(b, 'will')).toEqual(want);
    expect(b.search.search(params({ q: 'trump' })).tags).toEqual(wantTags);
    // The migrated file is written back (so the next start does not migrate again).
    await b.persist();
    const after = new SQL.Database(readFileSync(file));
    expect(after.exec('PRAGMA user_version')[0]!.values[0]![0]).toBe(SCHEMA_VERSION);
    after.close();
  });
});

describe('hostile input', () => {
  let s: Service;
  beforeAll(async () => {
    s = await startService({ urls: DEAD_UPSTREAM, offline: true, http: false });
    s.store.apply({ tags: fixtureTags(), events: fixtureEvents() });
    s.store.apply({ markets: fixtureMarkets() });
  });
  afterAll(() => s?.close());

  it('10,000 random queries: an answer or a 400, never a 500', async () => {
    const syntax = fc.constantFrom(
      'NEAR',
      'NEAR/0',
      'NEAR/99999999999',
      '*',
      '**',
      '-',
      '"',
      '""',
      'AND',
      'OR',
      'NOT',
      '(',
      ')',
      '()',
      ':',
      '^',
      'title:',
      'docid',
      'search_fts',
      '{',
      '}',
      "'",
      '\\',
      '%',
      '_',
      '\u0000',
      '\uFFFF',
      '\uD800',
      '\u0301',
      'İ',
      'ß',
      '\u200B',
      '\t',
      '\n',
    );
    const piece = fc.oneof(
      syntax,
      fc.string({ unit: 'grapheme', maxLength: 10 }),
      fc.string({ unit: 'binary', maxLength: 10 }),
      fc.string({ unit: 'grapheme-ascii', minLength: 100, maxLength: 480 }),
      fc.constantFrom('bitcoin', 'trump', 'will', 'e', 'b'),
    );
    const q = fc.oneof(
      fc.array(piece, { maxLength: 12 }).map((p) => p.join(' ')),
      fc.array(piece, { maxLength: 40 }).map((p) => p.join('')),
      fc.string({ unit: 'binary', maxLength: 600 }),
    );
    const raw = fc.record({
      q,
      limit_per_type: fc.constantFrom('1', '7', '500'),
      page: fc.constantFrom('1', '2', '50'),
      search_tags: fc.constantFrom('true', 'false'),
    });
    await fc.assert(
      fc.asyncProperty(raw, async (r) => {
        try {
          const res = await s.dispatch('search.query', r);
          expect(Object.keys(res).sort()).toEqual(['events', 'pagination', 'tags']);
          expect(res.events.length).toBeLessThanOrEqual(Number(r.limit_per_type));
        } catch (e) {
          if (!isApiError(e)) throw e;
          expect(e.status).toBe(400);
        }
      }),
      { numRuns: 10_000, seed: 7 },
    );
  });
});
