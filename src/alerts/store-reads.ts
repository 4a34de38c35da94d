/**
 * What an evaluation reads from the cache, batched: one query for every targeted market's price
 * and end date, one for the events, one per distinct price_move window (all its markets at once),
 * one for the revisions and one for the new items since the lowest position a rule holds. Only a
 * new_match rule reads per rule, and only when something new arrived: its screen's listing (or its
 * search text's index) restricted to the new ids.
 *
 * SQLite-specific (the history tables and the search index have no Store interface yet); it is
 * the one alerts module that names SQL, written over the store's statement cache.
 */
import { operations, parseParams, type Screen } from '../contract/index.ts';
import { marketChance } from '../contract/market-rules.ts';
import type { CatalogReads } from '../store/store-api.ts';
import type { SearchReader } from '../store/search-reader.ts';
import type { Bind, Statements } from '../store/statements.ts';
import type { EventFacts, ItemRef, MarketFacts, NewItem, RevisionFact } from './evaluate.ts';

export interface AlertReads {
  /** The newest positions of the change feed and of the revisions. */
  positions(): { changeSeq: number; revisionSeq: number };
  markets(ids: Iterable<string>): Map<string, MarketFacts>;
  events(ids: Iterable<string>): Map<string, EventFacts>;
  /** Per `<marketId>/<windowHours>`, the lowest and highest price recorded within the window up to `nowMs`. */
  ranges(windows: ReadonlyMap<number, ReadonlySet<string>>, nowMs: number): Map<string, { min: number; max: number }>;
  revisionsAfter(seq: number, upTo: number): RevisionFact[];
  /** New markets and events (change feed `new_market`, `new_event`) after `seq`, up to `upTo`. */
  newItemsAfter(seq: number, upTo: number): NewItem[];
  /** The items (of the screen's kind) its listing lists. */
  matchScreen(screen: Screen, items: readonly NewItem[]): NewItem[];
  /** The items whose event the search text finds (the search index holds one document per event). */
  matchText(q: string, items: readonly NewItem[]): NewItem[];
}

/** SQLite caps a statement's bound values; bigger id lists go in chunks. */
const CHUNK = 500;

function chunks<T>(list: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += CHUNK) out.push(list.slice(i, i + CHUNK));
  return out;
}

const qs = (n: number) => Array(n).fill('?').join(', ');
const text = (v: unknown) => (typeof v === 'string' ? v : null);
const num = (v: unknown) => (typeof v === 'number' ? v : null);
const numericIds = (ids: Iterable<string>) => [...new Set(ids)].filter((id) => /^\d{1,15}$/.test(id)).map(Number);

const itemRef = (entity: unknown, id: unknown, mSlug: unknown, question: unknown, eSlug: unknown, title: unknown): ItemRef =>
  entity === 0
    ? { entity: 'market', id: String(id), slug: text(mSlug), name: text(question) }
    : { entity: 'event', id: String(id), slug: text(eSlug), name: text(title) };

const REF_JOIN = 'LEFT JOIN markets m ON x.entity = 0 AND m.id = x.ref_id LEFT JOIN events e ON x.entity = 1 AND e.id = x.ref_id';

/** The ids among `ids` that the screen's listing lists; `end`: their end time (epoch ms), the listing narrowed to it. */
function screenIds(reader: CatalogReads, screen: Screen, ids: number[], end: number | null): number[] {
  const narrow = <P extends { md_end_after?: number | undefined; md_end_before?: number | undefined }>(p: P): P =>
    end === null ? p : { ...p, md_end_after: Math.max(p.md_end_after ?? end, end), md_end_before: Math.min(p.md_end_before ?? end, end) };
  if (screen.kind === 'markets') {
    const p = parseParams(operations['markets.list'].params, screen.params);
    return p.ok ? reader.exportMarketIds(narrow({ ...p.value, id: ids })) : [];
  }
  const p = parseParams(operations['events.list'].params, screen.params);
  return p.ok ? reader.exportEventIds(narrow({ ...p.value, id: ids })) : [];
}

export function sqliteAlertReads(st: Statements, reader: CatalogReads, search: Pick<SearchReader, 'parse'>): AlertReads {
  const all = (sql: string, bind: Bind) => st.all(sql, bind);
  return {
    positions() {
      return {
        changeSeq: Number(st.value('SELECT coalesce(max(seq), 0) FROM changes') ?? 0),
        revisionSeq: Number(st.value('SELECT coalesce(max(seq), 0) FROM revisions') ?? 0),
      };
    },
    markets(ids) {
      const out = new Map<string, MarketFacts>();
      for (const part of chunks(numericIds(ids))) {
        for (const [id, slug, question, prices, end] of all(
          `SELECT id, "slug", "question", "outcomePrices", _end_ts FROM markets WHERE id IN (${qs(part.length)})`,
          part,
        )) {
          out.set(String(id), {
            id: String(id),
            slug: text(slug),
            question: text(question),
            price: marketChance({ outcomePrices: prices }) ?? null,
            endMs: num(end),
          });
        }
      }
      return out;
    },
    events(ids) {
      const out = new Map<string, EventFacts>();
      for (const part of chunks(numericIds(ids))) {
        for (const [id, slug, title, end] of all(
          `SELECT id, "slug", "title", _end_ts FROM events WHERE id IN (${qs(part.length)})`,
          part,
        )) {
          out.set(String(id), { id: String(id), slug: text(slug), title: text(title), endMs: num(end) });
        }
      }
      return out;
    },
    ranges(windows, nowMs) {
      const out = new Map<string, { min: number; max: number }>();
      const nowS = Math.floor(nowMs / 1000);
      // Per market, three seeks on (market_id, ts): the extremes inside the window, and the price in
      // force at its start (a snapshot is taken only on a change, so that one may be older).
      const inWindow = (f: string) => `(SELECT ${f}(price) FROM market_history WHERE market_id = j.value AND ts >= ?1)`;
      const sql =
        `SELECT j.value, ${inWindow('min')}, ${inWindow('max')}, ` +
        '(SELECT price FROM market_history WHERE market_id = j.value AND ts < ?1 ORDER BY ts DESC LIMIT 1) FROM json_each(?2) j';
      for (const [hours, ids] of windows) {
        for (const [id, lo, hi, start] of all(sql, [nowS - hours * 3600, JSON.stringify(numericIds(ids))])) {
          const vals = [lo, hi, start].filter((v): v is number => typeof v === 'number');
          if (vals.length > 0) out.set(`${String(id)}/${hours}`, { min: Math.min(...vals) / 10_000, max: Math.max(...vals) / 10_000 });
        }
      }
      return out;
    },
    revisionsAfter(seq, upTo) {
      return all(
        'SELECT x.seq, x.field, x.before, x.after, x.entity, x.ref_id, m."slug", m."question", e."slug", e."title" ' +
          `FROM revisions x ${REF_JOIN} WHERE x.seq > ? AND x.seq <= ? ORDER BY x.seq`,
        [seq, upTo],
      ).map(([s, field, before, after, ...ref]) => ({
        ...itemRef(...(ref as [unknown, unknown, unknown, unknown, unknown, unknown])),
        seq: s as number,
        field: String(field),
        before: text(before),
        after: text(after),
      }));
    },
    newItemsAfter(seq, upTo) {
      return all(
        'SELECT x.seq, coalesce(m._end_ts, e._end_ts), x.entity, x.ref_id, m."slug", m."question", e."slug", e."title" ' +
          `FROM changes x ${REF_JOIN} WHERE x.seq > ? AND x.seq <= ? AND x.kind IN ('new_market', 'new_event') ORDER BY x.seq`,
        [seq, upTo],
      ).map(([s, end, ...ref]) => ({
        ...itemRef(...(ref as [unknown, unknown, unknown, unknown, unknown, unknown])),
        seq: s as number,
        endMs: num(end),
      }));
    },
    matchScreen(screen, items) {
      const entity = screen.kind === 'markets' ? 'market' : 'event';
      const mine = items.filter((i) => i.entity === entity);
      if (mine.length === 0) return [];
      // The screen's own listing, restricted to the new ids. A ranged screen's listing walks the
      // screen ranges index, which leads with the end time (schema.ts); narrowed to each new
      // item's own end time (intersected with the screen's window: the same rows pass), that walk
      // is a seek, where the whole screen would cost a scan of the index per evaluation.
      const byEnd = new Map<number | null, NewItem[]>();
      for (const i of mine) byEnd.set(i.endMs, [...(byEnd.get(i.endMs) ?? []), i]);
      const found = new Set<number>();
      for (const [end, group] of byEnd) {
        for (const part of chunks(group)) {
          for (const id of screenIds(
            reader,
            screen,
            part.map((i) => Number(i.id)),
            end,
          ))
            found.add(id);
        }
      }
      return mine.filter((i) => found.has(Number(i.id)));
    },
    matchText(q, items) {
      const terms = search.parse(q);
      if (terms.length === 0 || items.length === 0) return [];
      const match = terms.map((t) => `"${t.tokens.join(' ')}${t.prefix ? '*' : ''}"`).join(' ');
      // Each item's events: a new event is its own; a new market's are its links.
      const eventsOf = new Map<string, number[]>();
      const marketIds = numericIds(items.filter((i) => i.entity === 'market').map((i) => i.id));
      for (const part of chunks(marketIds)) {
        for (const [m, e] of all(`SELECT market_id, event_id FROM market_events WHERE market_id IN (${qs(part.length)})`, part)) {
          const key = `market:${String(m)}`;
          eventsOf.set(key, [...(eventsOf.get(key) ?? []), e as number]);
        }
      }
      for (const i of items) if (i.entity === 'event') eventsOf.set(`event:${i.id}`, [Number(i.id)]);
      const docs = [...new Set([...eventsOf.values()].flat())];
      const hits = new Set<number>();
      for (const part of chunks(docs)) {
        const sql = `SELECT docid FROM search_fts WHERE search_fts MATCH ? AND docid IN (${qs(part.length)})`;
        for (const [d] of all(sql, [match, ...part])) hits.add(d as number);
      }
      return items.filter((i) => (eventsOf.get(`${i.entity}:${i.id}`) ?? []).some((e) => hits.has(e)));
    },
  };
}
