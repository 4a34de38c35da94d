/**
 * The catalog operations' parameters and results: markets, events, tags (spec 4.1, 4.2, 4.6)
 * and the service status. Their routes are routes.ts's `catalogRoutes`.
 */
import { op, type DeclsFor } from './define.ts';
import { bool, date, int, list, num, str, unsupported, withAliases } from './params.ts';
import type { catalogRoutes } from './routes.ts';
import type { Event, Market, ServiceStatus, Tag } from './types.ts';
import { eventScreenParams, marketScreenParams } from './screen-params.ts';

export { EVENT_ORDER_FIELDS, MARKET_ORDER_FIELDS, type EventOrderField, type MarketOrderField } from './enums.ts';

const page = { limit: int({ min: 1, max: 100, default: 20 }), offset: int({ min: 0, default: 0 }) };
const status = { active: bool(), closed: bool(), archived: bool() };
const tagFilters = { tag: str(), tag_id: int({ min: 0 }), tag_slug: str() };
const sorting = { order: str({ maxLength: 300 }), ascending: bool({ default: false }) };
const creator = { creator: str() };
const pathId = { id: str({ required: true, maxLength: 40 }) };
const pathSlug = { slug: str({ required: true, maxLength: 300 }) };

/** Gamma's id and slug lists (repeated keys). polyoxide advises at most ~400 ids or 100 slugs a request. */
const idList = { id: list(int({ min: 0 })), slug: list(str({ maxLength: 300 })) };
const dateRanges = {
  start_date_min: date(),
  start_date_max: date(),
  end_date_min: date(),
  end_date_max: date(),
};

/**
 * Gamma parameters whose data the cache does not hold (docs/upstream/gamma.md 1.3, 1.4): a 400
 * naming them, never an unfiltered list. The listed values change nothing and pass: `false`
 * of an opt-in flag, and `tag_match` with the single `tag_id` served here (any = all).
 */
const notCachedMarkets = {
  related_tags: unsupported('false', '0'),
  cyom: unsupported(),
  rewards_min_size: unsupported(),
  rfq_enabled: unsupported(),
  position_ids: unsupported(),
  locale: unsupported(),
  tag_match: unsupported('any', 'all'),
};
const notCachedEvents = {
  related_tags: unsupported('false', '0'),
  cyom: unsupported(),
  include_chat: unsupported('false', '0'),
  include_template: unsupported('false', '0'),
  include_best_lines: unsupported('false', '0'),
  include_children: unsupported('false', '0'),
  live: unsupported(),
  start_time_min: unsupported(),
  start_time_max: unsupported(),
  tag_match: unsupported('any', 'all'),
  game_id: unsupported(),
  event_date: unsupported(),
  event_week: unsupported(),
  featured_order: unsupported(),
  created_by: unsupported(),
  parent_event_id: unsupported(),
  partner_slug: unsupported(),
  locale: unsupported(),
};

export const catalogOperations = {
  'markets.list': op<Market[]>()({
    ...page,
    ...status,
    ...tagFilters,
    event_id: int({ min: 0 }),
    event_slug: withAliases(str(), 'eventSlug'),
    conditionId: withAliases(str(), 'condition_id'),
    ...idList,
    clob_token_ids: list(str({ maxLength: 100 })),
    condition_ids: list(str({ maxLength: 100 })),
    question_ids: list(str({ maxLength: 100 })),
    market_maker_address: list(str({ maxLength: 100 })),
    liquidity_num_min: num(),
    liquidity_num_max: num(),
    volume_num_min: num(),
    volume_num_max: num(),
    ...dateRanges,
    // Gamma recognises these but answers 500 (gamma.md 1.3); the cache has the column.
    closed_time_min: date(),
    closed_time_max: date(),
    uma_resolution_status: str(),
    game_id: str(),
    sports_market_types: list(str()),
    decimalized: bool(),
    include_tag: bool(),
    ...marketScreenParams,
    ...notCachedMarkets,
    ...sorting,
    ...creator,
  }),
  'markets.get': op<Market>()(pathId),
  'markets.bySlug': op<Market>()(pathSlug),
  'events.list': op<Event[]>()({
    ...page,
    ...status,
    ...tagFilters,
    series_slug: str(),
    ...idList,
    exclude_tag_id: list(int({ min: 0 })),
    series_id: list(int({ min: 0 })),
    featured: bool(),
    volume_min: num(),
    volume_max: num(),
    liquidity_min: num(),
    liquidity_max: num(),
    ...dateRanges,
    recurrence: str(),
    title_search: str(),
    include_markets: bool({ default: true }),
    ...eventScreenParams,
    ...notCachedEvents,
    ...sorting,
    ...creator,
  }),
  'events.get': op<Event>()(pathId),
  'events.bySlug': op<Event>()(pathSlug),
  'tags.list': op<Tag[]>()({ limit: int({ min: 1, max: 1000, default: 100 }), offset: int({ min: 0, default: 0 }) }),
  'tags.get': op<Tag>()(pathId),
  'tags.bySlug': op<Tag>()(pathSlug),
  'service.status': op<ServiceStatus>()({}),
} satisfies DeclsFor<typeof catalogRoutes>;
