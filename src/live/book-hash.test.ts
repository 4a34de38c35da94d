/**
 * bookSummaryHash is the official SDKs' book-summary hash: the same hex as clob-client-v2's
 * `getOrderBookHash` and the V1 clob-client's `generateOrderBookSummaryHash`, for random books
 * (seeded; the seed is printed). py-clob-client-v2's `generate_orderbook_summary_hash` writes the
 * same ten fields in the same order.
 */
import { Chain, ClobClient } from '@polymarket/clob-client-v2';
import { generateOrderBookSummaryHash as v1Hash } from '@polymarket/clob-client/dist/utilities.js';
import { describe, expect, it } from 'vitest';
import { testSeed } from '../testing/seed.ts';
import { randInt } from '../fake-upstream/prng.ts';
import { bookSummaryHash, type BookSummary } from './book-hash.ts';

const v2 = new ClobClient({ host: 'http://127.0.0.1:9', chain: Chain.POLYGON });

function randomBook(rng: () => number): BookSummary {
  const levels = (n: number) =>
    Array.from({ length: n }, (_, i) => ({
      price: (0.01 * (i + 1) + 0.001 * randInt(rng, 0, 9)).toFixed(3),
      size: String(randInt(rng, 1, 99_999)),
    }));
  return {
    market: `0x${Array.from({ length: 64 }, () => '0123456789abcdef'[randInt(rng, 0, 15)]).join('')}`,
    asset_id: String(randInt(rng, 1, 2 ** 52)) + String(randInt(rng, 1, 2 ** 40)),
    timestamp: String(1_767_225_600_000 + randInt(rng, 0, 1e9)),
    bids: levels(randInt(rng, 0, 12)),
    asks: levels(randInt(rng, 0, 12)).reverse(),
    min_order_size: String(randInt(rng, 1, 15)),
    tick_size: ['0.1', '0.01', '0.001', '0.0001'][randInt(rng, 0, 3)]!,
    neg_risk: rng() < 0.5,
    last_trade_price: (rng() * 0.98 + 0.01).toFixed(3),
  };
}

/** The summary as the SDKs take it: an OrderBookSummary with `hash` in GET /book's place. */
const sdkShape = (b: BookSummary) => ({
  market: b.market,
  asset_id: b.asset_id,
  timestamp: b.timestamp,
  hash: 'anything',
  bids: b.bids.map((l) => ({ ...l })),
  asks: b.asks.map((l) => ({ ...l })),
  min_order_size: b.min_order_size,
  tick_size: b.tick_size,
  neg_risk: b.neg_risk,
  last_trade_price: b.last_trade_price,
});

describe('bookSummaryHash', () => {
  it("is the official SDKs' hash", async () => {
    const { rng, replay } = testSeed('book hash');
    for (let i = 0; i < 200; i++) {
      const b = randomBook(rng);
      const mine = bookSummaryHash(b);
      expect(mine, replay).toBe(await v2.getOrderBookHash(sdkShape(b) as never));
      expect(mine, replay).toBe(await (v1Hash as (o: unknown) => Promise<string>)(sdkShape(b)));
    }
  });
});
