/**
 * Polymarket's unified TypeScript SDK (`@polymarket/client` 0.2.0, Polymarket/ts-sdk) against the
 * clob face, unchanged: its host is configured the SDK's own way, `forkEnvironmentConfig({clob:
 * {rest}})`, pointed at a counting proxy in front of the service (Gamma and the Data API at the
 * base face). Every expected value is the fake upstream's own answer or state; where the SDK turns
 * an answer into its camelCase model, the fake's answer read directly is put through the same
 * model (`@polymarket/bindings`' schemas, which the SDK validates every answer with).
 *
 * Called: books, prices, midpoints, spreads, last trade prices (single and batch), price history,
 * tick size, neg risk, a token's market and its compact record; the liquidity rewards; the secure
 * client made by the SDK's own L1 flow (create the key, refused as it exists, then derive it), and
 * with stored credentials; open orders, one order, the account's trades; closed-only mode,
 * notifications (and dropping one), balances and allowances, order scoring, earnings and reward
 * shares; API keys (listing, builder keys); and a limit order placed and cancelled, then a batch
 * placed and cancelled by id, by market and all, each signed by an ethers 5 Wallet.
 *
 * What the SDK cannot do here, and why (README, Compatibility):
 * - It has no server-time, `/ok` or `/version` call and no order heartbeat over HTTP (0.2.0 signs
 *   with the local clock and reads none of them), so those are not called.
 * - Its own ethers adapter (`@polymarket/client/ethers-v5`) imports `ethers-v5`, an npm alias this
 *   repo does not install; `signerOf` below adapts ethers 5's Wallet to the SDK's `Signer` the same
 *   way (EIP-712 through `_signTypedData`). No chain is contacted: an EOA account needs none.
 * - `revokeBuilderApiKey` sends no L2 headers (the SDK signs it only with a builder API key's
 *   `POLY_BUILDER_*` headers, which the SDK adds when it is given one), so the clob face refuses it
 *   with 401, as it refuses every unsigned account route; clob-client-v2's L2-signed revoke works.
 * - A key other than the service's configured one (the SDK's `nonce` option makes a new one) is
 *   refused by the clob face (401): marketdesk signs upstream with its one configured key.
 * No call depends on a URL the environment does not configure: the SDK's hosts all come from it.
 */
import {
  createPublicClient,
  createSecureClient,
  forkEnvironmentConfig,
  OrderSide,
  WalletType,
  type EnvironmentConfig,
  type Signer,
} from '@polymarket/client';
import {
  createBuilderApiKey,
  fetchApiKeys,
  fetchBalanceAllowance,
  fetchBuilderApiKeys,
  fetchMarketInfo,
  fetchNegRisk,
  fetchTickSize,
  resolveConditionByToken,
  revokeBuilderApiKey,
  updateBalanceAllowance,
} from '@polymarket/client/actions';
// The SDK's wire models (a dependency of @polymarket/client, which its index declares but does not re-export at run time).
import * as wire from '@polymarket/bindings/clob';
import { utils, type Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deterministicCredentials } from '../fake-upstream/api-keys.ts';
import { startClobRig, type ClobRig } from '../testing/clob-rig.ts';

type SecureClient = Awaited<ReturnType<typeof createSecureClient>>;

/** ethers 5's Wallet as the SDK's Signer, as the SDK's own ethers-v5 adapter does it. */
function signerOf(wallet: Wallet): Signer {
  return {
    getAddress: async () => wallet.address as Awaited<ReturnType<Signer['getAddress']>>,
    signTypedData: async ({ domain, types, message }) => {
      const { EIP712Domain: _domain, ...rest } = types as Record<string, { name: string; type: string }[]>;
      const signed = await wallet._signTypedData(domain as utils.Bytes as never, rest, message as Record<string, unknown>);
      return signed as Awaited<ReturnType<Signer['signTypedData']>>;
    },
    signMessage: async (hex) => (await wallet.signMessage(utils.arrayify(hex))) as Awaited<ReturnType<Signer['signMessage']>>,
    sendTransaction: () => Promise.reject(new Error('these tests send no transaction')),
  };
}

/** Every item of an SDK paginator; more pages than `maxPages` is a loop and fails. */
async function walk<T>(pages: AsyncIterable<{ items: T[] }>, maxPages = 20): Promise<T[]> {
  const out: T[] = [];
  let n = 0;
  for await (const page of pages) {
    if (++n > maxPages) throw new Error(`more than ${maxPages} pages: the walk loops`);
    out.push(...page.items);
  }
  return out;
}

let rig: ClobRig;
let env: EnvironmentConfig;
let pub: ReturnType<typeof createPublicClient>;
let secure: SecureClient;
let TOKENS: readonly [string, string];

beforeAll(async () => {
  rig = await startClobRig({ orders: 30 });
  const first = rig.up.clob!.orders[0]!.asset_id;
  TOKENS = [first, rig.up.clob!.orders.find((o) => o.asset_id !== first)!.asset_id];
  const base = rig.service.baseUrl!;
  env = forkEnvironmentConfig({ name: 'marketdesk', clob: { rest: rig.proxy.url }, gamma: { rest: base }, data: { rest: base } });
  pub = createPublicClient({ environment: env });
});

afterAll(async () => {
  await rig?.close();
});

/** The fake's answer read directly, through the SDK's model of it. */
const model = async <T>(schema: { parse(v: unknown): T }, path: string, init?: Parameters<ClobRig['upstream']>[1]): Promise<T> =>
  schema.parse(await rig.upstream(path, init));

describe('@polymarket/client against the clob face', () => {
  it('makes a secure client with its own L1 flow: create (refused, the key exists), then derive, through marketdesk', async () => {
    const from = rig.up.requests.entries.length;
    secure = await createSecureClient({ environment: env, signer: signerOf(rig.wallet), wallet: rig.wallet.address });
    expect(secure.credentials).toEqual(rig.apiCreds);
    expect(secure.account).toMatchObject({ signer: rig.wallet.address, wallet: rig.wallet.address, walletType: WalletType.EOA });
    expect(rig.upstreamHits(from, 'POST', '/auth/api-key')).toBe(1);
    expect(rig.upstreamHits(from, 'GET', '/auth/derive-api-key')).toBe(1);
    // With stored credentials it checks them against the key list (which the clob face answers) and signs nothing.
    const credentials = rig.apiCreds as NonNullable<Parameters<typeof createSecureClient>[0]['credentials']>;
    const again = await createSecureClient({ environment: env, signer: signerOf(rig.wallet), wallet: rig.wallet.address, credentials });
    expect(again.credentials).toEqual(rig.apiCreds);
    expect(await fetchApiKeys(again)).toEqual([rig.creds.apiKey]);
  });

  it('reads books, prices, midpoints, spreads, last trades and price history as the upstream answers them', async () => {
    const [token, other] = TOKENS;
    const q = `?token_id=${token}`;
    expect(await pub.fetchOrderBook({ tokenId: token })).toEqual(await model(wire.FetchOrderBookResponseSchema, `/book${q}`));
    const both = [{ token_id: token }, { token_id: other }];
    expect(await pub.fetchOrderBooks([{ tokenId: token }, { tokenId: other }])).toEqual(
      await model(wire.OrderBooksSchema, '/books', { method: 'POST', body: both }),
    );
    expect(await pub.fetchPrice({ tokenId: token, side: OrderSide.BUY })).toBe(
      (await model(wire.PriceSchema, `/price${q}&side=BUY`)).price,
    );
    const sides = [
      { token_id: token, side: 'BUY' },
      { token_id: other, side: 'SELL' },
    ];
    expect(
      await pub.fetchPrices([
        { tokenId: token, side: OrderSide.BUY },
        { tokenId: other, side: OrderSide.SELL },
      ]),
    ).toEqual(await model(wire.PricesSchema, '/prices', { method: 'POST', body: sides }));
    expect(await pub.fetchMidpoint({ tokenId: token })).toBe((await model(wire.MidpointSchema, `/midpoint${q}`)).mid);
    expect(await pub.fetchMidpoints([{ tokenId: token }, { tokenId: other }])).toEqual(
      await model(wire.MidpointsSchema, '/midpoints', { method: 'POST', body: both }),
    );
    expect(await pub.fetchSpread({ tokenId: token })).toBe((await model(wire.SpreadSchema, `/spread${q}`)).spread);
    expect(await pub.fetchSpreads([{ tokenId: token }, { tokenId: other }])).toEqual(
      await model(wire.SpreadsSchema, '/spreads', { method: 'POST', body: both }),
    );
    expect(await pub.fetchLastTradePrice({ tokenId: token })).toEqual(await model(wire.LastTradePriceSchema, `/last-trade-price${q}`));
    expect(await pub.fetchLastTradePrices([{ tokenId: token }, { tokenId: other }])).toEqual(
      await model(wire.LastTradePricesSchema, '/last-trades-prices', { method: 'POST', body: both }),
    );
    expect(await pub.fetchPriceHistory({ tokenId: token, interval: wire.PriceHistoryInterval.ONE_DAY })).toEqual(
      (await model(wire.PriceHistorySchema, `/prices-history?market=${token}&interval=1d`)).history,
    );
  });

  it("reads tick size, neg risk, a token's market and its compact record", async () => {
    const [token] = TOKENS;
    const q = `?token_id=${token}`;
    expect(await fetchTickSize(pub, { tokenId: token })).toBe(
      (await model(wire.FetchTickSizeResponseSchema, `/tick-size${q}`)).minimumTickSize,
    );
    expect(await fetchNegRisk(pub, { tokenId: token })).toBe((await model(wire.FetchNegRiskResponseSchema, `/neg-risk${q}`)).negRisk);
    const condition = await resolveConditionByToken(pub, { tokenId: token });
    expect(condition).toBe(await model(wire.ResolveConditionByTokenResponseSchema, `/markets-by-token/${token}`));
    // The token's market is the catalog's: the same condition id the account's orders carry.
    expect(condition).toBe(rig.up.clob!.orders[0]!.market);
    expect(await fetchMarketInfo(pub, { conditionId: condition as never })).toEqual(
      await model(wire.FetchMarketInfoResponseSchema, `/clob-markets/${condition}`),
    );
  });

  it('lists the current rewards and one market’s', async () => {
    const current = await walk(pub.listCurrentRewards());
    const expected = (await model(wire.PaginatedCurrentRewardsSchema, '/rewards/markets/current')).data;
    expect(current).toEqual(expected);
    expect(current.length).toBe(rig.up.trading.markets.sampling().length);
    const condition = current[0]!.conditionId;
    expect(await walk(pub.listMarketRewards({ conditionId: condition }))).toEqual(
      (await model(wire.PaginatedMarketRewardsSchema, `/rewards/markets/${condition}`)).data,
    );
  });

  it('lists open orders, reads one, and lists the account’s trades', async () => {
    const open = await walk(secure.listOpenOrders());
    expect(open.map((o) => o.id)).toEqual(rig.up.clob!.orders.map((o) => o.id));
    const one = rig.up.clob!.orders[3]!;
    expect(await secure.fetchOrder({ orderId: one.id })).toEqual(wire.OpenOrderSchema.parse(one));
    expect(await walk(secure.listAccountTrades())).toEqual((await model(wire.ClobTradesPageSchema, '/data/trades', { signed: true })).data);
  });

  it("reads the account's closed-only mode, balances, scoring, earnings and reward shares", async () => {
    expect(await secure.fetchClosedOnlyMode()).toBe(false);
    expect(await fetchBalanceAllowance(secure, { assetType: wire.AssetType.COLLATERAL })).toEqual(
      await model(wire.BalanceAllowanceResponseSchema, '/balance-allowance?asset_type=COLLATERAL&signature_type=0', { signed: true }),
    );
    const [token] = TOKENS;
    const from = rig.up.requests.entries.length;
    const updated = await updateBalanceAllowance(secure, { assetType: wire.AssetType.CONDITIONAL, tokenId: token });
    expect(updated).toEqual(
      await model(wire.BalanceAllowanceResponseSchema, `/balance-allowance?asset_type=CONDITIONAL&token_id=${token}&signature_type=0`, {
        signed: true,
      }),
    );
    expect(rig.upstreamHits(from, 'GET', '/balance-allowance/update')).toBe(1);
    const ids = rig.up.clob!.orders.slice(0, 3).map((o) => o.id);
    const scored = (await rig.upstream('/orders-scoring', { method: 'POST', body: ids, signed: true })) as Record<string, boolean>;
    expect(await secure.fetchOrderScoring({ orderId: ids[0]! })).toBe(scored[ids[0]!]);
    expect(await secure.fetchOrdersScoring({ orderIds: ids })).toEqual(scored);
    const date = '2026-10-30';
    expect(await walk(secure.listUserEarningsForDay({ date }))).toEqual(
      (await model(wire.UserEarningsPageSchema, `/rewards/user?date=${date}&signature_type=0`, { signed: true })).data,
    );
    expect(await secure.fetchTotalEarningsForUserForDay({ date })).toEqual(
      await model(wire.TotalUserEarningsResponseSchema, `/rewards/user/total?date=${date}&signature_type=0`, { signed: true }),
    );
    expect(await walk(secure.listUserEarningsAndMarketsConfig({ date }))).toEqual(
      (await model(wire.UserRewardsEarningsPageSchema, `/rewards/user/markets?date=${date}&signature_type=0`, { signed: true })).data,
    );
    expect(await secure.fetchRewardPercentages()).toEqual(
      await model(wire.RewardsPercentagesSchema, '/rewards/user/percentages?signature_type=0', { signed: true }),
    );
  });

  it('reads notifications and drops one, which leaves the upstream list', async () => {
    const before = await secure.fetchNotifications();
    expect(before).toEqual(await model(wire.NotificationsResponseSchema, '/notifications?signature_type=0', { signed: true }));
    const [gone, ...kept] = rig.up.trading.account.notifications.map((n) => n.id);
    await secure.dropNotifications({ ids: [String(gone)] });
    expect(rig.up.trading.account.notifications.map((n) => n.id)).toEqual(kept);
  });

  it('creates and lists builder keys; its unsigned builder-key revoke is refused', async () => {
    const made = await createBuilderApiKey(secure);
    const held = rig.up.trading.account.builderKeys.at(-1)!;
    expect(made).toEqual({ key: held.key, secret: held.secret, passphrase: held.passphrase });
    expect(await fetchBuilderApiKeys(secure)).toEqual(
      wire.BuilderApiKeysResponseSchema.parse(await rig.upstream('/auth/builder-api-key', { signed: true })),
    );
    const from = rig.up.requests.entries.length;
    await expect(revokeBuilderApiKey(secure)).rejects.toMatchObject({ status: 401 });
    expect(rig.upstreamHits(from, 'DELETE', '/auth/builder-api-key')).toBe(0);
    expect(held.revokedAt).toBeNull();
  });

  it('places a limit order and cancels it, each reaching the upstream once with the SDK’s body unchanged', async () => {
    const [token] = TOKENS;
    const logFrom = rig.up.requests.entries.length;
    const proxyFrom = rig.proxy.requests.length;
    const writes = rig.up.trading.writes.length;
    const placed = await secure.placeLimitOrder({ tokenId: token, price: 0.42, size: 10, side: OrderSide.BUY });
    expect(placed).toMatchObject({ ok: true, status: 'live' });
    const id = (placed as { orderId: string }).orderId;
    const fake = rig.up.trading.orders.get(id)!;
    expect(fake.order).toMatchObject({
      maker: rig.wallet.address,
      signer: rig.wallet.address,
      tokenId: token,
      side: 'BUY',
      signatureType: 0,
    });
    expect(fake.order['makerAmount']).toBe('4200000');
    expect(fake.order['takerAmount']).toBe('10000000');
    expect(fake.owner).toBe(rig.creds.apiKey);
    expect(await secure.cancelOrder({ orderId: id })).toEqual({ canceled: [id], notCanceled: {} });
    expect(rig.up.trading.orders.has(id)).toBe(false);
    expect(rig.upstreamHits(logFrom, 'POST', '/order')).toBe(1);
    expect(rig.upstreamHits(logFrom, 'DELETE', '/order')).toBe(1);
    const body = (request: string) => rig.proxy.bodies[rig.proxy.requests.findIndex((r, i) => i >= proxyFrom && r.startsWith(request))]!;
    expect(rig.up.trading.writes.slice(writes)).toEqual([
      { route: 'POST /order', body: body('POST /order') },
      { route: 'DELETE /order', body: body('DELETE /order') },
    ]);
  });

  it('posts a batch, then cancels by id, by token and all, each once upstream', async () => {
    const [token, other] = TOKENS;
    const logFrom = rig.up.requests.entries.length;
    const orders = [
      await secure.createLimitOrder({ tokenId: token, price: 0.3, size: 6, side: OrderSide.BUY }),
      await secure.createLimitOrder({ tokenId: other, price: 0.31, size: 6, side: OrderSide.BUY }),
    ];
    const placed = await secure.postOrders(orders);
    expect(placed.map((p) => p.ok)).toEqual([true, true]);
    const ids = placed.map((p) => (p as { orderId: string }).orderId);
    expect(await secure.cancelOrders({ orderIds: [ids[0]!] })).toEqual({ canceled: [ids[0]], notCanceled: {} });
    const onOther = rig.up.clob!.orders.filter((o) => o.asset_id === other).map((o) => o.id);
    expect(onOther).toContain(ids[1]);
    const byToken = await secure.cancelMarketOrders({ tokenId: other });
    expect([...byToken.canceled].sort()).toEqual([...onOther].sort());
    const rest = rig.up.clob!.orders.map((o) => o.id);
    const all = await secure.cancelAll();
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
  });

  it('a key the service does not hold (a new nonce) is made upstream, but the clob face refuses to sign with it', async () => {
    const other = await createSecureClient({ environment: env, signer: signerOf(rig.wallet), wallet: rig.wallet.address, nonce: 3 });
    const made = deterministicCredentials(rig.wallet.address, 3);
    expect(other.credentials).toEqual({ key: made.apiKey, secret: made.secret, passphrase: made.passphrase });
    await expect(other.fetchClosedOnlyMode()).rejects.toMatchObject({ status: 401 });
  });
});
