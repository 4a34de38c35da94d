/**
 * The one listing path of GET /markets and GET /events, their counts and their exports: the
 * entity (listing-entities.ts) is a parameter. It writes the WHERE (status, screen, tag, the
 * entity's own filters, creator), picks the plan (listing-plans.ts) and reads the page
 * (listing-pages.ts); the reader (catalog-reader.ts) shapes the rows.
 */
import type { ListingEntity, ListingFilters } from './listing-entities.ts';
import { ListingPages } from './listing-pages.ts';
import { ALL_STATUS, closedSplit, parseOrder, statusPlan, statusTerms, type Query, type StatusPlan } from './listing-plans.ts';
import { NO_SCOPE, screenIndex, type ScreenScope, type TagLookup } from './screen-filters.ts';
import { UntilWrite, type Statements } from './statements.ts';

/** Which wallets a `creator` site identifier stands for (docs/architecture.md, "Decisions": `creator`). */
export type SiteMap = Readonly<Record<string, readonly string[]>>;

/** A listing's order: `order` names (listing-plans.ts parseOrder) and their direction. */
export interface Sorting {
  order?: string;
  ascending: boolean;
}
/** A listing's page. */
export interface Paging {
  limit: number;
  offset: number;
}

/** Any entity, where only its tables are read. */
type AnyEntity = ListingEntity<never, unknown>;

const WALLET = /^0x[0-9a-fA-F]{40}$/;
/** "No page": the LIMIT (and the tag filter's read size) of an export's id list. */
const EXPORT_ALL = Number.MAX_SAFE_INTEGER;

export class CatalogListing {
  /** Row counts (of a table, of a tag's items) until the next write; see tagFilter(). */
  private readonly counts_: UntilWrite<string, number>;
  readonly pages: ListingPages;
  /** The watchlist and clock the screen filters read (service.ts sets it; tests get none). */
  scope: ScreenScope = NO_SCOPE;

  constructor(
    private readonly st: Statements,
    private readonly sites: () => SiteMap,
  ) {
    this.counts_ = new UntilWrite(st);
    this.pages = new ListingPages(st);
  }

  /** One page of the listing, mapped. `total`: set to the count of every match (left at 0 when nothing can match). */
  list<P extends ListingFilters, R>(e: ListingEntity<P, R>, p: P & Sorting & Paging, total?: { count: number }): R[] {
    const sort = parseOrder(p.order, e);
    const q = this.query(e, p, statusPlan(p, sort, e), p.offset + p.limit);
    if (q.empty) return [];
    if (total) total.count = this.countWhere(e, q);
    q.split = closedSplit(p, sort, q, e);
    return this.pages.page(e, q, sort, p.ascending, p.limit, p.offset).map(e.map);
  }

  /** How many the listing would list with these filters, over all its pages. */
  count<P extends ListingFilters>(e: ListingEntity<P, unknown>, p: P): number {
    const q = this.query(e, p, ALL_STATUS, Number.MAX_SAFE_INTEGER);
    return q.empty ? 0 : this.countWhere(e, q);
  }

  /**
   * The ids of everything the listing lists with these filters and order, in its order: the
   * listing's own WHERE and ORDER read once with no page. The export then reads the rows by id a
   * batch at a time (byId), so its cost is linear in its rows: OFFSET pages walked or sorted every
   * row before each page again. A snapshot: rows a sync changes meanwhile show their new values in
   * the old order, rows it deletes are left out.
   */
  exportIds<P extends ListingFilters>(e: ListingEntity<P, unknown>, p: P & Sorting): number[] {
    const sort = parseOrder(p.order, e);
    const q = this.query(e, p, statusPlan(p, sort, e), EXPORT_ALL);
    return q.empty ? [] : this.pages.ids(e, q, sort, p.ascending, EXPORT_ALL, 0);
  }

  /** The rows of `ids` still cached, in that order, mapped. */
  byId<R>(e: ListingEntity<never, R>, ids: number[]): R[] {
    return this.pages.rowsById(e, ids).map(e.map);
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

  /**
   * The WHERE of a listing (and its count). `indexed`: the status tests that may take an index
   * (listing-plans.ts statusPlan). `wanted`: how many rows the caller reads, for tagFilter's plan.
   */
  private query<P extends ListingFilters>(e: ListingEntity<P, unknown>, p: P, indexed: StatusPlan, wanted: number): Query {
    const q: Query = { where: [], bind: [] };
    statusTerms(q, e.alias, p, indexed);
    // First: a bad range is a 400 whatever else the query holds.
    if (!e.screenTerms(q, p, this.scope, this.tagLookup(e, wanted))) return { ...q, empty: true };
    // Given ids are read by their key: the screen index would be walked whole to find them.
    const index = p.id === undefined ? screenIndex(e.table, p) : undefined;
    if (index) q.index = index;
    const tagId = this.tagId(p);
    if (tagId === null) return { ...q, empty: true };
    if (tagId !== undefined) {
      e.checkTag?.(p, tagId);
      this.tagTerm(q, e, tagId, wanted);
    }
    e.ownTerms(q, p);
    if (p.creator !== undefined) {
      const wallets = this.creatorWallets(p.creator);
      if (wallets.length === 0) return { ...q, empty: true };
      e.creatorTerm(q, wallets);
    }
    return q;
  }

  /**
   * A count whose tests are all on the status columns or the id (a tag's or an event's members)
   * reads the narrow (id, status) index, never the 2 KB rows: a big tag's count goes from about
   * 60 ms to 10 ms at 100k markets (the grids ask for it on every filter change).
   */
  private countWhere(e: AnyEntity, q: Query): number {
    const { table, alias } = e;
    const coverable = q.where.every(
      (w) => new RegExp(`^\\+?${alias}\\."(active|closed|archived)" = \\?$`).test(w) || w.startsWith(`${alias}.id IN (SELECT `),
    );
    const index = q.index ?? (q.where.length && coverable ? `${table}_id_status` : undefined);
    const from = `${table} ${alias}${index ? ` INDEXED BY ${index}` : ''}`;
    const where = q.where.length ? ` WHERE ${q.where.join(' AND ')}` : '';
    return Number(this.st.value(`SELECT count(*) FROM ${from}${where}`, q.bind) ?? 0);
  }

  // ---- the tag filter ----------------------------------------------------------------------

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

  /**
   * The tag filter, in the form that is cheap for this tag. Collecting the tag's items (its
   * index) and sorting them costs about as many steps as the tag has items. Walking the sort's
   * own index and probing each item's tags costs about (offset + limit) x all / tagged steps,
   * four times over to allow for the other filters. A popular tag (a third of all markets)
   * with `order=endDate` took 150 ms the first way and under 1 ms the second; a rare one is
   * the other way round.
   */
  private tagFilter(e: AnyEntity, tagId: number, wanted: number): string {
    const { link, own } = e.tagLink;
    return this.collects(e, tagId, wanted)
      ? `${e.alias}.id IN (SELECT ${own} FROM ${link} WHERE tag_id = ?)`
      : `EXISTS (SELECT 1 FROM ${link} l WHERE l.tag_id = ? AND l.${own} = ${e.alias}.id)`;
  }

  /** tagFilter's choice: collect the tag's items (true), or walk the sort's index probing each item's tags. */
  private collects(e: AnyEntity, tagId: number, wanted: number): boolean {
    const all = this.counts_.get(e.table, () => Number(this.st.value(`SELECT count(*) FROM ${e.table}`) ?? 0));
    const tagged = this.tagSize(e, tagId);
    return 4 * wanted * all >= tagged * tagged;
  }

  /** How many markets or events carry the tag, until the next write. */
  private tagSize(e: AnyEntity, tagId: number): number {
    const { link } = e.tagLink;
    return this.counts_.get(`${link}:${tagId}`, () => Number(this.st.value(`SELECT count(*) FROM ${link} WHERE tag_id = ?`, [tagId]) ?? 0));
  }

  /** `tag_id`: its test in tagFilter's form; a collected tag bounds the listing, so its sorted ids are kept (Query.collect). */
  private tagTerm(q: Query, e: AnyEntity, tagId: number, wanted: number): void {
    q.where.push(this.tagFilter(e, tagId, wanted));
    q.bind.push(tagId);
    if (this.collects(e, tagId, wanted)) q.collect = Math.min(q.collect ?? Infinity, this.tagSize(e, tagId));
  }

  /** Tag slugs for the screen filters, with tagFilter's cheapest form of "has this tag". */
  private tagLookup(e: AnyEntity, wanted: number): TagLookup {
    return {
      idOf: (slug) => {
        const id = this.st.value('SELECT id FROM tags WHERE _slug_lc = ?', [slug]);
        return typeof id === 'number' ? id : undefined;
      },
      has: (tagId) => this.tagFilter(e, tagId, wanted),
    };
  }
}
