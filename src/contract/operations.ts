/**
 * The one contract table. Each operation is declared once: name, face, HTTP method and
 * path, parameters (bounds, defaults, aliases) and result type. The HTTP faces register
 * routes from it, the IPC bridge exposes exactly its names, the renderer client is typed by it.
 */
import { bool, int, str, withAliases, type InputParams, type ParamDefs, type ParsedParams } from './params.ts';
import type { Event, Market, ServiceStatus, Tag } from './types.ts';

export type Face = 'base' | 'clob';
/** Which error-body family an operation answers with (spec section 7). */
export type ErrorStyle = 'catalog' | 'orders' | 'leaderboard';

export interface OperationDef<Defs extends ParamDefs, Result> {
  face: Face;
  method: 'GET' | 'POST' | 'DELETE';
  /** Fastify-style path; `:name` segments are path parameters, declared in `params` too. */
  path: string;
  params: Defs;
  errors: ErrorStyle;
  /** Unknown query parameters: ignored (Gamma's way) or rejected (the leaderboard's). */
  unknownParams: 'ignore' | 'reject';
  /** Phantom field carrying the result type; never set at run time. */
  result?: Result;
}

/** Curried so the result type is given and the parameter declarations are inferred. */
function op<Result>() {
  return <Defs extends ParamDefs>(def: Omit<OperationDef<Defs, Result>, 'result'>): OperationDef<Defs, Result> => def;
}

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

export const operations = {
  'markets.list': op<Market[]>()({
    face: 'base', method: 'GET', path: '/markets', errors: 'catalog', unknownParams: 'ignore',
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
    face: 'base', method: 'GET', path: '/markets/:id', errors: 'catalog', unknownParams: 'ignore', params: pathId,
  }),
  'markets.bySlug': op<Market>()({
    face: 'base', method: 'GET', path: '/markets/slug/:slug', errors: 'catalog', unknownParams: 'ignore', params: pathSlug,
  }),
  'events.list': op<Event[]>()({
    face: 'base', method: 'GET', path: '/events', errors: 'catalog', unknownParams: 'ignore',
    params: { ...page, ...status, ...tagFilters, series_slug: str(), slug: str(), ...sorting, ...creator },
  }),
  'events.get': op<Event>()({
    face: 'base', method: 'GET', path: '/events/:id', errors: 'catalog', unknownParams: 'ignore', params: pathId,
  }),
  'events.bySlug': op<Event>()({
    face: 'base', method: 'GET', path: '/events/slug/:slug', errors: 'catalog', unknownParams: 'ignore', params: pathSlug,
  }),
  'tags.list': op<Tag[]>()({
    face: 'base', method: 'GET', path: '/tags', errors: 'catalog', unknownParams: 'ignore',
    params: { limit: int({ min: 1, max: 1000, default: 100 }), offset: int({ min: 0, default: 0 }) },
  }),
  'tags.get': op<Tag>()({
    face: 'base', method: 'GET', path: '/tags/:id', errors: 'catalog', unknownParams: 'ignore', params: pathId,
  }),
  'tags.bySlug': op<Tag>()({
    face: 'base', method: 'GET', path: '/tags/slug/:slug', errors: 'catalog', unknownParams: 'ignore', params: pathSlug,
  }),
  'service.status': op<ServiceStatus>()({
    face: 'base', method: 'GET', path: '/status', errors: 'catalog', unknownParams: 'ignore', params: {},
  }),
} as const;

export type Operations = typeof operations;
export type OpName = keyof Operations;
type DefsOf<K extends OpName> = Operations[K] extends OperationDef<infer D, unknown> ? D : never;
export type ParamsOf<K extends OpName> = ParsedParams<DefsOf<K>>;
export type InputOf<K extends OpName> = InputParams<DefsOf<K>>;
export type ResultOf<K extends OpName> = Operations[K] extends OperationDef<ParamDefs, infer R> ? R : never;

export const opNames = Object.keys(operations) as OpName[];
