/**
 * The catalog operations' parameters and results: markets, events, tags (spec 4.1, 4.2, 4.6)
 * and the service status. Their routes are routes.ts's `catalogRoutes`.
 */
import { op, type DeclsFor } from './define.ts';
import { bool, int, str, withAliases } from './params.ts';
import type { catalogRoutes } from './routes.ts';
import type { Event, Market, ServiceStatus, Tag } from './types.ts';

/** `order` columns (DESIGN.md): camelCase field names, comma-separated. */
export const MARKET_ORDER_FIELDS = [
  'id',
  'slug',
  'question',
  'volume',
  'volumeNum',
  'volume24hr',
  'volume1wk',
  'liquidity',
  'liquidityNum',
  'startDate',
  'endDate',
  'createdAt',
  'updatedAt',
  'closedTime',
] as const;
export const EVENT_ORDER_FIELDS = [
  'id',
  'slug',
  'title',
  'volume',
  'volume24hr',
  'volume1wk',
  'liquidity',
  'startDate',
  'endDate',
  'createdAt',
  'updatedAt',
  'closedTime',
] as const;
export type MarketOrderField = (typeof MARKET_ORDER_FIELDS)[number];
export type EventOrderField = (typeof EVENT_ORDER_FIELDS)[number];

const page = { limit: int({ min: 1, max: 100, default: 20 }), offset: int({ min: 0, default: 0 }) };
const status = { active: bool(), closed: bool(), archived: bool() };
const tagFilters = { tag: str(), tag_id: int({ min: 0 }), tag_slug: str() };
const sorting = { order: str({ maxLength: 300 }), ascending: bool({ default: false }) };
const creator = { creator: str() };
const pathId = { id: str({ required: true, maxLength: 40 }) };
const pathSlug = { slug: str({ required: true, maxLength: 300 }) };

export const catalogOperations = {
  'markets.list': op<Market[]>()({
    ...page,
    ...status,
    ...tagFilters,
    event_id: int({ min: 0 }),
    event_slug: withAliases(str(), 'eventSlug'),
    conditionId: withAliases(str(), 'condition_id'),
    slug: str(),
    ...sorting,
    ...creator,
  }),
  'markets.get': op<Market>()(pathId),
  'markets.bySlug': op<Market>()(pathSlug),
  'events.list': op<Event[]>()({ ...page, ...status, ...tagFilters, series_slug: str(), slug: str(), ...sorting, ...creator }),
  'events.get': op<Event>()(pathId),
  'events.bySlug': op<Event>()(pathSlug),
  'tags.list': op<Tag[]>()({ limit: int({ min: 1, max: 1000, default: 100 }), offset: int({ min: 0, default: 0 }) }),
  'tags.get': op<Tag>()(pathId),
  'tags.bySlug': op<Tag>()(pathSlug),
  'service.status': op<ServiceStatus>()({}),
} satisfies DeclsFor<typeof catalogRoutes>;
