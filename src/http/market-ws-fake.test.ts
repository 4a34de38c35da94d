/**
 * End to end: a service whose upstream is the fake (REST and its market channel on one port; the
 * WebSocket host derived from `--clob-url`), and scripts on the clob face's `/ws/market` written
 * as they would be for Polymarket. Expected books are the fake's own (`marketWs.book`); the fake's
 * walk is seeded (printed).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveStatus } from '../contract/live.ts';
import { tradingIds } from '../contract/market-rules.ts';
import { createSyntheticCatalog, startFakeUpstream, type FakeUpstream } from '../fake-upstream/index.ts';
import { MarketScript } from '../testing/market-script.ts';
import { testSeed } from '../testing/seed.ts';
import { startService, type Service } from './server.ts';

const { seed, replay } = testSeed('/ws/market vs the fake');
let up: FakeUpstream;
let s: Service;
let wsUrl: string;
let pool: string[];

beforeAll(async () => {
  up = await startFakeUpstream({ catalog: createSyntheticCatalog({ markets: 60, seed: 5 }), marketWs: { seed } });
  s = await startService({ urls: { gamma: up.url, clob: up.url, data: up.url }, basePort: 0, clobPort: 0 });
  wsUrl = `${s.clobUrl!.replace(/^http/, 'ws')}/ws/market`;
  pool = [];
  for (const rec of up.catalog.marketRecords()) {
    const m = up.catalog.getMarket(rec.id);
    const t = m && m.closed !== true ? tradingIds(m) : undefined;
    if (t?.ok) pool.push(...t.ids.filter((id) => up.marketWs.book(id)));
  }
});
afterAll(async () => {
  await s.close();
  await up.close();
});

const until = (cond: () => boolean, timeout = 20_000) => expect.poll(cond, { interval: 5, timeout, message: replay }).toBe(true);
const take = (n: number) => pool.splice(0, n);
const fakeBook = (id: string) => {
  const b = up.marketWs.book(id);
  return b && { bids: b.bids, asks: b.asks };
};
const serviceBook = (id: string) => {
  const b = s.live.book(id);
  return b && { bids: b.bids, asks: b.asks };
};
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

describe('/ws/market against the fake upstream', () => {
  it("gives a script books equal to the service's and the fake's, then the walk's updates", async () => {
    const ids = take(3);
    const script = new MarketScript(wsUrl);
    await script.opened;
    script.send({ assets_ids: ids, type: 'market', custom_feature_enabled: true });
    await until(() => ids.every((id) => !!script.book(id)));
    for (const id of ids) {
      expect(script.book(id)).toEqual(fakeBook(id));
      expect(script.book(id)).toEqual(serviceBook(id));
    }
    for (let round = 0; round < 4; round++) {
      up.marketWs.tick(25);
      await until(() => ids.every((id) => same(script.book(id), fakeBook(id)) && same(serviceBook(id), fakeBook(id))));
    }
    expect(script.messages.some((m) => m['event_type'] === 'price_change')).toBe(true);
    expect(script.messages.some((m) => m['event_type'] === 'best_bid_ask')).toBe(true);
    // /status shows the live layer.
    const status = (await (await fetch(`${s.baseUrl}/status`)).json()) as { live: LiveStatus };
    expect(status.live).toMatchObject({ state: 'live', url: `${up.marketWs.url}/ws/market`, assets: 3, sockets: { total: 1, open: 1 } });
    expect(status.live.counters.messages).toBeGreaterThan(0);
    script.send({ operation: 'unsubscribe', assets_ids: [ids[0]] });
    await up.marketWs.until(() => up.marketWs.sockets().some((k) => k.received.some((r) => r.kind === 'unsubscribe')));
    await script.close();
    await until(() => s.live.assets().length === 0);
  });

  it('50 scripts on the same assets share one upstream socket and one subscription', async () => {
    const ids = take(4);
    const before = up.marketWs.sockets().length;
    const scripts = Array.from({ length: 50 }, () => new MarketScript(wsUrl));
    await Promise.all(scripts.map((c) => c.opened));
    for (const c of scripts) c.send({ assets_ids: ids, type: 'market' });
    await until(() => scripts.every((c) => ids.every((id) => !!c.book(id))));
    const opened = up.marketWs.sockets().slice(before);
    expect(opened.filter((k) => k.open)).toHaveLength(1);
    const subs = opened[0]!.received.filter((r) => r.kind === 'market' || r.kind === 'subscribe');
    for (const id of ids) expect(subs.filter((r) => r.text.includes(`"${id}"`))).toHaveLength(1);
    up.marketWs.tick(30);
    await until(() => scripts.every((c) => ids.every((id) => same(c.book(id), fakeBook(id)))));
    await Promise.all(scripts.map((c) => c.close()));
    await until(() => s.live.assets().length === 0 && up.marketWs.socketCount === 0);
  });
});
