/**
 * One asset's book: snapshots replace it in the upstream's order, each kind of message only moves
 * forward in time, and a late change newer than the snapshot is a gap. Expected values come from
 * a plain model (a map of levels) fed the same changes in their true order.
 */
import { describe, expect, it } from 'vitest';
import { randInt } from '../fake-upstream/prng.ts';
import { testSeed } from '../testing/seed.ts';
import { AssetBook, fingerprint } from './asset-book.ts';
import { bookSummaryHash } from './book-hash.ts';
import { readBook, type LevelChange } from './protocol.ts';

const ID = '123456789';
/** Upstream times are epoch milliseconds. */
const T = 1_767_225_600_000;

function snapshot(ts: number, bids: [string, string][], asks: [string, string][]) {
  return readBook({
    event_type: 'book',
    asset_id: ID,
    market: '0xabc',
    timestamp: String(T + ts),
    hash: 'h0',
    bids: bids.map(([price, size]) => ({ price, size })),
    asks: asks.map(([price, size]) => ({ price, size })),
    tick_size: '0.01',
    min_order_size: '5',
    neg_risk: false,
    last_trade_price: '0.5',
  })!;
}

const change = (side: 'BUY' | 'SELL', price: string, size: string): LevelChange => ({
  assetId: ID,
  side,
  price,
  size,
  hash: null,
  bestBid: null,
  bestAsk: null,
});

describe('AssetBook', () => {
  it('remembers the last 64 fingerprints: a duplicate among them is found, an older one is forgotten', () => {
    const b = new AssetBook(ID, 0);
    const fps = Array.from({ length: 100 }, (_, i) => fingerprint(`{"event":${i}}`));
    expect(new Set(fps).size).toBe(100);
    for (const [i, fp] of fps.entries()) {
      expect(b.isDuplicate(fp)).toBe(false);
      b.remember(fp);
      b.remember(fp);
      // The model: the last 64 distinct fingerprints remembered.
      for (const [j, old] of fps.slice(0, i + 1).entries()) expect(b.isDuplicate(old)).toBe(i - j < 64);
    }
  });

  it('keeps the upstream order (bids ascending, asks descending), and a snapshot is the truth', () => {
    const b = new AssetBook(ID, 0);
    expect(
      b.applySnapshot(
        snapshot(
          100,
          [
            ['0.47', '10'],
            ['0.48', '20'],
          ],
          [
            ['0.52', '5'],
            ['0.51', '7'],
          ],
        ),
      ),
    ).toBe('applied');
    const v = b.view();
    expect(v.bids.map((l) => l.price)).toEqual(['0.47', '0.48']);
    expect(v.asks.map((l) => l.price)).toEqual(['0.52', '0.51']);
    expect([v.bestBid, v.bestAsk, v.state, v.tickSize, v.lastTradePrice]).toEqual(['0.48', '0.51', 'live', '0.01', '0.5']);
    // A new level lands in its place; size 0 removes one.
    b.applyChange(change('BUY', '0.49', '3'), T + 101, String(T + 101));
    b.applyChange(change('SELL', '0.51', '0'), T + 102, String(T + 102));
    expect(b.view().bids.map((l) => l.price)).toEqual(['0.47', '0.48', '0.49']);
    expect(b.view().asks.map((l) => l.price)).toEqual(['0.52']);
    expect([b.bestBid, b.bestAsk]).toEqual(['0.49', '0.52']);
    // The next snapshot replaces every level.
    b.applySnapshot(snapshot(200, [['0.30', '1']], []));
    expect(b.view()).toMatchObject({ bids: [{ price: '0.30', size: '1' }], asks: [], bestBid: '0.30', bestAsk: null });
  });

  it('skips stale messages of each kind and calls a late change newer than the snapshot a gap', () => {
    const b = new AssetBook(ID, 0);
    expect(b.applyChange(change('BUY', '0.1', '1'), T + 50, String(T + 50))).toBe('ignored');
    b.applySnapshot(snapshot(100, [['0.48', '20']], [['0.52', '5']]));
    expect(b.applyChange(change('BUY', '0.48', '99'), T + 90, String(T + 90))).toBe('stale');
    expect(b.applyChange(change('BUY', '0.48', '25'), T + 110, String(T + 110))).toBe('applied');
    expect(b.applyChange(change('BUY', '0.48', '24'), T + 105, String(T + 105))).toBe('gap');
    expect(b.view().bids).toEqual([{ price: '0.48', size: '25' }]);
    expect(b.applySnapshot(snapshot(99, [], []))).toBe('stale');
    const trade = (ts: number, price: string) => ({
      assetId: ID,
      market: '',
      price,
      size: '1',
      side: 'BUY',
      timestamp: T + ts,
      feeRateBps: null,
      transactionHash: null,
    });
    expect(b.applyTrade(trade(120, '0.49'))).toBe('applied');
    expect(b.applyTrade(trade(115, '0.40'))).toBe('stale');
    expect(b.view().lastTrade?.price).toBe('0.49');
    expect(b.applyTickSize({ assetId: ID, market: '', newTickSize: '0.001', oldTickSize: '0.01', timestamp: T + 130 })).toBe('applied');
    expect(b.applyTickSize({ assetId: ID, market: '', newTickSize: '0.1', oldTickSize: null, timestamp: T + 125 })).toBe('stale');
    expect(b.tickSize).toBe('0.001');
  });

  it('checks the upstream best prices, an empty side matching 0 (or 1 for asks)', () => {
    const b = new AssetBook(ID, 0);
    b.applySnapshot(snapshot(100, [['0.48', '20']], []));
    expect(b.bestAgrees({ bestBid: '0.48', bestAsk: '0' })).toBe(true);
    expect(b.bestAgrees({ bestBid: '.480', bestAsk: '1' })).toBe(true);
    expect(b.bestAgrees({ bestBid: null, bestAsk: null })).toBe(true);
    expect(b.bestAgrees({ bestBid: '0.47', bestAsk: null })).toBe(false);
    expect(b.bestAgrees({ bestBid: '0.48', bestAsk: '0.6' })).toBe(false);
  });

  it('hashes the book it holds as the SDK would hash GET /book', () => {
    const b = new AssetBook(ID, 0);
    const m = snapshot(
      100,
      [
        ['0.47', '10'],
        ['0.48', '20'],
      ],
      [
        ['0.52', '5'],
        ['0.51', '7'],
      ],
    );
    b.applySnapshot(m);
    expect(bookSummaryHash(b.summary()!)).toBe(
      bookSummaryHash({
        market: '0xabc',
        asset_id: ID,
        timestamp: String(T + 100),
        bids: m.bids,
        asks: m.asks,
        min_order_size: '5',
        tick_size: '0.01',
        neg_risk: false,
        last_trade_price: '0.5',
      }),
    );
    expect(b.bookMessage()).toMatchObject({
      event_type: 'book',
      asset_id: ID,
      bids: m.bids,
      asks: m.asks,
      timestamp: String(T + 100),
      hash: 'h0',
    });
  });

  it('applied in order, any sequence of changes ends equal to the model; applied out of order, it never goes back in time', () => {
    const { rng, replay } = testSeed('asset book');
    for (let round = 0; round < 50; round++) {
      const model = { BUY: new Map<string, string>(), SELL: new Map<string, string>() };
      const msgs: { c: LevelChange; ts: number }[] = [];
      for (let i = 1; i <= 40; i++) {
        const side = rng() < 0.5 ? 'BUY' : 'SELL';
        const price = (side === 'BUY' ? 0.3 : 0.6) + 0.01 * randInt(rng, 0, 5);
        const size = rng() < 0.25 ? '0' : String(randInt(rng, 1, 500));
        msgs.push({ c: change(side, price.toFixed(2), size), ts: T + 1000 + i });
        if (size === '0') model[side].delete(price.toFixed(2));
        else model[side].set(price.toFixed(2), size);
      }
      const inOrder = new AssetBook(ID, 0);
      inOrder.applySnapshot(snapshot(1000, [], []));
      for (const { c, ts } of msgs) expect(inOrder.applyChange(c, ts, String(ts)), replay).toBe('applied');
      const levels = (m: Map<string, string>) => [...m].map(([price, size]) => ({ price, size }));
      expect(new Set(inOrder.view().bids.map((l) => JSON.stringify(l))), replay).toEqual(
        new Set(levels(model.BUY).map((l) => JSON.stringify(l))),
      );
      expect(new Set(inOrder.view().asks.map((l) => JSON.stringify(l))), replay).toEqual(
        new Set(levels(model.SELL).map((l) => JSON.stringify(l))),
      );

      // Shuffled a little: the book's time never decreases, and anything late is a gap, never applied.
      const shuffled = [...msgs];
      for (let i = 0; i + 1 < shuffled.length; i++) if (rng() < 0.2) [shuffled[i], shuffled[i + 1]] = [shuffled[i + 1]!, shuffled[i]!];
      const b = new AssetBook(ID, 0);
      b.applySnapshot(snapshot(1000, [], []));
      let last = b.bookTs!;
      let gaps = 0;
      for (const { c, ts } of shuffled) {
        const r = b.applyChange(c, ts, String(ts));
        if (r === 'gap') gaps++;
        else expect(r, replay).toBe('applied');
        expect(b.bookTs!, replay).toBeGreaterThanOrEqual(last);
        last = b.bookTs!;
      }
      const swapped = shuffled.some((m, i) => m !== msgs[i]);
      expect(gaps > 0, replay).toBe(swapped);
    }
  });
});
