/**
 * The live layer against a real socket server (src/testing/market-ws-stub.ts), its timers on a
 * fake clock so heartbeats, silence and backoff run without sleeping. Expected books come from
 * the stub's own model; random streams from a printed seed.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LiveBook } from '../contract/live.ts';
import type { Logger } from '../logger.ts';
import { randInt } from '../fake-upstream/prng.ts';
import { FakeClock } from '../testing/fake-clock.ts';
import { MarketWsStub } from '../testing/market-ws-stub.ts';
import { testSeed } from '../testing/seed.ts';
import { LiveMarkets, type LiveEvents, type LiveOptions } from './live-markets.ts';

let stub: MarketWsStub;
let clock: FakeClock;
const opened: LiveMarkets[] = [];
const logged: string[] = [];
const log: Logger = { info: (m) => logged.push(m), warn: (m) => logged.push(m) };

beforeEach(async () => {
  stub = await MarketWsStub.start();
  clock = new FakeClock(1_767_225_600_000);
  logged.length = 0;
});
afterEach(async () => {
  for (const l of opened.splice(0)) await l.close();
  await stub.close();
});

function live(opts: Partial<LiveOptions> = {}): LiveMarkets {
  const l = new LiveMarkets({ url: stub.url, log, now: clock.now, timers: clock.timers, random: () => 0.5, ...opts });
  opened.push(l);
  return l;
}

/** Waits on state the sockets bring (never on time). */
const until = (cond: () => boolean, timeout = 15_000) => expect.poll(cond, { interval: 2, timeout }).toBe(true);

const ids = (n: number, from = 1) => Array.from({ length: n }, (_, i) => String(710_000_000 + from + i));

/** The parts of a book the stub's model says: levels in Polymarket's order and the best prices. */
function expected(id: string): Pick<LiveBook, 'bids' | 'asks' | 'bestBid' | 'bestAsk' | 'state'> {
  const { bids, asks } = stub.levels(id);
  return { bids, asks, bestBid: bids.at(-1)?.price ?? null, bestAsk: asks.at(-1)?.price ?? null, state: 'live' };
}

const isLive = (l: LiveMarkets, id: string) => l.book(id)?.state === 'live';
const matches = (l: LiveMarkets, id: string) => JSON.stringify(pick(l.book(id))) === JSON.stringify(expected(id));
const pick = (b: LiveBook | undefined) => b && { bids: b.bids, asks: b.asks, bestBid: b.bestBid, bestAsk: b.bestAsk, state: b.state };

function record<K extends keyof LiveEvents>(l: LiveMarkets, name: K): LiveEvents[K][] {
  const out: LiveEvents[K][] = [];
  l.on(name, (e) => out.push(e));
  return out;
}

describe('the live layer', () => {
  it('subscribes by trading id, takes each book as truth and applies every change in order', async () => {
    const l = live();
    const [a, b] = ids(2);
    const books = record(l, 'book');
    const prices = record(l, 'price');
    const trades = record(l, 'trade');
    l.acquire([a!, b!, 'not-an-id'], 'view');
    await until(() => isLive(l, a!) && isLive(l, b!));
    expect(stub.conns.size).toBe(1);
    expect(JSON.parse(stub.received[0]!.text)).toEqual({ assets_ids: [a, b], type: 'market', custom_feature_enabled: true });
    expect(pick(l.book(a!))).toEqual(expected(a!));
    expect(l.book(a!)).toMatchObject({ market: stub.book(a!).market, tickSize: '0.01', minOrderSize: '5', negRisk: false });
    // A new best bid, a level removed, a trade.
    const bestBid = Number(stub.best(a!).bid);
    stub.send(stub.change(a!, 'BUY', (bestBid + 0.005).toFixed(3), '42'), a);
    stub.send(stub.change(a!, 'SELL', stub.best(a!).ask!, '0'), a);
    stub.send(stub.trade(a!, '0.55', '10', 'SELL'), a);
    await until(() => l.book(a!)?.lastTrade?.price === '0.55');
    expect(pick(l.book(a!))).toEqual(expected(a!));
    expect(l.book(a!)?.lastTrade).toMatchObject({ price: '0.55', size: '10', side: 'SELL', time: stub.book(a!).ts });
    expect(books.filter((e) => e.assetId === a).map((e) => e.snapshot)).toEqual([true, false, false]);
    expect(
      prices
        .filter((e) => e.assetId === a)
        .map((e) => [e.bestBid, e.bestAsk])
        .at(-1),
    ).toEqual([stub.best(a!).bid, stub.best(a!).ask]);
    expect(trades).toHaveLength(1);
    expect(l.status()).toMatchObject({
      state: 'live',
      assets: 2,
      owners: 1,
      sockets: { total: 1, open: 1 },
      hashCheck: 'checkable',
      stalled: false,
    });
    expect(l.status().counters).toMatchObject({ malformed: 0, duplicates: 0, stale: 0, resyncs: 0, gaps: 0 });
  });

  it('shards past 500 assets: at most 500 on a socket, every asset gets its book', async () => {
    stub.cap = 500;
    const l = live();
    const all = ids(1201);
    l.acquire(all, 'screen');
    await until(() => all.every((id) => isLive(l, id)), 30_000);
    expect(stub.conns.size).toBe(3);
    expect([...stub.conns].map((c) => c.assets.size).sort((x, y) => x - y)).toEqual([201, 500, 500]);
    for (const id of all) expect(pick(l.book(id))).toEqual(expected(id));
    expect(l.status()).toMatchObject({ assets: 1201, sockets: { total: 3, open: 3 } });
    // Released below 500, new assets fill the room left rather than opening a fourth socket.
    const release = l.acquire(ids(10, 5000), 'more');
    await until(() => ids(10, 5000).every((id) => isLive(l, id)));
    expect(stub.conns.size).toBe(3);
    release();
  });

  it('counts references: subscribed once, unsubscribed when the last owner releases', async () => {
    const l = live();
    const [a, b, c] = ids(3);
    const r1 = l.acquire([a!, b!], 'one');
    const r2 = l.acquire([b!, c!], 'two');
    const r3 = l.acquire([b!], 'two');
    await until(() => [a!, b!, c!].every((id) => isLive(l, id)));
    expect([a, b, c].map((id) => stub.subscriptionsOf(id!))).toEqual([1, 1, 1]);
    expect(stub.received).toHaveLength(1);
    expect(l.status()).toMatchObject({ assets: 3, owners: 2 });
    r1();
    r1();
    await stub.until(() => stub.received.length === 2);
    expect(JSON.parse(stub.received[1]!.text)).toEqual({ operation: 'unsubscribe', assets_ids: [a] });
    expect(l.book(a!)).toBeUndefined();
    expect(l.assets().sort()).toEqual([b, c]);
    r2();
    // `two` still holds b once.
    await stub.until(() => stub.received.length === 3);
    expect(JSON.parse(stub.received[2]!.text)).toEqual({ operation: 'unsubscribe', assets_ids: [c] });
    expect(isLive(l, b!)).toBe(true);
    // Taken again by someone else before the last release: no unsubscribe, no second subscribe.
    const r4 = l.acquire([b!], 'three');
    r3();
    await clock.advance(0);
    expect(stub.subscriptionsOf(b!)).toBe(1);
    r4();
    // The last asset released: the socket closes.
    await stub.until(() => stub.conns.size === 0);
    expect(l.status()).toMatchObject({ state: 'idle', assets: 0, sockets: { total: 0 } });
  });

  it('a duplicate or an out-of-order message never moves a price backwards; a gap resyncs to the truth', async () => {
    const { rng, replay } = testSeed('live stream');
    const l = live({ hashCheck: false });
    const [a] = ids(1);
    const trades = record(l, 'trade');
    l.acquire([a!], 'view');
    await until(() => isLive(l, a!));
    const sent: Record<string, unknown>[] = [];
    let delivered = 0;
    let last = { book: 0, trade: 0 };
    const watch = () => {
      const b = l.book(a!)!;
      const t = { book: b.timestamp ?? 0, trade: b.lastTrade?.time ?? 0 };
      expect(t.book, replay).toBeGreaterThanOrEqual(last.book);
      expect(t.trade, replay).toBeGreaterThanOrEqual(last.trade);
      last = t;
    };
    l.on('book', watch);
    l.on('trade', watch);
    const make = (): Record<string, unknown> => {
      if (rng() < 0.15)
        return stub.trade(a!, (0.3 + 0.01 * randInt(rng, 0, 40)).toFixed(2), String(randInt(rng, 1, 50)), rng() < 0.5 ? 'BUY' : 'SELL');
      const side = rng() < 0.5 ? 'BUY' : 'SELL';
      const price = ((side === 'BUY' ? 0.1 : 0.6) + 0.01 * randInt(rng, 0, 20)).toFixed(2);
      return stub.change(a!, side, price, rng() < 0.3 ? '0' : String(randInt(rng, 1, 900)));
    };
    const deliver = (m: Record<string, unknown>) => {
      stub.send(m, a);
      delivered++;
    };
    for (let i = 0; i < 300; i++) {
      const m = make();
      const fault = rng();
      // An earlier message again (a duplicate), or the next one sent before this one (a reorder).
      if (fault < 0.1 && sent.length > 0) deliver(sent[randInt(rng, Math.max(0, sent.length - 5), sent.length - 1)]!);
      if (fault > 0.93) {
        const next = make();
        sent.push(next);
        deliver(next);
      }
      sent.push(m);
      deliver(m);
    }
    await until(() => l.status().counters.messages >= delivered + 1);
    // Every reorder was a gap that resynced; the book ends as the stub's model.
    await until(() => matches(l, a!)).catch((e) => {
      // What differs, for the replay.
      console.log(replay, JSON.stringify({ counters: l.status().counters, book: pick(l.book(a!)), model: expected(a!) }));
      throw e;
    });
    const c = l.status().counters;
    expect(c.duplicates + c.stale, replay).toBeGreaterThan(0);
    expect(c.gaps, replay).toBe(c.resyncs);
    expect(l.book(a!)?.lastTradePrice, replay).toBe(stub.book(a!).lastTradePrice);
    // A trade event per trade sent, none for a copy.
    expect(new Set(trades.map((t) => JSON.stringify(t.trade))).size, replay).toBe(trades.length);
  });

  it('a hash mismatch forces a fresh snapshot', async () => {
    const l = live();
    const [a] = ids(1);
    l.acquire([a!], 'view');
    await until(() => isLive(l, a!));
    expect(l.status().hashCheck).toBe('checkable');
    // A change with the right best prices whose hash says the book is not what we hold.
    const m = stub.change(a!, 'BUY', '0.01', '7') as { price_changes: { hash: string }[] };
    m.price_changes[0]!.hash = '0'.repeat(40);
    stub.send(m, a);
    await until(() => l.status().counters.resyncs === 1 && isLive(l, a!));
    expect(l.status().counters).toMatchObject({ hashMismatches: 1, gaps: 0 });
    const ops = stub.received.slice(1).map((r) => JSON.parse(r.text));
    expect(ops).toEqual([
      { operation: 'unsubscribe', assets_ids: [a] },
      { operation: 'subscribe', assets_ids: [a], custom_feature_enabled: true },
    ]);
    expect(pick(l.book(a!))).toEqual(expected(a!));
    // Changes with the right hash are applied and checked.
    stub.send(stub.change(a!, 'SELL', '0.99', '3'), a);
    await until(() => l.book(a!)?.asks.some((x) => x.price === '0.99') === true);
    expect(l.status().counters.resyncs).toBe(1);
  });

  it("hashes that are not the SDK's are not checked", async () => {
    stub.hashes = 'other';
    const l = live();
    const all = ids(6);
    l.acquire(all, 'view');
    await until(() => all.every((id) => isLive(l, id)));
    expect(l.status().hashCheck).toBe('uncheckable');
    stub.send(stub.change(all[0]!, 'BUY', '0.01', '7'), all[0]);
    await until(() => matches(l, all[0]!));
    expect(l.status().counters.resyncs).toBe(0);
  });

  it('a gap (a change the book missed, seen in the best prices) resyncs', async () => {
    stub.hashes = 'other';
    const l = live();
    const [a] = ids(1);
    l.acquire([a!], 'view');
    await until(() => isLive(l, a!));
    // The upstream's new best bid is made by a change this socket never got.
    stub.change(a!, 'BUY', '0.95', '5');
    stub.send(stub.change(a!, 'SELL', '0.99', '1'), a);
    await until(() => l.status().counters.gaps === 1 && l.status().counters.resyncs === 1 && isLive(l, a!));
    expect(pick(l.book(a!))).toEqual(expected(a!));
    expect(l.book(a!)?.bestBid).toBe('0.95');
  });

  it('reconnects after a drop, with backoff, and takes the new snapshots as truth', async () => {
    const l = live({ backoff: { baseMs: 1000, maxMs: 8000 } });
    const all = ids(3);
    const health = record(l, 'health');
    l.acquire(all, 'view');
    await until(() => all.every((id) => isLive(l, id)));
    stub.drop();
    await until(() => l.status().state === 'degraded');
    expect(l.status()).toMatchObject({ stalled: true, sockets: { total: 1, open: 0 }, counters: { drops: 1 } });
    expect(l.status().shards[0]?.state).toBe('backoff');
    // What happened while the socket was down reaches the book with the new snapshot.
    stub.change(all[0]!, 'BUY', '0.02', '9');
    // Backoff: half the cap for sure (500 ms of 1 s), plus half of the other half (random 0.5).
    await clock.advance(749);
    expect(stub.opened).toBe(1);
    await clock.advance(1);
    await until(() => l.status().shards[0]?.reconnects === 1 && all.every((id) => matches(l, id)));
    expect(stub.opened).toBe(2);
    expect(l.status()).toMatchObject({ state: 'live', stalled: false, shards: [{ reconnects: 1, state: 'open' }] });
    expect(health.map((h) => h.state)).toContain('degraded');
    expect(health.at(-1)?.state).toBe('live');
    // Each failed attempt doubles the wait: 750 ms, then 1,500 ms.
    await stub.close();
    await until(() => l.status().shards[0]?.state === 'backoff' && l.status().counters.drops === 2);
    await clock.advance(750);
    await until(() => l.status().shards[0]?.state === 'backoff' && l.status().counters.drops === 3);
    await clock.advance(1_499);
    expect(l.status().counters.drops).toBe(3);
    await clock.advance(1);
    await until(() => l.status().counters.drops === 4);
  });

  it('replaces a frozen socket: no frame (not even PONG) for 20 s', async () => {
    const l = live();
    const all = ids(2);
    l.acquire(all, 'view');
    await until(() => all.every((id) => isLive(l, id)));
    stub.frozen = true;
    await clock.advance(10_000);
    await stub.until(() => stub.received.some((r) => r.text === 'PING'));
    await clock.advance(9_999);
    expect(l.status().counters.replaced).toBe(0);
    await clock.advance(1);
    await until(() => l.status().counters.replaced === 1);
    expect(logged.some((m) => m.includes('no frame for 20 s'))).toBe(true);
    stub.frozen = false;
    await clock.advance(1_000);
    await until(() => l.status().shards[0]?.reconnects === 1 && all.every((id) => matches(l, id)));
    expect(l.status()).toMatchObject({ state: 'live', counters: { replaced: 1, drops: 0 } });
  });

  it('replaces a socket that answers PONG but stops sending its trading assets’ messages', async () => {
    const l = live({ hashCheck: false });
    const [a] = ids(1);
    l.acquire([a!], 'view');
    await until(() => isLive(l, a!));
    // Trading: 12 messages within 20 s.
    for (let i = 0; i < 12; i++) {
      stub.send(stub.change(a!, 'BUY', '0.05', String(i + 1)), a);
      await until(() => l.book(a!)?.bids.some((x) => x.price === '0.05' && x.size === String(i + 1)) === true);
      await clock.advance(1_000);
    }
    // Then only PONGs.
    const pingsSeen = () => stub.received.filter((r) => r.text === 'PING').length;
    for (let t = 0; t < 3; t++) {
      const pings = pingsSeen();
      await clock.advance(10_000 - (t === 0 ? 2_000 : 0));
      await until(() => l.status().counters.replaced === 1 || pingsSeen() > pings);
      if (l.status().counters.replaced) break;
      await until(() => l.status().shards[0]?.lastFrameAgeMs === 0);
    }
    await until(() => l.status().counters.replaced === 1);
    expect(logged.some((m) => m.includes('no market message while its assets trade'))).toBe(true);
  });

  it('a quiet market with PONGs is left alone', async () => {
    const l = live();
    const [a] = ids(1);
    l.acquire([a!], 'view');
    await until(() => isLive(l, a!));
    for (let t = 0; t < 6; t++) {
      const pings = stub.received.filter((r) => r.text === 'PING').length;
      await clock.advance(10_000);
      await stub.until(() => stub.received.filter((r) => r.text === 'PING').length > pings);
      await until(() => l.status().shards[0]?.lastFrameAgeMs === 0);
    }
    expect(l.status().counters.replaced).toBe(0);
    expect(stub.opened).toBe(1);
  });

  it('counts and skips malformed frames, never crashes, and reads arrays of events', async () => {
    const l = live();
    const [a, b] = ids(2);
    l.acquire([a!, b!], 'view');
    await until(() => isLive(l, a!) && isLive(l, b!));
    const bad = [
      'not json',
      '{"event_type":',
      '[1,"x",null]',
      '{"no_event_type":1}',
      JSON.stringify({ event_type: 'book', asset_id: 'x1', bids: [], asks: [] }),
      JSON.stringify({ event_type: 'price_change', market: 'm', price_changes: [{ asset_id: a, price: 'NaN', size: '1', side: 'BUY' }] }),
      JSON.stringify({ event_type: 'last_trade_price', asset_id: a }),
      JSON.stringify({ event_type: 'tick_size_change', asset_id: a, new_tick_size: 'big' }),
      '',
    ];
    for (const t of bad) stub.send(t);
    stub.send([stub.change(a!, 'BUY', '0.02', '5'), stub.change(b!, 'SELL', '0.97', '6')]);
    await until(() => matches(l, a!) && matches(l, b!) && l.book(b!)?.asks.some((x) => x.price === '0.97') === true);
    // 1 + 1 + 3 + 1 + 1 + 1 + 1 + 1 + 1 (the empty frame is not JSON).
    expect(l.status().counters.malformed).toBe(11);
    expect(l.status().state).toBe('live');
  });

  it('publishes tick sizes and market-wide notices once, though every socket receives them', async () => {
    stub.cap = 2;
    const l = live({ assetsPerSocket: 2 });
    const all = ids(4);
    const ticks = record(l, 'tick-size');
    const news = record(l, 'new_market');
    const resolved = record(l, 'market_resolved');
    l.acquire(all, 'view');
    await until(() => all.every((id) => isLive(l, id)));
    expect(stub.conns.size).toBe(2);
    stub.send(
      {
        event_type: 'tick_size_change',
        asset_id: all[0],
        market: 'm',
        old_tick_size: '0.01',
        new_tick_size: '0.001',
        timestamp: '1767225700000',
      },
      all[0],
    );
    const notice = { event_type: 'new_market', id: '9', market: '0xnew', assets_ids: ['1', '2'], timestamp: '1767225700001' };
    stub.send(notice);
    stub.send({
      event_type: 'market_resolved',
      id: '9',
      market: '0xnew',
      assets_ids: ['1', '2'],
      winning_asset_id: '1',
      timestamp: '1767225700002',
    });
    await until(() => ticks.length === 1 && news.length === 1 && resolved.length === 1 && l.status().counters.messages >= 4 + 5);
    expect(ticks[0]).toMatchObject({ assetId: all[0], tickSize: '0.001', oldTickSize: '0.01' });
    expect(l.book(all[0]!)?.tickSize).toBe('0.001');
    expect(news[0]).toMatchObject({ market: '0xnew', id: '9', assetIds: ['1', '2'], message: notice });
    expect(resolved[0]).toMatchObject({ winningAssetId: '1' });
  });

  it('reads GET /book when the channel sends no snapshot in time', async () => {
    stub.cap = 0;
    const asked: string[] = [];
    const l = live({
      fetchBook: async (id) => {
        asked.push(id);
        return stub.bookMessage(id);
      },
    });
    const [a] = ids(1);
    const frames = record(l, 'frame');
    l.acquire([a!], 'view');
    await stub.until(() => stub.received.length === 1);
    expect(l.book(a!)?.state).toBe('waiting');
    await clock.advance(9_999);
    expect(asked).toEqual([]);
    await clock.advance(5_001);
    await until(() => isLive(l, a!));
    expect(asked).toEqual([a]);
    expect(pick(l.book(a!))).toEqual(expected(a!));
    expect(l.status().counters.restBooks).toBe(1);
    // Passed on as the channel's own book message.
    expect(JSON.parse(frames[0]!.text!)).toMatchObject({ event_type: 'book', asset_id: a, bids: stub.levels(a!).bids });
  });

  it('offline, or without a WebSocket host, opens no socket', async () => {
    for (const l of [live({ offline: true }), live({ url: undefined })]) {
      const release = l.acquire(ids(2), 'view');
      await clock.advance(30_000);
      expect(l.status()).toMatchObject({ state: 'off', url: null, assets: 2, sockets: { total: 0 } });
      release();
    }
    expect(stub.opened).toBe(0);
  });
});
