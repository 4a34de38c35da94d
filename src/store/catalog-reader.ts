/**
 * Catalog queries: the filters, sorts and pages of GET /markets and GET /events, and the
 * lookups by id and slug, answered from the cache and shaped as the spec's objects.
 */
import {
  type EVENT_ORDER_FIELDS,
  type MARKET_ORDER_FIELDS,
  badRequest,
  type Event,
  type EventRef,
  type Market,
  type ParamsOf,
  type Tag,
} from '../contract/index.ts';
import { EVENT_FIELDS, MARKET_FIELDS, SERIES_FIELDS, TAG_FIELDS, rowMapper } from './fields.ts';
import { UntilWrite, placeholders, type Bind, type Row, type Statements } from './statements.ts';
import { NO_SCOPE, eventScreenTerms, marketScreenTerms, screenIndex, type ScreenScope, type TagLookup } from './screen-filters.ts';

/** Which wallets a `creator` site identifier stands for (DESIGN.md: `creator`). */
export type SiteMap = Readonly<Record<string, readonly string[]>>;

const WALLET = /^0x[0-9a-fA-F]{40}$/;
/** "No page": the LIMIT (and the tag filter's read size) of an export's id list. */
const EXPORT_ALL = Number.MAX_SAFE_INTEGER;

/** The listings' filters: everything but paging and sorting (what the counts take too). */
export type MarketFilters = Omit<ParamsOf<'markets.list'>, 'limit' | 'offset' | 'order' | 'ascending'>;
export type EventFilters = Omit<ParamsOf<'events.list'>, 'limit' | 'offset' | 'order' | 'ascending' | 'include_markets'>;

export const MARKET_COLS = `m.id, ${MARKET_FIELDS.map((f) => `m."${f.name}"`).join(', ')}, m._extra`;
const EVENT_COLS = `e.id, ${EVENT_FIELDS.map((f) => `e."${f.name}"`).join(', ')}, e._extra`;
const TAG_COLS = `t.id, ${TAG_FIELDS.map((f) => `t."${f.name}"`).join(', ')}, t._extra`;
export const mapMarket = rowMapper(MARKET_FIELDS) as (row: Row) => Market;
const mapEvent = rowMapper(EVENT_FIELDS) as (row: Row) => Omit<Event, 'tags' | 'markets'>;
const mapTag = rowMapper(TAG_FIELDS) as (row: Row) => Tag;
export const mapSeries = rowMapper(SERIES_FIELDS);

/** order name -> sort column, per entity. Money sent as strings sorts by its numeric twin. */
const MARKET_SORT: Record<(typeof MARKET_ORDER_FIELDS)[number], string> = {
  id: 'm.id',
  slug: 'm."slug"',
  question: 'm."question"',
  volume: 'm._volume',
  volumeNum: 'm._volume',
  volume24hr: 'm."volume24hr"',
  volume1wk: 'm."volume1wk"',
  liquidity: 'm._liquidity',
  liquidityNum: 'm._liquidity',
  startDate: 'm._start_ts',
  endDate: 'm._end_ts',
  createdAt: 'm._created_ts',
  updatedAt: 'm._updated_ts',
  closedTime: 'm._closed_ts',
};
const EVENT_SORT: Record<(typeof EVENT_ORDER_FIELDS)[number], string> = {
  id: 'e.id',
  slug: 'e._slug_lc',
  title: 'e."title"',
  volume: 'e."volume"',
  volume24hr: 'e."volume24hr"',
  volume1wk: 'e."volume1wk"',
  liquidity: 'e."liquidity"',
  startDate: 'e._start_ts',
  endDate: 'e._end_ts',
  createdAt: 'e._created_ts',
  updatedAt: 'e._updated_ts',
  closedTime: 'e._closed_ts',
};

/** Sort column -> its (closed, key, active, archived) index, `<table>_status_<suffix>` (schema.ts ENTITY_INDEXES). */
const MARKET_STATUS_INDEX: Readonly<Record<string, string>> = {
  'm._volume': 'volume',
  'm."volume24hr"': 'volume24hr',
  'm."volume1wk"': 'volume1wk',
  'm._liquidity': 'liquidity',
  'm._end_ts': 'end',
  'm."question"': 'question',
  'm."slug"': 'slug',
  'm._updated_ts': 'updated',
  'm._closed_ts': 'closed_ts',
};
const EVENT_STATUS_INDEX: Readonly<Record<string, string>> = {
  'e."volume"': 'volume',
  'e."volume24hr"': 'volume24hr',
  'e."liquidity"': 'liquidity',
  'e._end_ts': 'end',
  'e."title"': 'title',
};
/**
 * Sort column -> its (closed, active, key) index, `<table>_closed_active_<suffix>`: `active=true&closed=false`
 * sorted reads it in order, with no sort step.
 */
const MARKET_CLOSED_ACTIVE_INDEX: Readonly<Record<string, string>> = {
  'm._volume': 'volume',
  'm."volume24hr"': 'volume24hr',
  'm._liquidity': 'liquidity',
  'm._end_ts': 'end',
  'm._start_ts': 'start',
  'm._created_ts': 'created',
};
const EVENT_CLOSED_ACTIVE_INDEX: Readonly<Record<string, string>> = {
  'e."volume"': 'volume',
  'e."volume24hr"': 'volume24hr',
  'e."liquidity"': 'liquidity',
  'e._end_ts': 'end',
  'e._start_ts': 'start',
  'e._created_ts': 'created',
};
const MARKET_CLOSED_SORTS = new Set(Object.keys(MARKET_STATUS_INDEX));
const MARKET_CLOSED_ACTIVE_SORTS = new Set(Object.keys(MARKET_CLOSED_ACTIVE_INDEX));
const EVENT_CLOSED_SORTS = new Set(Object.keys(EVENT_STATUS_INDEX));
const EVENT_CLOSED_ACTIVE_SORTS = new Set(Object.keys(EVENT_CLOSED_ACTIVE_INDEX));
type Status = 'active' | 'closed' | 'archived';
/** Which status tests may pick an index (the others are written `+col`, so the planner cannot). */
type StatusPlan = ReadonlySet<Status>;
const ALL_STATUS: StatusPlan = new Set(['active', 'closed', 'archived']);
const NO_STATUS: StatusPlan = new Set();

/**
 * The status tests a page may take an index for, given its sort. Id order (the default) uses
 * none: the planner then walks the (id, closed, active, archived) index and tests them there; a
 * (closed, key) index would have it sort every matching id, and the table walk reads each 2 KB
 * row it skips (31 ms at offset 70,000 of 100k markets). `active` + `closed` with a sort that has
 * a (closed, active, key) index read that index in order; with `archived` too they stay on the
 * (closed, key, active, archived) index, which holds all three (the other would read rows).
 */
function statusPlan(
  p: { active?: boolean; closed?: boolean; archived?: boolean },
  sort: string[] | null,
  idCol: string,
  closedSorts: ReadonlySet<string>,
  closedActiveSorts: ReadonlySet<string>,
): StatusPlan {
  const key = sort?.length === 1 ? sort[0]! : null;
  if (key === null || key === idCol) return sort && sort.length > 1 ? new Set(['archived']) : NO_STATUS;
  if (p.active !== undefined && p.closed !== undefined && p.archived === undefined && closedActiveSorts.has(key)) return ALL_STATUS;
  return closedSorts.has(key) ? new Set(['closed', 'archived']) : new Set(['archived']);
}

interface Query {
  where: string[];
  bind: Bind;
  /** Set when a filter can match nothing (an unknown tag or event slug): answer [] at once. */
  empty?: boolean;
  /** The index the ids are read through (a screen's ranges, screen-filters.ts); the rows are read by id. */
  index?: string;
  /** A (closed, ...) index each arm of a closed-split page reads (closedSplit). */
  split?: string;
  /**
   * At most this many rows can match (a tag's members, collected by tagTerm): the page's whole
   * sorted id list is kept until the next write, so scrolling sorts the set once, not per page.
   */
  collect?: number;
}

/** The largest member set whose sorted ids are kept (8 bytes an id: 400 KB each, SORTED_MEMOS of them). */
const MAX_COLLECT = 50_000;
const SORTED_MEMOS = 16;
/** Id-order listings whose checkpoints are kept (a few KB each at a million rows). */
const ID_MARK_MEMOS = 16;

const STATUS_TERM = /^\+?[a-z]\."(active|closed|archived)" = \?$/;
/** The arms of a closed-split page: every value `closed` holds (a boolean field Gamma left out is NULL). */
const CLOSED_ARMS = ['= 0', '= 1', 'IS NULL'];

/**
 * `active` or `archived` tested without `closed`, sorted by one key: no index leads with them, so the
 * planner walks the key's own index and reads each 2 KB row for its status (`active=false` by 24h
 * volume: 350 ms at 100k markets, `active=true` at offset 5,000: 40 ms). Such a page is instead a merge
 * of one arm per `closed` value, each read in key order from a (closed, ...) index that holds the other
 * flags, never the rows: SQLite merges UNION ALL arms sorted alike (3 ms and 2 ms). Only when the status
 * tests are the whole WHERE; other filters keep their own plans.
 */
function closedSplit(
  table: 'markets' | 'events',
  p: { active?: boolean; closed?: boolean; archived?: boolean },
  sort: string[] | null,
  q: Query,
  statusIndex: Readonly<Record<string, string>>,
  closedActiveIndex: Readonly<Record<string, string>>,
): string | undefined {
  if (p.closed !== undefined || (p.active === undefined && p.archived === undefined) || sort?.length !== 1 || q.index) return undefined;
  if (!q.where.every((w) => STATUS_TERM.test(w))) return undefined;
  const key = sort[0]!;
  const closedActive = p.archived === undefined ? closedActiveIndex[key] : undefined;
  if (closedActive) return `${table}_closed_active_${closedActive}`;
  const status = statusIndex[key];
  return status ? `${table}_status_${status}` : undefined;
}

function parseOrder(order: string | undefined, table: Record<string, string>): string[] | null {
  if (order === undefined || order.trim() === '') return null;
  const cols: string[] = [];
  for (const name of order.split(',').map((s) => s.trim())) {
    const c = Object.hasOwn(table, name) ? table[name] : undefined;
    if (!c) throw badRequest('catalog', 'order fields are not valid');
    if (!cols.includes(c)) cols.push(c);
  }
  return cols;
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

export class CatalogReader {
  /** Row counts (of a table, of a tag's items) until the next write; see tagFilter(). */
  private readonly counts_: UntilWrite<string, number>;
  /** Whole sorted id lists of collected listings (Query.collect), by SQL and bindings, until the next write. */
  private readonly sorted_: UntilWrite<string, number[]>;
  /** Id-order checkpoints (idMarks) by listing, until the next write. */
  private readonly idMarks_: UntilWrite<string, { ids: number[]; end: boolean }>;
  /**
   * Rows between two id-order checkpoints. A deep page in id order starts at the checkpoint before it
   * and skips at most this many rows (a setting for tests: the fixtures are small).
   */
  idMarkStep = 1024;
  /** The watchlist and clock the screen filters read (service.ts sets it; tests get none). */
  private scope: ScreenScope = NO_SCOPE;

  constructor(
    private readonly st: Statements,
    private readonly sites: () => SiteMap,
  ) {
    this.counts_ = new UntilWrite(st);
    this.sorted_ = new UntilWrite(st, SORTED_MEMOS);
    this.idMarks_ = new UntilWrite(st, ID_MARK_MEMOS);
  }

  /**
   * The tag filter, in the form that is cheap for this tag. Collecting the tag's items (its
   * index) and sorting them costs about as many steps as the tag has items. Walking the sort's
   * own index and probing each item's tags costs about (offset + limit) x all / tagged steps,
   * four times over to allow for the other filters. A popular tag (a third of all markets)
   * with `order=endDate` took 150 ms the first way and under 1 ms the second; a rare one is
   * the other way round.
   */
  private tagFilter(table: 'markets' | 'events', alias: string, tagId: number, wanted: number): string {
    const [link, own] = table === 'markets' ? ['market_tags', 'market_id'] : ['event_tags', 'event_id'];
    return this.collects(table, tagId, wanted)
      ? `${alias}.id IN (SELECT ${own} FROM ${link} WHERE tag_id = ?)`
      : `EXISTS (SELECT 1 FROM ${link} l WHERE l.tag_id = ? AND l.${own} = ${alias}.id)`;
  }

  /** tagFilter's choice: collect the tag's items (true), or walk the sort's index probing each item's tags. */
  private collects(table: 'markets' | 'events', tagId: number, wanted: number): boolean {
    const all = this.counts_.get(table, () => Number(this.st.value(`SELECT count(*) FROM ${table}`) ?? 0));
    const tagged = this.tagSize(table, tagId);
    return 4 * wanted * all >= tagged * tagged;
  }

  /** How many markets or events carry the tag, until the next write. */
  private tagSize(table: 'markets' | 'events', tagId: number): number {
    const link = table === 'markets' ? 'market_tags' : 'event_tags';
    return this.counts_.get(`${link}:${tagId}`, () => Number(this.st.value(`SELECT count(*) FROM ${link} WHERE tag_id = ?`, [tagId]) ?? 0));
  }

  /** `tag_id`: its test in tagFilter's form; a collected tag bounds the listing, so its sorted ids are kept (Query.collect). */
  private tagTerm(q: Query, table: 'markets' | 'events', alias: string, tagId: number, wanted: number): void {
    q.where.push(this.tagFilter(table, alias, tagId, wanted));
    q.bind.push(tagId);
    if (this.collects(table, tagId, wanted)) q.collect = Math.min(q.collect ?? Infinity, this.tagSize(table, tagId));
  }

  setScreenScope(scope: ScreenScope): void {
    this.scope = scope;
  }

  /** Tag slugs for the screen filters, with tagFilter's cheapest form of "has this tag". */
  private tagLookup(table: 'markets' | 'events', alias: string, wanted: number): TagLookup {
    return {
      idOf: (slug) => {
        const id = this.st.value('SELECT id FROM tags WHERE _slug_lc = ?', [slug]);
        return typeof id === 'number' ? id : undefined;
      },
      has: (tagId) => this.tagFilter(table, alias, tagId, wanted),
    };
  }

  // ---- filters shared by both listings -------------------------------------------------

  /**
   * `indexed`: the status tests the planner may use an index for. The others are written `+col`,
   * so it cannot pick a (closed, other key) index for the WHERE and then sort most of the table;
   * it walks the sort's own index and filters instead.
   */
  private statusFilters(q: Query, alias: string, p: { active?: boolean; closed?: boolean; archived?: boolean }, indexed: StatusPlan): void {
    for (const k of ['active', 'closed', 'archived'] as const) {
      const v = p[k];
      if (v !== undefined) {
        q.where.push(`${indexed.has(k) ? '' : '+'}${alias}."${k}" = ?`);
        q.bind.push(v ? 1 : 0);
      }
    }
  }

  private marketStatusPlan(p: MarketFilters, sort: string[] | null): StatusPlan {
    return statusPlan(p, sort, 'm.id', MARKET_CLOSED_SORTS, MARKET_CLOSED_ACTIVE_SORTS);
  }

  private eventStatusPlan(p: EventFilters, sort: string[] | null): StatusPlan {
    return statusPlan(p, sort, 'e.id', EVENT_CLOSED_SORTS, EVENT_CLOSED_ACTIVE_SORTS);
  }

  /** Resolves `tag_id` and `tag`/`tag_slug` to one tag id; both given must name the same tag. */
  private tagId(p: { tag?: string; tag_id?: number; tag_slug?: string }): number | null | undefined {
    const slug = p.tag_slug ?? p.tag;
    if (p.tag !== undefined && p.tag_slug !== undefined && p.tag.toLowerCase() !== p.tag_slug.toLowerCase()) return null;
    let id: number | undefined = p.tag_id;
    if (slug !== undefined) {
      const found = this.st.value('SELECT id FROM tags WHERE _slug_lc = ?', [slug.toLowerCase()]);
      if (typeof found !== 'number') return null;
      if (id !== undefined && id !== found) return null;
      id = found;
    }
    return id;
  }

  /** The lower-cased creator wallets a `creator` value stands for; [] matches nothing. */
  creatorWallets(creator: string): string[] {
    if (WALLET.test(creator)) return [creator.toLowerCase()];
    const sites = this.sites();
    const wallets = Object.hasOwn(sites, creator)
      ? sites[creator]
      : Object.hasOwn(sites, creator.toLowerCase())
        ? sites[creator.toLowerCase()]
        : undefined;
    return (wallets ?? []).map((w) => w.toLowerCase());
  }

  // ---- markets ---------------------------------------------------------------------------

  listMarkets(p: ParamsOf<'markets.list'>): Market[] {
    const sort = parseOrder(p.order, MARKET_SORT);
    const q = this.marketQuery(p, this.marketStatusPlan(p, sort), p.offset + p.limit);
    if (q.empty) return [];
    q.split = closedSplit('markets', p, sort, q, MARKET_STATUS_INDEX, MARKET_CLOSED_ACTIVE_INDEX);
    const rows = this.page('markets m', MARKET_COLS, 'm.id', q, sort, p.ascending, p.limit, p.offset);
    const markets = this.hydrateMarkets(rows.map(mapMarket));
    return p.include_tag ? this.addMarketTags(markets) : markets;
  }

  /** How many markets `markets.list` would list with these filters, over all its pages. */
  countMarkets(p: MarketFilters): number {
    const q = this.marketQuery(p, ALL_STATUS, Number.MAX_SAFE_INTEGER);
    return q.empty ? 0 : this.countWhere('markets', 'm', q);
  }

  /** The WHERE of `markets.list` (and its count). `wanted`: how many rows the caller reads, for tagFilter's plan. */
  private marketQuery(p: MarketFilters, indexed: StatusPlan, wanted: number): Query {
    const q: Query = { where: [], bind: [] };
    this.statusFilters(q, 'm', p, indexed);
    // First: a bad range is a 400 whatever else the query holds.
    if (!marketScreenTerms(q, p, this.scope, this.tagLookup('markets', 'm', wanted))) return { ...q, empty: true };
    // Given ids are read by their key: the screen index would be walked whole to find them.
    const index = p.id === undefined ? screenIndex('markets', p) : undefined;
    if (index) q.index = index;
    const tagId = this.tagId(p);
    if (tagId === null) return { ...q, empty: true };
    if (tagId !== undefined) this.tagTerm(q, 'markets', 'm', tagId, wanted);
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
    this.marketGammaFilters(q, p);
    if (p.creator !== undefined) {
      const wallets = this.creatorWallets(p.creator);
      if (wallets.length === 0) return { ...q, empty: true };
      q.where.push(`m._creator_lc IN (${placeholders(wallets.length)})`);
      q.bind.push(...wallets);
    }
    return q;
  }

  /**
   * A count whose tests are all on the status columns or the id (a tag's or an event's members)
   * reads the narrow (id, status) index, never the 2 KB rows: a big tag's count goes from about
   * 60 ms to 10 ms at 100k markets (the grids ask for it on every filter change).
   */
  private countWhere(table: 'markets' | 'events', alias: string, q: Query): number {
    const coverable = q.where.every(
      (w) => new RegExp(`^\\+?${alias}\\."(active|closed|archived)" = \\?$`).test(w) || w.startsWith(`${alias}.id IN (SELECT `),
    );
    const index = q.index ?? (q.where.length && coverable ? `${table}_id_status` : undefined);
    const from = `${table} ${alias}${index ? ` INDEXED BY ${index}` : ''}`;
    const where = q.where.length ? ` WHERE ${q.where.join(' AND ')}` : '';
    return Number(this.st.value(`SELECT count(*) FROM ${from}${where}`, q.bind) ?? 0);
  }

  /** Gamma's own `/markets` filters (docs/upstream/gamma.md 1.3), the same tests the fake upstream applies. */
  private marketGammaFilters(q: Query, p: MarketFilters): void {
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

  /** `include_tag`: each market's `tags`, the tags of its events (the cache's market_tags), by tag id. */
  private addMarketTags(markets: Market[]): Market[] {
    if (markets.length === 0) return markets;
    const byId = new Map<string, Market & { tags?: Tag[] }>();
    for (const m of markets) {
      (m as Market & { tags?: Tag[] }).tags = [];
      byId.set(m.id, m);
    }
    const ids = markets.map((m) => Number(m.id));
    for (const row of this.st.all(
      `SELECT mt.market_id, ${TAG_COLS} FROM market_tags mt JOIN tags t ON t.id = mt.tag_id ` +
        `WHERE mt.market_id IN (${placeholders(ids.length)}) ORDER BY mt.market_id, t.id`,
      ids,
    )) {
      byId.get(String(row[0]))?.tags?.push(mapTag(row.slice(1)));
    }
    return markets;
  }

  /**
   * One page in `sort` order with nulls last and ties broken by id. A single sort column reads
   * straight off its index: descending puts NULLs last already; ascending reads the non-null
   * part first and continues into the NULL part only when the page runs past it.
   */
  /**
   * One page of rows. The page is found by id first (`SELECT id ... ORDER BY ... LIMIT`), and
   * only its rows are read whole: where the plan sorts (no index walk fits the filters), the
   * sorter then holds ids and keys, not 2 KB rows. A popular tag sorted by end date at offset
   * 10,000 took a second the one-query way.
   */
  private page(
    from: string,
    cols: string,
    idCol: string,
    q: Query,
    sort: string[] | null,
    ascending: boolean,
    limit: number,
    offset: number,
  ): Row[] {
    return this.rowsById(from, cols, idCol, this.pageIds(from, idCol, q, sort, ascending, limit, offset));
  }

  private pageIds(
    from: string,
    idCol: string,
    q: Query,
    sort: string[] | null,
    ascending: boolean,
    limit: number,
    offset: number,
  ): number[] {
    const c = sort?.length === 1 ? sort[0]! : undefined;
    const split = q.split && c !== undefined && c !== idCol ? q.split : undefined;
    const terms = (extra?: string) => (extra ? [...q.where, extra] : q.where);
    const where = (all: string[]) => (all.length ? ` WHERE ${all.join(' AND ')}` : '');
    const src = q.index ? `${from} INDEXED BY ${q.index}` : from;
    /** The page's ids; `order` names the key as `$k` and the id as `$id`. */
    const ids = (extra: string | undefined, order: string, n: number, skip: number): number[] => {
      if (!split) {
        const orderBy = order.replaceAll('$k', c ?? idCol).replaceAll('$id', idCol);
        const sql = `SELECT ${idCol} FROM ${src}${where(terms(extra))} ORDER BY ${orderBy}`;
        if (q.collect !== undefined && q.collect <= MAX_COLLECT) {
          // The plan reads every member and sorts them for any page: keep the order for the next ones.
          const all = this.sorted_.get(`${sql}\u0000${JSON.stringify(q.bind)}`, () => this.st.all(sql, q.bind).map((r) => r[0] as number));
          return all.slice(skip, skip + n);
        }
        return this.st.all(`${sql} LIMIT ? OFFSET ?`, [...q.bind, n, skip]).map((r) => r[0] as number);
      }
      // The index decides the arms' order, so their status tests must be able to seek it: no `+`.
      const armTerms = terms(extra).map((w) => w.replace(/^\+/, ''));
      const closed = `${idCol.split('.')[0]}."closed"`;
      const arms = CLOSED_ARMS.map(
        (t) => `SELECT ${idCol}, ${c} FROM ${from} INDEXED BY ${split}${where([...armTerms, `${closed} ${t}`])}`,
      );
      const sql = `${arms.join(' UNION ALL ')} ORDER BY ${order.replaceAll('$k', '2').replaceAll('$id', '1')} LIMIT ? OFFSET ?`;
      return this.st.all(sql, [...q.bind, ...q.bind, ...q.bind, n, skip]).map((r) => r[0] as number);
    };
    const idOrder = !sort || (sort.length === 1 && c === idCol);
    // Not for a screen's own index (q.index): it leads with the end date, so no hop could seek an id.
    if (idOrder && !split && q.collect === undefined && q.index === undefined && offset >= this.idMarkStep) {
      // The narrow (id, status) index, never the table's 2 KB rows (without a status test the planner reads the table by rowid).
      const narrow = `${from} INDEXED BY ${from.split(' ')[0]}_id_status`;
      return this.deepIdPage(narrow, idCol, q, !sort || ascending ? 'ASC' : 'DESC', limit, offset);
    }
    if (!sort) return ids(undefined, '$id ASC', limit, offset);
    const dir = ascending ? 'ASC' : 'DESC';
    if (sort.length > 1) {
      const order = sort.map((k) => `(${k} IS NULL), ${k} ${dir}`).join(', ');
      return ids(undefined, `${order}, $id ${dir}`, limit, offset);
    }
    if (c === idCol || !ascending) return ids(undefined, `$k ${dir}, $id ${dir}`, limit, offset);
    // `+`: the test must not pick the key's own index as a range (key > NULL) over the status index, which
    // reads a row per entry for its status: `closed=true` by 24h volume ascending, 400 ms at 100k with no match.
    const first = ids(`+${c} IS NOT NULL`, '$k ASC, $id ASC', limit, offset);
    if (first.length === limit) return first;
    let nullOffset = 0;
    if (first.length === 0 && offset > 0) {
      const nonNull = Number(this.st.value(`SELECT count(*) FROM ${src}${where(terms(`${c} IS NOT NULL`))}`, q.bind) ?? 0);
      nullOffset = Math.max(0, offset - nonNull);
    }
    return first.concat(ids(`${c} IS NULL`, '$id ASC', limit - first.length, nullOffset));
  }

  /**
   * A deep page in id order (the default, and what scripts page through by offset). OFFSET skips
   * rows one by one, so every page at offset 700,000 read 700,000 index entries (about 20 ms at a
   * million markets), and paging through the whole catalog cost the square of its size. Instead the
   * ids at every idMarkStep-th place of the listing are kept until the next write, found as far as
   * pages have asked (each one hop of idMarkStep rows from the one before); a page starts at the
   * checkpoint before it (`id >= mark`) and skips fewer than idMarkStep rows. (A window function's
   * row_number() found them all in one statement, but took 1.8 s at a million markets.)
   */
  private deepIdPage(src: string, idCol: string, q: Query, dir: 'ASC' | 'DESC', limit: number, offset: number): number[] {
    const step = this.idMarkStep;
    const after = dir === 'ASC' ? '>' : '<';
    const where = (seek?: string) => {
      const all = seek ? [...q.where, `${idCol} ${seek}`] : q.where;
      return all.length ? ` WHERE ${all.join(' AND ')}` : '';
    };
    const order = ` ORDER BY ${idCol} ${dir} LIMIT 1 OFFSET`;
    // marks.ids[k - 1] is the id at place k * step (0-based), k >= 1.
    const marks = this.idMarks_.get(`${step}\u0000${src}${where()}\u0000${dir}\u0000${JSON.stringify(q.bind)}`, () => ({
      ids: [],
      end: false,
    }));
    const k = Math.floor(offset / step);
    if (marks.ids.length < k && !marks.end) {
      // The missing hops in one statement (a recursive CTE): SQLite runs them without a call from JS each.
      const last = marks.ids.at(-1);
      const [first, firstBind] =
        last === undefined
          ? [`SELECT ${idCol} FROM ${src}${where()}${order} ${step}`, q.bind]
          : [`SELECT ${idCol} FROM ${src}${where(`${after} ?`)}${order} ${step - 1}`, [...q.bind, last]];
      const next = `SELECT ${idCol} FROM ${src}${where(`${after} hop.id`)}${order} ${step - 1}`;
      const found = this.st
        .all(
          `WITH RECURSIVE hop(id, n) AS (SELECT (${first}), 1 UNION ALL SELECT (${next}), n + 1 FROM hop WHERE id IS NOT NULL AND n < ?) ` +
            'SELECT id FROM hop',
          [...firstBind, ...q.bind, k - marks.ids.length],
        )
        .map((r) => r[0]);
      for (const id of found) {
        if (id === null) marks.end = true;
        else marks.ids.push(id as number);
      }
    }
    // The listing ends before place k * step.
    if (k > marks.ids.length) return [];
    const sql = `SELECT ${idCol} FROM ${src}${where(`${after}= ?`)} ORDER BY ${idCol} ${dir} LIMIT ? OFFSET ?`;
    return this.st.all(sql, [...q.bind, marks.ids[k - 1]!, limit, offset - k * step]).map((r) => r[0] as number);
  }

  /** The rows of `ids`, whole, in that order. */
  private rowsById(from: string, cols: string, idCol: string, ids: number[]): Row[] {
    if (ids.length === 0) return [];
    const byId = new Map(
      this.st.all(`SELECT ${cols} FROM ${from} WHERE ${idCol} IN (${placeholders(ids.length)})`, ids).map((r) => [r[0] as number, r]),
    );
    const rows: Row[] = [];
    for (const id of ids) {
      const r = byId.get(id);
      if (r) rows.push(r);
    }
    return rows;
  }

  /** Adds each market's `events` (EventRef) in one query. */
  private hydrateMarkets(markets: Market[]): Market[] {
    if (markets.length === 0) return markets;
    const byId = new Map<string, Market>();
    for (const m of markets) {
      m.events = [];
      byId.set(m.id, m);
    }
    const ids = markets.map((m) => Number(m.id));
    const rows = this.st.all(
      `SELECT me.market_id, e.id, e."ticker", e."slug", e."title" FROM market_events me JOIN events e ON e.id = me.event_id ` +
        `WHERE me.market_id IN (${placeholders(ids.length)}) ORDER BY me.market_id, me.position, e.id`,
      ids,
    );
    for (const [mid, id, ticker, slug, title] of rows) {
      const ref: EventRef = { id: String(id) };
      if (typeof ticker === 'string') ref.ticker = ticker;
      if (typeof slug === 'string') ref.slug = slug;
      if (typeof title === 'string') ref.title = title;
      byId.get(String(mid))?.events?.push(ref);
    }
    return markets;
  }

  getMarket(id: number): Market | undefined {
    const row = this.st.first(`SELECT ${MARKET_COLS} FROM markets m WHERE m.id = ?`, [id]);
    return row ? this.hydrateMarkets([mapMarket(row)])[0] : undefined;
  }

  getMarketBySlug(slug: string): Market | undefined {
    // The lowest id of that slug: the index holds equal slugs in id order. An ORDER BY or min()
    // beside the wide column list cost sql.js 10 times the lookup (`npm run bench -- --only native`).
    const row = this.st.first(`SELECT ${MARKET_COLS} FROM markets m WHERE m.id = (SELECT id FROM markets WHERE "slug" = ? LIMIT 1)`, [
      slug,
    ]);
    return row ? this.hydrateMarkets([mapMarket(row)])[0] : undefined;
  }

  // ---- events ----------------------------------------------------------------------------

  /** `total`: set to the count of every match, for /events/pagination (left at 0 when nothing can match). */
  listEvents(p: ParamsOf<'events.list'>, total?: { count: number }): Event[] {
    const sort = parseOrder(p.order, EVENT_SORT);
    const q = this.eventQuery(p, this.eventStatusPlan(p, sort), p.offset + p.limit);
    if (q.empty) return [];
    if (total) total.count = this.countWhere('events', 'e', q);
    q.split = closedSplit('events', p, sort, q, EVENT_STATUS_INDEX, EVENT_CLOSED_ACTIVE_INDEX);
    const rows = this.page('events e', EVENT_COLS, 'e.id', q, sort, p.ascending, p.limit, p.offset);
    return this.hydrateEvents(rows.map(mapEvent), p.include_markets ?? true);
  }

  /** How many events `events.list` would list with these filters, over all its pages. */
  countEvents(p: EventFilters): number {
    const q = this.eventQuery(p, ALL_STATUS, Number.MAX_SAFE_INTEGER);
    return q.empty ? 0 : this.countWhere('events', 'e', q);
  }

  /** The WHERE of `events.list` (and its counts). */
  private eventQuery(p: EventFilters, indexed: StatusPlan, wanted: number): Query {
    const q: Query = { where: [], bind: [] };
    this.statusFilters(q, 'e', p, indexed);
    if (!eventScreenTerms(q, p, this.scope, this.tagLookup('events', 'e', wanted))) return { ...q, empty: true };
    // Given ids are read by their key: the screen index would be walked whole to find them.
    const index = p.id === undefined ? screenIndex('events', p) : undefined;
    if (index) q.index = index;
    const tagId = this.tagId(p);
    if (tagId === null) return { ...q, empty: true };
    // Gamma answers this contradiction with an error (its keyset docs), not an empty list.
    if (tagId !== undefined && p.exclude_tag_id?.includes(tagId)) throw badRequest('catalog', 'exclude_tag_id must not include tag_id');
    if (tagId !== undefined) this.tagTerm(q, 'events', 'e', tagId, wanted);
    if (p.series_slug !== undefined) {
      q.where.push('e.id IN (SELECT es.event_id FROM event_series es JOIN series s ON s.id = es.series_id WHERE s._slug_lc = ?)');
      q.bind.push(p.series_slug.toLowerCase());
    }
    this.eventGammaFilters(q, p);
    if (p.creator !== undefined) {
      const wallets = this.creatorWallets(p.creator);
      if (wallets.length === 0) return { ...q, empty: true };
      // An event is the site's when it says so itself (Kuest events carry `creator`) or one of its markets does.
      const list = placeholders(wallets.length);
      q.where.push(
        `(e._creator_lc IN (${list}) OR e.id IN (SELECT me.event_id FROM market_events me ` +
          `JOIN markets m ON m.id = me.market_id WHERE m._creator_lc IN (${list})))`,
      );
      q.bind.push(...wallets, ...wallets);
    }
    return q;
  }

  /** Gamma's own `/events` filters (docs/upstream/gamma.md 1.4), the same tests the fake upstream applies. */
  private eventGammaFilters(q: Query, p: EventFilters): void {
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
      q.where.push(
        'e.id IN (SELECT es.event_id FROM event_series es JOIN series s ON s.id = es.series_id WHERE lower(s."recurrence") = ?)',
      );
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

  /** Adds each event's `tags` and `markets` (markets without `events`), two queries per page. */
  private hydrateEvents(base: Omit<Event, 'tags' | 'markets'>[], withMarkets = true): Event[] {
    // include_markets=false leaves the key out altogether, as Gamma does.
    const events = base.map(
      (e) => (withMarkets ? { ...e, tags: [] as Tag[], markets: [] as Market[] } : { ...e, tags: [] as Tag[] }) as Event,
    );
    if (events.length === 0) return events;
    const byId = new Map(events.map((e) => [e.id, e]));
    const ids = events.map((e) => Number(e.id));
    const inList = placeholders(ids.length);
    for (const row of this.st.all(
      `SELECT et.event_id, ${TAG_COLS} FROM event_tags et JOIN tags t ON t.id = et.tag_id ` +
        `WHERE et.event_id IN (${inList}) ORDER BY et.event_id, et.position`,
      ids,
    )) {
      byId.get(String(row[0]))?.tags.push(mapTag(row.slice(1)));
    }
    if (!withMarkets) return events;
    for (const row of this.st.all(
      `SELECT me.event_id, ${MARKET_COLS} FROM market_events me JOIN markets m ON m.id = me.market_id ` +
        `WHERE me.event_id IN (${inList}) ORDER BY me.event_id, me.position, m.id`,
      ids,
    )) {
      byId.get(String(row[0]))?.markets.push(mapMarket(row.slice(1)));
    }
    return events;
  }

  getEvent(id: number): Event | undefined {
    const row = this.st.first(`SELECT ${EVENT_COLS} FROM events e WHERE e.id = ?`, [id]);
    return row ? this.hydrateEvents([mapEvent(row)])[0] : undefined;
  }

  getEventBySlug(slug: string): Event | undefined {
    const row = this.st.first(`SELECT ${EVENT_COLS} FROM events e WHERE e.id = (SELECT id FROM events WHERE _slug_lc = ? LIMIT 1)`, [
      slug.toLowerCase(),
    ]);
    return row ? this.hydrateEvents([mapEvent(row)])[0] : undefined;
  }

  // ---- export (catalog.export): a whole listing, its ids first, then its rows by batches ----

  /**
   * The ids of every market `markets.list` lists with these filters and order, in its order: the
   * listing's own WHERE and ORDER (marketQuery, pageIds) read once with no page. The export then
   * reads the rows by id a batch at a time (marketsById), so its cost is linear in its rows:
   * OFFSET pages walked or sorted every row before each page again. A snapshot: rows a sync
   * changes meanwhile show their new values in the old order, rows it deletes are left out.
   */
  exportMarketIds(p: Omit<ParamsOf<'markets.list'>, 'limit' | 'offset'>): number[] {
    const sort = parseOrder(p.order, MARKET_SORT);
    const q = this.marketQuery(p, this.marketStatusPlan(p, sort), EXPORT_ALL);
    return q.empty ? [] : this.pageIds('markets m', 'm.id', q, sort, p.ascending, EXPORT_ALL, 0);
  }

  /** The markets of `ids` still cached, in that order, shaped as `markets.list` shapes them. */
  marketsById(ids: number[], includeTag?: boolean): Market[] {
    const markets = this.hydrateMarkets(this.rowsById('markets m', MARKET_COLS, 'm.id', ids).map(mapMarket));
    return includeTag ? this.addMarketTags(markets) : markets;
  }

  /** As exportMarketIds, for `events.list`. */
  exportEventIds(p: Omit<ParamsOf<'events.list'>, 'limit' | 'offset' | 'include_markets'>): number[] {
    const sort = parseOrder(p.order, EVENT_SORT);
    const q = this.eventQuery(p, this.eventStatusPlan(p, sort), EXPORT_ALL);
    return q.empty ? [] : this.pageIds('events e', 'e.id', q, sort, p.ascending, EXPORT_ALL, 0);
  }

  /** The events of `ids` still cached, in that order, with their tags and markets (as `events.list`). */
  eventsById(ids: number[]): Event[] {
    return this.hydrateEvents(this.rowsById('events e', EVENT_COLS, 'e.id', ids).map(mapEvent), true);
  }

  // ---- tags ------------------------------------------------------------------------------

  listTags(limit: number, offset: number): Tag[] {
    return this.st.all(`SELECT ${TAG_COLS} FROM tags t ORDER BY t.id LIMIT ? OFFSET ?`, [limit, offset]).map(mapTag);
  }

  getTag(id: number): Tag | undefined {
    const row = this.st.first(`SELECT ${TAG_COLS} FROM tags t WHERE t.id = ?`, [id]);
    return row ? mapTag(row) : undefined;
  }

  getTagBySlug(slug: string): Tag | undefined {
    const row = this.st.first(`SELECT ${TAG_COLS} FROM tags t WHERE t._slug_lc = ?`, [slug.toLowerCase()]);
    return row ? mapTag(row) : undefined;
  }

  counts(): { markets: number; events: number; tags: number; series: number } {
    const c = (t: string) => Number(this.st.value(`SELECT count(*) FROM ${t}`) ?? 0);
    return { markets: c('markets'), events: c('events'), tags: c('tags'), series: c('series') };
  }
}
