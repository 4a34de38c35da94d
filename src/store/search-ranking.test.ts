/**
 * Issue 13 item 10, over the fixture catalog: for a short prefix query ("b") the events whose
 * best-matching column is equally good come larger (by volume) first, and tags no cached event
 * carries are not listed. The expected order is computed from the events as /events serves
 * them (testing/search-model.ts), by the documented rule: the best column a word starting with
 * the prefix is in (title, then market questions, then ticker/slug, then description, then
 * market descriptions), then volume descending (missing last), then id.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations, parseParams, type RawParams, type SearchResult, type SearchTag } from '../contract/index.ts';
import { fixtureEvents, fixtureMarkets, fixtureTags } from '../testing/fixtures.ts';
import { docOf, words } from '../testing/search-model.ts';
import { dumpEvents } from '../testing/sync-harness.ts';
import { CatalogStore } from './catalog-store.ts';

let store: CatalogStore;

beforeAll(async () => {
  store = await CatalogStore.open();
  store.apply({ tags: fixtureTags(), events: fixtureEvents() });
  store.apply({ markets: fixtureMarkets() });
});
afterAll(() => store.close());

function search(raw: RawParams): SearchResult {
  const p = parseParams(operations['search.query'].params, raw);
  if (!p.ok) throw new Error(p.message);
  return store.search.search(p.value);
}

function allEvents(q: string): string[] {
  const out: string[] = [];
  for (let page = 1; ; page++) {
    const r = search({ q, limit_per_type: '200', page: String(page), search_tags: 'false' });
    out.push(...r.events.map((e) => e.id));
    if (!r.pagination.hasMore) return out;
  }
}

/** docOf's columns are title, keys, questions, description, details; better first here. */
const COLUMN_PREFERENCE = [0, 2, 1, 3, 4];

function expectedEvents(prefix: string): { id: string; best: number; volume: number | null }[] {
  return dumpEvents(store)
    .map(docOf)
    .map((d) => ({
      id: d.id,
      volume: d.volume,
      best: COLUMN_PREFERENCE.findIndex((c) => d.columns[c]!.some((w) => w.startsWith(prefix))),
    }))
    .filter((d) => d.best >= 0)
    .sort(
      (a, b) =>
        a.best - b.best ||
        Number(a.volume === null) - Number(b.volume === null) ||
        (b.volume ?? 0) - (a.volume ?? 0) ||
        Number(a.id) - Number(b.id),
    );
}

describe('short prefix queries', () => {
  it.each(['b', 'c', 'tr'])('%s: equally good matches come larger first', (q) => {
    const expected = expectedEvents(q);
    // Enough of each class that the order is a real test: several title matches of different sizes.
    const titled = expected.filter((e) => e.best === 0);
    expect(titled.length).toBeGreaterThan(3);
    expect(new Set(titled.map((e) => e.volume)).size).toBeGreaterThan(3);
    expect(allEvents(q)).toEqual(expected.map((e) => e.id));
  });

  it.each(['b', 'c', 'tr', 'w'])('%s in pages of 5: the title tier read directly equals ranking every match, totals too', (q) => {
    const pages = (tiered: boolean) => {
      store.search.tiered = tiered;
      const out: { ids: string[]; total: number; more: boolean }[] = [];
      for (let page = 1; ; page++) {
        const r = search({ q, limit_per_type: '5', page: String(page), search_tags: 'false' });
        out.push({ ids: r.events.map((e) => e.id), total: r.pagination.totalResults, more: r.pagination.hasMore });
        if (!r.pagination.hasMore) return out;
      }
    };
    let direct = 0;
    store.statements.trace = (_sql, bind) => {
      if (bind[0] === `title:${q}*`) direct++;
    };
    try {
      const tiered = pages(true);
      const ranked = pages(false);
      expect(tiered).toEqual(ranked);
      expect(tiered.flatMap((p) => p.ids)).toEqual(expectedEvents(q).map((e) => e.id));
      // The pages inside the title tier were read directly; past it, at most one page tried (its end is then known).
      const titled = expectedEvents(q).filter((e) => e.best === 0).length;
      expect(direct).toBeGreaterThanOrEqual(Math.floor(titled / 5));
      expect(direct).toBeLessThanOrEqual(Math.floor(titled / 5) + 1);
    } finally {
      store.search.tiered = true;
      store.statements.trace = undefined;
    }
  });

  it('the first page of "b" starts with the largest event that has a b-word in its title', () => {
    const first = search({ q: 'b', limit_per_type: '5' }).events[0]!;
    const events = dumpEvents(store).filter((e) => words(e.title ?? '').some((w) => w.startsWith('b')));
    const largest = events.reduce((a, e) => ((e.volume ?? -1) > (a.volume ?? -1) ? e : a));
    expect(first.id).toBe(largest.id);
  });
});

describe('tags in search', () => {
  const eventsPerTag = () => {
    const n = new Map<string, number>();
    for (const e of dumpEvents(store)) for (const t of e.tags) n.set(t.id, (n.get(t.id) ?? 0) + 1);
    return n;
  };

  it.each(['b', 'p', 'c'])('%s: lists no tag without events, and counts are the catalog’s', (q) => {
    const counts = eventsPerTag();
    const unused = fixtureTags().filter(
      (t) => !counts.has(t.id) && [...words(t.label ?? ''), ...words(t.slug ?? '')].some((w) => w.startsWith(q)),
    );
    // The fixtures hold tags the query matches that no event carries: the filter is tested.
    expect(unused.length).toBeGreaterThan(0);
    const tags: SearchTag[] = search({ q, limit_per_type: '500' }).tags;
    expect(tags.length).toBeGreaterThan(0);
    for (const t of tags) {
      expect(t.event_count, t.slug).toBeGreaterThan(0);
      expect(t.event_count, t.slug).toBe(counts.get(t.id));
    }
  });

  it('equally good tag matches come with more events first', () => {
    const tags = search({ q: 'b', limit_per_type: '500' }).tags;
    const inLabel = (t: SearchTag) => words(t.label ?? '').some((w) => w.startsWith('b'));
    const labelled = tags.filter(inLabel);
    expect(labelled.length).toBeGreaterThan(1);
    // Label matches first (the better column), each group by event count descending.
    expect(tags.slice(0, labelled.length)).toEqual(labelled);
    for (const group of [labelled, tags.filter((t) => !inLabel(t))]) {
      const counts = group.map((t) => t.event_count);
      expect(counts).toEqual([...counts].sort((a, b) => b - a));
    }
  });
});
