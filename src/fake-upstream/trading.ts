/**
 * The fake upstream's CLOB trading routes (interface spec 4.6; Polymarket's CLOB shapes):
 * `GET /`, books, prices, midpoints, price histories (single and batch), `GET /data/trades`,
 * and `POST /order` / `DELETE /order`, which change the fake's order list; and the rest of CLOB
 * V2 (issue 25): batch placing (`POST /orders`) and cancelling (`DELETE /orders`, `/cancel-all`,
 * `/cancel-market-orders`), which change it too; the market reads (clob-markets.ts); the
 * account's notifications, balances, scoring and rewards (clob-account.ts); API keys, L1 and L2
 * (api-keys.ts).
 *
 * Everything is derived from the token id (seeded, no Math.random) and a fixed clock, so the
 * same request always gets the same answer, until the market channel (market-ws.ts) moves a
 * token's book: from then on its book and price routes answer from that live book
 * (market-books.ts), the state the channel's updates describe. Writes and trades need L2 headers: verified when
 * the fake is given credentials, otherwise only required to be present.
 */
import { createHash } from 'node:crypto';
import { UNAUTHORIZED_BODY, verifyL2 } from '../auth/l2.ts';
import type { Credentials } from '../auth/credentials.ts';
import { tradingRoutes } from '../contract/routes.ts';
import { routeName } from '../limits/table.ts';
import { FakeApiKeys, INVALID_L1 } from './api-keys.ts';
import { FakeClobAccount } from './clob-account.ts';
import { FakeClobMarkets, type ClobMarketSource } from './clob-markets.ts';
import type { FakeClob, RawOrder } from './clob.ts';
import { bookHash, fmtPrice, LiveBooks, type BookSummary, type LiveBook } from './market-books.ts';
import { checkSignedOrder } from './order-signing.ts';
import { mulberry32 } from './prng.ts';
import { DEFAULT_NOW } from './synthetic.ts';

export interface TradingReply {
  status: number;
  body: string;
}

export interface FakeOrder {
  id: string;
  /** The POST /order body exactly as received. */
  raw: string;
  order: Record<string, unknown>;
  owner: string;
  orderType: string;
  createdAt: number;
}

export interface FakeTradingOptions {
  /** Verify L2 signatures against these; without them the headers need only be present. */
  credentials?: Credentials;
  /** Milliseconds since the epoch for timestamps and history ends (default: the synthetic catalog's now). */
  now?: () => number;
  /** The fake CLOB whose `/data/orders` list placed orders join and cancelled ones leave. */
  clob?: FakeClob;
  /** A token's price in the catalog (its outcome's `outcomePrices` entry): books and histories centre on it. */
  priceOf?: (token: string) => number | undefined;
  /**
   * 'v2' (default): POST /order takes only CLOB V2 orders whose EIP-712 signature recovers to their
   * signer (order-signing.ts), as the CLOB does since 2026-04-28. 'any': any JSON order (tests of forwarding).
   */
  orders?: 'v2' | 'any';
  /** Ids the catalog names but the CLOB has no book for (a v2 market's CTF token ids, a v1 market's positionIds). */
  hasNoBook?: (token: string) => boolean;
  /** The catalog's markets, for the CLOB's market reads (`GET /markets` & co.); none without it. */
  markets?: () => readonly ClobMarketSource[];
  /** A token's market in the catalog; a token it does not name gets a made-up one (a hash). */
  conditionOf?: (token: string) => string | undefined;
  /** Page size of the CLOB's market listings and rewards pages (default 1000). */
  marketsPageSize?: number;
}

type Headers = Record<string, string | string[] | undefined>;

const json = (status: number, value: unknown): TradingReply => ({ status, body: JSON.stringify(value) });
const bad = (error: string): TradingReply => json(400, { error });
const TOKEN = /^\d{1,80}$/;
const INTERVALS: Record<string, number> = {
  '1h': 3600,
  '6h': 6 * 3600,
  '1d': 86_400,
  '1w': 7 * 86_400,
  '1m': 30 * 86_400,
  max: 90 * 86_400,
  all: 90 * 86_400,
};
const MAX_POINTS = 1000;

/** The contract's CLOB trading operations (spec 4.6), which this module answers, each at its contract route. */
export type TradingOp = keyof typeof tradingRoutes;
export const TRADING_OPS = Object.keys(tradingRoutes) as TradingOp[];

/** The routes this module answers, as `METHOD /path`. */
export const TRADING_ROUTES: ReadonlySet<string> = new Set(TRADING_OPS.map(routeName));
const OP_OF_ROUTE = new Map(TRADING_OPS.map((op) => [routeName(op), op]));

/** What a trading route reads of its request. */
export interface TradingRequest {
  path: string;
  q: URLSearchParams;
  body: string;
  headers: Headers;
}

function seedOf(token: string): number {
  return createHash('sha256').update(token).digest().readUInt32LE(0);
}

const round = (x: number, step: number) => Math.round(x / step) * step;
const fmt = fmtPrice;

type Book = BookSummary;

export class FakeTrading {
  readonly orders = new Map<string, FakeOrder>();
  /**
   * Every body a write route received, exactly as received: POST /order, DELETE /order, POST
   * /v1/heartbeats, and CLOB V2's POST /orders, DELETE /orders, /cancel-all, /cancel-market-orders.
   */
  readonly writes: { route: string; body: string }[] = [];
  /** API keys: the configured account's, and those created with L1 (api-keys.ts). */
  readonly keys: FakeApiKeys;
  /** The market reads (clob-markets.ts). */
  readonly markets: FakeClobMarkets;
  /** The account's notifications, balances, scoring, rewards, readonly and builder keys (clob-account.ts). */
  readonly account: FakeClobAccount;
  /** Markets whose token the fake has answered for (a market's tokens, for `/clob-markets/{condition_id}`). */
  private readonly tokensOfMarket = new Map<string, Set<string>>();
  /**
   * Books the market channel (market-ws.ts) has changed: once a token is here, every book and price
   * route answers from its live book; the others stay derived from the token id (market-books.ts).
   */
  readonly live = new LiveBooks();
  /** The fake CLOB's clock (ms): book timestamps, history ends; the market channel's timestamps follow it. */
  readonly now: () => number;

  constructor(private readonly opts: FakeTradingOptions = {}) {
    this.now = opts.now ?? (() => DEFAULT_NOW);
    this.keys = new FakeApiKeys(opts.credentials ? { credentials: opts.credentials } : {});
    const quotes = {
      // As `/midpoint` answers it (four decimals), so a listing's token price equals the token's midpoint.
      price: (t: string) => Number(fmt(this.mid(t))),
      tickSize: (t: string) => Number(this.book(t).tick_size),
      minOrderSize: (t: string) => Number(this.book(t).min_order_size),
      negRisk: (t: string) => this.book(t).neg_risk,
    };
    this.markets = new FakeClobMarkets(opts.markets ?? (() => []), quotes, opts.marketsPageSize ?? 1000, this.now);
    const owner = opts.credentials ?? {
      apiKey: '00000000-0000-4000-8000-000000000000',
      address: '0x0000000000000000000000000000000000000000',
    };
    this.account = new FakeClobAccount(owner, {
      openOrders: () => this.openOrders().map((o) => ({ id: o.id, market: o.market, asset_id: o.asset_id, price: o.price })),
      mid: (t) => this.mid(t),
      maxSpread: (c) => this.markets.byCondition(c)?.rewardsMaxSpread ?? 0,
      now: this.now,
    });
  }

  /** The account's live orders as `/data/orders` lists them: the CLOB's list when there is one, else those placed here. */
  openOrders(): RawOrder[] {
    if (this.opts.clob) return this.opts.clob.orders;
    return this.liveOrders().map((o) =>
      rawOrder(o.id, o.order, o.owner, o.orderType, o.createdAt, this.marketOf(String(o.order['tokenId'] ?? ''))),
    );
  }

  /** Live orders, oldest first (the issue-4 `/data/orders` fake can serve these). */
  liveOrders(): FakeOrder[] {
    return [...this.orders.values()];
  }

  handles(method: string, path: string): boolean {
    return TRADING_ROUTES.has(`${method === 'HEAD' ? 'GET' : method} ${path}`);
  }

  /** Answers a trading route, or undefined when `method path` is not one. */
  route(method: string, path: string, q: URLSearchParams, body: string, headers: Headers): TradingReply | undefined {
    const op = OP_OF_ROUTE.get(`${method === 'HEAD' ? 'GET' : method} ${path}`);
    return op && this.answer(op, { path, q, body, headers });
  }

  /** Answers `op`. */
  answer(op: TradingOp, req: TradingRequest): TradingReply {
    return this.answers[op](req);
  }

  private readonly answers: { readonly [K in TradingOp]: (r: TradingRequest) => TradingReply } = {
    'clob.health': () => json(200, 'OK'),
    'book.get': ({ q }) => this.withToken(q.get('token_id'), (t) => json(200, this.book(t))),
    'books.post': ({ body }) =>
      this.withList(body, (items) => {
        const out: Book[] = [];
        for (const it of items) {
          const t = it?.['token_id'];
          if (typeof t !== 'string' || !TOKEN.test(t)) return bad('Invalid payload');
          if (this.missing(t)) continue;
          out.push(this.book(t));
        }
        return json(200, out);
      }),
    'price.get': ({ q }) => {
      const side = q.get('side');
      if (side !== 'BUY' && side !== 'SELL') return bad('Invalid side');
      return this.withToken(q.get('token_id'), (t) => json(200, { price: this.price(t, side) }));
    },
    'prices.post': ({ body }) =>
      this.withList(body, (items) => {
        const out: Record<string, Record<string, string>> = {};
        for (const it of items) {
          const t = it?.['token_id'];
          const side = it?.['side'];
          if (typeof t !== 'string' || !TOKEN.test(t) || (side !== 'BUY' && side !== 'SELL')) return bad('Invalid payload');
          if (this.missing(t)) continue;
          out[t] ??= {};
          out[t][side] = this.price(t, side);
        }
        return json(200, out);
      }),
    'midpoint.get': ({ q }) => this.withToken(q.get('token_id'), (t) => json(200, { mid: fmt(this.mid(t)) })),
    'pricesHistory.get': ({ q }) => {
      const market = q.get('market');
      if (!market || !TOKEN.test(market)) return bad('Invalid market');
      const h = this.history(market, {
        startTs: q.get('startTs'),
        endTs: q.get('endTs'),
        interval: q.get('interval'),
        fidelity: q.get('fidelity'),
      });
      return typeof h === 'string' ? bad(h) : json(200, { history: h });
    },
    'pricesHistory.batch': ({ body }) => this.batchHistory(body),
    // The real clock: clients sign with it (useServerTime), and signatures are checked against it.
    'time.get': () => json(200, Math.floor(Date.now() / 1000)),
    'midpoints.post': ({ body }) => this.perToken(body, (t) => fmt(this.mid(t))),
    'spread.get': ({ q }) => this.withToken(q.get('token_id'), (t) => json(200, { spread: this.spread(t) })),
    'spreads.post': ({ body }) => this.perToken(body, (t) => this.spread(t)),
    'lastTradePrice.get': ({ q }) => this.withToken(q.get('token_id'), (t) => json(200, this.lastTrade(t))),
    'lastTradesPrices.post': ({ body }) =>
      this.withList(body, (items) => {
        const out: { token_id: string; price: string; side: string }[] = [];
        for (const it of items) {
          const t = it?.['token_id'];
          if (typeof t !== 'string' || !TOKEN.test(t)) return bad('Invalid payload');
          if (!this.missing(t)) out.push({ token_id: t, ...this.lastTrade(t) });
        }
        return json(200, out);
      }),
    // Numbers, not strings, as Polymarket answers these three.
    'tickSize.get': ({ q }) => this.withToken(q.get('token_id'), (t) => json(200, { minimum_tick_size: Number(this.book(t).tick_size) })),
    'negRisk.get': ({ q }) => this.withToken(q.get('token_id'), (t) => json(200, { neg_risk: this.book(t).neg_risk })),
    'feeRate.get': ({ q }) => this.withToken(q.get('token_id'), () => json(200, { base_fee: 0 })),
    'trades.list': ({ path, q, headers }) => {
      if (!this.authorized('GET', path, headers, '')) return json(401, UNAUTHORIZED_BODY);
      const data = this.trades(q);
      return json(200, { data, next_cursor: 'LTE=', limit: 100, count: data.length });
    },
    'order.place': ({ path, body, headers }) => {
      this.writes.push({ route: 'POST /order', body });
      if (!this.authorized('POST', path, headers, body)) return json(401, UNAUTHORIZED_BODY);
      return this.place(body);
    },
    'order.cancel': ({ path, body, headers }) => {
      this.writes.push({ route: 'DELETE /order', body });
      if (!this.authorized('DELETE', path, headers, body)) return json(401, UNAUTHORIZED_BODY);
      return this.cancel(body);
    },
    // CLOB V2's own routes (research notes d; fixtures/polymarket-2026/d_clob/).
    'clob.ok': () => json(200, 'OK'),
    'clob.version': () => json(200, { version: 2 }),
    'clobMarket.get': ({ path }) => this.clobMarket(lastSegment(path)),
    'marketByToken.get': ({ path }) =>
      this.withToken(lastSegment(path), (t) => {
        const market = this.marketOf(t);
        const ids = this.markets.byCondition(market)?.tokens.map((x) => x.id);
        const [primary, secondary] = ids && ids.length === 2 && ids.includes(t) ? ids : [t, this.otherToken(t)];
        return json(200, { condition_id: market, primary_token_id: primary, secondary_token_id: secondary });
      }),
    'builderFees.get': ({ path }) => {
      const code = lastSegment(path);
      if (!/^0x[0-9a-fA-F]{64}$/.test(code)) return bad('invalid builder code');
      return json(200, { builder_maker_fee_rate_bps: 0, builder_taker_fee_rate_bps: 0 });
    },
    'builderTrades.list': ({ q }) => {
      const code = q.get('builder_code');
      if (!code || /^0x0*$/.test(code)) return bad('builder_code is required');
      return json(200, { data: [], next_cursor: 'LTE=', limit: 100, count: 0 });
    },
    'heartbeat.post': ({ path, body, headers }) => {
      this.writes.push({ route: 'POST /v1/heartbeats', body });
      if (!this.authorized('POST', path, headers, body)) return json(401, UNAUTHORIZED_BODY);
      const b = this.parse(body) as Record<string, unknown> | undefined;
      const id = b && typeof b === 'object' ? b['heartbeat_id'] : undefined;
      if (typeof id !== 'string') return bad('Invalid heartbeat payload');
      const fresh = createHash('sha256').update(`heartbeat:${this.writes.length}`).digest('hex').slice(0, 32);
      return json(200, { heartbeat_id: id || fresh });
    },
    'preMigrationOrders.list': ({ path, headers }) => {
      if (!this.authorized('GET', path, headers, '')) return json(401, UNAUTHORIZED_BODY);
      return json(200, { data: [], next_cursor: 'LTE=', limit: 100, count: 0 });
    },
    // CLOB V2's market reads (clob-markets.ts).
    'clobMarkets.list': ({ q }) => this.markets.page('markets', q.get('next_cursor')),
    'clobMarkets.get': ({ path }) => this.markets.one(lastSegment(path)),
    'simplifiedMarkets.list': ({ q }) => this.markets.page('simplified', q.get('next_cursor')),
    'samplingMarkets.list': ({ q }) => this.markets.page('sampling', q.get('next_cursor')),
    'samplingSimplifiedMarkets.list': ({ q }) => this.markets.page('sampling-simplified', q.get('next_cursor')),
    'marketLiveActivity.get': ({ path }) => this.markets.liveActivity(lastSegment(path)),
    'rewardsCurrent.list': ({ q }) => this.markets.currentRewards(q.get('next_cursor')),
    'rewardsMarket.get': ({ path, q }) => this.markets.marketRewards(lastSegment(path), q.get('next_cursor')),
    // Batch writes: each changes the order list, as the single ones do.
    'orders.place': (r) => this.write('POST /orders', r, () => this.placeBatch(r.body)),
    'orders.cancel': (r) =>
      this.write('DELETE /orders', r, () => {
        const ids = this.parse(r.body);
        if (!Array.isArray(ids) || !ids.every((x) => typeof x === 'string')) return bad('Invalid order payload');
        return json(200, this.cancelMany(ids as string[]));
      }),
    'orders.cancelAll': (r) => this.write('DELETE /cancel-all', r, () => json(200, this.cancelMany(this.openOrders().map((o) => o.id)))),
    'orders.cancelMarket': (r) =>
      this.write('DELETE /cancel-market-orders', r, () => {
        const b = this.parse(r.body) as Record<string, unknown> | undefined;
        const market = b && typeof b === 'object' && typeof b['market'] === 'string' && b['market'] !== '' ? b['market'] : undefined;
        const asset = b && typeof b === 'object' && typeof b['asset_id'] === 'string' && b['asset_id'] !== '' ? b['asset_id'] : undefined;
        if (market === undefined && asset === undefined) return bad('market or asset_id is required');
        const ids = this.openOrders()
          .filter(
            (o) =>
              (market === undefined || o.market.toLowerCase() === market.toLowerCase()) && (asset === undefined || o.asset_id === asset),
          )
          .map((o) => o.id);
        return json(200, this.cancelMany(ids));
      }),
    // The account's reads (clob-account.ts), L2 like the orders.
    'orderScoring.get': (r) => this.signed(r, 'GET', () => this.account.scoring(r.q.get('order_id'))),
    'ordersScoring.post': (r) => this.signed(r, 'POST', () => this.account.scoringMany(r.body)),
    'notifications.list': (r) => this.signed(r, 'GET', () => this.account.notificationsList()),
    'notifications.drop': (r) => this.signed(r, 'DELETE', () => this.account.dropNotifications(r.q.get('ids'))),
    'balanceAllowance.get': (r) => this.signed(r, 'GET', () => this.account.balanceAllowance(r.q)),
    // The answer to an update was not captured: the fake answers the refreshed record.
    'balanceAllowance.update': (r) => this.signed(r, 'GET', () => this.account.balanceAllowance(r.q)),
    'rewardsEarnings.list': (r) => this.signed(r, 'GET', () => this.account.earnings(r.q)),
    'rewardsEarningsTotal.get': (r) => this.signed(r, 'GET', () => this.account.totalEarnings(r.q)),
    'rewardsPercentages.get': (r) => this.signed(r, 'GET', () => this.account.percentages()),
    'rewardsUserMarkets.list': (r) =>
      this.signed(r, 'GET', () =>
        this.account.userMarkets(r.q, (c) => {
          const m = this.markets.byCondition(c);
          return m && this.markets.reward(m);
        }),
      ),
    'closedOnly.get': (r) => this.signed(r, 'GET', () => json(200, { closed_only: false })),
    // API keys (api-keys.ts): L1 creates and derives them; the rest is L2.
    'apiKey.create': ({ headers }) => this.withL1(headers, (a) => this.keys.create(a.address, a.nonce)),
    'apiKey.derive': ({ headers }) => this.withL1(headers, (a) => this.keys.derive(a.address, a.nonce)),
    'apiKey.delete': (r) =>
      this.signed(r, 'DELETE', () => {
        this.keys.revoke(one(r.headers['poly_api_key']) ?? one(r.headers['kuest_api_key']) ?? '');
        return json(200, 'OK');
      }),
    'readonlyApiKey.create': (r) => this.signed(r, 'POST', () => this.account.createReadonly(this.apiKeyOf(r.headers))),
    'readonlyApiKeys.list': (r) => this.signed(r, 'GET', () => this.account.readonlyList(this.apiKeyOf(r.headers))),
    'readonlyApiKey.delete': (r) => this.signed(r, 'DELETE', () => this.account.deleteReadonly(this.apiKeyOf(r.headers), r.body)),
    'builderApiKey.create': (r) => this.signed(r, 'POST', () => this.account.createBuilder()),
    'builderApiKeys.list': (r) => this.signed(r, 'GET', () => this.account.builderList()),
    'builderApiKey.revoke': (r) => this.signed(r, 'DELETE', () => this.account.revokeBuilder(one(r.headers['poly_builder_api_key']))),
  };

  /** A write route: its body recorded as received, then L2 checked, then `fn`. */
  private write(route: string, r: TradingRequest, fn: () => TradingReply): TradingReply {
    this.writes.push({ route, body: r.body });
    return this.signed(r, route.slice(0, route.indexOf(' ')), fn);
  }

  /** An L2 route: 401 unless signed by an active key. */
  private signed(r: TradingRequest, method: string, fn: () => TradingReply): TradingReply {
    return this.authorized(method, r.path, r.headers, r.body) ? fn() : json(401, UNAUTHORIZED_BODY);
  }

  /** An L1 route: 401 unless the four headers carry the address's own valid ClobAuth signature. */
  private withL1(headers: Headers, fn: (a: { address: string; nonce: number }) => { status: number; body: unknown }): TradingReply {
    const a = this.keys.verifyL1(headers);
    if (!a) return json(401, { error: INVALID_L1 });
    const { status, body } = fn(a);
    return json(status, body);
  }

  private apiKeyOf(headers: Headers): string {
    return one(headers['poly_api_key']) ?? one(headers['kuest_api_key']) ?? '';
  }

  /**
   * A token's market: the catalog's condition id when the catalog names the token, else one made
   * up from its hash, remembered for `/clob-markets/{condition_id}`.
   */
  private marketOf(token: string): string {
    const known = this.opts.conditionOf?.(token);
    if (known !== undefined) return known;
    const market = `0x${createHash('sha256').update(`market:${token}`).digest('hex')}`;
    let set = this.tokensOfMarket.get(market);
    if (!set) {
      set = new Set();
      this.tokensOfMarket.set(market, set);
    }
    set.add(token);
    return market;
  }

  /** The market's other outcome token, derived from the one the fake knows. */
  private otherToken(token: string): string {
    return BigInt(`0x${createHash('sha256').update(`other:${token}`).digest('hex')}`).toString();
  }

  /** The compact V2 market record (live sample: d_clob/clob_markets_0xa467__live_2026-10-06). */
  private clobMarket(condition: string): TradingReply {
    const known = this.markets.byCondition(condition);
    const [t] = known ? known.tokens.map((x) => x.id) : [...(this.tokensOfMarket.get(condition) ?? [])];
    if (t === undefined) return json(404, { error: 'market not found' });
    const b = this.book(t);
    const tokens = known
      ? known.tokens.map((x) => ({ t: x.id, o: x.outcome }))
      : [
          { t, o: 'Yes' },
          { t: this.otherToken(t), o: 'No' },
        ];
    return json(200, {
      c: known?.conditionId ?? condition,
      t: tokens,
      mos: Number(b.min_order_size),
      mts: Number(b.tick_size),
      nr: b.neg_risk,
      fd: { r: 0, e: 1, to: true },
    });
  }

  private batchHistory(body: string): TradingReply {
    const b = this.parse(body);
    if (!b || typeof b !== 'object' || Array.isArray(b)) return bad('Invalid payload');
    const r = b as Record<string, unknown>;
    const markets = r['markets'];
    if (!Array.isArray(markets) || markets.length === 0 || !markets.every((x) => typeof x === 'string' && TOKEN.test(x)))
      return bad('Invalid markets');
    if (markets.length > 20) return bad('Too many markets, maximum is 20');
    const str = (k: string) => (r[k] === undefined || r[k] === null ? null : String(r[k]));
    const out: Record<string, { t: number; p: number }[]> = {};
    for (const t of markets as string[]) {
      const h = this.history(t, {
        startTs: str('start_ts'),
        endTs: str('end_ts'),
        interval: str('interval'),
        fidelity: str('fidelity'),
      });
      if (typeof h === 'string') return bad(h);
      out[t] = h;
    }
    return json(200, { history: out });
  }

  private cancel(body: string): TradingReply {
    const b = this.parse(body) as Record<string, unknown> | undefined;
    const id = b && typeof b === 'object' ? b['orderID'] : undefined;
    if (typeof id !== 'string' || id === '') return bad('Invalid order payload');
    return json(200, this.cancelMany([id]));
  }

  /** Cancels each order that is live (in the CLOB's list or placed here); the others are reported as the CLOB does. */
  private cancelMany(ids: readonly string[]): { canceled: string[]; not_canceled: Record<string, string> } {
    const canceled: string[] = [];
    const not_canceled: Record<string, string> = {};
    for (const id of new Set(ids)) {
      const listed = this.opts.clob?.cancel(id) ?? false;
      const placed = this.orders.delete(id);
      if (listed || placed) canceled.push(id);
      else not_canceled[id] = "order can't be found - already canceled or matched";
    }
    return { canceled, not_canceled };
  }

  /** Signed by an active key (the configured one until `DELETE /auth/api-key` revokes it, or one made with L1). */
  private authorized(method: string, path: string, headers: Headers, body: string): boolean {
    if (this.opts.credentials) {
      const creds = this.keys.active(one(headers['poly_api_key']) ?? one(headers['kuest_api_key']));
      return creds !== undefined && verifyL2(creds, { method, path, headers, body }, { nowMs: Date.now() });
    }
    return ['address', 'signature', 'timestamp', 'api_key', 'passphrase'].every(
      (h) => headers[`poly_${h}`] !== undefined || headers[`kuest_${h}`] !== undefined,
    );
  }

  private parse(body: string): unknown {
    try {
      return JSON.parse(body);
    } catch {
      return undefined;
    }
  }

  /** Token "0" has no book, as unknown tokens answer upstream; nor has an id of the other kind than its market's version. */
  private missing(token: string): boolean {
    return /^0+$/.test(token) || this.opts.hasNoBook?.(token) === true;
  }

  private withToken(token: string | null, fn: (t: string) => TradingReply): TradingReply {
    if (!token || !TOKEN.test(token)) return bad('Invalid token id');
    if (this.missing(token)) return json(404, { error: 'No orderbook exists for the requested token id' });
    return fn(token);
  }

  private withList(body: string, fn: (items: Record<string, unknown>[]) => TradingReply): TradingReply {
    const items = this.parse(body);
    if (!Array.isArray(items) || items.length === 0 || items.length > 500) return bad('Invalid payload');
    return fn(items as Record<string, unknown>[]);
  }

  /** A `[{"token_id"}, ...]` body answered as token -> value (unknown tokens left out). */
  private perToken(body: string, value: (t: string) => string): TradingReply {
    return this.withList(body, (items) => {
      const out: Record<string, string> = {};
      for (const it of items) {
        const t = it?.['token_id'];
        if (typeof t !== 'string' || !TOKEN.test(t)) return bad('Invalid payload');
        if (!this.missing(t)) out[t] = value(t);
      }
      return json(200, out);
    });
  }

  /** Best ask minus best bid of the token's book. */
  private spread(token: string): string {
    const b = this.book(token);
    const bid = b.bids.at(-1);
    const ask = b.asks.at(-1);
    return bid && ask ? fmt(Number(ask.price) - Number(bid.price)) : '0';
  }

  /** Whether the CLOB has a book for this id (a decimal token id the catalog does not mark bookless). */
  hasBook(token: string): boolean {
    return TOKEN.test(token) && !this.missing(token);
  }

  /** The token's book as `GET /book` answers it now (live or derived), or undefined when it has none. */
  bookOf(token: string): BookSummary | undefined {
    return this.hasBook(token) ? this.book(token) : undefined;
  }

  /** The token's live book, opened from its derived one on first use; undefined when it has no book. */
  liveBook(token: string): LiveBook | undefined {
    return this.hasBook(token) ? this.live.open(token, () => this.book(token)) : undefined;
  }

  /**
   * The token's market was repriced in the catalog (a `price` mutation; Gamma's price follows the
   * book): its live book is made again from its derived one, centred on the new price.
   */
  rebook(token: string): LiveBook | undefined {
    if (!this.hasBook(token)) return undefined;
    this.live.delete(token);
    return this.liveBook(token);
  }

  /** `/last-trade-price`: a live book's last trade, else the derived midpoint (a BUY). */
  private lastTrade(token: string): { price: string; side: string } {
    const live = this.live.get(token);
    return live ? { price: live.lastTradePrice, side: live.lastTradeSide } : { price: fmt(this.mid(token)), side: 'BUY' };
  }

  /** The midpoint: of a live book's best bid and ask (one side, or the last trade, when the other is empty), else derived. */
  private mid(token: string): number {
    const live = this.live.get(token);
    if (!live) return this.derivedMid(token);
    const bid = live.best('BUY');
    const ask = live.best('SELL');
    if (bid !== undefined && ask !== undefined) return (Number(bid) + Number(ask)) / 2;
    return Number(bid ?? ask ?? live.lastTradePrice);
  }

  /**
   * The midpoint a token's derived book is centred on: its outcome price exactly (to the fake's four
   * decimals), so the price Polymarket's rule reads off the book (the midpoint) is the catalog's, as
   * a live desk shows it; else one drawn from its id. Kept off 0 and 1, so each side has a level.
   */
  private derivedMid(token: string): number {
    const listed = this.opts.priceOf?.(token);
    if (listed !== undefined) return Number(fmt(Math.min(0.9998, Math.max(0.0002, listed))));
    return round(0.05 + 0.9 * mulberry32(seedOf(token))(), 0.005);
  }

  /** Half the derived book's spread: half a cent, less near 0 and 1 so the best bid stays above 0 and the best ask below 1. */
  private derivedHalfSpread(mid: number): number {
    return Math.min(0.005, Number(fmt(mid / 2)), Number(fmt((1 - mid) / 2)));
  }

  private book(token: string): Book {
    const live = this.live.get(token);
    if (live) return live.summary();
    const rng = mulberry32(seedOf(token) ^ 0x9e3779b9);
    const mid = this.derivedMid(token);
    const bids: Book['bids'] = [];
    const asks: Book['asks'] = [];
    const half = this.derivedHalfSpread(mid);
    for (let k = 5; k >= 1; k--) {
      const p = mid - half - 0.01 * (k - 1);
      if (p > 0) bids.push({ price: fmt(p), size: String(10 + Math.floor(rng() * 990)) });
    }
    for (let k = 5; k >= 1; k--) {
      const p = mid + half + 0.01 * (k - 1);
      if (p < 1) asks.push({ price: fmt(p), size: String(10 + Math.floor(rng() * 990)) });
    }
    const book: Book = {
      market: this.marketOf(token),
      asset_id: token,
      timestamp: String(this.now()),
      hash: '',
      // Polymarket's order: bids ascending and asks descending (best last).
      bids,
      asks,
      min_order_size: '5',
      tick_size: '0.01',
      neg_risk: false,
      last_trade_price: fmt(mid),
    };
    // The official client's summary hash (market-books.ts).
    book.hash = bookHash(book);
    return book;
  }

  /** BUY: the best bid; SELL: the best ask (of a live book; derived: half the derived spread off the midpoint). */
  private price(token: string, side: 'BUY' | 'SELL'): string {
    const live = this.live.get(token);
    if (live) return live.best(side) ?? '0';
    const mid = this.mid(token);
    const half = this.derivedHalfSpread(mid);
    return fmt(side === 'BUY' ? mid - half : mid + half);
  }

  private history(
    token: string,
    p: { startTs: string | null; endTs: string | null; interval: string | null; fidelity: string | null },
  ): { t: number; p: number }[] | string {
    const nowS = Math.floor(this.now() / 1000);
    const num = (v: string | null) => (v !== null && /^\d{1,12}(\.\d+)?$/.test(v) ? Math.floor(Number(v)) : null);
    const fidelity = p.fidelity === null ? 1 : num(p.fidelity);
    if (fidelity === null || fidelity < 1) return 'Invalid fidelity';
    let start: number;
    let end: number;
    if (p.startTs !== null || p.endTs !== null) {
      if (p.interval !== null) return 'startTs/endTs and interval are mutually exclusive';
      start = num(p.startTs) ?? nowS - 86_400;
      end = num(p.endTs) ?? nowS;
      if (p.startTs !== null && num(p.startTs) === null) return 'Invalid startTs';
      if (p.endTs !== null && num(p.endTs) === null) return 'Invalid endTs';
    } else {
      const span = INTERVALS[p.interval ?? '1d'];
      if (span === undefined) return 'Invalid interval';
      end = nowS;
      start = nowS - span;
    }
    const step = fidelity * 60;
    const first = Math.ceil(start / step) * step;
    const out: { t: number; p: number }[] = [];
    // An id with no book has no trades to chart: an empty history (fixtures/polymarket-2026/README.md).
    if (this.missing(token)) return out;
    // Histories stay on the derived midpoint: the market channel's moves are not charted.
    const mid = this.derivedMid(token);
    const phase = (seedOf(token) % 1000) / 1000;
    // The newest points when the range holds more than MAX_POINTS.
    const from = Math.max(first, end - (MAX_POINTS - 1) * step);
    for (let t = Math.ceil(from / step) * step; t <= end; t += step) {
      const v = mid + 0.05 * Math.sin((t / 86_400 + phase) * 2 * Math.PI);
      out.push({ t, p: Number(Math.min(0.999, Math.max(0.001, v)).toFixed(4)) });
    }
    return out;
  }

  private trades(q: URLSearchParams): Record<string, unknown>[] {
    const market = q.get('market');
    const asset = q.get('asset_id');
    const out: Record<string, unknown>[] = [];
    for (let i = 0; i < 3; i++) {
      const token = String(1000 + i);
      const id = createHash('sha256').update(`trade:${i}`).digest('hex').slice(0, 36);
      const t = {
        id,
        taker_order_id: `0x${createHash('sha256').update(`taker:${i}`).digest('hex')}`,
        market: `0x${createHash('sha256').update(`market:${token}`).digest('hex')}`,
        asset_id: token,
        side: i % 2 === 0 ? 'BUY' : 'SELL',
        size: String(5 * (i + 1)),
        fee_rate_bps: '0',
        price: this.price(token, 'BUY'),
        status: 'CONFIRMED',
        match_time: String(Math.floor(this.now() / 1000) - 3600 * (i + 1)),
        last_update: String(Math.floor(this.now() / 1000) - 3600 * (i + 1)),
        outcome: 'Yes',
        maker_address: '0x0000000000000000000000000000000000000001',
        owner: '00000000-0000-0000-0000-000000000000',
        transaction_hash: `0x${createHash('sha256').update(`tx:${i}`).digest('hex')}`,
        bucket_index: 0,
        maker_orders: [],
        trader_side: 'TAKER',
      };
      if ((market === null || market === t.market) && (asset === null || asset === t.asset_id)) out.push(t);
    }
    return out;
  }

  private place(body: string): TradingReply {
    const b = this.parse(body);
    if (!b || typeof b !== 'object' || Array.isArray(b)) return bad('Invalid order payload');
    const placed = this.placeOne(b as Record<string, unknown>, body);
    return 'error' in placed ? bad(placed.error) : json(200, placed.answer);
  }

  /**
   * `POST /orders`: up to 15 orders, each checked and placed as `POST /order` does; an order the
   * CLOB refuses gets `success: false` and its error in its own slot (the batch answers 200).
   */
  private placeBatch(body: string): TradingReply {
    const items = this.parse(body);
    if (!Array.isArray(items) || items.length === 0) return bad('Invalid order payload');
    if (items.length > 15) return bad('Too many orders in payload, max 15');
    return json(
      200,
      items.map((it) => {
        const placed =
          it && typeof it === 'object' && !Array.isArray(it)
            ? this.placeOne(it as Record<string, unknown>, JSON.stringify(it))
            : { error: 'Invalid order payload' };
        return 'error' in placed
          ? { success: false, errorMsg: placed.error, orderID: '', transactionsHashes: [], status: '', takingAmount: '', makingAmount: '' }
          : placed.answer;
      }),
    );
  }

  /** One order payload (`{order, owner, orderType}`): placed, or the CLOB's error text. `raw`: its text as received. */
  private placeOne(r: Record<string, unknown>, raw: string): { answer: Record<string, unknown> } | { error: string } {
    const order = r['order'];
    if (!order || typeof order !== 'object' || Array.isArray(order)) return { error: 'Invalid order payload' };
    const owner = typeof r['owner'] === 'string' ? r['owner'] : '';
    const orderType = typeof r['orderType'] === 'string' ? r['orderType'] : 'GTC';
    if ((this.opts.orders ?? 'v2') === 'v2') {
      const o = order as Record<string, unknown>;
      const token = String(o['tokenId'] ?? '');
      if (!TOKEN.test(token)) return { error: 'Invalid order payload' };
      const error = checkSignedOrder(o, { negRisk: this.book(token).neg_risk });
      if (error) return { error };
      // The CLOB ties an order to the API key that posts it.
      if (this.opts.credentials && owner !== this.opts.credentials.apiKey)
        return { error: 'the order owner has to be the owner of the API KEY' };
    }
    // The order hash: signed orders differ at least by salt and signature.
    const id = `0x${createHash('sha256').update(JSON.stringify(order)).digest('hex')}`;
    if (this.orders.has(id))
      return {
        answer: {
          success: false,
          errorMsg: 'order already exists',
          orderID: id,
          transactionsHashes: [],
          status: '',
          takingAmount: '',
          makingAmount: '',
        },
      };
    const o = order as Record<string, unknown>;
    this.orders.set(id, { id, raw, order: o, owner, orderType, createdAt: this.now() });
    this.opts.clob?.orders.unshift(rawOrder(id, o, owner, orderType, this.now(), this.marketOf(String(o['tokenId'] ?? ''))));
    return {
      answer: { success: true, errorMsg: '', orderID: id, transactionsHashes: [], status: 'live', takingAmount: '', makingAmount: '' },
    };
  }
}

const one = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v);

/** A path's last segment, decoded (`/clob-markets/0xabc` -> `0xabc`). */
function lastSegment(path: string): string {
  const seg = path.slice(path.lastIndexOf('/') + 1);
  try {
    return decodeURIComponent(seg);
  } catch {
    return seg;
  }
}

/** A placed order as `/data/orders` lists it: sizes and price from the signed amounts (6 decimals). */
function rawOrder(id: string, o: Record<string, unknown>, owner: string, orderType: string, nowMs: number, market: string): RawOrder {
  const buy = o['side'] === 'BUY' || o['side'] === 0 || o['side'] === '0';
  const maker = Number(o['makerAmount'] ?? 0);
  const taker = Number(o['takerAmount'] ?? 0);
  const shares = (buy ? taker : maker) / 1e6;
  const usdc = (buy ? maker : taker) / 1e6;
  const token = String(o['tokenId'] ?? '');
  return {
    id,
    status: 'LIVE',
    owner,
    maker_address: String(o['maker'] ?? ''),
    market,
    asset_id: token,
    side: buy ? 'BUY' : 'SELL',
    original_size: fmt(shares),
    size_matched: '0',
    price: shares > 0 ? fmt(usdc / shares) : '0',
    outcome: 'Yes',
    expiration: String(o['expiration'] ?? '0'),
    order_type: orderType,
    associate_trades: [],
    created_at: Math.floor(nowMs / 1000),
  };
}
