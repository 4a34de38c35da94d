/**
 * The market channel's update events and the seeded random walk that makes them (market-ws.ts
 * sends them). Shapes follow docs/upstream/polymarket-2026.md section 5 and the samples in
 * fixtures/polymarket-2026/ws-market/; numbers are strings, timestamps milliseconds as strings.
 *
 * Every change goes to the asset's live book (market-books.ts), which the REST routes answer from,
 * so what a client builds from the events is the fake's book. One step changes one asset, at one
 * timestamp:
 * - `price_change` (the 2025-09 shape): one or two level changes; `size` is the level's new total
 *   (`"0"`: the level is gone). Each entry's `hash` is the official client's summary hash of the
 *   asset's whole book just after that entry (market-books.ts), `timestamp` the message's; its
 *   `best_bid`/`best_ask` are the book's best prices then (`"0"`/`"1"` for an empty side, as the
 *   docs' example shows).
 * - a trade: `last_trade_price` (`side` is the taker's; it takes from the best level on the other
 *   side), then a `book` snapshot of the changed book (the docs: a book message is sent "when there
 *   is a trade that affects the book").
 * - `tick_size_change`, now and then (0.01 <-> 0.001).
 * - after any of these, `best_bid_ask` when the best bid or ask moved (sent only to sockets that
 *   subscribed with `custom_feature_enabled`).
 */
import { createHash } from 'node:crypto';
import { fmtPrice, fmtSize, type BookSummary, type LiveBook, type Side } from './market-books.ts';
import { mulberry32, type Rng } from './prng.ts';
import type { FakeTrading } from './trading.ts';

/** One event as the channel sends it. */
export type MarketEvent = { event_type: string } & Record<string, unknown>;

/** A scripted change of one asset's book (`marketWs.emit`). */
export type MarketChange =
  /** One `price_change` message with these level changes, applied in order; a size of 0 removes the level. */
  | { type: 'price_change'; changes: { side: Side; price: string | number; size: string | number }[] }
  /** A trade: the taker (`side`) takes `size` from the best level on the other side: `last_trade_price`, then a `book`. */
  | { type: 'trade'; side: Side; size: string | number }
  | { type: 'tick_size_change'; tick_size: string }
  /** A `book` snapshot of the asset's current book; changes nothing. */
  | { type: 'book' };

/** A `book` event: the `GET /book` answer's fields, with `event_type` first as in the docs' example. */
export function bookEvent(b: BookSummary): MarketEvent {
  return {
    event_type: 'book',
    asset_id: b.asset_id,
    market: b.market,
    bids: b.bids,
    asks: b.asks,
    timestamp: b.timestamp,
    hash: b.hash,
    min_order_size: b.min_order_size,
    tick_size: b.tick_size,
    neg_risk: b.neg_risk,
    last_trade_price: b.last_trade_price,
  };
}

const MAX_LEVELS = 12;
const other = (s: Side): Side => (s === 'BUY' ? 'SELL' : 'BUY');

/** Makes the events of random steps (seeded) and of scripted changes, changing the live books as it goes. */
export class BookWalker {
  private readonly rng: Rng;
  private trades = 0;

  /** `stamp()`: the next event timestamp (strictly increasing). */
  constructor(
    readonly seed: number,
    private readonly trading: FakeTrading,
    private readonly stamp: () => string,
  ) {
    this.rng = mulberry32(seed);
  }

  /** A uniform draw from the walk's generator (the channel's framing choices use it too). */
  random(): number {
    return this.rng();
  }

  /** One random step on `asset`'s book; [] when it has none. */
  step(asset: string): MarketEvent[] {
    const book = this.trading.liveBook(asset);
    if (!book) return [];
    const r = this.rng();
    if (r < 0.02) return this.change(book, { type: 'tick_size_change', tick_size: book.tickSize === '0.01' ? '0.001' : '0.01' });
    if (r < 0.22) {
      const side: Side = this.rng() < 0.5 ? 'BUY' : 'SELL';
      const levels = book.levels(other(side));
      const best = levels.at(-1);
      if (best) {
        const size = Number(best.size);
        let take = 1 + Math.floor(this.rng() * Math.min(size, 250));
        if (levels.length === 1 && take >= size) take = Math.floor(size) - 1;
        if (take >= 1) return this.change(book, { type: 'trade', side, size: take });
      }
    }
    const n = this.rng() < 0.15 ? 2 : 1;
    return this.priceChange(book, n, () => this.randomLevel(book));
  }

  /** Applies a scripted change; throws when it cannot apply (no book, a bad price, a trade larger than the best level). */
  apply(asset: string, change: MarketChange): MarketEvent[] {
    if (change.type === 'book') {
      const b = this.trading.bookOf(asset);
      if (!b) throw new Error(`no book for ${asset}`);
      return [bookEvent(b)];
    }
    const book = this.trading.liveBook(asset);
    if (!book) throw new Error(`no book for ${asset}`);
    if (change.type === 'price_change') {
      const list = change.changes.map((c) => {
        const price = Number(c.price);
        const size = Number(c.size);
        if (!(price > 0 && price < 1) || !(size >= 0) || (c.side !== 'BUY' && c.side !== 'SELL'))
          throw new Error(`bad level change ${JSON.stringify(c)}`);
        return { side: c.side, price: fmtPrice(price), size: fmtSize(size) };
      });
      let i = 0;
      return this.priceChange(book, list.length, () => list[i++]!);
    }
    return this.change(book, change);
  }

  /** A trade or a tick size change. */
  private change(book: LiveBook, change: Extract<MarketChange, { type: 'trade' | 'tick_size_change' }>): MarketEvent[] {
    const before = bests(book);
    const ts = this.stamp();
    const out: MarketEvent[] = [];
    if (change.type === 'tick_size_change') {
      const old = book.tickSize;
      book.tickSize = change.tick_size;
      book.timestamp = ts;
      out.push({
        event_type: 'tick_size_change',
        asset_id: book.assetId,
        market: book.market,
        old_tick_size: old,
        new_tick_size: change.tick_size,
        timestamp: ts,
      });
      return out;
    }
    const maker = other(change.side);
    const best = book.levels(maker).at(-1);
    const take = Number(change.size);
    if (!best || !(take > 0) || take > Number(best.size)) throw new Error(`cannot trade ${change.size} against ${JSON.stringify(best)}`);
    book.set(maker, best.price, fmtSize(Number((Number(best.size) - take).toFixed(6))));
    book.lastTradePrice = best.price;
    book.lastTradeSide = change.side;
    book.timestamp = ts;
    const tx = createHash('sha256')
      .update(`trade:${book.assetId}:${ts}:${++this.trades}`)
      .digest('hex');
    out.push({
      asset_id: book.assetId,
      event_type: 'last_trade_price',
      fee_rate_bps: '0',
      market: book.market,
      price: best.price,
      side: change.side,
      size: fmtSize(take),
      timestamp: ts,
      transaction_hash: `0x${tx}`,
    });
    out.push(bookEvent(book.summary()));
    return this.withBestBidAsk(book, before, ts, out);
  }

  /** A `price_change` of `n` level changes, each applied before the next is drawn. */
  private priceChange(book: LiveBook, n: number, next: () => { side: Side; price: string; size: string }): MarketEvent[] {
    const before = bests(book);
    const ts = this.stamp();
    book.timestamp = ts;
    const entries: Record<string, string>[] = [];
    for (let i = 0; i < n; i++) {
      const c = next();
      book.set(c.side, c.price, c.size);
      entries.push({
        asset_id: book.assetId,
        price: c.price,
        size: c.size,
        side: c.side,
        // The asset's whole book just after this entry (market-books.ts).
        hash: book.summary().hash,
        best_bid: book.best('BUY') ?? '0',
        best_ask: book.best('SELL') ?? '1',
      });
    }
    const out: MarketEvent[] = [{ market: book.market, price_changes: entries, timestamp: ts, event_type: 'price_change' }];
    return this.withBestBidAsk(book, before, ts, out);
  }

  private withBestBidAsk(book: LiveBook, before: [string | undefined, string | undefined], ts: string, out: MarketEvent[]): MarketEvent[] {
    const [bid, ask] = bests(book);
    if (bid === before[0] && ask === before[1]) return out;
    out.push({
      event_type: 'best_bid_ask',
      market: book.market,
      asset_id: book.assetId,
      best_bid: bid ?? '',
      best_ask: ask ?? '',
      spread: bid !== undefined && ask !== undefined ? fmtPrice(Number(ask) - Number(bid)) : '',
      timestamp: ts,
    });
    return out;
  }

  /** A random level change that keeps the book uncrossed, inside (0, 1), at most MAX_LEVELS a side. */
  private randomLevel(book: LiveBook): { side: Side; price: string; size: string } {
    const side: Side = this.rng() < 0.5 ? 'BUY' : 'SELL';
    return this.levelChange(book, side) ?? this.levelChange(book, other(side)) ?? { side: 'BUY', price: '0.49', size: '100' };
  }

  private levelChange(book: LiveBook, side: Side): { side: Side; price: string; size: string } | undefined {
    const levels = book.levels(side);
    const size = () => String(10 + Math.floor(this.rng() * 990));
    const resize = (): { side: Side; price: string; size: string } => {
      const l = levels[Math.floor(this.rng() * levels.length)]!;
      let s = size();
      if (s === l.size) s = String(Number(s) + 1);
      return { side, price: l.price, size: s };
    };
    const a = this.rng();
    if (levels.length > 0 && a < 0.45) return resize();
    // Thin sides lose levels less often.
    if (levels.length > 1 && (a < (levels.length > 3 ? 0.65 : 0.55) || levels.length >= MAX_LEVELS)) {
      const l = levels[Math.floor(this.rng() * levels.length)]!;
      return { side, price: l.price, size: '0' };
    }
    // A new level: one tick better than the best when the spread has room (more often the wider it
    // is, so spreads stay tight), else one tick behind the worst.
    const tick = Number(book.tickSize);
    const bid = book.best('BUY');
    const ask = book.best('SELL');
    const worst = levels[0]?.price;
    const spread = bid !== undefined && ask !== undefined ? Number(ask) - Number(bid) : 0;
    const improve = spread > 1.5 * tick && this.rng() < (spread > 4 * tick ? 0.8 : 0.4);
    // A wide spread closes by a third at a time.
    const step = tick * Math.max(1, Math.floor(spread / (3 * tick)));
    let price: number;
    if (side === 'BUY') {
      if (worst === undefined) price = (ask !== undefined ? Number(ask) : 0.5) - tick;
      else price = improve ? Number(bid) + step : Number(worst) - tick;
    } else {
      if (worst === undefined) price = (bid !== undefined ? Number(bid) : 0.5) + tick;
      else price = improve ? Number(ask) - step : Number(worst) + tick;
    }
    const p = fmtPrice(price);
    if (Number(p) > 0 && Number(p) < 1 && book.sizeAt(side, p) === undefined) return { side, price: p, size: size() };
    return levels.length > 0 ? resize() : undefined;
  }
}

function bests(book: LiveBook): [string | undefined, string | undefined] {
  return [book.best('BUY'), book.best('SELL')];
}
