/**
 * The fake CLOB's order books as one state, shared by its REST routes (trading.ts) and its market
 * channel (market-ws.ts). A token's book is derived from its id (trading.ts) until the channel
 * first changes it; from then on the token has a live book here, which `GET /book`, `/price`,
 * `/midpoint`, `/spread`, `/last-trade-price`, `/tick-size` and the batch routes answer from, so
 * REST and the WebSocket always agree.
 *
 * The book hash is the official client's: clob-client-v2 1.1.0 `generateOrderBookSummaryHash`
 * (and the V1 clob-client's) is the SHA-1, in hex, of `JSON.stringify` of the `GET /book` answer
 * with `hash` set to `""`, keys in the answer's order (`market, asset_id, timestamp, hash, bids,
 * asks, min_order_size, tick_size, neg_risk, last_trade_price`), bids ascending and asks
 * descending, every number a string as sent. The fake uses that one definition everywhere: the
 * REST book, the channel's `book` snapshots, and each `price_change` entry, whose `hash` covers its
 * asset's whole book after that entry was applied, with `timestamp` = the message's timestamp.
 */
import { bookSummaryHash } from '../live/book-hash.ts';

export type Side = 'BUY' | 'SELL';

export interface BookLevel {
  price: string;
  size: string;
}

/** A book as `GET /book` answers it (Polymarket's shape and key order). */
export interface BookSummary {
  market: string;
  asset_id: string;
  timestamp: string;
  hash: string;
  /** Ascending: the best bid last. */
  bids: BookLevel[];
  /** Descending: the best ask last. */
  asks: BookLevel[];
  min_order_size: string;
  tick_size: string;
  neg_risk: boolean;
  last_trade_price: string;
}

/** A number as the fake's CLOB writes prices: at most four decimals, no trailing zeros (`0.5`, `0.495`). */
export const fmtPrice = (x: number): string => String(Number(x.toFixed(4)));

/** A size as given, normalised (`"200.0"` -> `"200"`). */
export const fmtSize = (x: number | string): string => String(Number(x));

/** The official client's book summary hash (see the header): SHA-1 of the summary with `hash: ""`. */
export function bookHash(b: Omit<BookSummary, 'hash'>): string {
  // The service's own implementation of the SDKs' hash (checked against both SDKs in its test).
  return bookSummaryHash(b);
}

/** One token's live book: levels by price (strings as sent), tick size, last trade, timestamp. */
export class LiveBook {
  readonly market: string;
  readonly assetId: string;
  readonly minOrderSize: string;
  readonly negRisk: boolean;
  tickSize: string;
  lastTradePrice: string;
  /** The taker's side of the last trade (`/last-trade-price` answers it). */
  lastTradeSide: Side = 'BUY';
  /** Milliseconds, as a string: the time of the last change. */
  timestamp: string;
  private readonly bids = new Map<string, string>();
  private readonly asks = new Map<string, string>();

  constructor(from: BookSummary) {
    this.market = from.market;
    this.assetId = from.asset_id;
    this.minOrderSize = from.min_order_size;
    this.negRisk = from.neg_risk;
    this.tickSize = from.tick_size;
    this.lastTradePrice = from.last_trade_price;
    this.timestamp = from.timestamp;
    for (const l of from.bids) this.bids.set(fmtPrice(Number(l.price)), l.size);
    for (const l of from.asks) this.asks.set(fmtPrice(Number(l.price)), l.size);
  }

  /** Sets the size at a price (BUY: a bid, SELL: an ask); a size of 0 removes the level. */
  set(side: Side, price: string, size: string): void {
    const levels = side === 'BUY' ? this.bids : this.asks;
    if (Number(size) === 0) levels.delete(price);
    else levels.set(price, size);
  }

  /** The size at a price, or undefined. */
  sizeAt(side: Side, price: string): string | undefined {
    return (side === 'BUY' ? this.bids : this.asks).get(price);
  }

  /** One side's levels in Polymarket's order, the best last (bids ascending, asks descending). */
  levels(side: Side): BookLevel[] {
    const m = side === 'BUY' ? this.bids : this.asks;
    const out = [...m].map(([price, size]) => ({ price, size }));
    out.sort((a, b) => (side === 'BUY' ? Number(a.price) - Number(b.price) : Number(b.price) - Number(a.price)));
    return out;
  }

  /** The best price of a side (highest bid, lowest ask), or undefined when the side is empty. */
  best(side: Side): string | undefined {
    return this.levels(side).at(-1)?.price;
  }

  summary(): BookSummary {
    const s: Omit<BookSummary, 'hash'> = {
      market: this.market,
      asset_id: this.assetId,
      timestamp: this.timestamp,
      bids: this.levels('BUY'),
      asks: this.levels('SELL'),
      min_order_size: this.minOrderSize,
      tick_size: this.tickSize,
      neg_risk: this.negRisk,
      last_trade_price: this.lastTradePrice,
    };
    return {
      market: s.market,
      asset_id: s.asset_id,
      timestamp: s.timestamp,
      hash: bookHash(s),
      bids: s.bids,
      asks: s.asks,
      min_order_size: s.min_order_size,
      tick_size: s.tick_size,
      neg_risk: s.neg_risk,
      last_trade_price: s.last_trade_price,
    };
  }
}

/** The live books, by token id. A token is here once the market channel has changed its book. */
export class LiveBooks {
  private readonly books = new Map<string, LiveBook>();

  get(token: string): LiveBook | undefined {
    return this.books.get(token);
  }

  /** The token's live book, made from `derived` (its book until now) the first time. */
  open(token: string, derived: () => BookSummary): LiveBook {
    let b = this.books.get(token);
    if (!b) {
      b = new LiveBook(derived());
      this.books.set(token, b);
    }
    return b;
  }

  /** Forgets the token's live book: its book is the derived one again until the channel next changes it. */
  delete(token: string): void {
    this.books.delete(token);
  }

  get size(): number {
    return this.books.size;
  }

  tokens(): string[] {
    return [...this.books.keys()];
  }
}
