/**
 * The live layer end to end against the fake upstream's own market channel
 * (src/fake-upstream/market-ws.ts: the seeded walk, the 500-asset cap, every fault mode), with
 * `GET /book` through the real upstream client and scheduler. Expected books are the fake's own
 * (`marketWs.book`, the state its REST routes answer from); the walk's seed is printed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { tradingIds } from '../contract/market-rules.ts';
import { createSyntheticCatalog, startFakeUpstream, type FakeUpstream } from '../fake-upstream/index.ts';
import { OutboundScheduler } from '../limits/scheduler.ts';
import { UpstreamClient } from '../upstream/client.ts';
import { FakeClock } from '../testing/fake-clock.ts';
import { testSeed } from '../testing/seed.ts';
import { LiveMarkets, type LiveOptions } from './live-markets.ts';

const { seed, replay } = testSeed('live vs fake market channel');
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function fake(markets = 60): Promise<FakeUpstream> {
  const up = await startFakeUpstream({ catalog: createSyntheticCatalog({ markets, seed: 11 }), marketWs: { seed } });
  cleanups.push(() => up.close());
  return up;
}

function live(up: FakeUpstream, opts: Partial<LiveOptions> = {}): LiveMarkets {
  const scheduler = new OutboundScheduler({});
  const client = new UpstreamClient({ urls: { gamma: up.url, clob: up.url, data: up.url }, gate: scheduler, maxRetries: 0 });
  const l = new LiveMarkets({
    url: up.marketWs.url,
    fetchBook: (id, signal) => client.request('clob', '/book', { query: { token_id: id }, priority: 'background', signal }),
    ...opts,
  });
  cleanups.push(async () => {
    await l.close();
    scheduler.close();
  });
  return l;
}

/** Trading ids (by `tradingIds`) of open markets with a book, `n` of them. */
function tokens(up: FakeUpstream, n: number): string[] {
  const out: string[] = [];
  for (const rec of up.catalog.marketRecords()) {
    const m = up.catalog.getMarket(rec.id);
    if (!m || m.closed === true) continue;
    const t = tradingIds(m);
    if (!t.ok) continue;
    for (const id of t.ids) if (out.length < n && up.marketWs.book(id)) out.push(id);
  }
  expect(out, 'the catalog has enough tradable outcomes').toHaveLength(n);
  return out;
}

const until = (cond: () => boolean, timeout = 20_000) => expect.poll(cond, { interval: 5, timeout, message: replay }).toBe(true);

/** The live layer's book is the fake's: the same levels in the same order, and live. */
function same(l: LiveMarkets, up: FakeUpstream, id: string): boolean {
  const mine = l.book(id);
  const theirs = up.marketWs.book(id);
  return (
    !!mine &&
    !!theirs &&
    mine.state === 'live' &&
    JSON.stringify([mine.bids, mine.asks, mine.tickSize]) === JSON.stringify([theirs.bids, theirs.asks, theirs.tick_size])
  );
}

describe('the live layer against the fake market channel', () => {
  it("follows the seeded walk: every book stays the fake's, hashes checked", async () => {
    const up = await fake();
    const l = live(up);
    const ids = tokens(up, 6);
    l.acquire(ids, 'view');
    await until(() => ids.every((id) => same(l, up, id)));
    for (let round = 0; round < 5; round++) {
      up.marketWs.tick(40);
      await until(() => ids.every((id) => same(l, up, id)));
    }
    expect(l.status()).toMatchObject({ hashCheck: 'checkable', counters: { resyncs: 0, gaps: 0, hashMismatches: 0, malformed: 0 } });
    expect(l.book(ids[0]!)?.lastTradePrice).toBe(up.marketWs.book(ids[0]!)?.last_trade_price);
  });

  it('shards past the 500-asset cap: three sockets for 1,100 assets, every book arrives', async () => {
    const up = await fake(800);
    const l = live(up);
    const ids = tokens(up, 1100);
    l.acquire(ids, 'screen');
    await until(() => ids.every((id) => l.book(id)?.state === 'live'), 60_000);
    expect(up.marketWs.socketCount).toBe(3);
    expect(up.marketWs.sockets().every((s) => s.overCap.length === 0 && s.assets.length <= 500)).toBe(true);
    up.marketWs.tick(100);
    await until(() => ids.every((id) => same(l, up, id)), 60_000);
    expect(l.status().counters.restBooks).toBe(0);
  });

  it('duplicates are skipped, a reorder resyncs, a malformed frame is counted: the books end as the fake’s', async () => {
    const up = await fake();
    const l = live(up);
    const ids = tokens(up, 3);
    l.acquire(ids, 'view');
    await until(() => ids.every((id) => same(l, up, id)));
    up.marketWs.faults.duplicate(20);
    up.marketWs.tick(20);
    await until(() => ids.every((id) => same(l, up, id)) && l.status().counters.duplicates > 0);
    const dupes = l.status().counters.duplicates;
    up.marketWs.faults.malformed();
    for (let i = 0; i < 3; i++) {
      up.marketWs.faults.reorder();
      up.marketWs.tick(30);
    }
    await until(() => ids.every((id) => same(l, up, id)) && l.status().counters.resyncs > 0);
    expect(l.status().counters).toMatchObject({ malformed: 1 });
    expect(l.status().counters.duplicates).toBeGreaterThanOrEqual(dupes);
    expect(l.status().counters.gaps + l.status().counters.hashMismatches).toBeGreaterThanOrEqual(l.status().counters.resyncs);
  });

  it('reconnects after the fake drops every socket, and replaces a frozen one', async () => {
    const up = await fake();
    const clock = new FakeClock(Date.now());
    const l = live(up, { now: clock.now, timers: clock.timers, random: () => 0 });
    const ids = tokens(up, 4);
    l.acquire(ids, 'view');
    await until(() => ids.every((id) => same(l, up, id)));
    expect(up.marketWs.faults.drop()).toBe(1);
    await until(() => l.status().state === 'degraded');
    // The books move while the socket is down; the new snapshots bring them.
    up.marketWs.tick(10);
    await clock.advance(250);
    await until(() => l.status().shards[0]?.reconnects === 1 && ids.every((id) => same(l, up, id)));
    expect(l.status().counters.drops).toBe(1);
    // Frozen: no frame, no PONG. Replaced after 20 s of silence, and the new socket is fine.
    up.marketWs.faults.freeze();
    await clock.advance(20_000);
    await until(() => l.status().counters.replaced === 1);
    up.marketWs.faults.thaw();
    up.marketWs.tick(10);
    await clock.advance(250);
    await until(() => l.status().shards[0]?.reconnects === 2 && ids.every((id) => same(l, up, id)));
    expect(l.status()).toMatchObject({ state: 'live', stalled: false });
  });

  it('reads GET /book through the client and scheduler when the channel sends no book (over its cap)', async () => {
    const up = await fake();
    up.marketWs.maxAssetsPerSocket = 2;
    const clock = new FakeClock(Date.now());
    const l = live(up, { now: clock.now, timers: clock.timers });
    const ids = tokens(up, 3);
    l.acquire(ids, 'view');
    await until(() => l.book(ids[0]!)?.state === 'live' && l.book(ids[1]!)?.state === 'live');
    expect(l.book(ids[2]!)?.state).toBe('waiting');
    await clock.advance(10_000);
    await until(() => same(l, up, ids[2]!));
    expect(l.status().counters.restBooks).toBe(1);
    expect(up.requests.entries.some((e) => e.path === '/book')).toBe(true);
  });
});
