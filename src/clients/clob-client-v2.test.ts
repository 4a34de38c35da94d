/**
 * Polymarket's CLOB V2 client (`@polymarket/clob-client-v2`, an ethers 5 Wallet as its signer)
 * against a running service and fake upstream, unchanged. Every expected value is read from the
 * fake itself; a proxy in front of the service counts the client's requests and keeps their
 * bodies, so a signed order can be compared byte for byte with what the fake received.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { Chain, ClobClient, OrderType, Side, type ApiKeyCreds } from '@polymarket/clob-client-v2';
import { Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Credentials } from '../auth/credentials.ts';
import { l2Headers } from '../auth/l2.ts';
import { createSyntheticCatalog, startFakeUpstream, type FakeUpstream } from '../fake-upstream/index.ts';
import { checkSignedOrder, INVALID_SIGNATURE, ORDER_VERSION_MISMATCH } from '../fake-upstream/order-signing.ts';
import { startService, type Service } from '../http/server.ts';
import type { Logger } from '../logger.ts';
import { startCountingProxy, type CountingProxy } from '../testing/counting-proxy.ts';

const quiet: Logger = { info: () => {}, warn: () => {} } as Logger;
const ORDERS = 120;

const wallet = Wallet.createRandom();
const CREDS: Credentials = {
  apiKey: randomUUID(),
  secret: randomBytes(32).toString('base64url'),
  passphrase: randomBytes(32).toString('hex'),
  address: wallet.address,
};
const API_CREDS: ApiKeyCreds = { key: CREDS.apiKey, secret: CREDS.secret, passphrase: CREDS.passphrase };

let up: FakeUpstream;
let service: Service;
let proxy: CountingProxy;

beforeAll(async () => {
  up = await startFakeUpstream({
    catalog: createSyntheticCatalog({ markets: 40, seed: 3 }),
    clob: { credentials: CREDS, generate: { count: ORDERS } },
  });
  service = await startService({
    urls: { gamma: up.url, clob: up.url, data: up.url },
    basePort: 0,
    clobPort: 0,
    credentials: CREDS,
    log: quiet,
    client: { baseDelayMs: 1, maxDelayMs: 5, maxRetries: 1 },
  });
  proxy = await startCountingProxy(service.clobUrl!);
});

afterAll(async () => {
  await proxy?.close();
  await service?.close();
  await up?.close();
});

const client = (useServerTime = false) =>
  new ClobClient({ host: proxy.url, chain: Chain.POLYGON, signer: wallet, creds: API_CREDS, useServerTime, throwOnError: true });

/** A read straight from the fake upstream: what the service's forwarded answer must equal. */
async function upstream(path: string, init: { method?: string; body?: unknown; signed?: boolean } = {}): Promise<unknown> {
  const method = init.method ?? 'GET';
  const body = init.body === undefined ? undefined : JSON.stringify(init.body);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (init.signed) Object.assign(headers, l2Headers(CREDS, { method, path: path.split('?')[0]! }));
  const res = await fetch(`${up.url}${path}`, { method, headers, ...(body !== undefined ? { body } : {}) });
  expect(res.status, path).toBe(200);
  return res.json();
}

/** The fake's log entries for `METHOD path` since `from`. */
const upstreamHits = (from: number, method: string, path: string) =>
  up.requests.entries.slice(from).filter((e) => e.method === method && e.path === path).length;

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
    expect(open.map((o) => o.id)).toEqual(up.clob!.orders.map((o) => o.id));
    const one = up.clob!.orders[17]!;
    expect(await c.getOrder(one.id)).toEqual({ ...one });
    const expected = (await upstream('/data/trades', { signed: true })) as { data: unknown[] };
    expect(await c.getTrades()).toEqual(expected.data);
    expect(await c.getPreMigrationOrders()).toEqual([]);
    expect(await c.getApiKeys()).toEqual({ apiKeys: [CREDS.apiKey] });
  });

  it('reads books, prices, midpoints, spreads, last trades, tick size, neg risk and market info as the upstream answers them', async () => {
    const c = client();
    const token = up.clob!.orders[0]!.asset_id;
    const other = up.clob!.orders.find((o) => o.asset_id !== token)!.asset_id;
    const q = `?token_id=${token}`;
    const list = [
      { token_id: token, side: Side.BUY },
      { token_id: other, side: Side.SELL },
    ];
    expect(await c.getOrderBook(token)).toEqual(await upstream(`/book${q}`));
    expect(await c.getOrderBooks(list)).toEqual(await upstream('/books', { method: 'POST', body: list }));
    expect(await c.getPrice(token, Side.BUY)).toEqual(await upstream(`/price${q}&side=BUY`));
    expect(await c.getPrices(list)).toEqual(await upstream('/prices', { method: 'POST', body: list }));
    expect(await c.getMidpoint(token)).toEqual(await upstream(`/midpoint${q}`));
    expect(await c.getMidpoints(list)).toEqual(await upstream('/midpoints', { method: 'POST', body: list }));
    expect(await c.getSpread(token)).toEqual(await upstream(`/spread${q}`));
    expect(await c.getSpreads(list)).toEqual(await upstream('/spreads', { method: 'POST', body: list }));
    expect(await c.getLastTradePrice(token)).toEqual(await upstream(`/last-trade-price${q}`));
    expect(await c.getLastTradesPrices(list)).toEqual(await upstream('/last-trades-prices', { method: 'POST', body: list }));
    const tick = (await upstream(`/tick-size${q}`)) as { minimum_tick_size: number };
    expect(await c.getTickSize(token)).toBe(String(tick.minimum_tick_size));
    expect(await c.getNegRisk(token)).toBe(((await upstream(`/neg-risk${q}`)) as { neg_risk: boolean }).neg_risk);
    expect(await c.getFeeRateBps(token)).toBe(((await upstream(`/fee-rate${q}`)) as { base_fee: number }).base_fee);
    // The V2 fee source: /markets-by-token, then /clob-markets for the market's compact record.
    const byToken = (await upstream(`/markets-by-token/${token}`)) as { condition_id: string };
    expect(await c.getFeeExponent(token)).toBe(((await upstream(`/clob-markets/${byToken.condition_id}`)) as { fd: { e: number } }).fd.e);
    expect(await c.getClobMarketInfo(byToken.condition_id)).toEqual(await upstream(`/clob-markets/${byToken.condition_id}`));
  });

  it('postHeartbeat reaches the upstream with its body unchanged', async () => {
    const from = proxy.bodies.length;
    const writes = up.trading.writes.length;
    expect(await client().postHeartbeat('')).toMatchObject({ heartbeat_id: expect.any(String) });
    const sent = proxy.bodies[proxy.requests.indexOf('POST /v1/heartbeats', from)];
    expect(up.trading.writes.slice(writes)).toEqual([{ route: 'POST /v1/heartbeats', body: sent }]);
  });

  it('createAndPostOrder (V2-signed) and cancelOrder each reach the upstream once, bodies byte for byte', async () => {
    const c = client();
    const token = up.clob!.orders[0]!.asset_id;
    const logFrom = up.requests.entries.length;
    const proxyFrom = proxy.requests.length;
    const writes = up.trading.writes.length;
    const placed = await c.createAndPostOrder({ tokenID: token, price: 0.42, size: 10, side: Side.BUY }, undefined, OrderType.GTC);
    expect(placed).toMatchObject({ success: true, errorMsg: '', status: 'live' });
    const id = placed.orderID as string;
    const fake = up.trading.orders.get(id)!;
    expect(fake.order).toMatchObject({ maker: wallet.address, signer: wallet.address, tokenId: token, side: 'BUY', signatureType: 0 });
    expect(fake.order).not.toHaveProperty('nonce');
    expect(fake.order).not.toHaveProperty('feeRateBps');
    expect(fake.order['makerAmount']).toBe('4200000');
    expect(fake.order['takerAmount']).toBe('10000000');
    const cancelled = await c.cancelOrder({ orderID: id });
    expect(cancelled).toEqual({ canceled: [id], not_canceled: {} });
    expect(upstreamHits(logFrom, 'POST', '/order')).toBe(1);
    expect(upstreamHits(logFrom, 'DELETE', '/order')).toBe(1);
    const sentPost = proxy.bodies[proxy.requests.indexOf('POST /order', proxyFrom)]!;
    const sentDelete = proxy.bodies[proxy.requests.indexOf('DELETE /order', proxyFrom)]!;
    expect(up.trading.writes.slice(writes)).toEqual([
      { route: 'POST /order', body: sentPost },
      { route: 'DELETE /order', body: sentDelete },
    ]);
    expect(fake.raw).toBe(sentPost);
  });
});

describe("the fake CLOB's V2 order check", () => {
  async function signedBody(): Promise<Record<string, unknown>> {
    const token = up.clob!.orders[0]!.asset_id;
    const order = await client().createOrder({ tokenID: token, price: 0.3, size: 5, side: Side.BUY });
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
    const body = JSON.stringify({ order: { ...order, takerAmount: '1' }, owner: CREDS.apiKey, orderType: 'GTC' });
    const res = await fetch(`${proxy.url}/order`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...l2Headers(CREDS, { method: 'POST', path: '/order', body }) },
      body,
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: INVALID_SIGNATURE });
  });
});
