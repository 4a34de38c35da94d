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
  /**
   * Whether the upstream's book hashes can be checked: `unknown` until one is verified or enough
   * fail, `checkable` once one matched (a mismatch then forces a fresh snapshot), `uncheckable`
   * when the upstream's hashes are not the official SDK's book-summary hash (then only gaps do).
   */
  hashCheck: 'off' | 'unknown' | 'checkable' | 'uncheckable';
  counters: LiveCounters;
  shards: LiveShardStatus[];
}
