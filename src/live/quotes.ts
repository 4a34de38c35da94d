/**
 * A market's live quote from its outcomes' books (src/contract/live.ts `LiveQuote`): what the
 * grids, the watchlist, the market page, the alerts and the price history read of the stream.
 * Pure over the live layer's reads, so the service's views and its alerts agree on one number.
 */
import { displayPrice, type LiveAssetState, type LiveBook, type LiveQuote } from '../contract/live.ts';
import type { LiveMarkets } from './live-markets.ts';

export type QuoteReads = Pick<LiveMarkets, 'book' | 'shardIdOf'>;

const price = (v: string | null | undefined): number | null => {
  if (v === null || v === undefined || v === '') return null;
  const n = Number(v);
  return Number.isFinite(n) ? n : null;
};

/** An outcome's displayed price from its book: undefined books (not subscribed, or no snapshot) give null. */
export function bookPrice(b: LiveBook | undefined): number | null {
  if (!b || b.state === 'waiting') return null;
  return displayPrice(price(b.bestBid), price(b.bestAsk), price(b.lastTradePrice));
}

/** The quote of a market whose outcomes trade under `assetIds` (market-rules.ts `tradingIds`, in outcome order). */
export function quoteOf(live: QuoteReads, marketId: string, assetIds: readonly string[]): LiveQuote {
  const books = assetIds.map((id) => live.book(id));
  const first = books[0];
  let state: LiveAssetState = books.length > 0 && books.every((b) => b?.state === 'live') ? 'live' : 'waiting';
  if (books.some((b) => b?.state === 'resyncing')) state = 'resyncing';
  let timestamp: number | null = null;
  let receivedAt: number | null = null;
  for (const b of books) {
    if (b?.timestamp != null && (timestamp === null || b.timestamp > timestamp)) timestamp = b.timestamp;
    if (b?.receivedAt != null && (receivedAt === null || b.receivedAt > receivedAt)) receivedAt = b.receivedAt;
  }
  return {
    marketId,
    prices: books.map(bookPrice),
    bestBid: first?.state === 'waiting' ? null : price(first?.bestBid),
    bestAsk: first?.state === 'waiting' ? null : price(first?.bestAsk),
    lastTradePrice: price(first?.lastTradePrice),
    state,
    shard: assetIds[0] === undefined ? null : live.shardIdOf(assetIds[0]),
    timestamp,
    receivedAt,
  };
}
