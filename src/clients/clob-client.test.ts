/**
 * Polymarket's own TypeScript client (`@polymarket/clob-client`, with an ethers 5 Wallet as its
 * signer) against a running service and fake upstream, unchanged: it signs with `POLY_*`
 * headers, so the service answers in Polymarket's dialect (snake_case orders, `LTE=` end cursor).
 * A `KUEST_*` client follows the spec's dialect to `""`. Every expected value is read from the
 * fake upstream itself; a proxy in front of the service counts the clients' requests, so a
 * client that loops fails on the count rather than hanging.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { Chain, ClobClient, OrderType, Side, type ApiKeyCreds } from '@polymarket/clob-client';
import { Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Credentials } from '../auth/credentials.ts';
import { l2Headers } from '../auth/l2.ts';
import type { Order, PolymarketOrder } from '../contract/orders-ops.ts';
import { createSyntheticCatalog, startFakeUpstream, type FakeUpstream, type RawOrder } from '../fake-upstream/index.ts';
import { startService, type Service } from '../http/server.ts';
import type { Logger } from '../logger.ts';
import { startCountingProxy, type CountingProxy } from '../testing/counting-proxy.ts';

const quiet: Logger = { info: () => {}, warn: () => {} } as Logger;
/** 275 orders: three pages of 100, the last one partial. */
const ORDERS = 275;
const PAGES = Math.ceil(ORDERS / 100);

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
    catalog: createSyntheticCatalog({ markets: 60, seed: 2 }),
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

/** throwOnError: an error answer fails the test instead of coming back as `{error}`. */
function clobClient(useServerTime = false): ClobClient {
  return new ClobClient(
    proxy.url,
    Chain.POLYGON,
    wallet,
    API_CREDS,
    undefined,
    undefined,
    undefined,
    useServerTime,
    undefined,
    undefined,
    undefined,
    undefined,
    true,
  );
}

/** The requests `fn` makes through the proxy. */
async function counted<T>(fn: () => Promise<T>): Promise<{ value: T; requests: string[] }> {
  const from = proxy.requests.length;
  const value = await fn();
  return { value, requests: proxy.requests.slice(from) };
}

/** Polymarket's order exactly as the fake upstream serves it (the service's own address stands for the key only in the spec's). */
const asServed = (o: RawOrder): PolymarketOrder => ({ ...o });

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

describe('@polymarket/clob-client against the clob face', () => {
  it('getOpenOrders returns every order once, in Polymarket shape, and stops at LTE=', async () => {
    const client = clobClient();
    const { value, requests } = await counted(() => client.getOpenOrders());
    expect(requests.filter((r) => r.startsWith('GET /data/orders'))).toHaveLength(PAGES);
    expect(requests.length).toBeLessThanOrEqual(PAGES + 1);
    expect(value).toEqual(up.clob!.orders.map(asServed));
    expect(new Set(value.map((o) => o.id)).size).toBe(ORDERS);
  });

  it('getOpenOrders with filters returns exactly the matching orders', async () => {
    const client = clobClient();
    const all = up.clob!.orders;
    const one = all[137]!;
    const byMarket = all.filter((o) => o.market === one.market);
    const r1 = await counted(() => client.getOpenOrders({ market: one.market }));
    expect(r1.value).toEqual(byMarket.map(asServed));
    expect(r1.requests.length).toBeLessThanOrEqual(Math.ceil(byMarket.length / 100) + 1);
    const byAsset = all.filter((o) => o.asset_id === one.asset_id);
    expect(await client.getOpenOrders({ asset_id: one.asset_id })).toEqual(byAsset.map(asServed));
    expect(await client.getOpenOrders({ id: one.id })).toEqual([asServed(one)]);
    expect(await client.getOpenOrders({ market: `0x${'0'.repeat(64)}` })).toEqual([]);
  });

  it('getOrder returns the one order in Polymarket shape', async () => {
    const one = up.clob!.orders[42]!;
    expect(await clobClient().getOrder(one.id)).toEqual(asServed(one));
  });

  it('getTrades returns the upstream trades and stops', async () => {
    const expected = (await upstream('/data/trades', { signed: true })) as { data: unknown[] };
    const { value, requests } = await counted(() => clobClient().getTrades());
    expect(value).toEqual(expected.data);
    expect(requests.length).toBeLessThanOrEqual(2);
  });

  it('reads books, prices, midpoints, spreads, last trades, tick size, neg risk and fee rate as the upstream answers them', async () => {
    const client = clobClient();
    const token = up.clob!.orders[0]!.asset_id;
    const other = up.clob!.orders.find((o) => o.asset_id !== token)!.asset_id;
    const q = `?token_id=${token}`;
    // clob-client types these bodies with a side; the midpoint, spread and last-trade routes ignore it.
    const list = [
      { token_id: token, side: Side.BUY },
      { token_id: other, side: Side.SELL },
    ];
    expect(await client.getOrderBook(token)).toEqual(await upstream(`/book${q}`));
    expect(await client.getPrice(token, Side.BUY)).toEqual(await upstream(`/price${q}&side=BUY`));
    expect(await client.getMidpoint(token)).toEqual(await upstream(`/midpoint${q}`));
    expect(await client.getMidpoints(list)).toEqual(await upstream('/midpoints', { method: 'POST', body: list }));
    expect(await client.getSpread(token)).toEqual(await upstream(`/spread${q}`));
    expect(await client.getSpreads(list)).toEqual(await upstream('/spreads', { method: 'POST', body: list }));
    expect(await client.getLastTradePrice(token)).toEqual(await upstream(`/last-trade-price${q}`));
    expect(await client.getLastTradesPrices(list)).toEqual(await upstream('/last-trades-prices', { method: 'POST', body: list }));
    const tick = (await upstream(`/tick-size${q}`)) as { minimum_tick_size: number };
    expect(await client.getTickSize(token)).toBe(String(tick.minimum_tick_size));
    expect(await client.getNegRisk(token)).toBe(((await upstream(`/neg-risk${q}`)) as { neg_risk: boolean }).neg_risk);
    expect(await client.getFeeRateBps(token)).toBe(((await upstream(`/fee-rate${q}`)) as { base_fee: number }).base_fee);
  });

  it('signs with the server time when useServerTime is set', async () => {
    const client = clobClient(true);
    // The fake's clock is this host's: the answer lies between the seconds before and after the call.
    const before = Math.floor(Date.now() / 1000);
    const time = await client.getServerTime();
    const after = Math.floor(Date.now() / 1000);
    expect(Number.isInteger(time)).toBe(true);
    expect(time).toBeGreaterThanOrEqual(before);
    expect(time).toBeLessThanOrEqual(after);
    const { value, requests } = await counted(() => client.getOpenOrders());
    expect(value).toHaveLength(ORDERS);
    expect(requests[0]).toBe('GET /time');
    expect(requests.length).toBe(PAGES + 1);
  });

  it('lists the configured API key', async () => {
    expect(await clobClient().getApiKeys()).toEqual({ apiKeys: [CREDS.apiKey] });
  });

  // CLOB V2 refuses V1-signed orders (since 2026-04-28); the V2 round trip is in clob-client-v2.test.ts.
  it('a V1-signed order is refused with order_version_mismatch and nothing is placed', async () => {
    const token = up.clob!.orders[0]!.asset_id;
    const before = up.trading.orders.size;
    await expect(
      clobClient().createAndPostOrder({ tokenID: token, price: 0.42, size: 10, side: Side.BUY }, undefined, OrderType.GTC),
    ).rejects.toThrow(/order_version_mismatch/);
    expect(up.trading.orders.size).toBe(before);
  });
});

describe('a KUEST_* client', () => {
  it("follows the spec's dialect to the empty cursor", async () => {
    const orders: Order[] = [];
    const cursors: string[] = [];
    let cursor = '';
    const from = proxy.requests.length;
    do {
      const headers = l2Headers(CREDS, { method: 'GET', path: '/data/orders' }, { family: 'KUEST' });
      const res = await fetch(`${proxy.url}/data/orders?next_cursor=${encodeURIComponent(cursor)}`, { headers });
      expect(res.status).toBe(200);
      const page = (await res.json()) as { data: Order[]; next_cursor: string };
      orders.push(...page.data);
      cursor = page.next_cursor;
      cursors.push(cursor);
      expect(proxy.requests.length - from, 'the client does not loop').toBeLessThanOrEqual(PAGES);
    } while (cursor !== '');
    expect(cursors).toEqual(['MTAw', 'MjAw', '']);
    expect(orders.map((o) => o.id)).toEqual(up.clob!.orders.map((o) => o.id));
    // The spec's camelCase, lower-case status and ISO times.
    const first = up.clob!.orders[0]!;
    expect(orders[0]).toMatchObject({
      id: first.id,
      status: 'live',
      assetId: first.asset_id,
      originalSize: first.original_size,
      createdAt: new Date(first.created_at * 1000).toISOString(),
    });
    expect(orders[0]).not.toHaveProperty('expiration');
  });

  it("gets trades with the spec's empty end cursor", async () => {
    const headers = l2Headers(CREDS, { method: 'GET', path: '/data/trades' }, { family: 'KUEST' });
    const res = await fetch(`${proxy.url}/data/trades`, { headers });
    expect(((await res.json()) as { next_cursor: string }).next_cursor).toBe('');
  });
});
