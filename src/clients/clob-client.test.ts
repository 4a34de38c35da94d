/**
 * Polymarket's archived V1 client (`@polymarket/clob-client` 5.8.1, an ethers 5 Wallet as its
 * signer) against a running service and fake upstream, unchanged: it signs with `POLY_*`
 * headers, so the service answers in Polymarket's dialect (snake_case orders, `LTE=` end cursor).
 *
 * Trimmed for CLOB V2 (issue 25): the V1 client is kept only where its calls still exist in CLOB
 * V2 and check something clob-client-v2.test.ts does not. Its reads (books, prices, midpoints,
 * spreads, tick size, neg risk, fee rate), getOrder, getTrades and getApiKeys make the same
 * requests as V2's and are tested there, once. Kept: three full pages of open orders walked to
 * `LTE=` and the list's filters, signing with the server time (useServerTime), and its order
 * placement, which CLOB V2 refuses (a V1-signed order: `order_version_mismatch`). A `KUEST_*`
 * client follows the spec's dialect to `""`. Every expected value is read from the fake upstream
 * itself; a proxy in front of the service counts the client's requests, so a client that loops
 * fails on the count rather than hanging.
 */
import { Chain, ClobClient, OrderType, Side } from '@polymarket/clob-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { l2Headers } from '../auth/l2.ts';
import type { Order, PolymarketOrder } from '../contract/orders-ops.ts';
import type { RawOrder } from '../fake-upstream/index.ts';
import { startClobRig, type ClobRig } from '../testing/clob-rig.ts';

/** 275 orders: three pages of 100, the last one partial. */
const ORDERS = 275;
const PAGES = Math.ceil(ORDERS / 100);

let rig: ClobRig;

beforeAll(async () => {
  rig = await startClobRig({ orders: ORDERS, markets: 60, seed: 2 });
});

afterAll(async () => {
  await rig?.close();
});

/** throwOnError: an error answer fails the test instead of coming back as `{error}`. */
function clobClient(useServerTime = false): ClobClient {
  return new ClobClient(
    rig.proxy.url,
    Chain.POLYGON,
    rig.wallet,
    rig.apiCreds,
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
  const from = rig.proxy.requests.length;
  const value = await fn();
  return { value, requests: rig.proxy.requests.slice(from) };
}

/** Polymarket's order exactly as the fake upstream serves it (the service's own address stands for the key only in the spec's). */
const asServed = (o: RawOrder): PolymarketOrder => ({ ...o });

describe('@polymarket/clob-client against the clob face', () => {
  it('getOpenOrders returns every order once, in Polymarket shape, and stops at LTE=', async () => {
    const client = clobClient();
    const { value, requests } = await counted(() => client.getOpenOrders());
    expect(requests.filter((r) => r.startsWith('GET /data/orders'))).toHaveLength(PAGES);
    expect(requests.length).toBeLessThanOrEqual(PAGES + 1);
    expect(value).toEqual(rig.up.clob!.orders.map(asServed));
    expect(new Set(value.map((o) => o.id)).size).toBe(ORDERS);
  });

  it('getOpenOrders with filters returns exactly the matching orders', async () => {
    const client = clobClient();
    const all = rig.up.clob!.orders;
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

  // CLOB V2 refuses V1-signed orders (since 2026-04-28); the V2 round trip is in clob-client-v2.test.ts.
  it('a V1-signed order is refused with order_version_mismatch and nothing is placed', async () => {
    const token = rig.up.clob!.orders[0]!.asset_id;
    const before = rig.up.trading.orders.size;
    await expect(
      clobClient().createAndPostOrder({ tokenID: token, price: 0.42, size: 10, side: Side.BUY }, undefined, OrderType.GTC),
    ).rejects.toThrow(/order_version_mismatch/);
    expect(rig.up.trading.orders.size).toBe(before);
  });
});

describe('a KUEST_* client', () => {
  it("follows the spec's dialect to the empty cursor", async () => {
    const orders: Order[] = [];
    const cursors: string[] = [];
    let cursor = '';
    const from = rig.proxy.requests.length;
    do {
      const headers = l2Headers(rig.creds, { method: 'GET', path: '/data/orders' }, { family: 'KUEST' });
      const res = await fetch(`${rig.proxy.url}/data/orders?next_cursor=${encodeURIComponent(cursor)}`, { headers });
      expect(res.status).toBe(200);
      const page = (await res.json()) as { data: Order[]; next_cursor: string };
      orders.push(...page.data);
      cursor = page.next_cursor;
      cursors.push(cursor);
      expect(rig.proxy.requests.length - from, 'the client does not loop').toBeLessThanOrEqual(PAGES);
    } while (cursor !== '');
    expect(cursors).toEqual(['MTAw', 'MjAw', '']);
    expect(orders.map((o) => o.id)).toEqual(rig.up.clob!.orders.map((o) => o.id));
    // The spec's camelCase, lower-case status and ISO times.
    const first = rig.up.clob!.orders[0]!;
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
    const headers = l2Headers(rig.creds, { method: 'GET', path: '/data/trades' }, { family: 'KUEST' });
    const res = await fetch(`${rig.proxy.url}/data/trades`, { headers });
    expect(((await res.json()) as { next_cursor: string }).next_cursor).toBe('');
  });
});
