/**
 * The service's own uses of the live layer end to end against the fake upstream (its REST routes
 * and its market channel): what it subscribes for the watchlist, the alert rules and the account's
 * orders; a price_cross alert firing on a tick once, and not again at the next sync while the
 * catalog's price lags on the other side; `market_resolved` and `new_market` into the change feed
 * and the cache at once; live moves in the price history by the snapshot rule. Expected values come
 * from the fake's own state (its catalog, orders and books); the fake's walk is seeded (printed).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Credentials } from '../auth/credentials.ts';
import type { ChangeRecord } from '../contract/history-ops.ts';
import { tradingIds } from '../contract/market-rules.ts';
import type { GammaMarket } from '../contract/gamma.ts';
import { createSyntheticCatalog, mutate, startFakeUpstream, type FakeUpstream } from '../fake-upstream/index.ts';
import { parseList } from '../fake-upstream/clob.ts';
import { testSeed } from '../testing/seed.ts';
import { createService, type Service } from './service.ts';

const CREDS: Credentials = {
  apiKey: '3f0b6c2e-91d4-4a7e-b8c5-0d2e6f1a9b47',
  secret: 'wN2-kq8_Zx4Lr7Tb1Yc9Vd3Fe6Gh0Jm5Pa_Qs-Ut8Io=',
  passphrase: 'e4c1f0b7a9d25c6e8f3b1a0d9c7e5f2a4b6d8c0e1f3a5b7c9d2e4f6a8b0c1d3e',
  address: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
};

const { seed, replay } = testSeed('live uses vs the fake');
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function setup(withOrders = false): Promise<{ up: FakeUpstream; s: Service }> {
  const up = await startFakeUpstream({
    catalog: createSyntheticCatalog({ markets: 150, seed: 9 }),
    marketWs: { seed },
    ...(withOrders ? { clob: { credentials: CREDS, generate: { count: 6 } } } : {}),
  });
  cleanups.push(() => up.close());
  const s = await createService({
    urls: { gamma: up.url, clob: up.url, data: up.url },
    client: { baseDelayMs: 1, maxDelayMs: 5, maxRetries: 1 },
    ...(withOrders ? { credentials: CREDS } : {}),
  });
  cleanups.push(() => s.close());
  await s.sync!.syncNow('full');
  return { up, s };
}

const until = (cond: () => boolean, what = '') =>
  expect.poll(cond, { interval: 5, timeout: 30_000, message: `${what}; ${replay}` }).toBe(true);

/** The fake's own market and its trading ids. */
function fakeMarket(up: FakeUpstream, id: string): { m: GammaMarket; ids: string[] } {
  const m = up.catalog.getMarket(id)!;
  const t = tradingIds(m);
  return { m, ids: t.ok ? t.ids : [] };
}

/** Open markets of the fake whose outcomes all have books, with their first price in [0.2, 0.7]. */
function tradable(up: FakeUpstream): string[] {
  return up.catalog
    .marketRecords()
    .filter((r) => {
      const { m, ids } = fakeMarket(up, r.id);
      const p = Number(parseList(m.outcomePrices)[0]);
      return m.closed !== true && ids.length === 2 && ids.every((t) => up.marketWs.book(t)) && p >= 0.2 && p <= 0.7;
    })
    .map((r) => r.id);
}

const subscribed = (up: FakeUpstream) => new Set(up.marketWs.subscribedAssets());
const all = (set: Set<string>, ids: readonly string[]) => ids.length > 0 && ids.every((id) => set.has(id));
const none = (set: Set<string>, ids: readonly string[]) => ids.every((id) => !set.has(id));

/** The fake's book of an asset as the app shows its price: the midpoint of a spread up to 10¢ (independent of the service). */
function fakePrice(up: FakeUpstream, asset: string): number {
  const b = up.marketWs.book(asset)!;
  const bid = Number(b.bids.at(-1)!.price);
  const ask = Number(b.asks.at(-1)!.price);
  expect(ask - bid).toBeLessThanOrEqual(0.1);
  return Math.round(((bid + ask) / 2) * 1e6) / 1e6;
}

/** Replaces the fake's book of `asset` by one level each side around `mid`, as one price_change. */
function moveBook(up: FakeUpstream, asset: string, mid: number): number {
  const b = up.marketWs.book(asset)!;
  const changes = [
    ...b.bids.map((l) => ({ side: 'BUY' as const, price: l.price, size: 0 })),
    ...b.asks.map((l) => ({ side: 'SELL' as const, price: l.price, size: 0 })),
    { side: 'BUY' as const, price: (mid - 0.005).toFixed(3), size: 100 },
    { side: 'SELL' as const, price: (mid + 0.005).toFixed(3), size: 100 },
  ];
  up.marketWs.emit(asset, { type: 'price_change', changes });
  return fakePrice(up, asset);
}

/** The service's live price of an asset equals the fake's. */
function liveIs(s: Service, up: FakeUpstream, asset: string): boolean {
  const b = s.live.book(asset);
  const f = up.marketWs.book(asset)!;
  return b?.state === 'live' && b.bestBid === f.bids.at(-1)?.price && b.bestAsk === f.asks.at(-1)?.price;
}

const changes = (s: Service, kind: ChangeRecord['kind'], id: string) =>
  s.store.changes.list(0, [kind], 1000, 0).changes.filter((c) => c.market?.id === id);

describe("the service's subscriptions", () => {
  it('holds the watchlist’s markets and events, the price rules’ markets and the orders’ markets, and lets go of them', async () => {
    const { up, s } = await setup(true);
    const [a, b] = tradable(up) as [string, string];
    const A = fakeMarket(up, a).ids;
    const B = fakeMarket(up, b).ids;
    // An event of several open markets, none of them A or B: all its open markets are held (fewer than the cap).
    const event = up.catalog
      .eventRecords()
      .map((e) => ({ id: e.id, markets: up.catalog.marketRecords().filter((m) => m.eventIds.includes(e.id)) }))
      .find((e) => e.markets.length >= 2 && e.markets.length <= 50 && !e.markets.some((m) => m.id === a || m.id === b))!;
    const E = event.markets.flatMap((m) => (fakeMarket(up, m.id).m.closed === true ? [] : fakeMarket(up, m.id).ids));
    // The orders' markets: the fake's orders name their markets by condition id.
    await s.orders.refreshNow();
    const orderIds = (orders: { market: string }[]) =>
      [...new Set(orders.map((o) => o.market))].flatMap((c) => {
        const rec = up.catalog.marketRecords().find((r) => up.catalog.getMarket(r.id)!.conditionId === c);
        return rec ? fakeMarket(up, rec.id).ids : [];
      });
    const O = orderIds(up.clob!.orders);
    expect(O.length, replay).toBeGreaterThan(0);
    await until(() => all(subscribed(up), O), 'the orders’ markets subscribed');

    await s.dispatch('watchlist.add', { kind: 'market', id: a });
    await until(() => all(subscribed(up), A), 'a watched market subscribed');
    await s.dispatch('watchlist.add', { kind: 'event', id: event.id });
    await until(() => all(subscribed(up), E), 'a watched event’s open markets subscribed');
    const rule = await s.dispatch('alerts.create', { kind: 'price_cross', market: b, level: '0.99' });
    await until(() => all(subscribed(up), B), 'a price rule’s market subscribed');
    expect(s.live.status().owners).toBe(3);

    await s.dispatch('watchlist.remove', { kind: 'market', id: a });
    await until(
      () =>
        none(
          subscribed(up),
          A.filter((id) => !O.includes(id)),
        ),
      'an unwatched market released',
    );
    await s.dispatch('alerts.remove', { id: rule.id });
    await until(
      () =>
        none(
          subscribed(up),
          B.filter((id) => !O.includes(id)),
        ),
      'a removed rule’s market released',
    );
    // Every order filled or cancelled: their markets go too (unless still watched).
    for (const o of [...up.clob!.orders]) up.clob!.cancel(o.id);
    await s.orders.refreshNow();
    await until(
      () =>
        none(
          subscribed(up),
          O.filter((id) => !E.includes(id)),
        ),
      'the orders’ markets released',
    );
    expect(up.marketWs.sockets().some((k) => k.received.some((r) => r.kind === 'unsubscribe'))).toBe(true);
    await s.dispatch('watchlist.remove', { kind: 'event', id: event.id });
    await until(() => subscribed(up).size === 0 && s.live.assets().length === 0, 'nothing held');
  });
});

describe('price alerts on live ticks', () => {
  it('a crossing fires on its tick, once; the next sync, the catalog still on the other side, fires nothing', async () => {
    const { up, s } = await setup();
    const id = tradable(up)[0]!;
    const [yes, no] = fakeMarket(up, id).ids as [string, string];
    // Watched first, so the rule's first side is taken from the live price.
    await s.dispatch('watchlist.add', { kind: 'market', id });
    await until(() => liveIs(s, up, yes) && liveIs(s, up, no), 'the market live');
    const p0 = fakePrice(up, yes);
    const level = Math.round((p0 + 0.05) * 100) / 100;
    const rule = await s.dispatch('alerts.create', { kind: 'price_cross', market: id, level: String(level) });
    const fired = async () => (await s.dispatch('alerts.fired', { limit: '100', offset: '0' })).fired.filter((f) => f.ruleId === rule.id);

    // Up through the level on the book only: the catalog's price stays where it was.
    const p1 = moveBook(up, yes, level + 0.03);
    await expect.poll(async () => (await fired()).length, { interval: 5, timeout: 30_000, message: replay }).toBe(1);
    expect((await fired())[0]).toMatchObject({ kind: 'price_cross', market: { id }, before: p0, after: p1 });
    // Still above: nothing; then a sync, with the catalog's price below the level.
    const p2 = moveBook(up, yes, level + 0.06);
    await until(() => liveIs(s, up, yes), 'the second move applied');
    await s.sync!.syncNow('incremental');
    expect(Number(parseList(s.store.reader.getMarket(Number(id))!.outcomePrices)[0])).toBeLessThan(level);
    expect(await fired()).toHaveLength(1);
    // Back down through it: the second crossing, from the price the sync left in force.
    const p3 = moveBook(up, yes, level - 0.04);
    await expect.poll(async () => (await fired()).length, { interval: 5, timeout: 30_000, message: replay }).toBe(2);
    expect((await fired())[0]).toMatchObject({ before: p2, after: p3 });
    await s.sync!.syncNow('incremental');
    expect(await fired()).toHaveLength(2);
  });
});

describe('market notices', () => {
  it('market_resolved goes into the feed at once and refreshes the market; new_market brings the market and its change', async () => {
    const { up, s } = await setup();
    const [w, r] = tradable(up) as [string, string];
    // The channel sends notices only while some asset is subscribed.
    await s.dispatch('watchlist.add', { kind: 'market', id: w });
    await until(() => all(subscribed(up), fakeMarket(up, w).ids), 'a socket open');
    const before = up.requests.entries.length;
    mutate(up.catalog, { op: 'resolve', id: r, winner: 1 });
    await until(() => changes(s, 'resolved', r).length === 1, 'the resolution in the feed');
    const outcomes = parseList(up.catalog.getMarket(r)!.outcomes);
    expect(changes(s, 'resolved', r)[0]!.after).toEqual({ winner: outcomes[1], outcomePrices: ['0', '1'] });
    // Refreshed by condition id through the client, without a sync.
    await until(() => s.store.reader.getMarket(Number(r))?.closed === true, 'the market refreshed');
    const condition = up.catalog.getMarket(r)!.conditionId;
    expect(
      up.requests.entries.slice(before).some((e) => e.path === '/markets' && [e.query['condition_ids']].flat().includes(String(condition))),
    ).toBe(true);

    const event = up.catalog.marketRecord(w)!.eventIds[0]!;
    mutate(up.catalog, { op: 'openMarket', id: '990001', eventId: event, question: 'A new one?' });
    await until(() => s.store.reader.getMarket(990001)?.question === 'A new one?', 'the new market cached');
    expect(changes(s, 'new_market', '990001')).toHaveLength(1);

    // The sync that follows reports neither again.
    await s.sync!.syncNow('incremental');
    expect(changes(s, 'resolved', r)).toHaveLength(1);
    expect(changes(s, 'closed', r)).toHaveLength(1);
    expect(changes(s, 'new_market', '990001')).toHaveLength(1);
  });
});

describe('live moves in the price history', () => {
  it('are recorded by the snapshot rule: jumps at once, not a small move within 5 minutes, a small move after them', async () => {
    const { up, s } = await setup();
    const id = tradable(up)[0]!;
    const [yes, no] = fakeMarket(up, id).ids as [string, string];
    // The history's clock. The first sync records nothing; a catalog change starts the market's history.
    const clock = { t: Date.now() };
    s.store.recorder.now = () => clock.t;
    const p = Number(parseList(up.catalog.getMarket(id)!.outcomePrices)[0]);
    mutate(up.catalog, { op: 'price', id, price: Math.round((p + 0.02) * 100) / 100 });
    await s.sync!.syncNow('incremental');
    const history = () => s.store.history.history(Number(id), 0, 2e9).map((h) => h.price);
    const synced = history();
    expect(synced.length, replay).toBe(2);

    // Each step that records nothing is followed, at the same time, by one that does: what is
    // written is the same however the ticks fall into the 1-second writes.
    await s.dispatch('watchlist.add', { kind: 'market', id });
    await until(() => liveIs(s, up, yes) && liveIs(s, up, no), 'the market live');
    clock.t += 60_000;
    const p1 = moveBook(up, yes, fakePrice(up, yes) + 0.03);
    await until(() => history().length === 3, 'a 3-point jump recorded at once');
    expect(history()).toEqual([...synced, p1]);
    clock.t += 60_000;
    moveBook(up, yes, p1 + 0.005);
    const p3 = moveBook(up, yes, p1 + 0.04);
    await until(() => history().length === 4, 'the next jump recorded');
    expect(history()).toEqual([...synced, p1, p3]);
    clock.t += 400_000;
    const p4 = moveBook(up, yes, p3 + 0.005);
    await until(() => history().length === 5, 'half a point after 5 minutes recorded');
    expect(history()).toEqual([...synced, p1, p3, p4]);
  });
});
