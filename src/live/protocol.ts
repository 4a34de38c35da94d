/**
 * The CLOB market channel's wire protocol (docs/upstream/polymarket-2026.md, section 5), read
 * leniently: a frame is one event object or an array of them; numbers come as strings, `""`
 * means absent; extra fields are ignored; a frame or event that cannot be read is counted as
 * malformed and skipped, never thrown. The same messages are spoken to local scripts by the clob
 * face's `/ws/market` (src/http/market-ws.ts).
 */
import type { LiveLevel } from '../contract/live.ts';

/** Where the channels are under the WebSocket host (`--clob-ws-url`). */
export const MARKET_CHANNEL_PATH = '/ws/market';
export const USER_CHANNEL_PATH = '/ws/user';
/** The heartbeat: the client sends the text `PING`, the server answers `PONG`. */
export const PING = 'PING';
export const PONG = 'PONG';

/** `wss://host` + `/ws/market`, whether or not the host ends with a slash. */
export function channelUrl(host: string, path: string): string {
  return `${host.replace(/\/+$/, '')}${path}`;
}

/** The first message on a socket: its assets, with the custom events (best_bid_ask, new_market, market_resolved). */
export function subscribeMessage(ids: readonly string[]): string {
  return JSON.stringify({ assets_ids: ids, type: 'market', custom_feature_enabled: true });
}

/** A change of subscription on an open socket. */
export function operationMessage(operation: 'subscribe' | 'unsubscribe', ids: readonly string[]): string {
  return JSON.stringify(
    operation === 'subscribe' ? { operation, assets_ids: ids, custom_feature_enabled: true } : { operation, assets_ids: ids },
  );
}

export type Raw = Record<string, unknown>;

const DECIMAL = /^(?:\d+(?:\.\d*)?|\.\d+)$/;

/** A decimal string as sent ("0.48", ".48", "12"); numbers are taken as text; "" and anything else are absent. */
export function decimal(v: unknown): string | null {
  if (typeof v === 'number' && Number.isFinite(v) && v >= 0) return String(v);
  return typeof v === 'string' && v.length <= 40 && DECIMAL.test(v) ? v : null;
}

/** Text, or null when absent or empty. */
export function text(v: unknown): string | null {
  if (typeof v === 'string') return v === '' ? null : v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return null;
}

/** Epoch milliseconds from digits (or a number); a 10-digit value is taken as seconds. */
export function epochMs(v: unknown): number | null {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d{1,16}$/.test(v) ? Number(v) : Number.NaN;
  if (!Number.isFinite(n) || n <= 0) return null;
  return n < 1e11 ? n * 1000 : n;
}

/** A trading id: a decimal string of at most 100 digits (the contract's rule for ids the CLOB takes). */
export const isAssetId = (v: unknown): v is string => typeof v === 'string' && /^[0-9]{1,100}$/.test(v);

/** A side's levels; null when it is not a list of `{price, size}` with decimal strings. */
export function levels(v: unknown): LiveLevel[] | null {
  if (!Array.isArray(v)) return null;
  const out: LiveLevel[] = [];
  for (const l of v) {
    if (!l || typeof l !== 'object') return null;
    const price = decimal((l as Raw)['price']);
    const size = decimal((l as Raw)['size']);
    if (price === null || size === null) return null;
    out.push({ price, size });
  }
  return out;
}

/** A `book` message (or a `GET /book` answer, which has the same fields). */
export interface BookMessage {
  assetId: string;
  market: string;
  bids: LiveLevel[];
  asks: LiveLevel[];
  timestamp: number | null;
  /** The timestamp as sent, which the hash covers. */
  timestampText: string | null;
  hash: string | null;
  tickSize: string | null;
  minOrderSize: string | null;
  negRisk: boolean | null;
  lastTradePrice: string | null;
}

/** Reads a book; the 2024 channel named the sides `buys` and `sells`. */
export function readBook(e: Raw): BookMessage | null {
  const assetId = e['asset_id'];
  if (!isAssetId(assetId)) return null;
  const bids = levels(e['bids'] ?? e['buys'] ?? []);
  const asks = levels(e['asks'] ?? e['sells'] ?? []);
  if (!bids || !asks) return null;
  const negRisk = e['neg_risk'];
  return {
    assetId,
    market: text(e['market']) ?? '',
    bids,
    asks,
    timestamp: epochMs(e['timestamp']),
    timestampText: text(e['timestamp']),
    hash: text(e['hash']),
    tickSize: decimal(e['tick_size']),
    minOrderSize: decimal(e['min_order_size']),
    negRisk: typeof negRisk === 'boolean' ? negRisk : null,
    lastTradePrice: decimal(e['last_trade_price']),
  };
}

/** One change of one level: `size` "0" removes it. `side` BUY is the bids, SELL the asks. */
export interface LevelChange {
  assetId: string;
  side: 'BUY' | 'SELL';
  price: string;
  size: string;
  hash: string | null;
  /** The upstream's best prices after the change; null when not sent (or sent as ""). */
  bestBid: string | null;
  bestAsk: string | null;
}

export interface PriceChangeMessage {
  market: string;
  timestamp: number | null;
  timestampText: string | null;
  changes: LevelChange[];
}

function side(v: unknown): 'BUY' | 'SELL' | null {
  const s = typeof v === 'string' ? v.toUpperCase() : '';
  return s === 'BUY' || s === 'SELL' ? s : null;
}

/**
 * Reads a `price_change`: the 2025-09 format (`price_changes[]`, each with its asset, hash and best
 * prices) or the older one (one `asset_id` and `hash`, `changes[]`). Null when any change is unreadable.
 */
export function readPriceChange(e: Raw): PriceChangeMessage | null {
  const list = e['price_changes'] ?? e['changes'];
  if (!Array.isArray(list)) return null;
  const changes: LevelChange[] = [];
  for (const c of list) {
    if (!c || typeof c !== 'object') return null;
    const r = c as Raw;
    const assetId = r['asset_id'] ?? e['asset_id'];
    const s = side(r['side']);
    const price = decimal(r['price']);
    const size = decimal(r['size']);
    if (!isAssetId(assetId) || s === null || price === null || size === null) return null;
    changes.push({
      assetId,
      side: s,
      price,
      size,
      hash: text(r['hash'] ?? (e['price_changes'] ? undefined : e['hash'])),
      bestBid: decimal(r['best_bid']),
      bestAsk: decimal(r['best_ask']),
    });
  }
  return { market: text(e['market']) ?? '', timestamp: epochMs(e['timestamp']), timestampText: text(e['timestamp']), changes };
}

export interface TradeMessage {
  assetId: string;
  market: string;
  price: string;
  size: string | null;
  side: string;
  timestamp: number | null;
  feeRateBps: string | null;
  transactionHash: string | null;
}

export function readTrade(e: Raw): TradeMessage | null {
  const assetId = e['asset_id'];
  const price = decimal(e['price']);
  if (!isAssetId(assetId) || price === null) return null;
  return {
    assetId,
    market: text(e['market']) ?? '',
    price,
    size: decimal(e['size']),
    side: side(e['side']) ?? text(e['side']) ?? '',
    timestamp: epochMs(e['timestamp']),
    feeRateBps: decimal(e['fee_rate_bps']),
    transactionHash: text(e['transaction_hash']),
  };
}

export interface TickSizeMessage {
  assetId: string;
  market: string;
  newTickSize: string;
  oldTickSize: string | null;
  timestamp: number | null;
}

export function readTickSize(e: Raw): TickSizeMessage | null {
  const assetId = e['asset_id'];
  const next = decimal(e['new_tick_size']);
  if (!isAssetId(assetId) || next === null) return null;
  return {
    assetId,
    market: text(e['market']) ?? '',
    newTickSize: next,
    oldTickSize: decimal(e['old_tick_size']),
    timestamp: epochMs(e['timestamp']),
  };
}

/** A frame's events; `malformed` counts what could not be read at all (not JSON, not objects). */
export interface Frame {
  events: Raw[];
  /** The frame was a JSON array. */
  array: boolean;
  malformed: number;
  pong: boolean;
}

export function parseFrame(data: string): Frame {
  const t = data.trim();
  if (t.toUpperCase() === PONG) return { events: [], array: false, malformed: 0, pong: true };
  let v: unknown;
  try {
    v = JSON.parse(t);
  } catch {
    return { events: [], array: false, malformed: 1, pong: false };
  }
  const array = Array.isArray(v);
  const list: unknown[] = array ? (v as unknown[]) : [v];
  const events: Raw[] = [];
  let malformed = 0;
  for (const item of list) {
    if (item && typeof item === 'object' && !Array.isArray(item) && typeof (item as Raw)['event_type'] === 'string')
      events.push(item as Raw);
    else malformed++;
  }
  return { events, array, malformed, pong: false };
}

/** The assets an event is about (a price_change may name several); [] for market-wide events. */
export function eventAssets(e: Raw): string[] {
  const out = new Set<string>();
  const one = e['asset_id'];
  if (isAssetId(one)) out.add(one);
  const list = e['price_changes'];
  if (Array.isArray(list)) {
    for (const c of list) {
      const id = c && typeof c === 'object' ? (c as Raw)['asset_id'] : undefined;
      if (isAssetId(id)) out.add(id);
    }
  }
  return [...out];
}

/** Events sent to every socket that asked for custom features, whatever it subscribed. */
export const BROADCAST_EVENTS: ReadonlySet<string> = new Set(['new_market', 'market_resolved']);
/** Events sent only to sockets that asked for custom features. */
export const CUSTOM_EVENTS: ReadonlySet<string> = new Set(['best_bid_ask', 'new_market', 'market_resolved']);
