/**
 * Gamma's catalog routes (docs/upstream/gamma.md): markets and events (offset and keyset
 * listings, by id, by slug), tags and series. Bare arrays, silent limit clamp, offset cap with
 * keyset routes behind it, camelCase `order`, repeated-key array filters, `{type, error}` bodies.
 * The contract's other Gamma routes (`/events/pagination`, a market's or event's tags, the public
 * search) are not modelled: they answer 404, as any unknown path.
 */
import type { EventRecord, MarketRecord } from '../catalog.ts';
import { isApiError, parseListQuery, runKeysetQuery, runOffsetQuery, validationError, type ApiError, type Kind } from '../query.ts';
import { errorReply, json, NOT_FOUND, type FakeRouter, type Reply } from '../router.ts';
import type { FakeState } from '../state.ts';

const ID_RE = /^\d{1,18}$/;
const ID_NOT_FOUND: ApiError = { status: 404, body: { type: 'not found error', error: 'id not found' } };
const SLUG_NOT_FOUND: ApiError = { status: 404, body: { type: 'not found error', error: 'slug not found' } };

/** "007" names item 7, without going through a float. */
const canonicalId = (id: string): string => id.replace(/^0+(?=\d)/, '');

/** A path segment as a slug: percent-decoded; whitespace or bad escapes are a 422 like upstream. */
function slugParam(raw: string): string | ApiError {
  let s: string;
  try {
    s = decodeURIComponent(raw);
  } catch {
    return validationError('slug is invalid');
  }
  return s === '' || /\s/.test(s) ? validationError('slug is invalid') : s;
}

function pageParams(q: URLSearchParams, defLimit: number, maxLimit: number): { limit: number; offset: number } | ApiError {
  const read = (name: string): number | undefined | ApiError => {
    const v = q
      .getAll(name)
      .filter((x) => x !== '')
      .pop();
    if (v === undefined) return undefined;
    return /^\d{1,15}$/.test(v) ? Number(v) : validationError(`${name} is invalid`);
  };
  const limit = read('limit');
  if (isApiError(limit)) return limit;
  const offset = read('offset');
  if (isApiError(offset)) return offset;
  return { limit: Math.min(limit ?? defLimit, maxLimit), offset: offset ?? 0 };
}

/** A page of a plain list (tags, series): `limit` defaults to `def` and is clamped to `max`. */
function paged(q: URLSearchParams, def: number, max: number, all: () => readonly unknown[]): Reply {
  const page = pageParams(q, def, max);
  if (isApiError(page)) return errorReply(page);
  return json(all().slice(page.offset, page.offset + page.limit));
}

/** One item by numeric id: 422 for a malformed id, 404 for an unknown one. */
function byId(id: string, find: (id: string) => Reply | undefined): Reply {
  if (!ID_RE.test(id)) return errorReply(validationError('id is invalid'));
  return find(canonicalId(id)) ?? errorReply(ID_NOT_FOUND);
}

function bySlug(raw: string, find: (slug: string) => Reply | undefined): Reply {
  const slug = slugParam(raw);
  if (isApiError(slug)) return errorReply(slug);
  return find(slug) ?? errorReply(SLUG_NOT_FOUND);
}

const ok = (body: string): Reply => ({ status: 200, body });

/** Gamma's JSON-schema URLs: single items and keyset pages carry `$schema` first; plain lists do not (2026 captures). */
export const SCHEMA_BASE = 'https://gamma-api.polymarket.com/schemas/';
const withSchema = (name: string, json: string): string =>
  `{"$schema":${JSON.stringify(SCHEMA_BASE + name)}${json === '{}' ? '}' : `,${json.slice(1)}`}`;

export function registerGammaRoutes(router: FakeRouter, state: FakeState): void {
  const { catalog } = state;
  registerListings(router, state);
  const market = (m: MarketRecord | undefined) => m && ok(withSchema('Market.json', catalog.marketJson(m)));
  const event = (e: EventRecord | undefined, withMarkets?: boolean) => e && ok(withSchema('Event.json', catalog.eventJson(e, withMarkets)));
  router.op('markets.get', (r) => byId(r.params['id']!, (id) => market(catalog.marketRecord(id))));
  router.op('markets.bySlug', (r) => bySlug(r.params['slug']!, (slug) => market(catalog.marketBySlug(slug))));
  router.op('events.get', (r) => byId(r.params['id']!, (id) => event(catalog.eventRecord(id), r.query.get('include_markets') !== 'false')));
  router.op('events.bySlug', (r) => bySlug(r.params['slug']!, (slug) => event(catalog.eventBySlug(slug))));
  router.op('tags.list', (r) => paged(r.query, 100, 1000, () => catalog.tags()));
  router.op('tags.get', (r) => byId(r.params['id']!, (id) => present(catalog.tag(id))));
  router.op('tags.bySlug', (r) => bySlug(r.params['slug']!, (slug) => present(catalog.tagBySlug(slug))));
  router.op('series.list', (r) => paged(r.query, 20, 50, () => catalog.series()));
  router.op('series.get', (r) => byId(r.params['id']!, (id) => present(catalog.seriesById(id))));
}

/** A found object as JSON; undefined (the caller's 404) when there is none. */
const present = (v: unknown): Reply | undefined => (v ? json(v) : undefined);

/** The offset and keyset listings of markets and events. */
function registerListings(router: FakeRouter, state: FakeState): void {
  const { catalog, paging } = state;
  /** Appends the items' JSON, comma-separated; sibling markets of one event share its JSON via `scope`. */
  const items = (kind: Kind, recs: (MarketRecord | EventRecord)[], withMarkets: boolean, body: string[]): void => {
    const scope = new Map<string, string>();
    recs.forEach((r, i) => {
      if (i > 0) body.push(',');
      body.push(kind === 'markets' ? catalog.marketJson(r as MarketRecord, scope) : catalog.eventJson(r as EventRecord, withMarkets));
    });
  };
  const list = (kind: Kind, q: URLSearchParams): Reply => {
    const parsed = parseListQuery(catalog, kind, q, false, paging);
    if (isApiError(parsed)) return errorReply(parsed);
    const body = ['['];
    items(kind, runOffsetQuery(catalog, parsed), parsed.includeMarkets, body);
    body.push(']');
    return { status: 200, body };
  };
  const keysetList = (kind: Kind, q: URLSearchParams): Reply => {
    // Registered even when off: `/markets/keyset` must 404 then, not be read as the id "keyset".
    if (!state.keyset) return errorReply(NOT_FOUND);
    const parsed = parseListQuery(catalog, kind, q, true, paging);
    if (isApiError(parsed)) return errorReply(parsed);
    const { items: recs, next } = runKeysetQuery(catalog, parsed);
    const schema = `${SCHEMA_BASE}${kind === 'markets' ? 'Markets' : 'Events'}KeysetListResponse.json`;
    const body = [`{"$schema":${JSON.stringify(schema)},"${kind}":[`];
    items(kind, recs, parsed.includeMarkets, body);
    body.push(next === undefined ? ']}' : `],"next_cursor":${JSON.stringify(next)}}`);
    return { status: 200, body };
  };
  router.op('markets.list', (r) => list('markets', r.query));
  router.op('events.list', (r) => list('events', r.query));
  router.op('markets.keyset', (r) => keysetList('markets', r.query));
  router.op('events.keyset', (r) => keysetList('events', r.query));
}
