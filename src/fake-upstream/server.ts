/**
 * A real HTTP server that answers like Polymarket's Gamma API (docs/upstream/gamma.md):
 * bare arrays, silent limit clamp, offset cap with keyset routes behind it, camelCase `order`,
 * repeated-key array filters, `{type, error}` bodies. Plain node:http rather than a framework:
 * faults need raw control of the socket (half-written bodies, requests that never answer).
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { EventRecord, FakeCatalog, MarketRecord } from './catalog.ts';
import { FaultScript, type Fault } from './faults.ts';
import {
  isApiError,
  parseListQuery,
  runKeysetQuery,
  runOffsetQuery,
  validationError,
  type ApiError,
  type Kind,
  type Limits,
} from './query.ts';
import { RequestLog, type RequestLogEntry } from './request-log.ts';
import { FakeClob, parseList, type FakeClobOptions } from './clob.ts';
import { FakeLeaderboard, type FakeLeaderboardOptions } from './data-api.ts';
import { FakeLimits } from './limits.ts';
import { FakeTrading, type FakeTradingOptions } from './trading.ts';
import type { LimitsTable } from '../limits/table.ts';
import { IMAGES_PATH, imageReply } from './images.ts';
import { MUTATE_PATH, mutateBody } from './mutations.ts';

export interface FakeUpstreamOptions {
  catalog: FakeCatalog;
  /** 0 (default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Print one line per request to stdout. */
  log?: boolean;
  /** Serve `/markets/keyset` and `/events/keyset` (default true); false makes them 404, to test offset fallback. */
  keyset?: boolean;
  /** Silent clamp of `limit` on markets/events (default 100). */
  maxLimit?: number;
  /** Largest `offset` before the 422 (default 2000). */
  maxOffset?: number;
  /** Serve CLOB `GET /data/orders` for these credentials (absent: 404, as for any unknown route). */
  clob?: FakeClobOptions;
  /** Data API `GET /v1/leaderboard` boards (always served). */
  leaderboard?: FakeLeaderboardOptions;
  /** Enforce section 8's windows ('spec', or a table) with 429 + Retry-After; default 'off'. */
  limits?: 'spec' | 'off' | LimitsTable;
  /** The limiter's monotonic clock (tests). */
  limitsNow?: () => number;
  /** Options of the CLOB trading routes (books, prices, histories, order placement). */
  trading?: FakeTradingOptions;
  /**
   * 'local': the catalog's `image`/`icon` URLs are rewritten to this server's `/images/<name>`,
   * which answers with generated pictures (images.ts), so icons show without the internet (the
   * demo, the CLI). 'recorded' (default): left as recorded, so two servers of one catalog answer
   * alike (tests compare their syncs); `/images/` is served either way.
   */
  images?: 'local' | 'recorded';
}

export interface FakeUpstream {
  url: string;
  port: number;
  close(): Promise<void>;
  faults: FaultScript;
  requests: RequestLog;
  catalog: FakeCatalog;
  clob: FakeClob | undefined;
  leaderboard: FakeLeaderboard;
  trading: FakeTrading;
  /** Present when limits are enforced. */
  limits: FakeLimits | undefined;
}

interface Reply {
  status: number;
  /** Pages are lists of chunks, never joined: see send(). */
  body: string | string[];
  headers?: Record<string, string>;
}

const NOT_FOUND: ApiError = { status: 404, body: { type: 'not found error', error: 'not found' } };
const ID_RE = /^\d{1,18}$/;
/** "007" names item 7, without going through a float. */
const canonicalId = (id: string): string => id.replace(/^0+(?=\d)/, '');

function errorReply(e: ApiError): Reply {
  return { status: e.status, body: JSON.stringify(e.body) };
}

function json(value: unknown): Reply {
  return { status: 200, body: JSON.stringify(value) };
}

function queryRecord(q: URLSearchParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const k of new Set(q.keys())) {
    const all = q.getAll(k);
    out[k] = all.length === 1 ? (all[0] as string) : all;
  }
  return out;
}

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

export async function startFakeUpstream(opts: FakeUpstreamOptions): Promise<FakeUpstream> {
  const { catalog } = opts;
  const host = opts.host ?? '127.0.0.1';
  const keyset = opts.keyset ?? true;
  const limits: Limits = { maxLimit: opts.maxLimit ?? 100, maxOffset: opts.maxOffset ?? 2000 };
  const faults = new FaultScript();
  const requests = new RequestLog();
  const timers = new Set<NodeJS.Timeout>();
  let closing = false;
  const clob = opts.clob ? new FakeClob(opts.clob, catalog) : undefined;
  const leaderboard = new FakeLeaderboard(opts.leaderboard);
  // Placed and cancelled orders show in the CLOB's order list when there is one.
  const trading = new FakeTrading({
    ...(clob ? { credentials: opts.clob!.credentials, clob } : {}),
    priceOf: tokenPrices(catalog),
    ...opts.trading,
  });
  const fakeLimits =
    !opts.limits || opts.limits === 'off' ? undefined : new FakeLimits(opts.limits === 'spec' ? undefined : opts.limits, opts.limitsNow);

  /** Appends the items' JSON, comma-separated; sibling markets of one event share its JSON via `scope`. */
  function items(kind: Kind, recs: (MarketRecord | EventRecord)[], withMarkets: boolean, body: string[]): void {
    const scope = new Map<string, string>();
    recs.forEach((r, i) => {
      if (i > 0) body.push(',');
      body.push(kind === 'markets' ? catalog.marketJson(r as MarketRecord, scope) : catalog.eventJson(r as EventRecord, withMarkets));
    });
  }

  function list(kind: Kind, q: URLSearchParams): Reply {
    const parsed = parseListQuery(catalog, kind, q, false, limits);
    if (isApiError(parsed)) return errorReply(parsed);
    const recs = runOffsetQuery(catalog, parsed);
    const body = ['['];
    items(kind, recs, parsed.includeMarkets, body);
    body.push(']');
    return { status: 200, body };
  }

  function keysetList(kind: Kind, q: URLSearchParams): Reply {
    const parsed = parseListQuery(catalog, kind, q, true, limits);
    if (isApiError(parsed)) return errorReply(parsed);
    const { items: recs, next } = runKeysetQuery(catalog, parsed);
    const body = [`{"${kind}":[`];
    items(kind, recs, parsed.includeMarkets, body);
    body.push(next === undefined ? ']}' : `],"next_cursor":${JSON.stringify(next)}}`);
    return { status: 200, body };
  }

  function byId(kind: Kind, id: string, q: URLSearchParams): Reply {
    if (!ID_RE.test(id)) return errorReply(validationError('id is invalid'));
    const notFound = errorReply({ status: 404, body: { type: 'not found error', error: 'id not found' } });
    if (kind === 'markets') {
      const rec = catalog.marketRecord(canonicalId(id));
      return rec ? { status: 200, body: catalog.marketJson(rec) } : notFound;
    }
    const rec = catalog.eventRecord(canonicalId(id));
    const withMarkets = q.get('include_markets') !== 'false';
    return rec ? { status: 200, body: catalog.eventJson(rec, withMarkets) } : notFound;
  }

  function bySlug(kind: Kind | 'tags', raw: string): Reply {
    const slug = slugParam(raw);
    if (isApiError(slug)) return errorReply(slug);
    const notFound = errorReply({ status: 404, body: { type: 'not found error', error: 'slug not found' } });
    if (kind === 'markets') {
      const rec = catalog.marketBySlug(slug);
      return rec ? { status: 200, body: catalog.marketJson(rec) } : notFound;
    }
    if (kind === 'events') {
      const rec = catalog.eventBySlug(slug);
      return rec ? { status: 200, body: catalog.eventJson(rec) } : notFound;
    }
    const tag = catalog.tagBySlug(slug);
    return tag ? json(tag) : notFound;
  }

  function route(method: string, path: string, q: URLSearchParams, headers: IncomingHttpHeaders, body = ''): Reply {
    // The test's admin route: change the catalog between syncs (mutations.ts).
    if (path === MUTATE_PATH && method === 'POST') return mutateBody(catalog, body);
    const traded = trading.route(method, path, q, body, headers);
    if (traded) return traded;
    if (method !== 'GET' && method !== 'HEAD') {
      return {
        status: 405,
        body: JSON.stringify({ type: 'method not allowed', error: 'method not allowed' }),
        headers: { allow: 'GET, HEAD' },
      };
    }
    // CLOB and Data API routes share the one server (tests point all three upstream URLs here).
    if (path === '/data/orders' && clob) return clob.orderList(method, path, q, headers);
    if (path.startsWith('/data/order/') && clob) return clob.orderById(method, path, headers);
    if (path === '/v1/leaderboard') return leaderboard.route(q);
    const seg = path.split('/').slice(1);
    const [root, a, b] = seg;
    const n = seg.length;
    if (root === 'markets' || root === 'events') {
      if (n === 1) return list(root, q);
      if (n === 2 && a === 'keyset') return keyset ? keysetList(root, q) : errorReply(NOT_FOUND);
      if (n === 3 && a === 'slug') return bySlug(root, b as string);
      if (n === 2) return byId(root, a as string, q);
      return errorReply(NOT_FOUND);
    }
    if (root === 'tags') {
      if (n === 1) {
        const page = pageParams(q, 100, 1000);
        if (isApiError(page)) return errorReply(page);
        return json(catalog.tags().slice(page.offset, page.offset + page.limit));
      }
      if (n === 3 && a === 'slug') return bySlug('tags', b as string);
      if (n === 2) {
        if (!ID_RE.test(a as string)) return errorReply(validationError('id is invalid'));
        const tag = catalog.tag(canonicalId(a as string));
        return tag ? json(tag) : errorReply({ status: 404, body: { type: 'not found error', error: 'id not found' } });
      }
      return errorReply(NOT_FOUND);
    }
    if (root === 'series') {
      if (n === 1) {
        const page = pageParams(q, 20, 50);
        if (isApiError(page)) return errorReply(page);
        return json(catalog.series().slice(page.offset, page.offset + page.limit));
      }
      if (n === 2) {
        if (!ID_RE.test(a as string)) return errorReply(validationError('id is invalid'));
        const s = catalog.seriesById(canonicalId(a as string));
        return s ? json(s) : errorReply({ status: 404, body: { type: 'not found error', error: 'id not found' } });
      }
    }
    return errorReply(NOT_FOUND);
  }

  /**
   * Writes the reply. A page goes out as its item strings (corked into one writev) rather than one
   * joined string: a 0.5 MB string per page lands in V8's large-object space, grows the old
   * generation and brings on full collections over the whole catalog heap (measured: ~15% more
   * server CPU over a 100k-market walk).
   */
  function send(res: ServerResponse, entry: RequestLogEntry, t0: number, reply: Reply): void {
    entry.status = reply.status;
    const chunks = typeof reply.body === 'string' ? [reply.body] : reply.body;
    let length = 0;
    for (const c of chunks) length += Buffer.byteLength(c, 'utf8');
    res.writeHead(reply.status, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(length), ...reply.headers });
    res.cork();
    for (const c of chunks) res.write(c);
    res.end();
    res.uncork();
    finish(entry, t0);
  }

  function finish(entry: RequestLogEntry, t0: number): void {
    entry.ms = performance.now() - t0;
    requests.add(entry);
    if (opts.log)
      console.log(`${entry.method} ${entry.path} ${entry.status} ${entry.ms.toFixed(1)}ms${entry.fault ? ` [${entry.fault}]` : ''}`);
  }

  function answer(
    res: ServerResponse,
    entry: RequestLogEntry,
    t0: number,
    method: string,
    path: string,
    q: URLSearchParams,
    headers: IncomingHttpHeaders,
    body?: string,
  ): void {
    let reply: Reply;
    try {
      reply = route(method, path, q, headers, body);
    } catch (err) {
      // A bug in the fake should look like an upstream 500 to the client and still be visible here.
      console.error('fake-upstream: handler error', err);
      reply = { status: 500, body: JSON.stringify({ type: 'internal error', error: 'cannot get the information' }) };
    }
    send(res, entry, t0, reply);
  }

  function applyFault(
    fault: Fault,
    res: ServerResponse,
    entry: RequestLogEntry,
    t0: number,
    method: string,
    path: string,
    q: URLSearchParams,
    headers: IncomingHttpHeaders,
  ): void {
    entry.fault = fault.kind;
    switch (fault.kind) {
      case '429':
        send(res, entry, t0, {
          status: 429,
          body: JSON.stringify({ type: 'too many requests', error: 'rate limit exceeded' }),
          headers: { 'retry-after': String(fault.retryAfter ?? 1) },
        });
        return;
      case '500':
        send(res, entry, t0, { status: 500, body: JSON.stringify({ type: 'internal error', error: 'cannot get the information' }) });
        return;
      case 'slow': {
        const timer = setTimeout(() => {
          timers.delete(timer);
          if (!res.destroyed) answer(res, entry, t0, method, path, q, headers);
        }, fault.ms);
        timers.add(timer);
        return;
      }
      case 'hang':
        // Logged now so tests can wait for the request to have arrived; close() ends the socket.
        requests.add(entry);
        return;
      case 'drop': {
        const reply = route(method, path, q, headers);
        const buf = Buffer.from(typeof reply.body === 'string' ? reply.body : reply.body.join(''), 'utf8');
        entry.status = reply.status;
        res.writeHead(reply.status, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(buf.length) });
        // Half the promised body, then the connection dies: the client sees a truncated response.
        res.write(buf.subarray(0, Math.max(1, buf.length >> 1)), () => res.socket?.destroy());
        finish(entry, t0);
        return;
      }
    }
  }

  /** Reads a write's body first (bounded: 1 MiB), then handles the request. */
  function handle(req: IncomingMessage, res: ServerResponse): void {
    if (req.method !== 'POST' && req.method !== 'DELETE') {
      handleWith(req, res, '');
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > 1 << 20) req.destroy();
      else chunks.push(c);
    });
    req.on('end', () => handleWith(req, res, Buffer.concat(chunks).toString('utf8')));
  }

  function handleWith(req: IncomingMessage, res: ServerResponse, body: string): void {
    const t0 = performance.now();
    const method = req.method ?? 'GET';
    const url = req.url ?? '/';
    const qi = url.indexOf('?');
    let path = qi < 0 ? url : url.slice(0, qi);
    if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
    const q = new URLSearchParams(qi < 0 ? '' : url.slice(qi + 1));
    const entry: RequestLogEntry = { method, path, query: queryRecord(q), status: 0, time: Date.now() };
    if (closing) {
      res.destroy();
      return;
    }
    // Pictures stand for a CDN, not the API: no API limits or faults apply to them.
    if (path.startsWith(IMAGES_PATH) && (method === 'GET' || method === 'HEAD')) {
      void imageReply(path.slice(IMAGES_PATH.length)).then(
        (img) => {
          entry.status = img.status;
          res.writeHead(img.status, { 'content-type': img.contentType, 'content-length': String(img.body.length) });
          res.end(method === 'HEAD' ? undefined : img.body);
          finish(entry, t0);
        },
        (err: unknown) => {
          console.error('fake-upstream: image error', err);
          res.destroy();
        },
      );
      return;
    }
    if (fakeLimits) {
      // The edge throttles before anything else, as Cloudflare does in front of the real APIs.
      const { decision: d, catalog: cat } = fakeLimits.check(method, path, req.socket.remoteAddress ?? '', req.headers);
      if (!d.admitted) {
        entry.limited = true;
        send(res, entry, t0, {
          status: 429,
          body: JSON.stringify(cat ? { type: 'too many requests', error: 'rate limit exceeded' } : { error: 'rate limit exceeded' }),
          headers: { 'retry-after': String(d.retryAfterS), 'ratelimit-policy': d.policy, ratelimit: d.rateLimit },
        });
        return;
      }
    }
    const fault = faults.take({ method, path, query: q });
    if (fault) applyFault(fault, res, entry, t0, method, path, q, req.headers);
    else answer(res, entry, t0, method, path, q, req.headers, body);
  }

  const server = createServer(handle);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  if (opts.images === 'local') catalog.localizeImages(url);

  let closed: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closed ??= new Promise<void>((resolve) => {
      closing = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      server.close(() => resolve());
      // Idle keep-alive sockets and hung requests alike: close() must not wait for clients.
      server.closeAllConnections();
    });
    return closed;
  };

  return { url, port, close, faults, requests, catalog, clob, leaderboard, trading, limits: fakeLimits };
}

/** token id -> its outcome's price in the catalog, built on first use (a book asked of a big catalog). */
function tokenPrices(catalog: FakeCatalog): (token: string) => number | undefined {
  let prices: Map<string, number> | undefined;
  return (token) => {
    if (!prices) {
      prices = new Map();
      for (const rec of catalog.marketRecords()) {
        const m = rec.obj as Record<string, unknown>;
        const tokens = parseList(m['clobTokenIds']);
        const values = parseList(m['outcomePrices']);
        tokens.forEach((t, i) => {
          const p = Number(values[i]);
          if (values[i]?.trim() && Number.isFinite(p)) prices!.set(t, p);
        });
      }
    }
    return prices.get(token);
  };
}
