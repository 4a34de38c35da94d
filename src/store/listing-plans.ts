/**
 * The listings' plan tables (GET /markets and GET /events): per entity, the sort column of each
 * `order` name and the indexes a status filter and a sort can read (schema.ts ENTITY_INDEXES),
 * and the choices made from them: which status tests may take an index, and when a page is a
 * merge of closed arms.
 */
import { type EVENT_ORDER_FIELDS, type MARKET_ORDER_FIELDS, badRequest } from '../contract/index.ts';
import type { Bind } from './statements.ts';

/** A listing's WHERE (its terms and their bindings, in order) and what its plan reads. */
export interface Query {
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

/** The status filters both listings take. */
export interface StatusParams {
  active?: boolean;
  closed?: boolean;
  archived?: boolean;
}

/** One entity's plan tables. */
export interface ListingPlans {
  table: 'markets' | 'events';
  alias: 'm' | 'e';
  idCol: string;
  /** order name -> sort column. Money sent as strings sorts by its numeric twin. */
  sort: Readonly<Record<string, string>>;
  /** Sort column -> its (closed, key, active, archived) index, `<table>_status_<suffix>`. */
  statusIndex: Readonly<Record<string, string>>;
  /**
   * Sort column -> its (closed, active, key) index, `<table>_closed_active_<suffix>`: `active=true&closed=false`
   * sorted reads it in order, with no sort step.
   */
  closedActiveIndex: Readonly<Record<string, string>>;
}

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
  // Kept at write time (move-keys.ts): the grids' chance rule, and the 24h change's size.
  chance: 'm._chance',
  oneDayPriceChange: 'm."oneDayPriceChange"',
  oneDayPriceChangeSize: 'm._change_size',
  spread: 'm."spread"',
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
  // The leader's (move-keys.ts).
  chance: 'e._chance',
  oneDayPriceChange: 'e._change',
  oneDayPriceChangeSize: 'e._change_size',
};

export const MARKET_PLANS: ListingPlans = {
  table: 'markets',
  alias: 'm',
  idCol: 'm.id',
  sort: MARKET_SORT,
  statusIndex: {
    'm._volume': 'volume',
    'm."volume24hr"': 'volume24hr',
    'm."volume1wk"': 'volume1wk',
    'm._liquidity': 'liquidity',
    'm._end_ts': 'end',
    'm."question"': 'question',
    'm."slug"': 'slug',
    'm._updated_ts': 'updated',
    'm._closed_ts': 'closed_ts',
    'm._chance': 'chance',
    'm."oneDayPriceChange"': 'change',
    'm._change_size': 'change_size',
    'm."spread"': 'spread',
  },
  closedActiveIndex: {
    'm._volume': 'volume',
    'm."volume24hr"': 'volume24hr',
    'm._liquidity': 'liquidity',
    'm._end_ts': 'end',
    'm._start_ts': 'start',
    'm._created_ts': 'created',
    'm._chance': 'chance',
    'm."oneDayPriceChange"': 'change',
    'm._change_size': 'change_size',
    'm."spread"': 'spread',
  },
};

export const EVENT_PLANS: ListingPlans = {
  table: 'events',
  alias: 'e',
  idCol: 'e.id',
  sort: EVENT_SORT,
  statusIndex: {
    'e."volume"': 'volume',
    'e."volume24hr"': 'volume24hr',
    'e."liquidity"': 'liquidity',
    'e._end_ts': 'end',
    'e."title"': 'title',
    'e._chance': 'chance',
    'e._change': 'change',
    'e._change_size': 'change_size',
  },
  closedActiveIndex: {
    'e."volume"': 'volume',
    'e."volume24hr"': 'volume24hr',
    'e."liquidity"': 'liquidity',
    'e._end_ts': 'end',
    'e._start_ts': 'start',
    'e._created_ts': 'created',
    'e._chance': 'chance',
    'e._change': 'change',
    'e._change_size': 'change_size',
  },
};

type Status = 'active' | 'closed' | 'archived';
/** Which status tests may pick an index (the others are written `+col`, so the planner cannot). */
export type StatusPlan = ReadonlySet<Status>;
export const ALL_STATUS: StatusPlan = new Set(['active', 'closed', 'archived']);
const NO_STATUS: StatusPlan = new Set();

/** The sort columns of an `order` (comma-separated names, duplicates dropped); null: none, id order. */
export function parseOrder(order: string | undefined, plans: ListingPlans): string[] | null {
  if (order === undefined || order.trim() === '') return null;
  const cols: string[] = [];
  for (const name of order.split(',').map((s) => s.trim())) {
    const c = Object.hasOwn(plans.sort, name) ? plans.sort[name] : undefined;
    if (!c) throw badRequest('catalog', 'order fields are not valid');
    if (!cols.includes(c)) cols.push(c);
  }
  return cols;
}

/**
 * The status tests a page may take an index for, given its sort. Id order (the default) uses
 * none: the planner then walks the (id, closed, active, archived) index and tests them there; a
 * (closed, key) index would have it sort every matching id, and the table walk reads each 2 KB
 * row it skips (31 ms at offset 70,000 of 100k markets). `active` + `closed` with a sort that has
 * a (closed, active, key) index read that index in order; with `archived` too they stay on the
 * (closed, key, active, archived) index, which holds all three (the other would read rows).
 */
export function statusPlan(p: StatusParams, sort: string[] | null, plans: ListingPlans): StatusPlan {
  const key = sort?.length === 1 ? sort[0]! : null;
  if (key === null || key === plans.idCol) return sort && sort.length > 1 ? new Set(['archived']) : NO_STATUS;
  if (p.active !== undefined && p.closed !== undefined && p.archived === undefined && Object.hasOwn(plans.closedActiveIndex, key)) {
    return ALL_STATUS;
  }
  return Object.hasOwn(plans.statusIndex, key) ? new Set(['closed', 'archived']) : new Set(['archived']);
}

/**
 * The status filters' terms. `indexed`: the status tests the planner may use an index for. The
 * others are written `+col`, so it cannot pick a (closed, other key) index for the WHERE and then
 * sort most of the table; it walks the sort's own index and filters instead.
 */
export function statusTerms(q: Query, alias: string, p: StatusParams, indexed: StatusPlan): void {
  for (const k of ['active', 'closed', 'archived'] as const) {
    const v = p[k];
    if (v !== undefined) {
      q.where.push(`${indexed.has(k) ? '' : '+'}${alias}."${k}" = ?`);
      q.bind.push(v ? 1 : 0);
    }
  }
}

const STATUS_TERM = /^\+?[a-z]\."(active|closed|archived)" = \?$/;

/**
 * `active` or `archived` tested without `closed`, sorted by one key: no index leads with them, so the
 * planner walks the key's own index and reads each 2 KB row for its status (`active=false` by 24h
 * volume: 350 ms at 100k markets, `active=true` at offset 5,000: 40 ms). Such a page is instead a merge
 * of one arm per `closed` value, each read in key order from a (closed, ...) index that holds the other
 * flags, never the rows: SQLite merges UNION ALL arms sorted alike (3 ms and 2 ms). Only when the status
 * tests are the whole WHERE; other filters keep their own plans.
 */
export function closedSplit(p: StatusParams, sort: string[] | null, q: Query, plans: ListingPlans): string | undefined {
  if (p.closed !== undefined || (p.active === undefined && p.archived === undefined) || sort?.length !== 1 || q.index) return undefined;
  if (!q.where.every((w) => STATUS_TERM.test(w))) return undefined;
  const key = sort[0]!;
  const closedActive = p.archived === undefined ? plans.closedActiveIndex[key] : undefined;
  if (closedActive) return `${plans.table}_closed_active_${closedActive}`;
  const status = plans.statusIndex[key];
  return status ? `${plans.table}_status_${status}` : undefined;
}
