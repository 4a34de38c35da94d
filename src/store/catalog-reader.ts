/**
 * Catalog queries: GET /markets and GET /events (their pages, counts and exports, one listing path
 * for both: catalog-listing.ts), the lookups by id and slug, and the tags, answered from the cache
 * and shaped as the spec's objects.
 */
import type { Event, EventRef, Market, ParamsOf, Tag } from '../contract/index.ts';
import { TAG_FIELDS, rowMapper } from './fields.ts';
import { CatalogListing, type SiteMap } from './catalog-listing.ts';
import {
  EVENTS,
  EVENT_COLS,
  MARKETS,
  MARKET_COLS,
  mapEvent,
  mapMarket,
  type EventFilters,
  type MarketFilters,
} from './listing-entities.ts';
import type { ScreenScope } from './screen-filters.ts';
import { placeholders, type Row, type Statements } from './statements.ts';

export type { SiteMap } from './catalog-listing.ts';
export type { EventFilters, MarketFilters } from './listing-entities.ts';

const TAG_COLS = `t.id, ${TAG_FIELDS.map((f) => `t."${f.name}"`).join(', ')}, t._extra`;
const mapTag = rowMapper(TAG_FIELDS) as (row: Row) => Tag;

export class CatalogReader {
  /** The one listing path of both entities (markets, events). */
  private readonly listing: CatalogListing;

  constructor(
    private readonly st: Statements,
    sites: () => SiteMap,
  ) {
    this.listing = new CatalogListing(st, sites);
  }

  /**
   * Rows between two id-order checkpoints. A deep page in id order starts at the checkpoint before it
   * and skips at most this many rows (a setting for tests: the fixtures are small; listing-pages.ts).
   */
  get idMarkStep(): number {
    return this.listing.pages.idMarkStep;
  }
  set idMarkStep(step: number) {
    this.listing.pages.idMarkStep = step;
  }

  /** The watchlist and clock the screen filters read (service.ts sets it; tests get none). */
  setScreenScope(scope: ScreenScope): void {
    this.listing.scope = scope;
  }

  /** The lower-cased creator wallets a `creator` value stands for; [] matches nothing. */
  creatorWallets(creator: string): string[] {
    return this.listing.creatorWallets(creator);
  }

  // ---- markets ---------------------------------------------------------------------------

  listMarkets(p: ParamsOf<'markets.list'>): Market[] {
    const markets = this.hydrateMarkets(this.listing.list(MARKETS, p));
    return p.include_tag ? this.addMarketTags(markets) : markets;
  }

  /** How many markets `markets.list` would list with these filters, over all its pages. */
  countMarkets(p: MarketFilters): number {
    return this.listing.count(MARKETS, p);
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
    return this.hydrateEvents(this.listing.list(EVENTS, p, total), p.include_markets ?? true);
  }

  /** How many events `events.list` would list with these filters, over all its pages. */
  countEvents(p: EventFilters): number {
    return this.listing.count(EVENTS, p);
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
   * The ids of every market `markets.list` lists with these filters and order, in its order, read
   * once with no page (catalog-listing.ts exportIds); the export then reads the rows by id a batch
   * at a time (marketsById).
   */
  exportMarketIds(p: Omit<ParamsOf<'markets.list'>, 'limit' | 'offset'>): number[] {
    return this.listing.exportIds(MARKETS, p);
  }

  /** The markets of `ids` still cached, in that order, shaped as `markets.list` shapes them. */
  marketsById(ids: number[], includeTag?: boolean): Market[] {
    const markets = this.hydrateMarkets(this.listing.byId(MARKETS, ids));
    return includeTag ? this.addMarketTags(markets) : markets;
  }

  /** As exportMarketIds, for `events.list`. */
  exportEventIds(p: Omit<ParamsOf<'events.list'>, 'limit' | 'offset' | 'include_markets'>): number[] {
    return this.listing.exportIds(EVENTS, p);
  }

  /** The events of `ids` still cached, in that order, with their tags and markets (as `events.list`). */
  eventsById(ids: number[]): Event[] {
    return this.hydrateEvents(this.listing.byId(EVENTS, ids), true);
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
