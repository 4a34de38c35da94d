/**
 * The CLOB's book-summary hash, as the official SDKs compute it (`generateOrderBookSummaryHash` in
 * @polymarket/clob-client and clob-client-v2, `generate_orderbook_summary_hash` in
 * py-clob-client-v2): SHA-1, in hex, of the compact JSON of the ten summary fields in this
 * order, with `hash` set to "". The SDKs are dev dependencies (they drive the service in tests),
 * so the product does not import them: this is the same computation with node:crypto, and
 * book-hash.test.ts checks it against both installed SDKs.
 *
 * What the upstream hashes is not documented. The market channel's `book` and each
 * `price_change` entry carry a `hash`; public reports (py-clob-client-v2#117, rs-clob-client#225)
 * find live hashes that this function does not reproduce now and then. So the live layer checks
 * hashes only once one has verified (LiveStatus `hashCheck`), and gaps are found without them too.
 */
import { createHash } from 'node:crypto';
import type { LiveLevel } from '../contract/live.ts';

/** The ten fields, as `GET /book` answers them. */
export interface BookSummary {
  market: string;
  asset_id: string;
  /** Epoch milliseconds as text, as sent. */
  timestamp: string;
  bids: readonly LiveLevel[];
  asks: readonly LiveLevel[];
  min_order_size: string;
  tick_size: string;
  neg_risk: boolean;
  last_trade_price: string;
}

export function bookSummaryHash(b: BookSummary): string {
  const text = JSON.stringify({
    market: b.market,
    asset_id: b.asset_id,
    timestamp: b.timestamp,
    hash: '',
    bids: b.bids.map((l) => ({ price: l.price, size: l.size })),
    asks: b.asks.map((l) => ({ price: l.price, size: l.size })),
    min_order_size: b.min_order_size,
    tick_size: b.tick_size,
    neg_risk: b.neg_risk,
    last_trade_price: b.last_trade_price,
  });
  return createHash('sha1').update(text).digest('hex');
}
