/**
 * The catalog operations: markets, events, tags (spec 4.1, 4.2, 4.6) and the service status.
 */
import { op } from './define.ts';
import { bool, int, str, withAliases } from './params.ts';
import type { Event, Market, ServiceStatus, Tag } from './types.ts';

/** `order` columns (DESIGN.md): camelCase field names, comma-separated. */
export const MARKET_ORDER_FIELDS = [
  'id', 'slug', 'question', 'volume', 'volumeNum', 'volume24hr', 'volume1wk', 'liquidity', 'liquidityNum',
  'startDate', 'endDate', 'createdAt', 'updatedAt', 'closedTime',
] as const;
export const EVENT_ORDER_FIELDS = [
  'id', 'slug', 'title', 'volume', 'volume24hr', 'volume1wk', 'liquidity', 'startDate', 'endDate',
  'createdAt', 'updatedAt', 'closedTime',
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
    face: 'base', cache: 'catalog', method: 'GET', path: '/markets', errors: 'catalog', unknownParams: 'ignore',
    params: {
      ...page, ...status, ...tagFilters,
      event_id: int({ min: 0 }),
      event_slug: withAliases(str(), 'eventSlug'),
      conditionId: withAliases(str(), 'condition_id'),
      slug: str(),
      ...sorting, ...creator,
    },
  }),
  'markets.get': op<Market>()({
    face: 'base', cache: 'catalog', method: 'GET', path: '/markets/:id', errors: 'catalog', unknownParams: 'ignore', params: pathId,
  }),
  'markets.bySlug': op<Market>()({
    face: 'base', cache: 'catalog', method: 'GET', path: '/markets/slug/:slug', errors: 'catalog', unknownParams: 'ignore', params: pathSlug,
  }),
  'events.list': op<Event[]>()({
    face: 'base', cache: 'catalog', method: 'GET', path: '/events', errors: 'catalog', unknownParams: 'ignore',
    params: { ...page, ...status, ...tagFilters, series_slug: str(), slug: str(), ...sorting, ...creator },
  }),
  'events.get': op<Event>()({
    face: 'base', cache: 'catalog', method: 'GET', path: '/events/:id', errors: 'catalog', unknownParams: 'ignore', params: pathId,
  }),
  'events.bySlug': op<Event>()({
    face: 'base', cache: 'catalog', method: 'GET', path: '/events/slug/:slug', errors: 'catalog', unknownParams: 'ignore', params: pathSlug,
  }),
  'tags.list': op<Tag[]>()({
    face: 'base', cache: 'catalog', method: 'GET', path: '/tags', errors: 'catalog', unknownParams: 'ignore',
    params: { limit: int({ min: 1, max: 1000, default: 100 }), offset: int({ min: 0, default: 0 }) },
  }),
  'tags.get': op<Tag>()({
    face: 'base', cache: 'catalog', method: 'GET', path: '/tags/:id', errors: 'catalog', unknownParams: 'ignore', params: pathId,
  }),
  'tags.bySlug': op<Tag>()({
    face: 'base', cache: 'catalog', method: 'GET', path: '/tags/slug/:slug', errors: 'catalog', unknownParams: 'ignore', params: pathSlug,
  }),
  'service.status': op<ServiceStatus>()({
    face: 'base', method: 'GET', path: '/status', errors: 'catalog', unknownParams: 'ignore', params: {},
  }),
} as const;
