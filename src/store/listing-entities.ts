/**
 * The two listed entities, markets and events, each as one descriptor the listing path
 * (catalog-listing.ts) takes: its table, columns and row mapper, its plan tables, and the filters
 * that are its own (Gamma's `/markets` and `/events` parameters differ).
 */
import { badRequest, type Event, type Market, type ParamsOf } from '../contract/index.ts';
import { EVENT_FIELDS, MARKET_FIELDS, rowMapper } from './fields.ts';
import { EVENT_PLANS, MARKET_PLANS, type ListingPlans, type Query, type StatusParams } from './listing-plans.ts';
import type { PagedTable } from './listing-pages.ts';
import { eventScreenTerms, marketScreenTerms, type EventScreen, type ScreenScope, type TagLookup } from './screen-filters.ts';
import { placeholders, type Row } from './statements.ts';

/** The listings' filters: everything but paging and sorting (what the counts take too). */
export type MarketFilters = Omit<ParamsOf<'markets.list'>, 'limit' | 'offset' | 'order' | 'ascending'>;
export type EventFilters = Omit<ParamsOf<'events.list'>, 'limit' | 'offset' | 'order' | 'ascending' | 'include_markets'>;

export const MARKET_COLS = `m.id, ${MARKET_FIELDS.map((f) => `m."${f.name}"`).join(', ')}, m._extra`;
export const EVENT_COLS = `e.id, ${EVENT_FIELDS.map((f) => `e."${f.name}"`).join(', ')}, e._extra`;
export const mapMarket = rowMapper(MARKET_FIELDS) as (row: Row) => Market;
export const mapEvent = rowMapper(EVENT_FIELDS) as (row: Row) => Omit<Event, 'tags' | 'markets'>;

/** The filters the listing path writes itself, in every entity's listing. */
export interface ListingFilters extends StatusParams, EventScreen {
  id?: number[];
  tag?: string;
  tag_id?: number;
  tag_slug?: string;
  creator?: string;
}

/** A listed entity: what the one listing path needs to know of it. */
export interface ListingEntity<P extends ListingFilters, R> extends ListingPlans, PagedTable {
  table: 'markets' | 'events';
  alias: 'm' | 'e';
  /** Its tag links (`<link>.tag_id`, `<link>.<own>`). */
  tagLink: { link: string; own: string };
  /** A row of `cols` as the spec's object (without what the reader adds: events, tags, markets). */
  map: (row: Row) => R;
  /** The screen filters' terms (screen-filters.ts); false: nothing can match. */
  screenTerms: (q: Query, p: P, scope: ScreenScope, tags: TagLookup) => boolean;
  /** Checks the resolved tag id against the other filters before its term is written (a 400 for a contradiction). */
  checkTag?: (p: P, tagId: number) => void;
  /** The entity's own filters, written after the tag's term. */
  ownTerms: (q: Query, p: P) => void;
  /** The term of `creator`, given its wallets (lower-cased, at least one). */
  creatorTerm: (q: Query, wallets: string[]) => void;
}

/** `expr IN (values)`; nothing when the list was not given. */
function inList(q: Query, expr: string, values: readonly (string | number)[] | undefined): void {
  if (values === undefined) return;
  q.where.push(`${expr} IN (${placeholders(values.length)})`);
  q.bind.push(...values);
}

/**
 * `min <= col <= max`, written as plain comparisons so an index on `col` serves the range.
 * `missingAs`: the value a NULL stands for (0 for money, as Gamma counts it; null: no match).
 */
function numRange(q: Query, col: string, min: number | undefined, max: number | undefined, missingAs: number | null): void {
  if (min === undefined && max === undefined) return;
  const parts: string[] = [];
  if (min !== undefined) {
    parts.push(`${col} >= ?`);
    q.bind.push(min);
  }
  if (max !== undefined) {
    parts.push(`${col} <= ?`);
    q.bind.push(max);
  }
  const nullMatches = missingAs !== null && (min === undefined || missingAs >= min) && (max === undefined || missingAs <= max);
  q.where.push(nullMatches ? `(${parts.join(' AND ')} OR ${col} IS NULL)` : parts.join(' AND '));
}

/** The event links, then Gamma's own `/markets` filters (docs/upstream/gamma.md 1.3), the same tests the fake upstream applies. */
function marketTerms(q: Query, p: MarketFilters): void {
  if (p.event_id !== undefined) {
    q.where.push('m.id IN (SELECT market_id FROM market_events WHERE event_id = ?)');
    q.bind.push(p.event_id);
  }
  if (p.event_slug !== undefined) {
    q.where.push('m.id IN (SELECT me.market_id FROM market_events me JOIN events e ON e.id = me.event_id WHERE e._slug_lc = ?)');
    q.bind.push(p.event_slug.toLowerCase());
  }
  if (p.conditionId !== undefined) {
    q.where.push('m._condition_lc = ?');
    q.bind.push(p.conditionId.toLowerCase());
  }
  inList(q, 'm.id', p.id);
  inList(q, 'm."slug"', p.slug);
  inList(
    q,
    'm._condition_lc',
    p.condition_ids?.map((c) => c.toLowerCase()),
  );
  inList(q, 'm."questionID"', p.question_ids);
  inList(
    q,
    'lower(m."marketMakerAddress")',
    p.market_maker_address?.map((a) => a.toLowerCase()),
  );
  inList(q, 'm."sportsMarketType"', p.sports_market_types);
  if (p.clob_token_ids) {
    // clobTokenIds is a JSON array in a string: a token matches as its quoted form inside it.
    q.where.push(`(${p.clob_token_ids.map(() => 'instr(m."clobTokenIds", ?) > 0').join(' OR ')})`);
    q.bind.push(...p.clob_token_ids.map((t) => JSON.stringify(t)));
  }
  // A market without volume or liquidity counts as 0, as Gamma's numeric columns default.
  numRange(q, 'm._liquidity', p.liquidity_num_min, p.liquidity_num_max, 0);
  numRange(q, 'm._volume', p.volume_num_min, p.volume_num_max, 0);
  numRange(q, 'm._start_ts', p.start_date_min, p.start_date_max, null);
  numRange(q, 'm._end_ts', p.end_date_min, p.end_date_max, null);
  numRange(q, 'm._closed_ts', p.closed_time_min, p.closed_time_max, null);
  if (p.uma_resolution_status !== undefined) {
    q.where.push('m."umaResolutionStatus" = ?');
    q.bind.push(p.uma_resolution_status);
  }
  if (p.game_id !== undefined) {
    q.where.push('m."gameId" = ?');
    q.bind.push(p.game_id);
  }
  if (p.decimalized !== undefined) {
    // Gamma: true keeps the markets with tick size 0.001, false those with 0.01.
    q.where.push('m."orderPriceMinTickSize" = ?');
    q.bind.push(p.decimalized ? 0.001 : 0.01);
  }
}

/** The series link, then Gamma's own `/events` filters (docs/upstream/gamma.md 1.4), the same tests the fake upstream applies. */
function eventTerms(q: Query, p: EventFilters): void {
  if (p.series_slug !== undefined) {
    q.where.push('e.id IN (SELECT es.event_id FROM event_series es JOIN series s ON s.id = es.series_id WHERE s._slug_lc = ?)');
    q.bind.push(p.series_slug.toLowerCase());
  }
  inList(q, 'e.id', p.id);
  inList(
    q,
    'e._slug_lc',
    p.slug?.map((s) => s.toLowerCase()),
  );
  if (p.exclude_tag_id) {
    q.where.push(`e.id NOT IN (SELECT event_id FROM event_tags WHERE tag_id IN (${placeholders(p.exclude_tag_id.length)}))`);
    q.bind.push(...p.exclude_tag_id);
  }
  if (p.series_id) {
    q.where.push(`e.id IN (SELECT event_id FROM event_series WHERE series_id IN (${placeholders(p.series_id.length)}))`);
    q.bind.push(...p.series_id);
  }
  if (p.recurrence !== undefined) {
    q.where.push('e.id IN (SELECT es.event_id FROM event_series es JOIN series s ON s.id = es.series_id WHERE lower(s."recurrence") = ?)');
    q.bind.push(p.recurrence.toLowerCase());
  }
  if (p.featured !== undefined) {
    // A missing flag is false, as Gamma's boolean columns default.
    q.where.push('coalesce(e."featured", 0) = ?');
    q.bind.push(p.featured ? 1 : 0);
  }
  if (p.title_search !== undefined) {
    q.where.push(`e."title" LIKE ? ESCAPE '\\'`);
    q.bind.push(`%${p.title_search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  }
  numRange(q, 'e."volume"', p.volume_min, p.volume_max, 0);
  numRange(q, 'e."liquidity"', p.liquidity_min, p.liquidity_max, 0);
  numRange(q, 'e._start_ts', p.start_date_min, p.start_date_max, null);
  numRange(q, 'e._end_ts', p.end_date_min, p.end_date_max, null);
}

export const MARKETS: ListingEntity<MarketFilters, Market> = {
  ...MARKET_PLANS,
  table: 'markets',
  alias: 'm',
  from: 'markets m',
  cols: MARKET_COLS,
  tagLink: { link: 'market_tags', own: 'market_id' },
  map: mapMarket,
  screenTerms: marketScreenTerms,
  ownTerms: marketTerms,
  creatorTerm: (q, wallets) => {
    q.where.push(`m._creator_lc IN (${placeholders(wallets.length)})`);
    q.bind.push(...wallets);
  },
};

export const EVENTS: ListingEntity<EventFilters, Omit<Event, 'tags' | 'markets'>> = {
  ...EVENT_PLANS,
  table: 'events',
  alias: 'e',
  from: 'events e',
  cols: EVENT_COLS,
  tagLink: { link: 'event_tags', own: 'event_id' },
  map: mapEvent,
  screenTerms: eventScreenTerms,
  checkTag: (p, tagId) => {
    // Gamma answers this contradiction with an error (its keyset docs), not an empty list.
    if (p.exclude_tag_id?.includes(tagId)) throw badRequest('catalog', 'exclude_tag_id must not include tag_id');
  },
  ownTerms: eventTerms,
  creatorTerm: (q, wallets) => {
    // An event is the site's when it says so itself (Kuest events carry `creator`) or one of its markets does.
    const list = placeholders(wallets.length);
    q.where.push(
      `(e._creator_lc IN (${list}) OR e.id IN (SELECT me.event_id FROM market_events me ` +
        `JOIN markets m ON m.id = me.market_id WHERE m._creator_lc IN (${list})))`,
    );
    q.bind.push(...wallets, ...wallets);
  },
};
