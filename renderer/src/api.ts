/**
 * The renderer's one way to the service. In Electron it goes through `window.marketdesk`
 * (preload bridge, IPC); in web mode through `fetch` to the same HTTP routes, which sit one
 * level above the page (page at `/app/`, API at `/`). Both paths return the same JSON and
 * throw the same ApiError. Typed by `src/contract/`; the route table below mirrors its paths
 * (not imported at run time, to keep the contract's validation code out of the bundle).
 */
import type { InputOf, OpName, ResultOf } from '../../src/contract/operations.ts';
import type { BridgeReply, MarketdeskBridge } from '../../main/preload/bridge.ts';

declare global {
  interface Window {
    /** Present only inside the Electron window (set by the preload script). */
    marketdesk?: MarketdeskBridge;
  }
}

// Types only: the contract's runtime (zod validation) stays out of the renderer bundle.
export type { Market } from '../../src/contract/types.ts';
export type MarketsListParams = InputOf<'markets.list'>;

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

/** HTTP paths relative to the API base; `satisfies` keeps the op names in the contract. */
const ROUTES = {
  'markets.list': { path: 'markets' },
} as const satisfies Partial<Record<OpName, { path: string }>>;
type Op = keyof typeof ROUTES;

export const mode: 'desktop' | 'web' =
  typeof window !== 'undefined' && window.marketdesk ? 'desktop' : 'web';

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

async function call<K extends Op>(op: K, params: InputOf<K>): Promise<ResultOf<K>> {
  const bridge = window.marketdesk;
  if (bridge) return unwrap<ResultOf<K>>(await bridge.invoke(op, params));
  const url = new URL(ROUTES[op].path + toQuery(params), apiBase());
  const res = await fetch(url, { headers: { accept: 'application/json' } });
  const body: unknown = await res.json().catch(() => null);
  if (!res.ok) throw new ApiError(res.status, body);
  return body as ResultOf<K>;
}

function unwrap<T>(reply: BridgeReply): T {
  if (reply.ok) return reply.result as T;
  throw new ApiError(reply.status, reply.body);
}

export const api = {
  markets: {
    list: (params: MarketsListParams) => call('markets.list', params),
  },
};
