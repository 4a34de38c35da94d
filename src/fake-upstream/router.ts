/**
 * The fake upstream's route table: each API the fake models registers its routes here
 * (routes/*.ts), by contract operation where the contract declares one (src/contract/routes.ts),
 * so a path is typed once. Matching follows Fastify's rule: a static segment ranks over a
 * `:param` segment whatever the registration order (`/markets/keyset` over `/markets/:id`).
 */
import type { IncomingHttpHeaders } from 'node:http';
import { ROUTES, type OpName } from '../contract/routes.ts';
import type { ImageReply } from './images.ts';
import type { ApiError } from './query.ts';

export interface Reply {
  status: number;
  /** Pages are lists of chunks, never joined: see the pipeline's send(). */
  body: string | string[];
  headers?: Record<string, string>;
}

export interface FakeRequest {
  /** As received: HEAD stays HEAD (it is routed as GET). */
  method: string;
  /** Without the query string or a trailing slash. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** A write's body; '' for reads. */
  body: string;
  /** The `:name` segments of the route's path, raw (not percent-decoded). */
  params: Record<string, string>;
}

export type Handler = (req: FakeRequest) => Reply;

/** A picture or other CDN file: answered before the API's limits and faults, as bytes. */
export type AssetHandler = (name: string) => Promise<ImageReply>;

export const NOT_FOUND: ApiError = { status: 404, body: { type: 'not found error', error: 'not found' } };

export function errorReply(e: ApiError): Reply {
  return { status: e.status, body: JSON.stringify(e.body) };
}

export function json(value: unknown): Reply {
  return { status: 200, body: JSON.stringify(value) };
}

const METHOD_NOT_ALLOWED: Reply = {
  status: 405,
  body: JSON.stringify({ type: 'method not allowed', error: 'method not allowed' }),
  headers: { allow: 'GET, HEAD' },
};

interface PatternEntry<T> {
  /** Per segment: the static text, or undefined for a `:param` (whose name is in `names`). */
  segments: (string | undefined)[];
  names: string[];
  value: T;
}

const segmentsOf = (path: string): string[] => path.split('/').slice(1);

/**
 * `METHOD /path` patterns (`:name` segments match any one segment, raw) to values. A static
 * segment ranks over a parameter at the first segment where two patterns differ.
 */
export class PathTable<T> {
  /** `METHOD /path` of the patterns without parameters. */
  private readonly exact = new Map<string, T>();
  /** By method, most static first (see rank). */
  private readonly patterns = new Map<string, PatternEntry<T>[]>();

  add(method: string, path: string, value: T): void {
    const segments = segmentsOf(path);
    if (!segments.some((s) => s.startsWith(':'))) {
      this.exact.set(`${method} ${path}`, value);
      return;
    }
    const entry: PatternEntry<T> = {
      segments: segments.map((s) => (s.startsWith(':') ? undefined : s)),
      names: segments.filter((s) => s.startsWith(':')).map((s) => s.slice(1)),
      value,
    };
    const list = this.patterns.get(method) ?? [];
    list.push(entry);
    list.sort(rank);
    this.patterns.set(method, list);
  }

  /** The value registered at exactly this pattern (`:name` segments compared by position, not name). */
  get(method: string, path: string): T | undefined {
    const segments = segmentsOf(path);
    if (!segments.some((s) => s.startsWith(':'))) return this.exact.get(`${method} ${path}`);
    const shape = segments.map((s) => (s.startsWith(':') ? undefined : s));
    return this.patterns.get(method)?.find((r) => r.segments.length === shape.length && r.segments.every((s, i) => s === shape[i]))?.value;
  }

  /** Replaces the value at exactly this pattern (keeping its parameter names), or adds it. */
  set(method: string, path: string, value: T): void {
    const segments = segmentsOf(path);
    if (!segments.some((s) => s.startsWith(':'))) {
      this.exact.set(`${method} ${path}`, value);
      return;
    }
    const shape = segments.map((s) => (s.startsWith(':') ? undefined : s));
    const hit = this.patterns.get(method)?.find((r) => r.segments.length === shape.length && r.segments.every((s, i) => s === shape[i]));
    if (hit) hit.value = value;
    else this.add(method, path, value);
  }

  find(method: string, path: string): { value: T; params: Record<string, string> } | undefined {
    const exact = this.exact.get(`${method} ${path}`);
    if (exact !== undefined) return { value: exact, params: {} };
    const seg = segmentsOf(path);
    for (const r of this.patterns.get(method) ?? []) {
      if (r.segments.length !== seg.length || !r.segments.every((s, i) => s === undefined || s === seg[i])) continue;
      const params: Record<string, string> = {};
      let n = 0;
      r.segments.forEach((s, i) => {
        if (s === undefined) params[r.names[n++] as string] = seg[i] as string;
      });
      return { value: r.value, params };
    }
    return undefined;
  }
}

/** Static before parameter at the first segment where two patterns differ. */
function rank<T>(a: PatternEntry<T>, b: PatternEntry<T>): number {
  for (let i = 0; i < Math.min(a.segments.length, b.segments.length); i++) {
    const sa = a.segments[i] !== undefined;
    const sb = b.segments[i] !== undefined;
    if (sa !== sb) return sa ? -1 : 1;
  }
  return 0;
}

export class FakeRouter {
  private readonly routes = new PathTable<Handler>();
  private readonly prefixes: { method: string; prefix: string; handler: Handler }[] = [];
  private readonly assets: { prefix: string; handler: AssetHandler }[] = [];

  /** Registers `op` at its contract method and path. */
  op(op: OpName, handler: Handler): void {
    this.add(ROUTES[op].method, ROUTES[op].path, handler);
  }

  /**
   * `op` where another API of this one server already holds its method and path (Gamma's
   * `GET /markets` and `/markets/:id` against the CLOB's `/markets` and `/markets/:condition_id`):
   * the requests `claims` accepts go to `handler`, the others to the route registered first.
   */
  share(op: OpName, claims: (req: FakeRequest) => boolean, handler: Handler): void {
    const { method, path } = ROUTES[op];
    const first = this.routes.get(method, path);
    this.routes.set(method, path, first ? (req) => (claims(req) ? handler(req) : first(req)) : handler);
  }

  /** A route with no contract operation (the fake's own). */
  add(method: string, path: string, handler: Handler): void {
    this.routes.add(method, path, handler);
  }

  /**
   * `op`'s path up to its first parameter, taking the whole rest of the path as that parameter
   * (slashes included): `/data/order/:id` answers `/data/order/a/b` with id `a/b`.
   */
  opPrefix(op: OpName, handler: Handler): void {
    const { method, path } = ROUTES[op];
    const at = path.indexOf('/:');
    if (at < 0) throw new Error(`fake upstream: ${op} has no path parameter`);
    const name = path.slice(at + 2).split('/')[0] as string;
    const prefix = path.slice(0, at + 1);
    this.prefixes.push({ method, prefix, handler: (req) => handler({ ...req, params: { [name]: req.path.slice(prefix.length) } }) });
  }

  /** GET and HEAD of every path under `prefix`: `name` is the rest of the path. */
  asset(prefix: string, handler: AssetHandler): void {
    this.assets.push({ prefix, handler });
  }

  /** The asset answer of a request, or undefined when it is an API request. */
  assetOf(method: string, path: string): Promise<ImageReply> | undefined {
    if (method !== 'GET' && method !== 'HEAD') return undefined;
    const a = this.assets.find((x) => path.startsWith(x.prefix));
    return a?.handler(path.slice(a.prefix.length));
  }

  /** Answers an API request: its route's reply; else 405 for a write, 404 for a read. */
  dispatch(req: Omit<FakeRequest, 'params'>): Reply {
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    const hit = this.routes.find(method, req.path);
    if (hit) return hit.value({ ...req, params: hit.params });
    const pre = this.prefixes.find((p) => p.method === method && req.path.startsWith(p.prefix));
    if (pre) return pre.handler({ ...req, params: {} });
    return method === 'GET' ? errorReply(NOT_FOUND) : METHOD_NOT_ALLOWED;
  }
}
