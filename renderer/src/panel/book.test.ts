import { describe, expect, it } from 'vitest';
import { bookView } from './book.ts';
import { alignHistories, hasHistory } from './chart-data.ts';

describe('bookView', () => {
  // Polymarket's order: best LAST on both sides.
  const book = {
    bids: [
      { price: '0.40', size: '100' },
      { price: '0.44', size: '50' },
      { price: '0.45', size: '10' },
    ],
    asks: [
      { price: '0.60', size: '5' },
      { price: '0.48', size: '20' },
      { price: '0.47', size: '0' },
      { price: '0.46', size: '10' },
    ],
  };

  it('finds the best bid and ask, the spread, and ignores empty levels', () => {
    const v = bookView(book);
    expect(v.bestBid).toBe(0.45);
    expect(v.bestAsk).toBe(0.46);
    expect(v.spread).toBe(0.01);
  });

  it('lists asks highest first (best next to the spread) and bids best first, with running totals and depth', () => {
    const v = bookView(book);
    expect(v.asks.map((r) => r.price)).toEqual([0.6, 0.48, 0.46]);
    expect(v.bids.map((r) => r.price)).toEqual([0.45, 0.44, 0.4]);
    expect(v.bids.map((r) => r.total)).toEqual([4.5, 4.5 + 22, 4.5 + 22 + 40]);
    expect(v.asks[0]!.total).toBeCloseTo(4.6 + 9.6 + 3);
    // The deepest side's last level fills the bar.
    expect(v.bids[2]!.depth).toBe(1);
    expect(v.asks[0]!.depth).toBeCloseTo(17.2 / 66.5);
  });

  it('keeps only the levels nearest the spread', () => {
    const many = { bids: Array.from({ length: 20 }, (_, i) => ({ price: String(i / 100), size: '1' })), asks: [] };
    const v = bookView(many, 8);
    expect(v.bids).toHaveLength(8);
    expect(v.bids[0]!.price).toBe(0.19);
    expect(v.bestAsk).toBeUndefined();
    expect(v.spread).toBeUndefined();
  });

  it('reads a missing book as empty', () => {
    expect(bookView(null)).toMatchObject({ asks: [], bids: [], bestBid: undefined });
  });
});

describe('alignHistories', () => {
  it('puts every outcome on one ascending time axis in cents, with gaps where one has no point', () => {
    const [xs, yes, no] = alignHistories([
      {
        name: 'Yes',
        history: [
          { t: 20, p: 0.615 },
          { t: 10, p: 0.6 },
        ],
      },
      {
        name: 'No',
        history: [
          { t: 30, p: 0.39 },
          { t: 10, p: 0.4 },
        ],
      },
    ]);
    expect(xs).toEqual([10, 20, 30]);
    expect(yes).toEqual([60, 61.5, null]);
    expect(no).toEqual([40, null, 39]);
  });

  it('knows when there is nothing to draw', () => {
    expect(hasHistory([{ name: 'Yes', history: [] }])).toBe(false);
    expect(hasHistory([])).toBe(false);
  });
});
