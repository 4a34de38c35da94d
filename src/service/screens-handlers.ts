/**
 * The saved screens' operations (`screens.list`, `.create`, `.remove`) over the screens file, and
 * the screen filters' view of the service beside the cache (the watchlist, the clock). A screen
 * is saved only when its listing would answer it: its parameters are the listing's own, checked
 * by the same declarations, and one row is read with them (so a bad range is its 400 now, not on
 * every later listing). Bad input is a 400 that changes nothing.
 */
import {
  badRequest,
  notFound,
  operations,
  parseParams,
  SCREEN_KINDS,
  type Screen,
  type ScreenKind,
  type ScreenParamValue,
} from '../contract/index.ts';
import type { RawParams } from '../contract/params.ts';
import type { CatalogReader } from '../store/catalog-reader.ts';
import type { ScreenScope } from '../store/screen-filters.ts';
import { MAX_SCREENS, type ScreensFile } from '../store/screens-file.ts';
import type { Statements } from '../store/statements.ts';
import type { WatchlistFile } from '../store/watchlist-file.ts';
import type { HandlersFor } from '../contract/handlers.ts';

const MAX_NAME = 80;
const MAX_KEYS = 60;
/** A screen is every row of its filter: paging is the grid's, not the screen's. */
const PAGING = new Set(['limit', 'offset']);

type Scalar = string | number | boolean;
const isScalar = (v: unknown): v is Scalar =>
  typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)) || typeof v === 'boolean';

/** The body's `params` as query-string values; keys the listing does not declare are refused (a typo would filter nothing). */
function screenParams(kind: ScreenKind, raw: unknown): Record<string, ScreenParamValue> {
  if (raw === undefined) return {};
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw badRequest('catalog', 'params must be an object');
  const defs = operations[kind === 'markets' ? 'markets.list' : 'events.list'].params as Record<string, unknown>;
  const entries = Object.entries(raw);
  if (entries.length > MAX_KEYS) throw badRequest('catalog', `params may hold at most ${MAX_KEYS} keys`);
  const out: Record<string, ScreenParamValue> = {};
  for (const [k, v] of entries) {
    if (!Object.hasOwn(defs, k) || PAGING.has(k)) throw badRequest('catalog', `params.${k} is not a ${kind} listing filter`);
    if (isScalar(v)) out[k] = String(v);
    else if (Array.isArray(v) && v.length > 0 && v.every(isScalar)) out[k] = v.map(String);
    else throw badRequest('catalog', `params.${k} must be a string, number, boolean or a list of them`);
  }
  return out;
}

function json(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw badRequest('catalog', `${what} must be JSON`);
  }
}

/** The body's fields, else the query's (`params` as JSON text). */
function bodyFields(p: { body?: string; name?: string; kind?: string; params?: string }): {
  name: unknown;
  kind: unknown;
  params: unknown;
} {
  const b = p.body === undefined ? {} : json(p.body, 'the body');
  if (typeof b !== 'object' || b === null || Array.isArray(b)) throw badRequest('catalog', 'the body must be a JSON object');
  const fields = b as Record<string, unknown>;
  return {
    name: fields['name'] ?? p.name,
    kind: fields['kind'] ?? p.kind,
    params: fields['params'] ?? (p.params === undefined ? undefined : json(p.params, 'params')),
  };
}

function checkName(name: unknown): asserts name is string {
  if (typeof name !== 'string' || name.trim() === '' || name.length > MAX_NAME) {
    throw badRequest('catalog', `name must be a string of 1 to ${MAX_NAME} characters`);
  }
}

function parseBody(p: { body?: string; name?: string; kind?: string; params?: string }): { name: string; kind: ScreenKind; raw: unknown } {
  const { name, kind, params } = bodyFields(p);
  checkName(name);
  if (!SCREEN_KINDS.includes(kind as ScreenKind)) throw badRequest('catalog', `kind must be one of ${SCREEN_KINDS.join(', ')}`);
  return { name: name.trim(), kind: kind as ScreenKind, raw: params };
}

/** Throws the listing's own 400 when it would refuse these parameters. */
function checkListing(reader: CatalogReader, kind: ScreenKind, params: RawParams): void {
  const probe = { ...params, limit: '1', offset: '0' };
  if (kind === 'markets') {
    const p = parseParams(operations['markets.list'].params, probe);
    if (!p.ok) throw badRequest('catalog', `params.${p.message}`);
    reader.listMarkets(p.value);
  } else {
    const p = parseParams(operations['events.list'].params, { ...probe, include_markets: 'false' });
    if (!p.ok) throw badRequest('catalog', `params.${p.message}`);
    reader.listEvents(p.value);
  }
}

export function screensHandlers(
  reader: CatalogReader,
  file: ScreensFile,
): HandlersFor<'screens.list' | 'screens.create' | 'screens.update' | 'screens.remove'> {
  return {
    'screens.list': () => ({ screens: file.list() }),
    'screens.create': async (p): Promise<Screen> => {
      const { name, kind, raw } = parseBody(p);
      const params = screenParams(kind, raw);
      checkListing(reader, kind, params);
      try {
        return await file.add({ name, kind, params });
      } catch (e) {
        if (e instanceof RangeError) throw badRequest('catalog', `at most ${MAX_SCREENS} screens are kept`);
        throw e;
      }
    },
    // The same checks as a new screen's, against its kind; what is not given stays.
    'screens.update': async (p): Promise<Screen> => {
      const old = file.list().find((s) => s.id === p.id);
      if (!old) throw notFound('id');
      const { name, kind, params: raw } = bodyFields(p);
      if (kind !== undefined && kind !== old.kind) throw badRequest('catalog', `kind cannot change (this screen filters ${old.kind})`);
      if (name !== undefined) checkName(name);
      const params = raw === undefined ? old.params : screenParams(old.kind, raw);
      checkListing(reader, old.kind, params);
      const changed = await file.replace(p.id, { name: name === undefined ? old.name : (name as string).trim(), params });
      if (!changed) throw notFound('id');
      return changed;
    },
    'screens.remove': async (p) => {
      if (!(await file.remove(p.id))) throw notFound('id');
      return { screens: file.list() };
    },
  };
}

/**
 * The screen filters' scope (the watchlist's ids, the clock) and a version for the HTTP response
 * cache: listings with `md_watchlist`, `md_has_orders` or an end window relative to now change
 * with the watchlist, the orders and the clock, which do not move the catalog version. It moves
 * on each watchlist change, each orders fetch and each minute, so a cached answer is at most a
 * minute behind the clock and never behind the watchlist or the orders.
 */
export function screenScope(watchlist: WatchlistFile, st: Statements, now: () => number = Date.now): ScreenScope & { version(): number } {
  let watchChanges = 0;
  watchlist.onChange(() => watchChanges++);
  let last = '';
  let bumps = 0;
  return {
    watched: () => {
      const items = watchlist.items();
      const ids = (kind: 'market' | 'event') => items.filter((i) => i.kind === kind).map((i) => Number(i.id));
      return { markets: ids('market'), events: ids('event') };
    },
    now,
    version() {
      const orders = st.value('SELECT max(fetched_at) FROM orders_fetches');
      const key = `${watchChanges}:${String(orders)}:${Math.floor(now() / 60_000)}`;
      if (key !== last) {
        last = key;
        bumps++;
      }
      return bumps;
    },
  };
}
