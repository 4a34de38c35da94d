/**
 * Polymarket's CLOB V2 client (`@polymarket/clob-client-v2` 1.1.0, an ethers 5 Wallet as its signer)
 * against a running service and fake upstream, unchanged, its host pointed at the clob face. Every
 * client method that calls a route of CLOB V2 is called here, through marketdesk: reads, market
 * listings, the account's notifications, balances, scoring and rewards, orders placed and
 * cancelled one at a time and in batches, API keys (L1 and L2, readonly, builder). Every expected
 * value is read from the fake itself (its answer, or its state after a write); a proxy in front of
 * the service counts the client's requests and keeps their bodies, so a signed order or a cancel
 * can be compared byte for byte with what the fake received. Not called: createAndPostMarketOrder
 * and calculateMarketPrice (the books and tick size they read are), and the methods that only
 * compute (getOrderBookHash, createOrder without posting).
 */
import {
  ApiError,
  AssetType,
  Chain,
  ClobClient,
  createL1Headers,
  OrderType,
  PriceHistoryInterval,
  Side,
  type SignedOrder,
} from '@polymarket/clob-client-v2';
import type * as V2 from '@polymarket/clob-client-v2';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { l2Headers } from '../auth/l2.ts';
import type { ResultOf } from '../contract/operations.ts';
import { deterministicCredentials, KEY_EXISTS } from '../fake-upstream/api-keys.ts';
import { checkSignedOrder, INVALID_SIGNATURE, ORDER_VERSION_MISMATCH } from '../fake-upstream/order-signing.ts';
import { startClobRig, type ClobRig } from '../testing/clob-rig.ts';

/** The fake's CLOB market listings page by 7, so the 40 markets take six pages. */
const PAGE = 7;
let rig: ClobRig;
/** Two tokens of open catalog markets the fake has books for, from the account's generated orders (before any cancel). */
let TOKENS: readonly [string, string];

beforeAll(async () => {
  rig = await startClobRig({ orders: 120, trading: { marketsPageSize: PAGE } });
  const first = rig.up.clob!.orders[0]!.asset_id;
  TOKENS = [first, rig.up.clob!.orders.find((o) => o.asset_id !== first)!.asset_id];
});

afterAll(async () => {
  await rig?.close();
});

const client = (useServerTime = false) =>
  new ClobClient({ host: rig.proxy.url, chain: Chain.POLYGON, signer: rig.wallet, creds: rig.apiCreds, useServerTime, throwOnError: true });

/** Every page of a fake CLOB listing, following `next_cursor` to `LTE=`. */
async function upstreamPages(path: string, query = ''): Promise<unknown[]> {
  const out: unknown[] = [];
  let cursor = 'MA==';
  for (let n = 0; cursor !== 'LTE='; n++) {
    if (n > 100) throw new Error(`${path}: the fake's pages do not end`);
    const page = (await rig.upstream(`${path}?next_cursor=${encodeURIComponent(cursor)}${query}`, { signed: true })) as {
      data: unknown[];
      next_cursor: string;
    };
    out.push(...page.data);
    cursor = page.next_cursor;
  }
  return out;
}

/** The body the client sent with its `n`-th request `METHOD /path` since `from` (the proxy keeps them). */
const sentBody = (from: number, request: string) =>
  rig.proxy.bodies[rig.proxy.requests.findIndex((r, i) => i >= from && r.startsWith(request))]!;

const tokens = () => TOKENS;

/** The wallet's L1 headers for `nonce`, as the client makes them. */
async function l1Headers(nonce: number): Promise<Record<string, string>> {
  return Object.fromEntries(Object.entries(await createL1Headers(rig.wallet, Chain.POLYGON, nonce)).map(([k, v]) => [k, String(v)]));
}

describe('@polymarket/clob-client-v2 against the clob face', () => {
  it('getVersion, getOk and getServerTime', async () => {
    const c = client();
    expect(await c.getVersion()).toBe(2);
    expect(await c.getOk()).toBe('OK');
    const before = Math.floor(Date.now() / 1000);
    const time = await c.getServerTime();
    expect(time).toBeGreaterThanOrEqual(before);
    expect(time).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
  });

  it('getOpenOrders, getOrder and getTrades in Polymarket shape', async () => {
    const c = client();
    const open = await c.getOpenOrders();
    expect(open.map((o) => o.id)).toEqual(rig.up.clob!.orders.map((o) => o.id));
    const one = rig.up.clob!.orders[17]!;
    expect(await c.getOrder(one.id)).toEqual({ ...one });
    const expected = (await rig.upstream('/data/trades', { signed: true })) as { data: unknown[] };
    expect(await c.getTrades()).toEqual(expected.data);
    const paginated = await c.getTradesPaginated();
    expect(paginated.trades).toEqual(expected.data);
    expect(await c.getPreMigrationOrders()).toEqual([]);
    expect(await c.getApiKeys()).toEqual({ apiKeys: [rig.creds.apiKey] });
  });

  it('reads books, prices, midpoints, spreads, last trades, tick size, neg risk, histories and market info as upstream', async () => {
    const c = client();
    const [token, other] = tokens();
    const q = `?token_id=${token}`;
    const list = [
      { token_id: token, side: Side.BUY },
      { token_id: other, side: Side.SELL },
    ];
    expect(await c.getOrderBook(token)).toEqual(await rig.upstream(`/book${q}`));
    expect(await c.getOrderBooks(list)).toEqual(await rig.upstream('/books', { method: 'POST', body: list }));
    expect(await c.getPrice(token, Side.BUY)).toEqual(await rig.upstream(`/price${q}&side=BUY`));
    expect(await c.getPrices(list)).toEqual(await rig.upstream('/prices', { method: 'POST', body: list }));
    expect(await c.getMidpoint(token)).toEqual(await rig.upstream(`/midpoint${q}`));
    expect(await c.getMidpoints(list)).toEqual(await rig.upstream('/midpoints', { method: 'POST', body: list }));
    expect(await c.getSpread(token)).toEqual(await rig.upstream(`/spread${q}`));
    expect(await c.getSpreads(list)).toEqual(await rig.upstream('/spreads', { method: 'POST', body: list }));
    expect(await c.getLastTradePrice(token)).toEqual(await rig.upstream(`/last-trade-price${q}`));
    expect(await c.getLastTradesPrices(list)).toEqual(await rig.upstream('/last-trades-prices', { method: 'POST', body: list }));
    const history = (await rig.upstream(`/prices-history?market=${token}&interval=1d&fidelity=60`)) as { history: unknown[] };
    expect(await c.getPricesHistory({ market: token, interval: PriceHistoryInterval.ONE_DAY, fidelity: 60 })).toEqual(history);
    const tick = (await rig.upstream(`/tick-size${q}`)) as { minimum_tick_size: number };
    expect(await c.getTickSize(token)).toBe(String(tick.minimum_tick_size));
    expect(await c.getNegRisk(token)).toBe(((await rig.upstream(`/neg-risk${q}`)) as { neg_risk: boolean }).neg_risk);
    expect(await c.getFeeRateBps(token)).toBe(((await rig.upstream(`/fee-rate${q}`)) as { base_fee: number }).base_fee);
    // The V2 fee source: /markets-by-token, then /clob-markets for the market's compact record.
    const byToken = (await rig.upstream(`/markets-by-token/${token}`)) as { condition_id: string };
    const info = (await rig.upstream(`/clob-markets/${byToken.condition_id}`)) as { fd: { e: number } };
    expect(await c.getFeeExponent(token)).toBe(info.fd.e);
    expect(await c.getClobMarketInfo(byToken.condition_id)).toEqual(info);
  });

  it("walks the CLOB's market listings page by page to LTE=, and reads one market and its latest trades", async () => {
    const c = client();
    const all = rig.up.trading.markets.markets();
    expect(all.length).toBeGreaterThan(3 * PAGE);
    // getMarkets reads one page; a caller follows next_cursor until LTE=, as the client's other listings do.
    const walked: unknown[] = [];
    const from = rig.proxy.requests.length;
    for (let cursor = 'MA=='; cursor !== 'LTE='; ) {
      const page = await c.getMarkets(cursor);
      expect(page).toEqual(await rig.upstream(`/markets?next_cursor=${encodeURIComponent(cursor)}`));
      walked.push(...page.data);
      cursor = page.next_cursor;
    }
    expect(walked).toEqual(all);
    expect(rig.proxy.requests.length - from).toBe(Math.ceil(all.length / PAGE));
    expect(await c.getSimplifiedMarkets()).toEqual(await rig.upstream('/simplified-markets?next_cursor=MA%3D%3D'));
    expect(await c.getSamplingMarkets()).toEqual(await rig.upstream('/sampling-markets?next_cursor=MA%3D%3D'));
    expect(await c.getSamplingSimplifiedMarkets()).toEqual(await rig.upstream('/sampling-simplified-markets?next_cursor=MA%3D%3D'));
    // One market: the same record the listing has, and its tokens trade on the books the fake answers.
    const market = all.find((m) => (m['tokens'] as unknown[]).length === 2 && m['closed'] === false)!;
    const condition = market['condition_id'] as string;
    expect(await c.getMarket(condition)).toEqual(market);
    const [yes] = market['tokens'] as { token_id: string; price: number }[];
    expect((await c.getOrderBook(yes!.token_id)).market).toBe(condition);
    expect(Number((await c.getMidpoint(yes!.token_id)).mid)).toBe(yes!.price);
    expect(await c.getMarketTradesEvents(condition)).toEqual(await rig.upstream(`/markets/live-activity/${condition}`));
    // The fake plays Gamma on the same server: without next_cursor, /markets is Gamma's listing (routes/clob.ts).
    const gamma = (await (await fetch(`${rig.up.url}/markets?limit=3`)).json()) as { conditionId: string }[];
    expect(gamma.map((m) => m.conditionId)).toEqual(all.slice(0, 3).map((m) => m['condition_id']));
  });

  it('reads the liquidity rewards of every market and of one', async () => {
    const c = client();
    const current = await c.getCurrentRewards();
    expect(current).toEqual(await upstreamPages('/rewards/markets/current'));
    expect(current.length).toBe(rig.up.trading.markets.sampling().length);
    const condition = current[0]!.condition_id;
    expect(await c.getRawRewardsForMarket(condition)).toEqual(await upstreamPages(`/rewards/markets/${condition}`));
  });

  it("reads the account's closed-only mode, balances, scoring, earnings and reward shares as the upstream answers them", async () => {
    const c = client();
    expect(await c.getClosedOnlyMode()).toEqual(await rig.upstream('/auth/ban-status/closed-only', { signed: true }));
    const collateral = await c.getBalanceAllowance({ asset_type: AssetType.COLLATERAL });
    expect(collateral).toEqual(await rig.upstream('/balance-allowance?asset_type=COLLATERAL&signature_type=0', { signed: true }));
    const [token] = tokens();
    const shares = { asset_type: AssetType.CONDITIONAL, token_id: token };
    expect(await c.getBalanceAllowance(shares)).toEqual(
      await rig.upstream(`/balance-allowance?asset_type=CONDITIONAL&token_id=${token}&signature_type=0`, { signed: true }),
    );
    const from = rig.up.requests.entries.length;
    await c.updateBalanceAllowance(shares);
    expect(rig.upstreamHits(from, 'GET', '/balance-allowance/update')).toBe(1);
    // Scoring follows the live orders: a live one as the fake scores it, an unknown one never.
    const live = rig.up.clob!.orders.slice(0, 4).map((o) => o.id);
    const scored = (await rig.upstream(`/order-scoring?order_id=${live[0]}`, { signed: true })) as { scoring: boolean };
    expect(await c.isOrderScoring({ order_id: live[0]! })).toEqual(scored);
    const unknown = `0x${'ab'.repeat(32)}`;
    const many = await c.areOrdersScoring({ orderIds: [...live, unknown] });
    expect(many).toEqual(await rig.upstream('/orders-scoring', { method: 'POST', body: [...live, unknown], signed: true }));
    expect(many[unknown]).toBe(false);
    // Earnings: the maker earns in its live orders' markets.
    const date = '2026-10-30';
    const earnings = await c.getEarningsForUserForDay(date);
    expect(earnings).toEqual(await upstreamPages('/rewards/user', `&date=${date}&signature_type=0`));
    expect(earnings.length).toBeGreaterThan(0);
    expect(earnings.every((e) => e.maker_address === rig.wallet.address)).toBe(true);
    expect(await c.getTotalEarningsForUserForDay(date)).toEqual(
      await rig.upstream(`/rewards/user/total?date=${date}&signature_type=0`, { signed: true }),
    );
    expect(await c.getRewardPercentages()).toEqual(await rig.upstream('/rewards/user/percentages?signature_type=0', { signed: true }));
    expect(await c.getUserEarningsAndMarketsConfig(date)).toEqual(
      await upstreamPages('/rewards/user/markets', `&date=${date}&signature_type=0&order_by=&position=&no_competition=false`),
    );
  });

  it('reads notifications and drops one, which leaves the upstream list', async () => {
    const c = client();
    const before = await c.getNotifications();
    expect(before).toEqual(await rig.upstream('/notifications?signature_type=0', { signed: true }));
    expect(before.length).toBeGreaterThan(1);
    const [gone, ...kept] = rig.up.trading.account.notifications.map((n) => n.id);
    await c.dropNotifications({ ids: [String(gone)] });
    expect(rig.up.trading.account.notifications.map((n) => n.id)).toEqual(kept);
    expect(await c.getNotifications()).toEqual(rig.up.trading.account.notifications);
  });

  it('postHeartbeat reaches the upstream with its body unchanged', async () => {
    const from = rig.proxy.bodies.length;
    const writes = rig.up.trading.writes.length;
    expect(await client().postHeartbeat('')).toMatchObject({ heartbeat_id: expect.any(String) });
    expect(rig.up.trading.writes.slice(writes)).toEqual([{ route: 'POST /v1/heartbeats', body: sentBody(from, 'POST /v1/heartbeats') }]);
  });

  it('createAndPostOrder (V2-signed) and cancelOrder each reach the upstream once, bodies byte for byte', async () => {
    const c = client();
    const [token] = tokens();
    const logFrom = rig.up.requests.entries.length;
    const proxyFrom = rig.proxy.requests.length;
    const writes = rig.up.trading.writes.length;
    const placed = await c.createAndPostOrder({ tokenID: token, price: 0.42, size: 10, side: Side.BUY }, undefined, OrderType.GTC);
    expect(placed).toMatchObject({ success: true, errorMsg: '', status: 'live' });
    const id = placed.orderID;
    const fake = rig.up.trading.orders.get(id)!;
    expect(fake.order).toMatchObject({
      maker: rig.wallet.address,
      signer: rig.wallet.address,
      tokenId: token,
      side: 'BUY',
      signatureType: 0,
    });
    expect(fake.order).not.toHaveProperty('nonce');
    expect(fake.order).not.toHaveProperty('feeRateBps');
    expect(fake.order['makerAmount']).toBe('4200000');
    expect(fake.order['takerAmount']).toBe('10000000');
    const cancelled = await c.cancelOrder({ orderID: id });
    expect(cancelled).toEqual({ canceled: [id], not_canceled: {} });
    expect(rig.upstreamHits(logFrom, 'POST', '/order')).toBe(1);
    expect(rig.upstreamHits(logFrom, 'DELETE', '/order')).toBe(1);
    const sentPost = sentBody(proxyFrom, 'POST /order');
    expect(rig.up.trading.writes.slice(writes)).toEqual([
      { route: 'POST /order', body: sentPost },
      { route: 'DELETE /order', body: sentBody(proxyFrom, 'DELETE /order') },
    ]);
    expect(fake.raw).toBe(sentPost);
  });

  it('an order placed or cancelled through marketdesk shows in its open orders at once, not at the next refresh', async () => {
    const c = client();
    const [token] = tokens();
    const openIds = async () => (await c.getOpenOrders()).map((o) => o.id);
    const placed = await c.createAndPostOrder({ tokenID: token, price: 0.31, size: 7, side: Side.BUY }, undefined, OrderType.GTC);
    // The service refreshes the account's orders every 30 s by itself: well past these waits.
    await expect.poll(openIds, { timeout: 10_000 }).toContain(placed.orderID);
    await c.cancelOrder({ orderID: placed.orderID });
    await expect.poll(openIds, { timeout: 10_000 }).not.toContain(placed.orderID);
  });

  it('a batch post, batch cancel, cancel-market-orders and cancel-all each reach the upstream once, bodies unchanged', async () => {
    const c = client();
    const [token, other] = tokens();
    const logFrom = rig.up.requests.entries.length;
    const proxyFrom = rig.proxy.requests.length;
    const writes = rig.up.trading.writes.length;
    const signed: SignedOrder[] = [];
    for (const [tokenID, price] of [
      [token, 0.31],
      [token, 0.32],
      [other, 0.33],
    ] as const) {
      signed.push(await c.createOrder({ tokenID, price, size: 7, side: Side.BUY }));
    }
    const placed = await c.postOrders(signed.map((order) => ({ order, orderType: OrderType.GTC })));
    expect(placed.map((p) => [p.success, p.status])).toEqual([
      [true, 'live'],
      [true, 'live'],
      [true, 'live'],
    ]);
    const ids = placed.map((p) => p.orderID);
    // The fake's open list has them, newest first, in the markets of their tokens.
    const listed = rig.up.clob!.orders;
    expect(ids.every((id) => listed.some((o) => o.id === id))).toBe(true);
    expect(ids.every((id) => rig.up.trading.orders.has(id))).toBe(true);

    // Cancel one by id.
    expect(await c.cancelOrders([ids[0]!])).toEqual({ canceled: [ids[0]], not_canceled: {} });
    expect(rig.up.clob!.orders.some((o) => o.id === ids[0])).toBe(false);

    // Cancel by market and token: exactly the open orders the fake lists there.
    const target = rig.up.clob!.orders.find((o) => o.asset_id === other)!;
    const there = rig.up.clob!.orders.filter((o) => o.market === target.market && o.asset_id === other).map((o) => o.id);
    expect(there).toContain(ids[2]);
    const byMarket = await c.cancelMarketOrders({ market: target.market, asset_id: other });
    expect([...byMarket.canceled].sort()).toEqual([...there].sort());
    expect(byMarket.not_canceled).toEqual({});
    expect(rig.up.clob!.orders.some((o) => there.includes(o.id))).toBe(false);

    // Cancel everything left.
    const rest = rig.up.clob!.orders.map((o) => o.id);
    expect(rest.length).toBeGreaterThan(0);
    const all = await c.cancelAll();
    expect([...all.canceled].sort()).toEqual([...rest].sort());
    expect(rig.up.clob!.orders).toEqual([]);

    for (const [method, path] of [
      ['POST', '/orders'],
      ['DELETE', '/orders'],
      ['DELETE', '/cancel-market-orders'],
      ['DELETE', '/cancel-all'],
    ] as const) {
      expect(rig.upstreamHits(logFrom, method, path), `${method} ${path}`).toBe(1);
    }
    expect(rig.up.trading.writes.slice(writes)).toEqual([
      { route: 'POST /orders', body: sentBody(proxyFrom, 'POST /orders') },
      { route: 'DELETE /orders', body: sentBody(proxyFrom, 'DELETE /orders') },
      { route: 'DELETE /cancel-market-orders', body: sentBody(proxyFrom, 'DELETE /cancel-market-orders') },
      { route: 'DELETE /cancel-all', body: '' },
    ]);
    expect(JSON.parse(sentBody(proxyFrom, 'DELETE /cancel-market-orders'))).toEqual({ market: target.market, asset_id: other });
  });

  it('a batch post the upstream answers with a 500 is not sent again', async () => {
    const c = client();
    const [token] = tokens();
    const order = await c.createOrder({ tokenID: token, price: 0.2, size: 6, side: Side.BUY });
    rig.up.faults.push({ kind: '500', match: (r) => r.method === 'POST' && r.path === '/orders' });
    const from = rig.up.requests.entries.length;
    await expect(c.postOrders([{ order, orderType: OrderType.GTC }])).rejects.toBeInstanceOf(ApiError);
    expect(rig.upstreamHits(from, 'POST', '/orders')).toBe(1);
  });

  it('readonly and builder API keys: created, listed, deleted or revoked upstream', async () => {
    const c = client();
    const { apiKey } = await c.createReadonlyApiKey();
    expect(rig.up.trading.account.readonlyKeys.get(rig.creds.apiKey)).toEqual([apiKey]);
    expect(await c.getReadonlyApiKeys()).toEqual([apiKey]);
    expect(await c.deleteReadonlyApiKey(apiKey)).toBe(true);
    expect(await c.getReadonlyApiKeys()).toEqual([]);
    expect(await c.deleteReadonlyApiKey(apiKey)).toBe(false);

    const builder = await c.createBuilderApiKey();
    expect(builder).toEqual({
      key: rig.up.trading.account.builderKeys[0]!.key,
      secret: rig.up.trading.account.builderKeys[0]!.secret,
      passphrase: rig.up.trading.account.builderKeys[0]!.passphrase,
    });
    expect(await c.getBuilderApiKeys()).toEqual([{ key: builder.key, createdAt: expect.any(String) }]);
    expect(await c.revokeBuilderApiKey()).toBe('OK');
    expect(rig.up.trading.account.builderKeys[0]!.revokedAt).toEqual(expect.any(String));
    expect((await c.getBuilderApiKeys())[0]).toMatchObject({
      key: builder.key,
      revokedAt: rig.up.trading.account.builderKeys[0]!.revokedAt,
    });
  });

  it("creates and derives API keys with the wallet's own L1 signature, forwarded unchanged and never cached", async () => {
    const c = client();
    // Nonce 0 is the configured account's key: creating it again is refused, deriving it gives it back.
    await expect(c.createApiKey()).rejects.toThrow(KEY_EXISTS);
    const from = rig.up.requests.entries.length;
    expect(await c.deriveApiKey()).toEqual(rig.apiCreds);
    expect(await c.deriveApiKey()).toEqual(rig.apiCreds);
    // Twice upstream: an answer carrying a secret is not kept.
    expect(rig.upstreamHits(from, 'GET', '/auth/derive-api-key')).toBe(2);
    // Another nonce: a new key, the fake's deterministic one for (address, nonce), then derived back.
    const made = deterministicCredentials(rig.wallet.address, 7);
    const expected = { key: made.apiKey, secret: made.secret, passphrase: made.passphrase };
    expect(await c.createApiKey(7)).toEqual(expected);
    expect(await c.deriveApiKey(7)).toEqual(expected);
    expect(rig.up.trading.keys.active(made.apiKey)).toMatchObject({ address: rig.wallet.address });
    // The answer tells caches not to keep it.
    const res = await fetch(`${rig.proxy.url}/auth/derive-api-key`, { headers: await l1Headers(7) });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('refuses an L1 route without its headers, and one whose signature is not the address owner’s, before or at the upstream', async () => {
    const from = rig.up.requests.entries.length;
    const bare = await fetch(`${rig.proxy.url}/auth/derive-api-key`);
    expect(bare.status).toBe(401);
    expect(rig.upstreamHits(from, 'GET', '/auth/derive-api-key')).toBe(0);
    // Signed by this wallet, claiming another address: the upstream refuses it, and its 401 comes back.
    const headers = { ...(await l1Headers(0)), POLY_ADDRESS: `0x${'1'.repeat(40)}` };
    const forged = await fetch(`${rig.proxy.url}/auth/derive-api-key`, { headers });
    expect(forged.status).toBe(401);
    expect(rig.upstreamHits(from, 'GET', '/auth/derive-api-key')).toBe(1);
  });
});

describe('deleteApiKey', () => {
  let own: ClobRig;
  beforeAll(async () => {
    own = await startClobRig({ orders: 5 });
  });
  afterAll(async () => {
    await own?.close();
  });

  it('revokes the configured key upstream: its signed routes then get 401, until a key is made again with L1', async () => {
    const c = new ClobClient({ host: own.proxy.url, chain: Chain.POLYGON, signer: own.wallet, creds: own.apiCreds, throwOnError: true });
    expect(await c.getClosedOnlyMode()).toEqual({ closed_only: false });
    expect(await c.deleteApiKey()).toBe('OK');
    expect(own.up.trading.keys.active(own.creds.apiKey)).toBeUndefined();
    await expect(c.getClosedOnlyMode()).rejects.toMatchObject({ status: 401 });
    // The slot is free again: a new key for nonce 0, which marketdesk does not know (its own calls stay refused).
    const fresh = await c.createApiKey();
    expect(fresh.key).not.toBe(own.creds.apiKey);
    expect(own.up.trading.keys.active(fresh.key)).toBeDefined();
  });
});

describe("the fake CLOB's V2 order check", () => {
  async function signedBody(): Promise<Record<string, unknown>> {
    const order = await client().createOrder({ tokenID: tokens()[0], price: 0.3, size: 5, side: Side.BUY });
    return { ...order, salt: Number.parseInt(order.salt, 10) } as Record<string, unknown>;
  }

  it('accepts the signed order and refuses a tampered field, another domain or chain, and a V1 order', async () => {
    const order = await signedBody();
    expect(checkSignedOrder(order, { negRisk: false })).toBeUndefined();
    expect(checkSignedOrder({ ...order, makerAmount: '4200001' }, { negRisk: false })).toBe(INVALID_SIGNATURE);
    // Signed for the V2 exchange, checked against the neg-risk one: a different domain.
    expect(checkSignedOrder(order, { negRisk: true })).toBe(INVALID_SIGNATURE);
    expect(checkSignedOrder(order, { negRisk: false, chainId: 80002 })).toBe(INVALID_SIGNATURE);
    const { timestamp: _t, metadata: _m, builder: _b, ...v1 } = order;
    expect(checkSignedOrder({ ...v1, nonce: '0', feeRateBps: '0', taker: `0x${'0'.repeat(40)}` }, { negRisk: false })).toBe(
      ORDER_VERSION_MISMATCH,
    );
  });

  it('answers a refused order with 400 and the error through the service', async () => {
    const order = await signedBody();
    const body = JSON.stringify({ order: { ...order, takerAmount: '1' }, owner: rig.creds.apiKey, orderType: 'GTC' });
    const res = await fetch(`${rig.proxy.url}/order`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...l2Headers(rig.creds, { method: 'POST', path: '/order', body }) },
      body,
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: INVALID_SIGNATURE });
  });
});

describe("the contract's answer types", () => {
  it("are the client's own (checked when the tests are typechecked)", () => {
    expectTypeOf<ResultOf<'clobMarkets.list'>>().toMatchTypeOf<V2.PaginationPayload>();
    expectTypeOf<ResultOf<'rewardsCurrent.list'>['data'][number]>().toMatchTypeOf<V2.MarketReward>();
    expectTypeOf<V2.MarketTradeEvent>().toMatchTypeOf<ResultOf<'marketLiveActivity.get'>[number]>();
    expectTypeOf<ResultOf<'orderScoring.get'>>().toEqualTypeOf<V2.OrderScoring>();
    expectTypeOf<ResultOf<'ordersScoring.post'>>().toMatchTypeOf<V2.OrdersScoring>();
    expectTypeOf<ResultOf<'notifications.list'>[number]>().toMatchTypeOf<V2.Notification>();
    expectTypeOf<ResultOf<'balanceAllowance.get'>>().toMatchTypeOf<V2.BalanceAllowanceResponse>();
    expectTypeOf<ResultOf<'rewardsEarnings.list'>['data'][number]>().toEqualTypeOf<V2.UserEarning>();
    expectTypeOf<ResultOf<'rewardsEarningsTotal.get'>[number]>().toEqualTypeOf<V2.TotalUserEarning>();
    expectTypeOf<ResultOf<'rewardsPercentages.get'>>().toMatchTypeOf<V2.RewardsPercentages>();
    expectTypeOf<ResultOf<'rewardsUserMarkets.list'>['data'][number]>().toMatchTypeOf<V2.UserRewardsEarning>();
    expectTypeOf<ResultOf<'closedOnly.get'>>().toEqualTypeOf<V2.BanStatus>();
    expectTypeOf<ResultOf<'apiKey.create'>>().toEqualTypeOf<V2.ApiKeyRaw>();
    expectTypeOf<ResultOf<'readonlyApiKey.create'>>().toEqualTypeOf<V2.ReadonlyApiKeyResponse>();
    expectTypeOf<ResultOf<'builderApiKey.create'>>().toEqualTypeOf<V2.BuilderApiKey>();
    expectTypeOf<ResultOf<'builderApiKeys.list'>[number]>().toEqualTypeOf<V2.BuilderApiKeyResponse>();
    expectTypeOf<ResultOf<'orders.cancel'>>().toMatchTypeOf<{ canceled: string[]; not_canceled: Record<string, string> }>();
  });
});
