/**
 * The desk's search below HTTP (issue 27): which markets a search matched, typo correction, and
 * the ranked tag list, over the recorded catalog. Expectations come from a model written from the
 * rules (docs/api-examples.md, `search.desk`, `tags.ranked`): the fixture's texts tokenized in JS
 * (testing/search-model.ts), a brute-force edit distance over every catalog word, tag counts from
 * the fixture's own events.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { operations, parseParams, type RawParams } from '../contract/index.ts';
import type { GammaEvent } from '../contract/gamma.ts';
import { fixtureEvents } from '../testing/fixtures.ts';
import { matches, terms, words } from '../testing/search-model.ts';
import { CatalogStore } from './catalog-store.ts';
import { editDistance, maxEdits, MIN_TYPO_LENGTH, Vocabulary } from './search-typos.ts';

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

function deskParams(raw: RawParams) {
  const p = parseParams(operations['search.desk'].params, raw);
  if (!p.ok) throw new Error(p.message);
  return p.value;
}

async function fixtureStore(): Promise<{ store: CatalogStore; events: GammaEvent[] }> {
  const store = await CatalogStore.open();
  cleanups.push(() => store.close());
  const events = fixtureEvents();
  store.apply({ events });
  return { store, events };
}

const text = (v: unknown) => (typeof v === 'string' ? v : '');

/** The rule: markets whose question holds every term the event's title does not; none when the title holds all. */
function expectedMatched(ev: GammaEvent, q: string): string[] {
  const ts = terms(q);
  const inTitle = (t: (typeof ts)[number]) => matches({ id: ev.id, volume: null, columns: [words(text(ev.title))] }, [t]);
  const rest = ts.filter((t) => !inTitle(t));
  if (rest.length === 0) return [];
  return (ev.markets ?? [])
    .filter((m) => matches({ id: String(m.id), volume: null, columns: [words(text(m.question))] }, rest))
    .map((m) => String(m.id));
}

/** Words of a market question that its event's title lacks and some sibling's question lacks too: a market-level query. */
function marketQueries(events: GammaEvent[]): { q: string; event: string; market: string }[] {
  const out: { q: string; event: string; market: string }[] = [];
  for (const ev of events) {
    const markets = ev.markets ?? [];
    if (markets.length < 2) continue;
    const title = new Set(words(text(ev.title)));
    for (const m of markets) {
      const w = words(text(m.question)).find(
        (x) => x.length >= 4 && !/\d/.test(x) && !title.has(x) && markets.some((o) => !words(text(o.question)).includes(x)),
      );
      if (w) {
        out.push({ q: w, event: String(ev.id), market: String(m.id) });
        break;
      }
    }
  }
  return out;
}

describe('market hits', () => {
  it('marks the markets whose question holds the words the title lacks, for every event of the answer', async () => {
    const { store, events } = await fixtureStore();
    const byId = new Map(events.map((e) => [String(e.id), e]));
    const queries = marketQueries(events);
    expect(queries.length).toBeGreaterThan(5);
    for (const { q, event, market } of queries.slice(0, 12)) {
      const all: string[] = [];
      for (let page = 1; ; page++) {
        const r = store.search.desk(deskParams({ q, page: String(page), limit_per_type: '25', correct: 'false' }));
        for (const e of r.events) {
          all.push(e.id);
          expect(e.matched_markets, `${q} in ${e.id}`).toEqual(expectedMatched(byId.get(e.id)!, q));
        }
        if (!r.pagination.hasMore) break;
      }
      expect(all).toContain(event);
      expect(expectedMatched(byId.get(event)!, q)).toContain(market);
    }
  });

  it('a title hit marks no market; the public search answer keeps its own shape', async () => {
    const { store, events } = await fixtureStore();
    const ev = events.find((e) => (e.markets ?? []).length > 1)!;
    const word = words(text(ev.title)).find((w) => w.length >= 4)!;
    const r = store.search.desk(deskParams({ q: word }));
    const hit = r.events.find((e) => e.id === String(ev.id));
    expect(hit?.matched_markets).toEqual([]);
    const pub = store.search.search(parseParamsOrThrow('search.query', { q: word }));
    expect(pub.events[0]).not.toHaveProperty('matched_markets');
    expect(pub).not.toHaveProperty('corrected');
  });
});

function parseParamsOrThrow(op: 'search.query', raw: RawParams) {
  const p = parseParams(operations[op].params, raw);
  if (!p.ok) throw new Error(p.message);
  return p.value;
}

/** A plain Damerau (optimal string alignment) distance, written apart from search-typos.ts. */
function osa(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/** The catalog's words with their document counts (events by title, markets by question), from the fixture. */
function modelVocabulary(events: GammaEvent[]): Map<string, number> {
  const counts = new Map<string, number>();
  const add = (t: string) => {
    for (const w of new Set(words(t))) counts.set(w, (counts.get(w) ?? 0) + 1);
  };
  const markets = new Map<string, string>();
  for (const e of events) {
    add(text(e.title));
    for (const m of e.markets ?? []) markets.set(String(m.id), text(m.question));
  }
  for (const q of markets.values()) add(q);
  return counts;
}

/** The nearest catalog word by the rule: fewest edits within maxEdits, then most documents, then code-unit order. */
function nearest(vocab: Map<string, number>, word: string): string | undefined {
  let best: { w: string; d: number; n: number } | undefined;
  for (const [w, n] of vocab) {
    if (w.length < MIN_TYPO_LENGTH - 1 || /^\d+$/.test(w)) continue;
    const d = osa(word, w);
    if (d > maxEdits(word.length)) continue;
    if (!best || d < best.d || (d === best.d && (n > best.n || (n === best.n && w < best.w)))) best = { w, d, n };
  }
  return best?.w;
}

describe('typos', () => {
  it('a misspelt title word is replaced by the nearest catalog word, and the answer is that word’s', async () => {
    const { store, events } = await fixtureStore();
    const vocab = modelVocabulary(events);
    const known = [...vocab.keys()];
    // Typos from the fixture's own title words: a letter dropped, two letters swapped, one doubled.
    const cases = new Map<string, string>();
    for (const e of events) {
      for (const w of words(text(e.title))) {
        if (w.length < 6 || !/^\p{L}+$/u.test(w)) continue;
        const mid = w.length >> 1;
        for (const typo of [
          w.slice(0, mid) + w.slice(mid + 1),
          w.slice(0, mid) + w[mid + 1] + w[mid] + w.slice(mid + 2),
          w.slice(0, mid) + w[mid] + w.slice(mid),
        ]) {
          if (typo === w || known.some((k) => k.startsWith(typo))) continue;
          cases.set(typo, w);
        }
      }
    }
    expect(cases.size).toBeGreaterThan(20);
    let fixed = 0;
    // Every 4th case: the rule is the same for all, and each costs a brute-force pass over the words.
    for (const [typo] of [...cases].filter((_, i) => i % 4 === 0)) {
      const want = nearest(vocab, typo);
      const r = store.search.desk(deskParams({ q: typo }));
      if (want === undefined) {
        expect(r.corrected).toBeUndefined();
        continue;
      }
      expect(r.corrected, typo).toEqual({ q: want, from: typo });
      const plain = store.search.desk(deskParams({ q: want, correct: 'false' }));
      expect(r.events.map((e) => e.id)).toEqual(plain.events.map((e) => e.id));
      expect(r.pagination.totalResults).toBeGreaterThan(0);
      fixed++;
    }
    expect(fixed).toBeGreaterThan(10);
  });

  it('known words, numbers, short words and nonsense are not corrected; correct=false keeps the words as typed', async () => {
    const { store } = await fixtureStore();
    for (const q of ['qxzvqxzv', '98765431', 'zqx']) {
      const r = store.search.desk(deskParams({ q }));
      expect(r.corrected).toBeUndefined();
      expect(r.events).toEqual([]);
    }
    expect(store.search.desk(deskParams({ q: 'electon', correct: 'false' })).corrected).toBeUndefined();
  });

  it('the word list follows the catalog: read in the background once it is 5 minutes old and the catalog changed', async () => {
    const { store } = await fixtureStore();
    let now = 1_000_000;
    store.search.now = () => now;
    const typo = 'quizzicalty';
    expect(store.search.desk(deskParams({ q: typo })).corrected).toBeUndefined();
    store.apply({
      events: [{ id: '999001', title: 'Quizzicality index above 3?', slug: 'quiz-999001', updatedAt: '2026-01-01T00:00:00Z' }],
    });
    // Young: the list in hand serves, the new word is not in it yet.
    expect(store.search.desk(deskParams({ q: typo })).corrected).toBeUndefined();
    now += 5 * 60_000;
    // Old and stale: this search starts a background read; a later one finds the new word.
    store.search.desk(deskParams({ q: typo }));
    await vi.waitFor(() => expect(store.search.desk(deskParams({ q: typo })).corrected).toEqual({ q: 'quizzicality', from: typo }));
  });

  it('editDistance agrees with the plain one within its limit', () => {
    const pairs = [
      ['bitcon', 'bitcoin'],
      ['bitcoin', 'bticoin'],
      ['electon', 'election'],
      ['abc', 'xyz'],
      ['trump', 'trumps'],
      ['', 'ab'],
    ] as const;
    for (const [a, b] of pairs) {
      for (const limit of [1, 2, 3]) expect(editDistance(a, b, limit)).toBe(Math.min(osa(a, b), limit + 1));
    }
    const v = new Vocabulary([
      ['bitcoin', 10],
      ['bitcoins', 1],
    ]);
    expect(v.correct('bitcon')).toBe('bitcoin');
    expect(v.correct('bitc', true)).toBeUndefined();
  });
});

describe('ranked tags', () => {
  it('tags by open markets, those with fewer than min_open left out and counted, the chosen one kept', async () => {
    const { store, events } = await fixtureStore();
    // Model: a market carries its events' tags; open = active, not closed, not archived.
    const open = new Map<string, Set<string>>();
    const labels = new Map<string, string>();
    for (const e of events) {
      for (const t of e.tags ?? []) {
        labels.set(String(t.id), text(t.label) || text(t.slug) || String(t.id));
        const set = open.get(String(t.id)) ?? new Set<string>();
        open.set(String(t.id), set);
        for (const m of e.markets ?? []) if (m.active === true && m.closed !== true && m.archived !== true) set.add(String(m.id));
      }
    }
    const count = (id: string) => open.get(id)?.size ?? 0;
    for (const min of [0, 3, 10]) {
      const r = store.search.rankedTags({ min_open: min });
      const want = [...labels.keys()].filter((id) => count(id) >= min);
      expect(r.tags.map((t) => t.id).sort()).toEqual(want.sort());
      expect(r.hidden).toBe(labels.size - want.length);
      for (const t of r.tags) expect(t.open_markets).toBe(count(t.id));
      for (let i = 1; i < r.tags.length; i++) expect(r.tags[i - 1]!.open_markets).toBeGreaterThanOrEqual(r.tags[i]!.open_markets);
    }
    const rare = [...labels.keys()].find((id) => count(id) < 3);
    expect(rare).toBeDefined();
    const r = store.search.rankedTags({ min_open: 3, id: rare! });
    expect(r.tags.map((t) => t.id)).toContain(rare);
  });
});
