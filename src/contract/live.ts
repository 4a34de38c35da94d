/**
 * The live layer's shapes (src/live/): the books of subscribed assets as the upstream CLOB's
 * market channel keeps them, and the health of its sockets (`/status` `live`). Plain data (no
 * zod, no Node): the renderer will read them. Prices and sizes stay the decimal strings the
 * upstream sends ("0.48"), never parsed into floats here.
 */

/** One price level. */
export interface LiveLevel {
  price: string;
  size: string;
}

/** The last trade the channel reported for an asset (`last_trade_price`). */
export interface LiveTrade {
  price: string;
  /** Absent from some messages. */
  size: string | null;
  /** `BUY` or `SELL` (the taker's side), as sent. */
  side: string;
  /** The upstream's time of the trade, epoch milliseconds; null when the message had none. */
  time: number | null;
  feeRateBps: string | null;
  transactionHash: string | null;
}

/**
 * `waiting`: subscribed, no snapshot yet; `live`: a snapshot and every message since applied;
 * `resyncing`: a hash mismatch or a gap was found, a fresh snapshot is on its way (changes are not
 * applied until it comes).
 */
export type LiveAssetState = 'waiting' | 'live' | 'resyncing';

/** An asset's book and prices, as the live layer holds them. */
export interface LiveBook {
  /** The trading id (src/contract/market-rules.ts `tradingIds`). */
  assetId: string;
  /** The market's condition id, as the channel names it; '' until the first snapshot. */
  market: string;
  state: LiveAssetState;
  /** As Polymarket orders them: bids ascending and asks descending, so the best of each side is last. */
  bids: LiveLevel[];
  asks: LiveLevel[];
  bestBid: string | null;
  bestAsk: string | null;
  lastTrade: LiveTrade | null;
  /** The last trade's price: from the snapshot (`last_trade_price`) until a trade message comes. */
  lastTradePrice: string | null;
  tickSize: string | null;
  minOrderSize: string | null;
  negRisk: boolean | null;
  /** The upstream's time of the newest message applied, epoch milliseconds. */
  timestamp: number | null;
  /** The upstream's hash of the book as last reported (the snapshot's, then each change's). */
  hash: string | null;
  /** When the last message for this asset arrived (the service's clock, epoch milliseconds). */
  receivedAt: number | null;
}

/** One upstream socket (a shard of at most 500 assets). */
export interface LiveShardStatus {
  id: number;
  /** `connecting`, `open`, `backoff` (waiting to reconnect) or `closed`. */
  state: 'connecting' | 'open' | 'backoff' | 'closed';
  assets: number;
  /** Milliseconds since the socket's last frame (data or PONG); null before the first. */
  lastFrameAgeMs: number | null;
  /** Times this shard's socket was opened again after the first. */
  reconnects: number;
  /**
   * How long the socket has been quiet in the way that counts: since its last frame, or, while its
   * assets are known to trade, since its last market message. Null before the first frame.
   */
  quietMs: number | null;
}

/** Counts since the service started. */
export interface LiveCounters {
  /** Market events received (a frame holding an array counts each event). */
  messages: number;
  /** Frames or events that were not JSON or not a known shape: counted and skipped. */
  malformed: number;
  /** Events already applied (the same content again): skipped. */
  duplicates: number;
  /** Events older than what was already applied for their asset: skipped. */
  stale: number;
  /** Fresh snapshots asked for after a hash mismatch or a gap. */
  resyncs: number;
  hashMismatches: number;
  /** Gaps found: a change the book had not seen arrived late, or the upstream's best bid/ask disagreed with the book. */
  gaps: number;
  /** Sockets that closed, or failed to open, unasked (each is opened again after a backoff). */
  drops: number;
  /** Sockets closed and replaced because they went silent. */
  replaced: number;
  /** Books taken from `GET /book` when the channel sent none in time. */
  restBooks: number;
}

/** Every counter at zero: a live layer's start. */
export const zeroLiveCounters = (): LiveCounters => ({
  messages: 0,
  malformed: 0,
  duplicates: 0,
  stale: 0,
  resyncs: 0,
  hashMismatches: 0,
  gaps: 0,
  drops: 0,
  replaced: 0,
  restBooks: 0,
});

/**
 * The live layer's health (`/status` `live`). `state`: `off` (offline, or no WebSocket host),
 * `idle` (nothing subscribed), `connecting`, `live` (every socket open and fresh), `degraded`
 * (a socket is reconnecting or silent).
 */
export interface LiveStatus {
  state: 'off' | 'idle' | 'connecting' | 'live' | 'degraded';
  /** The market channel's URL (`<--clob-ws-url>/ws/market`); null when off. */
  url: string | null;
  sockets: { total: number; open: number };
  /** Assets subscribed upstream, and the owners (local subscribers, views) holding them. */
  assets: number;
  owners: number;
  /** Market events per second over the last 10 s. */
  messagesPerSecond: number;
  /** Milliseconds since the last market message on any socket (PONGs not counted); null before the first. */
  lastMessageAgeMs: number | null;
  /** A socket with assets is not open, or has been silent past the limit. */
  stalled: boolean;
  /** A socket quiet this long makes its numbers stale (`quoteFreshness`); it is replaced at twice this. */
  staleAfterMs: number;
  /**
   * Whether the upstream's book hashes can be checked: `unknown` until one is verified or enough
   * fail, `checkable` once one matched (a mismatch then forces a fresh snapshot), `uncheckable`
   * when the upstream's hashes are not the official SDK's book-summary hash (then only gaps do).
   */
  hashCheck: 'off' | 'unknown' | 'checkable' | 'uncheckable';
  counters: LiveCounters;
  shards: LiveShardStatus[];
}

// ---- what the app shows: quotes per market, the open market's books and tape ------------------

/**
 * The price Polymarket shows for an outcome: the midpoint of its best bid and ask when the spread
 * is at most 10¢, else the last trade's price (polymarket.com's rule, docs/upstream/polymarket-2026.md).
 * Prices in dollars (0..1); null when there is neither a two-sided book nor a trade.
 */
export function displayPrice(bestBid: number | null, bestAsk: number | null, lastTrade: number | null): number | null {
  if (bestBid !== null && bestAsk !== null && bestAsk >= bestBid && bestAsk - bestBid <= WIDE_SPREAD + 1e-9) {
    return Math.round(((bestBid + bestAsk) / 2) * 1e6) / 1e6;
  }
  return lastTrade;
}
/** A spread wider than this shows the last trade instead of the midpoint. */
export const WIDE_SPREAD = 0.1;

/** A market's live prices, as the grids, the watchlist and the market page show them. */
export interface LiveQuote {
  marketId: string;
  /** Each outcome's displayed price (`displayPrice`), in the market's outcome order; null: no book or trade for it yet. */
  prices: (number | null)[];
  /** The first outcome's best bid and ask (Gamma's `bestBid`/`bestAsk` are the first outcome's too). */
  bestBid: number | null;
  bestAsk: number | null;
  /** The first outcome's last trade. */
  lastTradePrice: number | null;
  /** `live` when every outcome's book is; `resyncing` when any is; else `waiting`. */
  state: LiveAssetState;
  /** The socket (shard id) carrying the first outcome; null while unassigned. */
  shard: number | null;
  /** The upstream's time of the newest message applied for the market, epoch ms. */
  timestamp: number | null;
  /** When the newest message for the market arrived (the service's clock, epoch ms). */
  receivedAt: number | null;
}

/** One trade on the tape. */
export interface TapeTrade {
  assetId: string;
  /** The outcome's name ("Yes"). */
  outcome: string;
  /** The taker's side, as sent (`BUY`, `SELL`). */
  side: string;
  price: number;
  size: number | null;
  /** The upstream's time of the trade, else its arrival; epoch ms. */
  time: number;
  transactionHash: string | null;
}

/** The open market page's live part: each outcome's book and the trades seen, newest first. */
export interface LiveMarketBook {
  marketId: string;
  outcomes: { name: string; assetId: string; book: LiveBook | null }[];
  tape: TapeTrade[];
}

/** Trades kept per asset for the tape. */
export const TAPE_SIZE = 50;

/** How a live number stands: streaming, stale (with the age of the last proof it was current), or the last sync's value. */
export type Freshness = { kind: 'live' } | { kind: 'stale'; ageMs: number } | { kind: 'sync' };

/**
 * A quote's freshness from the stream's health: `sync` when there is no quote or the layer is off
 * (offline, nothing claims to be live); `stale` while its socket is not open or has been quiet
 * past `staleAfterMs`, or its book awaits a snapshot; else `live`. `sinceStatusMs`: how long ago
 * `status` was taken, added to the socket's quiet time.
 */
export function quoteFreshness(quote: LiveQuote | undefined, status: LiveStatus | undefined, now: number, sinceStatusMs = 0): Freshness {
  if (!quote || !status || status.state === 'off' || quote.prices.every((p) => p === null)) return { kind: 'sync' };
  const shard = status.shards.find((s) => s.id === quote.shard);
  const quiet = shard?.quietMs == null ? null : shard.quietMs + sinceStatusMs;
  const ageMs = quiet ?? (quote.receivedAt === null ? 0 : Math.max(0, now - quote.receivedAt));
  if (shard?.state !== 'open' || quote.state !== 'live' || (quiet !== null && quiet >= status.staleAfterMs)) {
    return { kind: 'stale', ageMs };
  }
  return { kind: 'live' };
}

// ---- the live view (`live.view`, live-ops.ts) ---------------------------------------------------

/** Markets one view may hold: two screens of grid rows, the watchlist and a margin. */
export const LIVE_VIEW_MAX_MARKETS = 400;
/** A client id: the push stream's `client` (web: `GET /stream?client=ID`; the desktop window is `desktop`). */
export const LIVE_CLIENT_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** The desktop window's live client id (one window, one view, held for the worker's life). */
export const DESKTOP_LIVE_CLIENT = 'desktop';

export interface LiveView {
  client: string;
  /** The quotes of the view's markets that are streaming (markets without trading ids are left out). */
  quotes: LiveQuote[];
  /** The open market page's books and tape; null when none is open (or it cannot stream). */
  book: LiveMarketBook | null;
  status: LiveStatus;
}
