/**
 * The renderer's one way to the service. In Electron it goes through `window.marketdesk`
 * (preload bridge, IPC); in web mode through `fetch` to the same HTTP routes, which sit one
 * level above the page (page at `/app/`, API at `/`). Both paths return the same JSON and
 * throw the same ApiError. Typed by `src/contract/`; at run time it imports only the contract's
 * plain-data modules (routes.ts, leaderboard-choices.ts), never its zod validation.
 *
 * Web mode signs `auth: 'l2'` operations (the user's orders) itself, with credentials the user
 * typed into this tab (session-credentials.ts, l2-sign.ts); the desktop app's core holds them.
 */
import type { InputOf, ResultOf } from '../../src/contract/operations.ts';
import { ROUTES, isLocalWrite, servedOn, type OpName, type RouteDef } from '../../src/contract/routes.ts';
import type {
  BridgeReply,
  CredentialStorage,
  CredentialsInput,
  DesktopMethod,
  DesktopMethods,
  DesktopSettings,
  MarketdeskBridge,
} from '../../src/contract/bridge.ts';
import type { CredentialsStatus } from '../../src/contract/index.ts';
import { API_TOKEN_HEADER, TOKEN_META } from '../../src/contract/local-api-ops.ts';
import { l2Headers } from './l2-sign.ts';
import { clearSessionCredentials, loadSessionCredentials, saveSessionCredentials } from './session-credentials.ts';

declare global {
  interface Window {
    /** Present only inside the Electron window (set by the preload script). */
    marketdesk?: MarketdeskBridge;
  }
}

// Types only: the contract's runtime (zod validation) stays out of the renderer bundle.
export type { Market, Event, EventTag, Tag, SyncStatus, ServiceStatus, StorageStatus, EventRef } from '../../src/contract/types.ts';
export type {
  LimitsStatus,
  DeskSearchEvent,
  DeskSearchResult,
  RankedTag,
  RankedTags,
  SearchEvent,
  SearchResult,
  SearchTag,
  Order,
  OrdersPage,
  LeaderboardEntry,
  LeaderboardMeta,
  CredentialsStatus,
} from '../../src/contract/operations.ts';
export type { MarketOrderField, EventOrderField } from '../../src/contract/operations.ts';
export type { CredentialStorage, CredentialsInput, DesktopSettings, ServiceState } from '../../src/contract/bridge.ts';
export type { InputOf, ResultOf, OpName };
// The leaderboard's choices, as the contract validates them (plain data).
export {
  LEADERBOARD_CATEGORIES,
  LEADERBOARD_ORDERS as LEADERBOARD_ORDER,
  LEADERBOARD_PERIODS,
  type LeaderboardCategory,
  type LeaderboardOrder,
  type LeaderboardPeriod,
} from '../../src/contract/leaderboard-choices.ts';
export { ROUTES };
export type Route = RouteDef;

/** The service answered with an error; `body` is its JSON error body. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(errorMessage(status, body));
    this.name = 'ApiError';
  }
}

function errorMessage(status: number, body: unknown): string {
  if (body && typeof body === 'object' && 'error' in body && typeof body.error === 'string') {
    return body.error;
  }
  return `HTTP ${status}`;
}

export const mode: 'desktop' | 'web' = typeof window !== 'undefined' && window.marketdesk ? 'desktop' : 'web';

/** Base URL of the HTTP API in web mode: the parent of the page's directory. */
export function apiBase(pageUrl: string = location.href): URL {
  return new URL('../', pageUrl);
}

export function toQuery(params: object): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    // Gamma takes lists as repeated keys (`id=1&id=2`).
    for (const item of Array.isArray(value) ? value : [value]) query.append(key, String(item));
  }
  const text = query.toString();
  return text ? `?${text}` : '';
}

/** `/markets/:id` + {id: 5, limit: 1} -> `markets/5?limit=1` (relative to the API base). */
export function routeUrl(route: Route, params: Record<string, unknown>): string {
  const rest: Record<string, unknown> = { ...params };
  const path = route.path.replace(/:([A-Za-z_]+)/g, (_m, name: string) => {
    const v = rest[name];
    delete rest[name];
    return encodeURIComponent(String(v ?? ''));
  });
  return path.slice(1) + toQuery(rest);
}

/** Raised when the running service has no such operation (an older or newer core). */
export class UnavailableOpError extends ApiError {}

/** Web mode cannot make this call: IPC-only, or on the clob face only (another origin). */
export class DesktopOnlyError extends UnavailableOpError {}

/** Web mode: an `auth: 'l2'` call with no credentials entered in this tab (nothing was sent). */
export class NoCredentialsError extends ApiError {
  constructor(op: string) {
    super(401, { error: `${op} needs your API credentials` });
    this.name = 'NoCredentialsError';
  }
}

/** The local API token the service put in this page (web-ui.ts); absent when another server served it. */
function pageToken(): string | undefined {
  return document.querySelector<HTMLMetaElement>(`meta[name="${TOKEN_META}"]`)?.content || undefined;
}

async function httpCall(op: string, route: Route, params: Record<string, unknown>): Promise<unknown> {
  if (!servedOn(route, 'base')) {
    // IPC only, or on the clob face: another origin, which the page's CSP (connect-src 'self') does not reach.
    throw new DesktopOnlyError(501, { error: `${op} is available in the desktop app` });
  }
  const url = new URL(routeUrl(route, params), apiBase());
  const headers: Record<string, string> = { accept: 'application/json' };
  if (route.auth === 'l2') {
    const creds = loadSessionCredentials();
    if (!creds) throw new NoCredentialsError(op);
    // Signed over the path as sent, without the query (what the face verifies); no body on GET.
    Object.assign(headers, await l2Headers(creds, { method: route.method, path: url.pathname }));
  }
  // Writes (the watchlist, alerts, screens) carry the local API token (src/http/write-guard.ts).
  const token = isLocalWrite(route) ? pageToken() : undefined;
  if (token !== undefined) headers[API_TOKEN_HEADER] = token;
  // A POST's parameters travel in the query; the faces take a POST body as JSON only (origin-guard.ts).
  const sent = route.method === 'POST' ? '{}' : undefined;
  if (sent !== undefined) headers['content-type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(url, { method: route.method, headers, ...(sent !== undefined ? { body: sent } : {}) });
  } catch {
    throw new ServiceUnreachableError();
  }
  const body: unknown = await res.json().catch(() => null);
  if (!res.ok) {
    if (res.status === 404 && isRouteNotFound(body)) throw new UnavailableOpError(404, body);
    throw new ApiError(res.status, body);
  }
  return body;
}

/** The service itself did not answer (web mode: nothing listens; desktop: the core is restarting). */
export class ServiceUnreachableError extends Error {
  constructor() {
    super('the marketdesk service is not reachable');
    this.name = 'ServiceUnreachableError';
  }
}

function isRouteNotFound(body: unknown): boolean {
  return !!body && typeof body === 'object' && (body as { error?: unknown }).error === 'not found';
}

function unwrap<T>(reply: BridgeReply, op: string): T {
  if (reply.ok) return reply.result as T;
  if (reply.status === 400 && (reply.body as { error?: string } | null)?.error === 'unknown operation') {
    throw new UnavailableOpError(404, { error: `${op} is not available` });
  }
  if (reply.status === 503) throw new ServiceUnreachableError();
  throw new ApiError(reply.status, reply.body);
}

export async function call<K extends OpName>(op: K, params: InputOf<K>): Promise<ResultOf<K>> {
  const bridge = window.marketdesk;
  if (bridge) return unwrap<ResultOf<K>>(await bridge.invoke(op, params), op);
  return (await httpCall(op, ROUTES[op], params as Record<string, unknown>)) as ResultOf<K>;
}

export type LeaderboardParams = InputOf<'leaderboard.list'>;
export type OrdersParams = InputOf<'orders.list'>;

export const api = {
  markets: {
    list: (params: InputOf<'markets.list'>) => call('markets.list', params),
    get: (id: string) => call('markets.get', { id }),
  },
  events: {
    list: (params: InputOf<'events.list'>) => call('events.list', params),
    get: (id: string) => call('events.get', { id }),
  },
  tags: {
    list: (params: InputOf<'tags.list'>) => call('tags.list', params),
    ranked: (params: InputOf<'tags.ranked'>) => call('tags.ranked', params),
  },
  service: {
    status: () => call('service.status', {}),
  },
  limits: {
    status: () => call('limits.status', {}),
  },
  search: {
    query: (params: InputOf<'search.query'>) => call('search.query', params),
    desk: (params: InputOf<'search.desk'>) => call('search.desk', params),
  },
  orders: {
    list: (params: OrdersParams) => call('orders.list', params),
  },
  leaderboard: {
    list: (params: LeaderboardParams) => call('leaderboard.list', params),
    meta: (params: InputOf<'leaderboard.meta'>) => call('leaderboard.meta', params),
  },
};

// ---- desktop-only requests (settings, credentials, persisted UI state) ------------------------

export async function desktop<M extends DesktopMethod>(method: M, arg?: DesktopMethods[M][0]): Promise<DesktopMethods[M][1]> {
  const bridge = window.marketdesk;
  if (!bridge) throw new UnavailableOpError(404, { error: 'desktop only' });
  const reply = await bridge.desktop(method, arg);
  if (reply.ok) return reply.result as DesktopMethods[M][1];
  throw new ApiError(reply.status, reply.body);
}

/** Web mode: this tab's credentials, as the core's `credentials.status` would describe them. */
function sessionStatus(): CredentialsStatus {
  const c = loadSessionCredentials();
  return c ? { configured: true, address: c.address } : { configured: false };
}

/**
 * Credentials. Desktop: set and cleared through the core's IPC-only operations (main keeps them
 * encrypted with safeStorage). Web mode: kept in this tab's sessionStorage and used only to sign
 * requests; the service checks them against the credentials it was started with.
 */
export const credentials = {
  status: (): Promise<CredentialsStatus> => (mode === 'desktop' ? call('credentials.status', {}) : Promise.resolve(sessionStatus())),
  set: async (c: CredentialsInput): Promise<CredentialsStatus> => {
    if (mode === 'desktop') return call('credentials.set', c);
    saveSessionCredentials(c);
    return sessionStatus();
  },
  clear: async (): Promise<CredentialsStatus> => {
    if (mode === 'desktop') return call('credentials.clear', {});
    clearSessionCredentials();
    return sessionStatus();
  },
  storage: (): Promise<CredentialStorage> => desktop('credentials.storage'),
};

export const settings = {
  get: (): Promise<DesktopSettings> => desktop('settings.get'),
  set: (patch: Partial<DesktopSettings>): Promise<DesktopSettings> => desktop('settings.set', patch),
};
