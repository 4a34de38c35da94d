/**
 * Sparklines from the local history (sparkline-reader.ts): each bucket holds the last price at
 * or before its end (so the price before the window carries in), null before the first point;
 * markets without history are left out; the one statement seeks market_history's key (query plan).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { CatalogStore } from './catalog-store.ts';
import { SPARKLINE_SQL } from './sparkline-reader.ts';

const stores: CatalogStore[] = [];
afterEach(async () => {
  while (stores.length) await stores.pop()!.close();
});

async function withHistory(rows: [number, number, number | null][]): Promise<CatalogStore> {
  const s = await CatalogStore.open();
  stores.push(s);
  const { st } = s.sideTables();
  for (const [id, ts, price] of rows) st.run('INSERT INTO market_history (market_id, ts, price) VALUES (?, ?, ?)', [id, ts, price]);
  return s;
}

describe('SparklineReader', () => {
  it("reads many markets at once: each bucket's last price, seeded by the point before the window", async () => {
    const s = await withHistory([
      [1, 100, 4000],
      [1, 499, 4100],
      [1, 750, 6000],
      [1, 760, 6500],
      [1, 1000, 7000],
      [2, 900, 2500],
      [3, 1200, 1000],
      [4, 300, null],
      [5, 600, null],
    ]);
    // Window 500..1000: bucket ends 600, 700, 800, 900, 1000.
    const got = s.sparklines.sparklines([1, 2, 3, 4, 5, 1], { to: 1000, bucketS: 100, buckets: 5 });
    expect(Object.fromEntries(got)).toEqual({
      1: [0.41, 0.41, 0.65, 0.65, 0.7],
      2: [null, null, null, 0.25, 0.25],
    });
  });

  it('seeks the history key for every id (no scan of the table)', async () => {
    const s = await withHistory([]);
    const { st } = s.sideTables();
    const plan = st.all(`EXPLAIN QUERY PLAN ${SPARKLINE_SQL}`, ['[1,2]', 0, 10, 5]).map((r) => String(r[3]));
    expect(plan.filter((d) => /SEARCH h USING PRIMARY KEY \(market_id=\? AND ts<\?\)/.test(d))).toHaveLength(1);
    expect(plan.filter((d) => /SCAN h\b/.test(d))).toEqual([]);
  });
});
