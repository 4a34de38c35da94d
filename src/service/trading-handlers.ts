/**
 * The CLOB trading routes (contract/trading-ops.ts): forwarded to the upstream CLOB through the
 * UpstreamClient (so through the outbound scheduler), with Polymarket's parameters and bodies
 * unchanged.
 *
 * - Reads (the routes with a `ttl` class) are cached for a short time (books and prices 2 s,
 *   histories 60 s), identical reads in flight share one upstream request, and while the
 *   upstream cannot be reached the last good answer is served with `Age` and `X-Marketdesk-Stale: 1`.
 * - `GET /data/trades`, the writes and the account's other routes (`auth: 'l2'`) are signed for the
 *   upstream with the configured credentials (L2); the callers' own signatures were checked by the
 *   face. They are never cached. A write's body goes out byte for byte and is never retried
 *   after a 5xx or a dropped connection (the order may have been placed); only a 429 is retried.
 * - The L1 routes (creating and deriving an API key) go with the caller's own wallet signature
 *   unchanged; their answers carry secrets and are never cached.
 * - The upstream's own 4xx answers are passed back with their status and `{error}` body.
 * - A request carrying an id the catalog knows to be the wrong trading id of its market (a V2
 *   market's clobTokenIds, a V1 market's positionIds) is refused with a 400 and never sent
 *   (trading-id-guard.ts), reads and signed writes alike.
 * - The Data API v2 reads (contract/data-ops.ts, routes.ts's `dataRoutes`) go the same way to the
 *   DATA host, cached for their `ttl` class; their upstream errors keep the whole upstream body
 *   (the v2 body carries `code`, `retryable`, `trace_id`, `parameter` beside `error`).
 * - A request the outbound budget cannot send before its deadline answers 503 with Retry-After
 *   (a read with a cached answer gets that, marked stale). A request whose caller went away
 *   (`ctx.signal`) leaves the scheduler's queue unsent; a shared read only when all its callers did.
 */
import type { Credentials } from '../auth/credentials.ts';
import { UNAUTHORIZED_BODY, l2Headers, type HeaderFamily } from '../auth/l2.ts';
import { ApiError, internalError, type ErrorBody, type TradesPage } from '../contract/index.ts';
import { isEndCursor } from '../upstream/clob.ts';
import { dataRoutes, tradingRoutes, type RouteDef, type TtlClass } from '../contract/routes.ts';
import { DeadlineError, UpstreamError, buildUrl, type QueryValue, type UpstreamClient } from '../upstream/client.ts';
import type { CallContext, HandlersFor } from '../contract/handlers.ts';
import { guardTradingIds, type WrongIdLookup } from './trading-id-guard.ts';

type TradingOp = keyof typeof tradingRoutes;
type DataOp = keyof typeof dataRoutes;
type TradingOpWith<F> = { [K in TradingOp]: (typeof tradingRoutes)[K] extends F ? K : never }[TradingOp];
/** The cached reads: the trading routes the contract gives a `ttl` class. */
type ReadOp = TradingOpWith<{ ttl: TtlClass }>;
/** The routes signed for the upstream with the configured credentials. */
type SignedOp = TradingOpWith<{ auth: 'l2' }>;

/** Lifetime of cached reads per class, ms (default: books and prices 2 s, histories 60 s). */
export type TradingTtls = Record<TtlClass, number>;

export interface TradingOptions {
  client: UpstreamClient;
  credentials: () => Credentials | undefined;
  /** Never contact the upstream (`--offline`): only cached answers (none at start). */
  offline?: boolean;
  ttlMs?: Partial<TradingTtls>;
  /** Cached answers kept, newest use first (default 2,000). */
  maxEntries?: number;
  family?: HeaderFamily;
  /** Wall clock, ms (tests). */
  now?: () => number;
  /**
   * A write that may have changed the account's orders went out (placed, cancelled; answered or
   * not, as a lost answer may still have been a placed order): the cached order list is fetched again.
   */
  afterOrderWrite?: () => void;
  /** The catalog's wrong trading ids (Store.wrongTradingId): a request carrying one is refused unsent. */
  wrongTradingId?: WrongIdLookup;
}

interface Entry {
  value: unknown;
  at: number;
}

/** One upstream read shared by identical callers; cancelled when the last of them goes. */
interface Shared {
  promise: Promise<unknown>;
  cancel: AbortController;
  waiters: number;
}

/** Thrown to a caller whose client went away: nobody reads the answer, it just ends the call. */
const clientGone = (): ApiError => new ApiError(499, { error: 'client closed request' });

/** The budget did not free before the deadline: 503 and when to come back. */
function busy(e: DeadlineError, ctx: CallContext): ApiError {
  ctx.header?.('retry-after', String(Math.max(1, Math.ceil(e.retryAfterMs / 1000))));
  return new ApiError(503, { error: 'upstream rate limit: try again later' });
}

/** The upstream's error, in the orders family's `{error}` shape. */
function passBack(e: UpstreamError): ApiError {
  const b = e.body as { error?: unknown } | undefined;
  const error = b && typeof b === 'object' && typeof b.error === 'string' ? b.error : `upstream answered ${e.status}`;
  return new ApiError(e.status!, { error });
}

/** The upstream's error with its own body, unchanged when it is an object with an `error` string. */
function passBackWhole(e: UpstreamError): ApiError {
  const b = e.body as { error?: unknown } | undefined;
  return b && typeof b === 'object' && !Array.isArray(b) && typeof b.error === 'string'
    ? new ApiError(e.status!, b as ErrorBody)
    : passBack(e);
}

/** Declared params as the upstream query (absent ones left out), in a stable order for cache keys. */
function queryOf(params: Record<string, unknown>): Record<string, QueryValue> {
  const out: Record<string, QueryValue> = {};
  for (const k of Object.keys(params).sort()) {
    const v = params[k];
    if (k !== 'body' && v !== undefined) out[k] = String(v);
  }
  return out;
}

/** The route's `:name` segments filled from the params (encoded); the other params stay for the query. */
function fillPath(template: string, params: Record<string, unknown>): { path: string; rest: Record<string, unknown> } {
  const rest = { ...params };
  const path = template.replace(/:(\w+)/g, (_m, name: string) => {
    const v = rest[name];
    delete rest[name];
    return encodeURIComponent(String(v ?? ''));
  });
  return { path, rest };
}

export class TradingForwarder {
  private readonly ttl: TradingTtls;
  private readonly cache = new Map<string, Entry>();
  private readonly inFlight = new Map<string, Shared>();
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(private readonly opts: TradingOptions) {
    this.ttl = { book: 2_000, price: 2_000, history: 60_000, ...opts.ttlMs };
    this.maxEntries = opts.maxEntries ?? 2_000;
    this.now = opts.now ?? Date.now;
  }

  async read(op: ReadOp | DataOp, params: Record<string, unknown>, ctx: CallContext): Promise<unknown> {
    // The upstream (CLOB, or the Data API for the data routes) has the route at the same method and path.
    const isData = op in dataRoutes;
    const r: RouteDef & { ttl: TtlClass } = isData ? dataRoutes[op as DataOp] : tradingRoutes[op as ReadOp];
    // An id the catalog knows the CLOB does not trade by: refused here, before the cache or the upstream.
    if (!isData && this.opts.wrongTradingId) guardTradingIds(this.opts.wrongTradingId, `${r.method} ${r.path}`, params);
    const host = isData ? 'data' : 'clob';
    const { path, rest } = fillPath(r.path, params);
    const query = queryOf(rest);
    const body = typeof params['body'] === 'string' ? params['body'] : undefined;
    const key = `${host} ${r.method} ${path}?${new URLSearchParams(query as Record<string, string>).toString()}\n${body ?? ''}`;
    const hit = this.cache.get(key);
    const now = this.now();
    const age = (e: Entry) => String(Math.max(0, Math.floor((now - e.at) / 1000)));
    if (hit && now - hit.at < this.ttl[r.ttl]) {
      ctx.header?.('age', age(hit));
      return hit.value;
    }
    if (this.opts.offline) return this.stale(hit, age, ctx);
    if (ctx.signal?.aborted) throw clientGone();
    let shared = this.inFlight.get(key);
    if (!shared) {
      const cancel = new AbortController();
      const promise = this.opts.client
        .request<unknown>(host, path, {
          method: r.method,
          query,
          ...(body !== undefined ? { rawBody: body } : {}),
          // The scheduler's group is the route (its template), not one market's path.
          group: `${r.method} ${r.path}`,
          priority: 'user',
          signal: cancel.signal,
        })
        .finally(() => {
          if (this.inFlight.get(key) === shared) this.inFlight.delete(key);
        });
      // Every caller may have gone: the rejection then has no one else to handle it.
      promise.catch(() => {});
      shared = { promise, cancel, waiters: 0 };
      this.inFlight.set(key, shared);
    }
    try {
      const value = await this.join(key, shared, ctx.signal);
      this.remember(key, value);
      return value;
    } catch (e) {
      if (ctx.signal?.aborted) throw clientGone();
      if (e instanceof UpstreamError && e.status !== null) throw isData ? passBackWhole(e) : passBack(e);
      // The budget stayed full until the deadline: the last good answer, else 503 Retry-After.
      if (e instanceof DeadlineError && !hit) throw busy(e, ctx);
      // Unreachable, offline circuit, retries spent: the last good answer if there is one.
      return this.stale(hit, age, ctx);
    }
  }

  /** Waits for a shared read as one of its callers; the last caller to leave cancels it. */
  private join(key: string, shared: Shared, signal: AbortSignal | undefined): Promise<unknown> {
    shared.waiters++;
    if (!signal) return shared.promise;
    return new Promise((resolve, reject) => {
      const leave = () => {
        reject(signal.reason);
        if (--shared.waiters > 0) return;
        // Nobody else waits: a later identical read must not join a cancelled request.
        if (this.inFlight.get(key) === shared) this.inFlight.delete(key);
        shared.cancel.abort(new Error('every caller went away'));
      };
      signal.addEventListener('abort', leave, { once: true });
      shared.promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', leave));
    });
  }

  private stale(hit: Entry | undefined, age: (e: Entry) => string, ctx: CallContext): unknown {
    if (!hit) throw internalError('orders');
    ctx.header?.('age', age(hit));
    ctx.header?.('x-marketdesk-stale', '1');
    return hit.value;
  }

  private remember(key: string, value: unknown): void {
    // Map order is insertion order: re-inserting makes this the newest, the first key the oldest.
    this.cache.delete(key);
    this.cache.set(key, { value, at: this.now() });
    if (this.cache.size > this.maxEntries) this.cache.delete(this.cache.keys().next().value!);
  }

  /** A request signed for the upstream with the configured credentials. */
  async signed(
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    query: Record<string, QueryValue>,
    body: string | undefined,
    ctx: CallContext = {},
  ): Promise<unknown> {
    // An order for an id the catalog knows the CLOB does not trade by is never signed or sent.
    if (this.opts.wrongTradingId) guardTradingIds(this.opts.wrongTradingId, `${method} ${path}`, { ...query, body });
    const creds = this.opts.credentials();
    if (!creds) throw new ApiError(401, { ...UNAUTHORIZED_BODY });
    if (this.opts.offline) throw internalError('orders');
    // The signature covers the path as sent, so a CLOB behind a path prefix still verifies.
    const signedPath = new URL(buildUrl(this.opts.client.urls.clob, path)).pathname;
    const headers = l2Headers(
      creds,
      { method, path: signedPath, ...(body !== undefined ? { body } : {}) },
      { nowMs: this.now(), family: this.opts.family ?? 'POLY' },
    );
    try {
      return await this.opts.client.request<unknown>('clob', path, {
        method,
        query,
        headers,
        ...(body !== undefined ? { rawBody: body } : {}),
        group: `${method} ${path}`,
        priority: 'user',
        // A write that may have reached the upstream is not sent again.
        ...(method !== 'GET' ? { retry: 'throttled' as const } : {}),
        // A caller who went away: a write still queued is never placed.
        ...(ctx.signal ? { signal: ctx.signal } : {}),
      });
    } catch (e) {
      if (ctx.signal?.aborted) throw clientGone();
      if (e instanceof UpstreamError && e.status !== null) throw passBack(e);
      if (e instanceof DeadlineError) throw busy(e, ctx);
      throw internalError('orders');
    }
  }

  /**
   * An L1 route (creating or deriving an API key): sent with the caller's own four L1 headers,
   * unchanged, since only the caller's wallet can sign them. The answer carries an API secret:
   * it is never cached (nor logged), and the caller is told not to store it (`cache-control: no-store`).
   */
  async l1(method: 'GET' | 'POST', path: string, ctx: CallContext = {}): Promise<unknown> {
    if (!ctx.l1) throw new ApiError(401, { ...UNAUTHORIZED_BODY });
    if (this.opts.offline) throw internalError('orders');
    ctx.header?.('cache-control', 'no-store');
    try {
      return await this.opts.client.request<unknown>('clob', path, {
        method,
        headers: { ...ctx.l1 },
        group: `${method} ${path}`,
        priority: 'user',
        // Creating a key is a write: one that may have reached the upstream is not sent again.
        ...(method !== 'GET' ? { retry: 'throttled' as const } : {}),
        ...(ctx.signal ? { signal: ctx.signal } : {}),
      });
    } catch (e) {
      if (ctx.signal?.aborted) throw clientGone();
      if (e instanceof UpstreamError && e.status !== null) throw passBack(e);
      if (e instanceof DeadlineError) throw busy(e, ctx);
      throw internalError('orders');
    }
  }
}

/** The writes that change the account's open orders (the cached list is refetched after each). */
const ORDER_WRITES: ReadonlySet<SignedOp> = new Set<SignedOp>([
  'order.place',
  'order.cancel',
  'orders.place',
  'orders.cancel',
  'orders.cancelAll',
  'orders.cancelMarket',
]);

export function tradingHandlers(opts: TradingOptions): HandlersFor<TradingOp | DataOp> {
  const f = new TradingForwarder(opts);
  const read = (op: ReadOp | DataOp) => (p: Record<string, unknown>, ctx: CallContext) => f.read(op, p, ctx) as never;
  const send = (op: SignedOp, ctx: CallContext, query: Record<string, QueryValue>, body?: string) =>
    f.signed(tradingRoutes[op].method, tradingRoutes[op].path, query, body, ctx);
  const signed = (op: SignedOp, ctx: CallContext, query: Record<string, QueryValue>, body?: string) => {
    if (!ORDER_WRITES.has(op)) return send(op, ctx, query, body) as never;
    // Whatever the outcome: a lost answer may still have placed the order, and a refetch is one read.
    return send(op, ctx, query, body).finally(() => opts.afterOrderWrite?.()) as never;
  };
  return {
    // The health route answers here: it says this service is up, not the upstream.
    'clob.health': () => 'OK',
    'book.get': read('book.get'),
    'books.post': read('books.post'),
    'price.get': read('price.get'),
    'prices.post': read('prices.post'),
    'midpoint.get': read('midpoint.get'),
    'pricesHistory.get': read('pricesHistory.get'),
    'pricesHistory.batch': read('pricesHistory.batch'),
    'time.get': read('time.get'),
    'midpoints.post': read('midpoints.post'),
    'spread.get': read('spread.get'),
    'spreads.post': read('spreads.post'),
    'lastTradePrice.get': read('lastTradePrice.get'),
    'lastTradesPrices.post': read('lastTradesPrices.post'),
    'tickSize.get': read('tickSize.get'),
    'negRisk.get': read('negRisk.get'),
    'feeRate.get': read('feeRate.get'),
    'trades.list': async (p, ctx) => {
      const spec = ctx.dialect !== 'polymarket';
      // The spec's cursor: `""` starts (the upstream's first page) and ends; Polymarket's passes through.
      const query = queryOf(spec && p.next_cursor === '' ? { ...p, next_cursor: undefined } : p);
      const page = (await signed('trades.list', ctx, query)) as TradesPage;
      return spec && page && typeof page === 'object' && isEndCursor(page.next_cursor) ? { ...page, next_cursor: '' } : page;
    },
    'order.place': (p, ctx) => signed('order.place', ctx, {}, p.body),
    'order.cancel': (p, ctx) => signed('order.cancel', ctx, {}, p.body),
    'clob.ok': read('clob.ok'),
    'clob.version': read('clob.version'),
    'clobMarket.get': read('clobMarket.get'),
    'marketByToken.get': read('marketByToken.get'),
    'builderFees.get': read('builderFees.get'),
    'builderTrades.list': read('builderTrades.list'),
    'heartbeat.post': (p, ctx) => signed('heartbeat.post', ctx, {}, p.body),
    'preMigrationOrders.list': (p, ctx) => signed('preMigrationOrders.list', ctx, queryOf(p)),
    // CLOB V2's other routes (issue 25): public reads cached by their `ttl` class, the account's routes signed, L1 as signed.
    'clobMarkets.list': read('clobMarkets.list'),
    'clobMarkets.get': read('clobMarkets.get'),
    'simplifiedMarkets.list': read('simplifiedMarkets.list'),
    'samplingMarkets.list': read('samplingMarkets.list'),
    'samplingSimplifiedMarkets.list': read('samplingSimplifiedMarkets.list'),
    'marketLiveActivity.get': read('marketLiveActivity.get'),
    'rewardsCurrent.list': read('rewardsCurrent.list'),
    'rewardsMarket.get': read('rewardsMarket.get'),
    'orders.place': (p, ctx) => signed('orders.place', ctx, {}, p.body),
    'orders.cancel': (p, ctx) => signed('orders.cancel', ctx, {}, p.body),
    'orders.cancelAll': (_p, ctx) => signed('orders.cancelAll', ctx, {}),
    'orders.cancelMarket': (p, ctx) => signed('orders.cancelMarket', ctx, {}, p.body),
    'orderScoring.get': (p, ctx) => signed('orderScoring.get', ctx, queryOf(p)),
    'ordersScoring.post': (p, ctx) => signed('ordersScoring.post', ctx, {}, p.body),
    'notifications.list': (p, ctx) => signed('notifications.list', ctx, queryOf(p)),
    'notifications.drop': (p, ctx) => signed('notifications.drop', ctx, queryOf(p)),
    'balanceAllowance.get': (p, ctx) => signed('balanceAllowance.get', ctx, queryOf(p)),
    'balanceAllowance.update': (p, ctx) => signed('balanceAllowance.update', ctx, queryOf(p)),
    'rewardsEarnings.list': (p, ctx) => signed('rewardsEarnings.list', ctx, queryOf(p)),
    'rewardsEarningsTotal.get': (p, ctx) => signed('rewardsEarningsTotal.get', ctx, queryOf(p)),
    'rewardsPercentages.get': (p, ctx) => signed('rewardsPercentages.get', ctx, queryOf(p)),
    'rewardsUserMarkets.list': (p, ctx) => signed('rewardsUserMarkets.list', ctx, queryOf(p)),
    'closedOnly.get': (_p, ctx) => signed('closedOnly.get', ctx, {}),
    'apiKey.create': (_p, ctx) => f.l1('POST', tradingRoutes['apiKey.create'].path, ctx) as never,
    'apiKey.derive': (_p, ctx) => f.l1('GET', tradingRoutes['apiKey.derive'].path, ctx) as never,
    'apiKey.delete': (_p, ctx) => signed('apiKey.delete', ctx, {}),
    'readonlyApiKey.create': (_p, ctx) => signed('readonlyApiKey.create', ctx, {}),
    'readonlyApiKeys.list': (_p, ctx) => signed('readonlyApiKeys.list', ctx, {}),
    'readonlyApiKey.delete': (p, ctx) => signed('readonlyApiKey.delete', ctx, {}, p.body),
    'builderApiKey.create': (_p, ctx) => signed('builderApiKey.create', ctx, {}),
    'builderApiKeys.list': (_p, ctx) => signed('builderApiKeys.list', ctx, {}),
    'builderApiKey.revoke': (_p, ctx) => signed('builderApiKey.revoke', ctx, {}),
    // The Data API v2's account reads: public, to the DATA host.
    'dataPositions.list': read('dataPositions.list'),
    'dataActivity.list': read('dataActivity.list'),
    'dataTrades.list': read('dataTrades.list'),
    'dataValue.get': read('dataValue.get'),
  };
}
