/**
 * The clob face's `/ws/market`: the upstream CLOB's market channel for local scripts, in its own
 * protocol (docs/api-guide.md, "Live books for scripts"), so a script written for
 * `wss://ws-subscriptions-clob.polymarket.com/ws/market` works with only the URL changed.
 *
 * - The first message subscribes: `{"assets_ids":[…],"type":"market","custom_feature_enabled"?,
 *   "initial_dump"?}`; then `{"operation":"subscribe"|"unsubscribe","assets_ids":[…]}`. `PING` is
 *   answered `PONG`. Anything else, a second first message included, is answered `INVALID
 *   OPERATION`, as upstream.
 * - On a subscription, the books the service already holds are sent at once, as one array frame
 *   of `book` messages made from the live layer's state (unless `initial_dump` is false); the
 *   others come when the upstream sends them. After that every upstream message for the
 *   subscribed assets is passed on as received (a frame whose events all concern the socket
 *   byte for byte), less the duplicates and stale messages the live layer dropped. `best_bid_ask`,
 *   `new_market` and `market_resolved` go only to sockets that set `custom_feature_enabled`.
 * - Every local socket's assets are held in the live layer under its own owner, so any number of
 *   local subscribers share the service's upstream sockets; closing a socket releases its assets.
 * - The upgrade passes the face's guards first (origin-guard.ts: loopback Host, foreign Origins
 *   refused) and counts in the inbound limits as one request.
 */
import websocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import type { Socket } from 'node:net';
import type { WebSocket } from 'ws';
import type { Logger } from '../logger.ts';
import {
  CUSTOM_EVENTS,
  isAssetId,
  MARKET_CHANNEL_PATH,
  PING,
  PONG,
  type LiveFrame,
  type LiveFrameEvent,
  type LiveMarkets,
} from '../live/index.ts';

/** What the upstream answers a message it cannot take. */
export const INVALID_OPERATION = 'INVALID OPERATION';

export interface MarketWsOptions {
  live: LiveMarkets;
  log: Logger;
  /** Ids the catalog knows to be the other kind for their market: not subscribed (upstream sends nothing for them either). */
  wrongTradingId?: (id: string) => boolean;
  /** Assets one local socket may hold (default 10,000; upstream's own sockets stop at 500, the service shards). */
  maxAssets?: number;
  /** A socket this far behind (bytes queued) is closed with 1013 (default 16 MiB). */
  maxBufferedBytes?: number;
}

/** A message's largest accepted size: 10,000 ids of 100 digits fit. */
const MAX_PAYLOAD = 2 * 1024 * 1024;

interface Local {
  socket: WebSocket;
  /** The connection under it: corked while a turn's frames are written (see `send`). */
  net: Socket;
  owner: string;
  /** Asset -> its release in the live layer. */
  assets: Map<string, () => void>;
  custom: boolean;
  started: boolean;
}

export async function registerMarketWs(app: FastifyInstance, opts: MarketWsOptions): Promise<void> {
  const { live, log } = opts;
  const maxAssets = opts.maxAssets ?? 10_000;
  const maxBuffered = opts.maxBufferedBytes ?? 16 * 1024 * 1024;
  const conns = new Set<Local>();
  const byAsset = new Map<string, Set<Local>>();
  let seq = 0;
  // Frames written to a socket in one event-loop turn leave in one write: at 1,000 upstream
  // messages a second to 50 scripts, a system call per frame was most of the service's CPU. Each
  // message stays its own frame, as received; the cork is lifted as soon as the turn's I/O is done.
  const corked = new Set<Local>();
  const uncork = (): void => {
    for (const c of corked) c.net.uncork();
    corked.clear();
  };

  /** `bytes`: the text already encoded, when many sockets get the same frame (encoded once, not per socket). */
  const send = (c: Local, text: string, bytes?: Buffer): void => {
    if (c.socket.readyState !== c.socket.OPEN) return;
    if (c.socket.bufferedAmount > maxBuffered) {
      log.warn(`/ws/market: a local subscriber fell ${c.socket.bufferedAmount} bytes behind; closing it`);
      c.socket.close(1013, 'too slow: messages were piling up');
      return;
    }
    if (!corked.has(c)) {
      if (corked.size === 0) setImmediate(uncork);
      corked.add(c);
      c.net.cork();
    }
    if (bytes) c.socket.send(bytes, { binary: false });
    else c.socket.send(text);
  };

  const subscribe = (c: Local, ids: unknown, dump: boolean): void => {
    const fresh: string[] = [];
    for (const id of Array.isArray(ids) ? ids : []) {
      if (!isAssetId(id) || c.assets.has(id) || c.assets.size >= maxAssets) continue;
      if (opts.wrongTradingId?.(id)) continue;
      c.assets.set(id, live.acquire([id], c.owner));
      let set = byAsset.get(id);
      if (!set) {
        set = new Set();
        byAsset.set(id, set);
      }
      set.add(c);
      fresh.push(id);
    }
    if (!dump) return;
    // The books the service holds now; the others arrive with the upstream's own snapshots.
    const books = fresh.map((id) => live.bookMessage(id)).filter((b) => b !== undefined);
    if (books.length) send(c, JSON.stringify(books));
  };

  const unsubscribe = (c: Local, ids: unknown): void => {
    for (const id of Array.isArray(ids) ? ids : []) {
      if (typeof id !== 'string') continue;
      const release = c.assets.get(id);
      if (!release) continue;
      c.assets.delete(id);
      release();
      const set = byAsset.get(id);
      set?.delete(c);
      if (set?.size === 0) byAsset.delete(id);
    }
  };

  /** The reply to a message, if any: PONG, or INVALID OPERATION for what cannot be taken. */
  const answer = (c: Local, text: string): string | undefined => {
    if (text.trim().toUpperCase() === PING) return PONG;
    let m: Record<string, unknown>;
    try {
      const v: unknown = JSON.parse(text);
      if (!v || typeof v !== 'object' || Array.isArray(v)) return INVALID_OPERATION;
      m = v as Record<string, unknown>;
    } catch {
      return INVALID_OPERATION;
    }
    if (typeof m['custom_feature_enabled'] === 'boolean') c.custom = m['custom_feature_enabled'];
    const dump = m['initial_dump'] !== false;
    const op = m['operation'];
    const type = typeof m['type'] === 'string' ? m['type'].toLowerCase() : undefined;
    if (op === 'subscribe') subscribe(c, m['assets_ids'], dump);
    else if (op === 'unsubscribe') unsubscribe(c, m['assets_ids']);
    else if (op === undefined && type === 'market' && !c.started) {
      c.started = true;
      subscribe(c, m['assets_ids'], dump);
    } else return INVALID_OPERATION;
    return undefined;
  };

  /** Calls `fn` once for each socket that takes `e` (subscribed to one of its assets, or everyone for a broadcast). */
  const eachTarget = (e: LiveFrameEvent, fn: (c: Local) => void): void => {
    const custom = CUSTOM_EVENTS.has(e.type);
    const take = (c: Local) => {
      if (!custom || c.custom) fn(c);
    };
    if (e.broadcast) for (const c of conns) take(c);
    else if (e.assets.length === 1) for (const c of byAsset.get(e.assets[0]!) ?? []) take(c);
    else {
      const seen = new Set<Local>();
      for (const id of e.assets) {
        for (const c of byAsset.get(id) ?? []) {
          if (seen.has(c)) continue;
          seen.add(c);
          take(c);
        }
      }
    }
  };

  /** Each local socket gets the frame's events about its assets: the frame as received when they are all of it. */
  const stopFrames = live.on('frame', (f: LiveFrame) => {
    // The common case, one event: the same text to every taker, encoded once, nothing else built.
    if (f.events.length === 1) {
      const e = f.events[0]!;
      const text = f.text ?? (f.array ? `[${e.text}]` : e.text);
      let bytes: Buffer | undefined;
      let first: Local | undefined;
      eachTarget(e, (c) => {
        if (!first) {
          first = c;
          return;
        }
        bytes ??= Buffer.from(text);
        send(c, text, bytes);
      });
      if (first) send(first, text, bytes);
      return;
    }
    const per = new Map<Local, LiveFrameEvent[]>();
    for (const e of f.events) {
      eachTarget(e, (c) => {
        let list = per.get(c);
        if (!list) {
          list = [];
          per.set(c, list);
        }
        list.push(e);
      });
    }
    // Scripts on the same assets get the same text: one encoding for all of them.
    const encoded = new Map<string, Buffer>();
    for (const [c, events] of per) {
      const text = !f.array
        ? events[0]!.text
        : events.length === f.events.length && f.text !== undefined
          ? f.text
          : `[${events.map((e) => e.text).join(',')}]`;
      if (per.size === 1) {
        send(c, text);
        continue;
      }
      let bytes = encoded.get(text);
      if (!bytes) {
        bytes = Buffer.from(text);
        encoded.set(text, bytes);
      }
      send(c, text, bytes);
    }
  });

  await app.register(websocket, { options: { maxPayload: MAX_PAYLOAD } });
  // An upgrade refused before the plugin's own hooks ran (the origin guard, the inbound limits)
  // leaves its socket with nobody reading it, which would also hold the face's close: end it
  // once the refusal is written.
  app.addHook('onResponse', async (req) => {
    const socket = req.raw.socket;
    if (req.raw.headers.upgrade === undefined || socket.destroyed) return;
    socket.end(() => socket.destroy());
  });
  app.addHook('onClose', async () => {
    stopFrames();
    for (const c of conns) c.socket.terminate();
  });

  app.get(MARKET_CHANNEL_PATH, { websocket: true }, (socket, req) => {
    const c: Local = { socket, net: req.socket, owner: `local-ws-${++seq}`, assets: new Map(), custom: false, started: false };
    conns.add(c);
    socket.on('message', (data, isBinary) => {
      const text = Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.from(data as Buffer).toString('utf8');
      const reply = isBinary ? INVALID_OPERATION : answer(c, text);
      if (reply !== undefined) send(c, reply);
    });
    socket.on('close', () => {
      conns.delete(c);
      if (corked.delete(c)) c.net.uncork();
      unsubscribe(c, [...c.assets.keys()]);
    });
  });
}
