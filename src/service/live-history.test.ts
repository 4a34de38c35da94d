/**
 * Live moves into the history (live-history.ts), with the live layer on the fake's market channel
 * and a store holding the fake's catalog: a burst of the fake's seeded walk is one write, of each
 * moved market's quote as the fake's own books give it (an independent reading of the display rule),
 * and the store keeps what the snapshot rule takes. On a timer, writes stay one per interval.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { tradingIds } from '../contract/market-rules.ts';
import { createSyntheticCatalog, startFakeUpstream, type FakeUpstream } from '../fake-upstream/index.ts';
import { LiveMarkets } from '../live/index.ts';
import { silentLogger } from '../logger.ts';
import { CatalogStore } from '../store/catalog-store.ts';
import type { LivePricePoint } from '../store/store-api.ts';
import { testSeed } from '../testing/seed.ts';
import { FLUSH_MS, startLiveHistory } from './live-history.ts';

const { seed, replay } = testSeed('live history vs the fake');
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

const until = (cond: () => boolean) => expect.poll(cond, { interval: 5, timeout: 30_000, message: replay }).toBe(true);

async function setup(flushMs: number) {
  const up = await startFakeUpstream({ catalog: createSyntheticCatalog({ markets: 80, seed: 3 }), marketWs: { seed } });
  cleanups.push(() => up.close());
  const store = await CatalogStore.open();
  cleanups.push(() => store.close());
  // Written after the cache holds them, every market gets its first snapshot.
  const markets = up.catalog.marketRecords().map((r) => up.catalog.getMarket(r.id)!);
  store.apply({ markets });
  const chosen = markets
    .filter((m) => m.closed !== true)
    .map((m) => ({ id: m.id, ids: tradingIds(m) }))
    .filter((m): m is { id: string; ids: { ok: true; version: 'v1' | 'v2'; ids: string[] } } => m.ids.ok)
    .filter((m) => m.ids.ids.every((t) => up.marketWs.book(t)))
    .slice(0, 20)
    .map((m) => ({ id: m.id, ids: m.ids.ids }));
  expect(chosen.length).toBe(20);
  const live = new LiveMarkets({ url: up.marketWs.url });
  cleanups.push(() => live.close());
  live.acquire(
    chosen.flatMap((m) => m.ids),
    'test',
  );
  const writes: LivePricePoint[][] = [];
  const records = {
    byCondition: (c: readonly string[]) => store.liveRecords.byCondition(c),
    recordPrices: (points: readonly LivePricePoint[]) => {
      writes.push([...points]);
      return store.liveRecords.recordPrices(points);
    },
  };
  const history = startLiveHistory({ live, records, catalogVersion: () => store.catalogVersion, flushMs, log: silentLogger });
  cleanups.push(() => history.close());
  const same = () =>
    chosen.every((m) =>
      m.ids.every((t) => {
        const b = live.book(t);
        const f = up.marketWs.book(t)!;
        return (
          b?.state === 'live' && JSON.stringify([b.bids, b.asks, b.lastTradePrice]) === JSON.stringify([f.bids, f.asks, f.last_trade_price])
        );
      }),
    );
  await until(same);
  return { up, store, chosen, writes, history, same };
}

/** A market's quote from the fake's book of its first outcome: the midpoint of a spread up to 10¢, else the last trade. */
function fakeQuote(up: FakeUpstream, asset: string): Omit<LivePricePoint, 'marketId'> {
  const b = up.marketWs.book(asset)!;
  const bid = b.bids.length ? Number(b.bids.at(-1)!.price) : null;
  const ask = b.asks.length ? Number(b.asks.at(-1)!.price) : null;
  const last = Number(b.last_trade_price);
  const mid = bid !== null && ask !== null && ask - bid <= 0.1 + 1e-9 ? Math.round(((bid + ask) / 2) * 1e6) / 1e6 : last;
  return { price: mid, bid, ask, last };
}

describe('live moves into the history', () => {
  it('a burst of 1,000 messages is one write of the moved markets’ quotes, which the store keeps by its rule', async () => {
    const { up, store, chosen, writes, history, same } = await setup(3_600_000);
    history.flush();
    writes.length = 0;
    // An hour on: any change of a quote is worth a snapshot.
    store.recorder.now = () => Date.now() + 3_600_000;
    up.marketWs.tick(1_000);
    await until(same);
    history.flush();
    expect(writes, replay).toHaveLength(1);
    const [points] = writes as [LivePricePoint[]];
    expect(points.length).toBeGreaterThan(0);
    expect(points.length).toBeLessThanOrEqual(chosen.length);
    for (const p of points) {
      const m = chosen.find((c) => c.id === String(p.marketId))!;
      expect(p, replay).toEqual({ marketId: p.marketId, ...fakeQuote(up, m.ids[0]!) });
      const last = store.history.history(p.marketId, 0, 2e9).at(-1)!;
      expect([last.price, last.bestBid, last.bestAsk, last.lastTradePrice], replay).toEqual([p.price, p.bid, p.ask, p.last]);
    }
  });

  it('on its timer, writes at most once per interval however fast the messages come', async () => {
    const { up, writes, same } = await setup(FLUSH_MS);
    const start = performance.now();
    const before = writes.length;
    for (let i = 0; i < 10; i++) up.marketWs.tick(100);
    await until(same);
    await until(() => writes.length > before);
    const elapsed = performance.now() - start;
    expect(writes.length - before, replay).toBeLessThanOrEqual(Math.ceil(elapsed / FLUSH_MS) + 1);
  });
});
