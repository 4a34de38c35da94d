/**
 * One subscribed asset's state: its book as the market channel reports it, best bid and ask, the
 * last trade, the tick size, and the times of what was applied. The rules that keep it right:
 *
 * - A `book` snapshot replaces everything (a fresh subscription's snapshot is the truth).
 * - Messages are applied in the order they arrive, each kind only forward in time: a book
 *   message (snapshot or change) older than the newest one applied, a trade older than the last
 *   trade, a tick size older than the last one, is stale and skipped, so no price moves backwards.
 * - A message already applied (the same event again) is a duplicate and skipped.
 * - A change older than the newest one applied but newer than the snapshot is a gap: it was sent
 *   before a change already applied, so the book may have missed it (the caller asks for a fresh
 *   snapshot). One at or before the snapshot is already in the snapshot.
 */
import { TAPE_SIZE, type LiveAssetState, type LiveBook, type LiveLevel, type LiveTrade } from '../contract/live.ts';
import type { BookSummary } from './book-hash.ts';
import type { BookMessage, LevelChange, TickSizeMessage, TradeMessage } from './protocol.ts';

export type Outcome = 'applied' | 'stale' | 'gap' | 'ignored';

/** Fingerprints of recent events remembered per asset, to find duplicates. */
const RECENT = 64;

/**
 * An event's fingerprint: a 53-bit hash of its JSON text (cyrb53), so an asset remembers 64
 * numbers rather than 64 copies of its messages. Two different events among one asset's last 64
 * colliding is a 1 in 10^13 chance.
 */
export function fingerprint(text: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

class Side {
  readonly levels = new Map<number, LiveLevel>();
  /** The order the upstream lists this side in (bids ascending, asks descending by default). */
  ascending: boolean;
  constructor(ascending: boolean) {
    this.ascending = ascending;
  }
  replace(levels: readonly LiveLevel[]): void {
    this.levels.clear();
    for (const l of levels) {
      if (Number(l.size) > 0) this.levels.set(Number(l.price), { price: l.price, size: l.size });
    }
    // Keep the upstream's direction when the snapshot shows one.
    if (levels.length >= 2) this.ascending = Number(levels[0]!.price) < Number(levels[levels.length - 1]!.price);
  }
  set(price: string, size: string): void {
    if (Number(size) > 0) this.levels.set(Number(price), { price, size });
    else this.levels.delete(Number(price));
  }
  /** Built per call, not cached: a list kept until the asset's next change would outlive the young generation. */
  sorted(): LiveLevel[] {
    return [...this.levels.entries()].sort((a, b) => (this.ascending ? a[0] - b[0] : b[0] - a[0])).map(([, l]) => l);
  }
  best(highest: boolean): string | null {
    let best: number | undefined;
    for (const p of this.levels.keys()) if (best === undefined || (highest ? p > best : p < best)) best = p;
    return best === undefined ? null : this.levels.get(best)!.price;
  }
}

/** The upstream's best price agrees with ours: "" (absent) always does; an empty side matches 0 (or 1 for asks). */
function sameBest(server: string | null, ours: string | null, empty: readonly number[]): boolean {
  if (server === null) return true;
  return ours === null ? empty.includes(Number(server)) : Number(server) === Number(ours);
}

export class AssetBook {
  market = '';
  state: LiveAssetState = 'waiting';
  private readonly bids = new Side(true);
  private readonly asks = new Side(false);
  bestBid: string | null = null;
  bestAsk: string | null = null;
  lastTrade: LiveTrade | null = null;
  lastTradePrice: string | null = null;
  tickSize: string | null = null;
  minOrderSize: string | null = null;
  negRisk: boolean | null = null;
  /** The newest book message applied (snapshot or change), and the snapshot's: upstream epoch ms. */
  bookTs: number | null = null;
  private snapshotTs: number | null = null;
  private tradeTs: number | null = null;
  private tickTs: number | null = null;
  /** The newest book message's timestamp as sent (the hash covers it). */
  private timestampText: string | null = null;
  hash: string | null = null;
  receivedAt: number | null = null;
  /** The last snapshot's own hash verified, so each change's hash can be checked against the book. */
  hashArmed = false;
  /** Since when a snapshot is awaited (waiting or resyncing); null when live. */
  awaitingSince: number | null;
  lastResyncAt = Number.NEGATIVE_INFINITY;
  restInFlight = false;
  /** `GET /book` answered 404: the CLOB has no book for this id. */
  noBook = false;
  /** The last RECENT fingerprints, a ring of unboxed numbers (a Set would box each one on the heap). */
  private readonly recent = new Float64Array(RECENT).fill(Number.NaN);
  private recentNext = 0;
  /** The last TAPE_SIZE trades, oldest first. */
  private readonly tape: LiveTrade[] = [];

  constructor(
    readonly assetId: string,
    now: number,
  ) {
    this.awaitingSince = now;
  }

  isDuplicate(fp: number): boolean {
    return this.recent.includes(fp);
  }

  remember(fp: number): void {
    if (this.recent.includes(fp)) return;
    this.recent[this.recentNext] = fp;
    this.recentNext = (this.recentNext + 1) % RECENT;
  }

  /** Waits for a snapshot again (a resubscription): changes are not applied until it comes. */
  await(state: 'waiting' | 'resyncing', now: number): void {
    this.state = state;
    this.awaitingSince = now;
    this.hashArmed = false;
  }

  applySnapshot(m: BookMessage): 'applied' | 'stale' {
    if (m.timestamp !== null && this.bookTs !== null && m.timestamp < this.bookTs) return 'stale';
    this.bids.replace(m.bids);
    this.asks.replace(m.asks);
    if (m.market) this.market = m.market;
    this.hash = m.hash;
    this.bookTs = m.timestamp ?? this.bookTs;
    this.snapshotTs = this.bookTs;
    this.timestampText = m.timestampText;
    this.tickSize = m.tickSize ?? this.tickSize;
    this.minOrderSize = m.minOrderSize ?? this.minOrderSize;
    this.negRisk = m.negRisk ?? this.negRisk;
    if (m.lastTradePrice !== null) this.lastTradePrice = m.lastTradePrice;
    this.state = 'live';
    this.awaitingSince = null;
    this.refreshBest();
    return 'applied';
  }

  /** One level change of a `price_change` sent at `ts`. */
  applyChange(c: LevelChange, ts: number | null, tsText: string | null): Outcome {
    if (this.state !== 'live') return 'ignored';
    if (ts !== null && this.bookTs !== null && ts < this.bookTs) {
      return this.snapshotTs !== null && ts > this.snapshotTs ? 'gap' : 'stale';
    }
    (c.side === 'BUY' ? this.bids : this.asks).set(c.price, c.size);
    this.bookTs = ts ?? this.bookTs;
    if (tsText !== null) this.timestampText = tsText;
    this.hash = c.hash;
    this.refreshBest();
    return 'applied';
  }

  /** Whether the upstream's best prices after a change agree with the book's. */
  bestAgrees(c: Pick<LevelChange, 'bestBid' | 'bestAsk'>): boolean {
    return sameBest(c.bestBid, this.bestBid, [0]) && sameBest(c.bestAsk, this.bestAsk, [0, 1]);
  }

  applyTrade(t: TradeMessage): 'applied' | 'stale' {
    if (t.timestamp !== null && this.tradeTs !== null && t.timestamp < this.tradeTs) return 'stale';
    if (t.market && !this.market) this.market = t.market;
    this.lastTrade = {
      price: t.price,
      size: t.size,
      side: t.side,
      time: t.timestamp,
      feeRateBps: t.feeRateBps,
      transactionHash: t.transactionHash,
    };
    this.lastTradePrice = t.price;
    this.tradeTs = t.timestamp ?? this.tradeTs;
    this.tape.push(this.lastTrade);
    if (this.tape.length > TAPE_SIZE) this.tape.shift();
    return 'applied';
  }

  /** The trades applied since the asset was subscribed (the tape), newest first. */
  recentTrades(): LiveTrade[] {
    return this.tape.map((t) => ({ ...t })).reverse();
  }

  applyTickSize(m: TickSizeMessage): 'applied' | 'stale' {
    if (m.timestamp !== null && this.tickTs !== null && m.timestamp < this.tickTs) return 'stale';
    this.tickSize = m.newTickSize;
    this.tickTs = m.timestamp ?? this.tickTs;
    return 'applied';
  }

  private refreshBest(): void {
    this.bestBid = this.bids.best(true);
    this.bestAsk = this.asks.best(false);
  }

  /** The ten fields the upstream's hash covers, as of the newest book message; null while one is unknown. */
  summary(): BookSummary | null {
    const { minOrderSize, tickSize, negRisk, lastTradePrice, timestampText } = this;
    if (!this.market || minOrderSize === null || tickSize === null || negRisk === null || lastTradePrice === null || timestampText === null)
      return null;
    return {
      market: this.market,
      asset_id: this.assetId,
      timestamp: timestampText,
      bids: this.bids.sorted(),
      asks: this.asks.sorted(),
      min_order_size: minOrderSize,
      tick_size: tickSize,
      neg_risk: negRisk,
      last_trade_price: lastTradePrice,
    };
  }

  /** The newest of the upstream times applied. */
  get timestamp(): number | null {
    const ts = [this.bookTs, this.tradeTs, this.tickTs].filter((t): t is number => t !== null);
    return ts.length ? Math.max(...ts) : null;
  }

  view(): LiveBook {
    return {
      assetId: this.assetId,
      market: this.market,
      state: this.state,
      bids: this.bids.sorted().slice(),
      asks: this.asks.sorted().slice(),
      bestBid: this.bestBid,
      bestAsk: this.bestAsk,
      lastTrade: this.lastTrade ? { ...this.lastTrade } : null,
      lastTradePrice: this.lastTradePrice,
      tickSize: this.tickSize,
      minOrderSize: this.minOrderSize,
      negRisk: this.negRisk,
      timestamp: this.timestamp,
      hash: this.hash,
      receivedAt: this.receivedAt,
    };
  }

  /**
   * The book as the channel's own `book` message, for a local subscriber joining an asset the
   * service already follows (src/http/market-ws.ts); undefined until a snapshot was applied.
   */
  bookMessage(): Record<string, unknown> | undefined {
    if (this.state !== 'live') return undefined;
    return {
      event_type: 'book',
      asset_id: this.assetId,
      market: this.market,
      bids: this.bids.sorted(),
      asks: this.asks.sorted(),
      timestamp: this.timestampText ?? String(this.bookTs ?? ''),
      hash: this.hash ?? '',
      ...(this.minOrderSize !== null ? { min_order_size: this.minOrderSize } : {}),
      ...(this.tickSize !== null ? { tick_size: this.tickSize } : {}),
      ...(this.negRisk !== null ? { neg_risk: this.negRisk } : {}),
      ...(this.lastTradePrice !== null ? { last_trade_price: this.lastTradePrice } : {}),
    };
  }
}
