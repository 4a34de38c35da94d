/**
 * The WHERE terms of the screen filters (contract screen-params.ts) for `/markets` and `/events`
 * and their counts and exports. Every range is a plain comparison on an indexed column or
 * expression, so the planner can serve it from an index (schema.ts ENTITY_INDEXES); the text
 * (md_q) is looked up in the search index (textTerm).
 */
import { badRequest } from '../contract/index.ts';
import { type eventScreenParams, type marketScreenParams, screenRangeError } from '../contract/screen-params.ts';
import type { ParsedParams } from '../contract/params.ts';
import { placeholders, type Bind } from './statements.ts';

export type MarketScreen = ParsedParams<typeof marketScreenParams>;
export type EventScreen = ParsedParams<typeof eventScreenParams>;

/**
 * A market's chance: its first outcome's price (`outcomePrices` is a JSON text of strings). The
 * json_valid guard matters: json_extract throws on malformed JSON, and in an index expression
 * that would fail the sync's INSERT. schema.ts indexes exactly this expression.
 */
export const CHANCE_EXPR = `(CASE WHEN json_valid("outcomePrices") THEN CAST(json_extract("outcomePrices", '$[0]') AS REAL) END)`;

/** What the service knows beside the cache: the watchlist (a file) and the clock. */
export interface ScreenScope {
  watched(): { markets: readonly number[]; events: readonly number[] };
  now(): number;
}

export const NO_SCOPE: ScreenScope = { watched: () => ({ markets: [], events: [] }), now: Date.now };

interface Where {
  where: string[];
  bind: Bind;
}

/** Resolves a tag slug to its id (undefined: no such tag) and gives the cheapest "has this tag" test. */
export interface TagLookup {
  idOf(slug: string): number | undefined;
  has(tagId: number): string;
}

const HOUR = 3_600_000;

/** `min <= expr <= max`; a NULL stands for `missingAs` (0 for money) or matches nothing (null). */
function range(q: Where, expr: string, min: number | undefined, max: number | undefined, missingAs: number | null): void {
  if (min === undefined && max === undefined) return;
  const parts: string[] = [];
  if (min !== undefined) {
    parts.push(`${expr} >= ?`);
    q.bind.push(min);
  }
  if (max !== undefined) {
    parts.push(`${expr} <= ?`);
    q.bind.push(max);
  }
  const nullMatches = missingAs !== null && (min === undefined || missingAs >= min) && (max === undefined || missingAs <= max);
  q.where.push(nullMatches ? `(${parts.join(' AND ')} OR ${expr} IS NULL)` : parts.join(' AND '));
}

/** Words of md_q past this many are ignored, as /public-search does (search-reader.ts MAX_WORDS). */
export const MAX_TEXT_WORDS = 16;

/**
 * The words of md_q, as the search index reads them: SQLite's own unicode61 tokenizer (any case,
 * diacritics removed, everything but letters and digits a separator), at most MAX_TEXT_WORDS of them.
 * `temp.search_tokens` is that tokenizer as a table, made on the connection by SearchReader.
 */
const WORDS = (bind: string) => `(SELECT token FROM temp.search_tokens WHERE input = ${bind} LIMIT ${MAX_TEXT_WORDS})`;

/** The search index's MATCH text for "every word of ? starts a word of `column`": `column:word*` per word. */
const matchAll = (column: string) => `(SELECT group_concat('${column}:' || token || '*', ' ') FROM ${WORDS('?')})`;

/**
 * md_q through the search index (search-index.ts: one FTS4 document per event). Every word of the
 * text must start a word of the title (events) or the question (markets), as /public-search
 * matches words. An event's title is a column of its document, so the index answers exactly. A
 * market's question is only part of its events' `questions` column (all their questions), so the
 * index gives the candidates (markets of a matching event) and each candidate's own question is
 * then tokenized and checked; a market with no event is checked directly. Text with no word
 * (punctuation only) matches nothing. The candidates test reads no row, so SQLite runs it (with
 * the ranges, in their index) before the check that reads the question.
 */
function textTerm(q: Where, kind: 'markets' | 'events', text: string): void {
  if (kind === 'events') {
    q.where.push(`e.id IN (SELECT docid FROM search_fts WHERE search_fts MATCH ${matchAll('title')})`);
    q.bind.push(text);
    return;
  }
  const own = 'SELECT 1 FROM market_events me WHERE me.market_id = m.id';
  // `+`: the event list is probed per candidate, not walked per candidate (an index lookup per listed event).
  const events = `(SELECT docid FROM search_fts WHERE search_fts MATCH ${matchAll('questions')})`;
  q.where.push(
    `(EXISTS (${own} AND +me.event_id IN ${events}) OR NOT EXISTS (${own}))`,
    `EXISTS ${WORDS('?')} AND NOT EXISTS (SELECT 1 FROM ${WORDS('?')} w WHERE NOT EXISTS (SELECT 1 FROM temp.search_tokens t ` +
      `WHERE t.input = m."question" AND substr(t.token, 1, length(w.token)) = w.token))`,
  );
  q.bind.push(text, text, text);
}

/** The end-date window: md_end_after/before and md_ends_within_hours together (the narrower bound wins). */
function endWindow(p: EventScreen, now: number): [number | undefined, number | undefined] {
  let after = p.md_end_after;
  let before = p.md_end_before;
  if (p.md_ends_within_hours !== undefined) {
    after = Math.max(after ?? now, now);
    before = Math.min(before ?? Number.POSITIVE_INFINITY, now + p.md_ends_within_hours * HOUR);
  }
  return [after, before];
}

/**
 * Adds the screen terms of either listing; false when a term can match nothing (an unknown
 * included tag, an empty watchlist asked for, a window that closed). A bad range throws the 400.
 */
function common(q: Where, kind: 'markets' | 'events', p: EventScreen, scope: ScreenScope, tags: TagLookup): boolean {
  const bad = screenRangeError(p);
  if (bad) throw badRequest('catalog', bad);
  const [a, cols] =
    kind === 'markets'
      ? ['m', { volume: 'm._volume', volume24: 'm."volume24hr"', liquidity: 'm._liquidity' }]
      : ['e', { volume: 'e."volume"', volume24: 'e."volume24hr"', liquidity: 'e."liquidity"' }];
  range(q, cols.volume, p.md_volume_min, p.md_volume_max, 0);
  range(q, cols.volume24, p.md_volume24h_min, p.md_volume24h_max, 0);
  range(q, cols.liquidity, p.md_liquidity_min, p.md_liquidity_max, 0);
  const [after, before] = endWindow(p, scope.now());
  if (after !== undefined && before !== undefined && after > before) return false;
  range(q, `${a}._end_ts`, after, before, null);
  for (const slug of new Set((p.md_tag ?? []).map((s) => s.toLowerCase()))) {
    const id = tags.idOf(slug);
    if (id === undefined) return false;
    q.where.push(tags.has(id));
    q.bind.push(id);
  }
  const excluded = (p.md_not_tag ?? []).map((s) => tags.idOf(s.toLowerCase())).filter((id) => id !== undefined);
  if (excluded.length > 0) {
    const [link, own] = kind === 'markets' ? ['market_tags', 'market_id'] : ['event_tags', 'event_id'];
    q.where.push(`${a}.id NOT IN (SELECT ${own} FROM ${link} WHERE tag_id IN (${placeholders(excluded.length)}))`);
    q.bind.push(...excluded);
  }
  if (p.md_q !== undefined && p.md_q.trim() !== '') textTerm(q, kind, p.md_q);
  if (p.md_watchlist !== undefined) watchTerm(q, kind, p.md_watchlist, scope.watched());
  if (p.md_has_orders !== undefined) {
    const mine = 'SELECT _market_lc FROM orders';
    q.where.push(
      kind === 'markets'
        ? `m._condition_lc ${p.md_has_orders ? '' : 'NOT '}IN (${mine})`
        : `e.id ${p.md_has_orders ? '' : 'NOT '}IN (SELECT me.event_id FROM market_events me ` +
            `JOIN markets om ON om.id = me.market_id WHERE om._condition_lc IN (${mine}))`,
    );
  }
  return true;
}

/** A market is watched itself or through its event; an event itself or through one of its markets. */
function watchTerm(q: Where, kind: 'markets' | 'events', on: boolean, w: { markets: readonly number[]; events: readonly number[] }): void {
  const own = kind === 'markets' ? w.markets : w.events;
  const other = kind === 'markets' ? w.events : w.markets;
  const terms: string[] = [];
  if (own.length > 0) terms.push(`${kind === 'markets' ? 'm' : 'e'}.id IN (${placeholders(own.length)})`);
  if (other.length > 0) {
    terms.push(
      kind === 'markets'
        ? `m.id IN (SELECT market_id FROM market_events WHERE event_id IN (${placeholders(other.length)}))`
        : `e.id IN (SELECT event_id FROM market_events WHERE market_id IN (${placeholders(other.length)}))`,
    );
  }
  if (terms.length === 0) {
    if (on) q.where.push('0');
    return;
  }
  q.where.push(on ? `(${terms.join(' OR ')})` : `NOT (${terms.join(' OR ')})`);
  q.bind.push(...own, ...other);
}

/**
 * The index a listing with screen ranges reads (schema.ts): it holds every range and status test,
 * so candidates are tested there and only a page's rows are read whole. Left to itself the planner
 * may walk a sort's index or a tag's list instead, reading a 2 KB row per candidate (up to a second
 * at 100k markets when the screen matches few). Undefined: no range, the usual plans.
 */
export function screenIndex(kind: 'markets' | 'events', p: EventScreen | MarketScreen): string | undefined {
  const ranged = Object.entries(p).some(
    ([k, v]) => v !== undefined && /^md_(.*_(min|max)|end_after|end_before|ends_within_hours)$/.test(k),
  );
  return ranged ? `${kind}_screen_ranges` : undefined;
}

/** The market screen's terms; false: nothing can match. */
export function marketScreenTerms(q: Where, p: MarketScreen, scope: ScreenScope, tags: TagLookup): boolean {
  if (!common(q, 'markets', p, scope, tags)) return false;
  range(q, CHANCE_EXPR.replaceAll('"outcomePrices"', 'm."outcomePrices"'), p.md_chance_min, p.md_chance_max, null);
  range(q, 'm."oneDayPriceChange"', p.md_change24h_min, p.md_change24h_max, null);
  range(q, 'm."spread"', p.md_spread_min, p.md_spread_max, null);
  return true;
}

/** The event screen's terms; false: nothing can match. */
export function eventScreenTerms(q: Where, p: EventScreen, scope: ScreenScope, tags: TagLookup): boolean {
  return common(q, 'events', p, scope, tags);
}
