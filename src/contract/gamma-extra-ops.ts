/**
 * Parameters and results of Gamma's other read routes (routes.ts's `gammaRoutes`): the keyset
 * listings, /events/pagination, series and a market's or event's tags.
 *
 * The keyset listings and /events/pagination take the same filters as /markets and /events: their
 * declarations are spread from catalog-ops.ts, so a filter added there is taken here too.
 */
import type { CatalogRecord, SeriesFields } from './catalog-fields.ts';
import { catalogOperations } from './catalog-ops.ts';
import { op, type DeclsFor } from './define.ts';
import { bool, int, str } from './params.ts';
import type { gammaRoutes } from './routes.ts';
import type { Event, Market, Tag } from './types.ts';

/** Gamma's keyset envelope: `next_cursor` is left out on the last page (docs/upstream/gamma.md §1.1). */
export interface MarketsKeysetPage {
  markets: Market[];
  next_cursor?: string;
}
export interface EventsKeysetPage {
  events: Event[];
  next_cursor?: string;
}
export interface EventsPaginationPage {
  data: Event[];
  pagination: { hasMore: boolean; totalResults: number };
}

/** A series as the cache keeps it (catalog-fields.ts SERIES_FIELD_KINDS), with its events' ids and titles. */
export interface Series extends CatalogRecord<SeriesFields> {
  events?: { id: string; ticker?: string; slug?: string; title?: string }[];
}

/** The largest keyset page; a larger `limit` is clamped to it, as Gamma does (gamma.md §1.1). */
export const KEYSET_MAX_LIMIT = 100;

/**
 * Keyset: no `offset` (Gamma answers one with an error, which the handler gives), `after_cursor`
 * from the previous page's `next_cursor`, and `ascending` true by default (Gamma's keyset docs).
 * `limit` has no maximum here: the official SDK sends any page size to the keyset routes, and
 * Gamma clamps it; the handler does too.
 */
const keyset = {
  limit: int({ min: 1, default: 20 }),
  offset: int({ min: 0 }),
  after_cursor: str({ maxLength: 200 }),
  ascending: bool({ default: true }),
};
const pathId = { id: str({ required: true, maxLength: 40 }) };

/** `order` names for /series: its sortable cached columns. */
export const SERIES_ORDER_FIELDS = ['id', 'slug', 'title', 'ticker', 'createdAt', 'updatedAt'] as const;

export const gammaExtraOperations = {
  'markets.keyset': op<MarketsKeysetPage>()({ ...catalogOperations['markets.list'].params, ...keyset }),
  'events.keyset': op<EventsKeysetPage>()({ ...catalogOperations['events.list'].params, ...keyset }),
  'events.pagination': op<EventsPaginationPage>()(catalogOperations['events.list'].params),
  'markets.tags': op<Tag[]>()(pathId),
  'events.tags': op<Tag[]>()(pathId),
  // Gamma caps a /series page at 50 (the official SDK's page size cap) and takes any offset.
  'series.list': op<Series[]>()({
    limit: int({ min: 1, max: 50, default: 20 }),
    offset: int({ min: 0, default: 0 }),
    order: str({ maxLength: 300 }),
    ascending: bool({ default: false }),
    slug: str({ maxLength: 300 }),
    closed: bool(),
    active: bool(),
    archived: bool(),
    recurrence: str({ maxLength: 40 }),
  }),
  'series.get': op<Series>()(pathId),
} satisfies DeclsFor<typeof gammaRoutes>;
