/**
 * The live layer: the service's sockets to the upstream CLOB's market channel and, in memory, the
 * book of every asset subscribed there (docs/architecture.md, "The live layer").
 *
 * - Subscriptions are reference-counted: `acquire(ids, owner)` returns a release function; an
 *   asset is subscribed upstream while any owner holds it, and unsubscribed (an `unsubscribe`
 *   operation on its socket) when the last one releases it. Changes made in one tick go out as
 *   one message per socket.
 * - Assets are spread over sockets of at most 500 each (shard.ts: heartbeat, silence, backoff).
 * - Each (re)subscription's `book` snapshot is the truth; every message after it is applied in
 *   order (asset-book.ts: duplicates and stale messages are skipped, so no price moves backwards).
 * - A gap (a change arriving after a newer one, or the upstream's best bid/ask disagreeing with
 *   the book) or a book-hash mismatch forces a fresh snapshot: the asset is resubscribed, and if
 *   no snapshot comes within 10 s its book is read from `GET /book` (through the upstream client
 *   and the outbound scheduler).
 * - Changes are published as typed events (`on`); `status()` is the health `/status` shows.
 */
import { zeroLiveCounters, type LiveBook, type LiveStatus, type LiveTrade } from '../contract/live.ts';
import { silentLogger, type Logger } from '../logger.ts';
import type { Timers } from '../limits/scheduler.ts';
import { AssetBook, fingerprint } from './asset-book.ts';
import { bookSummaryHash } from './book-hash.ts';
import { Emitter } from './emitter.ts';
import {
  BROADCAST_EVENTS,
  channelUrl,
  eventAssets,
  isAssetId,
  MARKET_CHANNEL_PATH,
  parseFrame,
  readBook,
  readPriceChange,
  readTickSize,
  readTrade,
  text,
  type BookMessage,
  type LevelChange,
  type Raw,
} from './protocol.ts';
import { Shard, type ShardSettings } from './shard.ts';

/** One level change as published: `size` "0" removed the level. */
export interface LiveChange {
  side: 'BUY' | 'SELL';
  price: string;
  size: string;
}

/** A `new_market` or `market_resolved` notice (sent once, though every socket receives it). */
export interface LiveMarketNotice {
  /** The condition id. */
  market: string;
  /** The Gamma market id, when sent. */
  id: string | null;
  /** The market's trading ids, when sent (`assets_ids`, else `clob_token_ids`). */
  assetIds: string[];
  /** `market_resolved` only: the winning outcome's trading id, when sent. */
  winningAssetId: string | null;
  /** The message as received. */
  message: Raw;
}

/** An upstream event the live layer accepted (applied, or passed on), with its text as received. */
export interface LiveFrameEvent {
  type: string;
  /** The subscribed assets it concerns; [] for market-wide notices. */
  assets: string[];
  text: string;
  /** A market-wide notice (`new_market`, `market_resolved`). */
  broadcast: boolean;
}

/** One upstream frame's accepted events, for passing on to local subscribers (src/http/market-ws.ts). */
export interface LiveFrame {
  events: LiveFrameEvent[];
  /** The frame was a JSON array of events. */
  array: boolean;
  /** The frame's text when every event in it was accepted (pass it on as received); else undefined. */
  text: string | undefined;
}

export interface LiveEvents {
  /** An asset's book changed: a snapshot replaced it (`snapshot`), or levels changed (`changes`). Read it with `book(assetId)`. */
  book: { assetId: string; market: string; snapshot: boolean; changes: LiveChange[] };
  /** The best bid or ask moved. */
  price: { assetId: string; market: string; bestBid: string | null; bestAsk: string | null; timestamp: number | null };
  trade: { assetId: string; market: string; trade: LiveTrade };
  'tick-size': { assetId: string; market: string; tickSize: string; oldTickSize: string | null };
  new_market: LiveMarketNotice;
  market_resolved: LiveMarketNotice;
  /** Sockets opened, dropped or were replaced. */
  health: LiveStatus;
  frame: LiveFrame;
}

/** Reads `GET /book?token_id=` (the service: the upstream client, at background priority). */
export type BookFetcher = (assetId: string, signal: AbortSignal) => Promise<unknown>;

export interface LiveOptions {
  /** The upstream WebSocket host (`--clob-ws-url`); the market channel is at `<url>/ws/market`. Absent: no socket is ever opened. */
  url?: string;
  /** Offline: no socket is ever opened (subscriptions are still counted). */
  offline?: boolean;
  /** A fresh snapshot when the channel sends none in time; absent: resubscription only. */
  fetchBook?: BookFetcher;
  log?: Logger;
  /** Epoch milliseconds (default Date.now) and timers: injected by tests (src/testing/fake-clock.ts). */
  now?: () => number;
  timers?: Timers;
  /** Backoff jitter (default Math.random). */
  random?: () => number;
  /** Default 500. */
  assetsPerSocket?: number;
  /** `PING` interval (default 10 s). */
  pingIntervalMs?: number;
  /** A socket this long without a frame (or without market messages while its assets trade) is replaced (default 20 s). */
  silentMs?: number;
  /** Reconnect backoff: from `baseMs` (default 500) doubling to `maxMs` (default 30 s), jittered. */
  backoff?: { baseMs?: number; maxMs?: number };
  /** How long a resubscribed asset waits for its snapshot before `GET /book` (default 10 s). */
  snapshotTimeoutMs?: number;
  /** At most one hash-triggered resync per asset in this time (default 30 s). */
  resyncCooldownMs?: number;
  /** Check the upstream's book hashes where they can be checked (default true). */
  hashCheck?: boolean;
}

const realTimers: Timers = {
  set: (fn, ms) => {
    const t = setTimeout(fn, ms);
    // The live layer never keeps the process up by itself.
    t.unref();
    return t;
  },
  clear: (h) => clearTimeout(h as NodeJS.Timeout),
};

/** Market-wide notices remembered, so the copy every socket receives is published once. */
const NOTICES_KEPT = 1024;
/** Failed hash checks, with none verified, after which the upstream's hashes are taken to be uncheckable. */
const HASH_EVIDENCE = 5;

export class LiveMarkets {
  /** The market channel's URL; undefined when the layer is off. */
  readonly url: string | undefined;
  private readonly log: Logger;
  private readonly now: () => number;
  private readonly timers: Timers;
  private readonly emitter: Emitter<LiveEvents>;
  private readonly settings: ShardSettings | undefined;
  private readonly perSocket: number;
  private readonly snapshotTimeoutMs: number;
  private readonly cooldownMs: number;
  private readonly fetchBook: BookFetcher | undefined;
  private readonly counters = zeroLiveCounters();
  /** asset -> owner -> leases held. */
  private readonly owners = new Map<string, Map<string, number>>();
  private readonly books = new Map<string, AssetBook>();
  private readonly shardOf = new Map<string, Shard>();
  private shards: Shard[] = [];
  private nextShardId = 1;
  private readonly added = new Set<string>();
  private readonly removed = new Set<string>();
  private flushQueued = false;
  private closed = false;
  private readonly abort = new AbortController();
  private sweepTimer: unknown;
  private lastMessageAt: number | null = null;
  /** Messages per second: counts per whole second, for the last 10 seconds. */
  private readonly rate = { seconds: new Array<number>(10).fill(-1), counts: new Array<number>(10).fill(0) };
  private hashState: LiveStatus['hashCheck'];
  private snapshotHashFailures = 0;
  private changeHashesOk = 0;
  private changeHashFailures = 0;
  private readonly notices = new Set<number>();
  private readonly noticeOrder: number[] = [];
  private restWarned = '';
  private refusedWarned = false;

  constructor(opts: LiveOptions = {}) {
    this.log = opts.log ?? silentLogger;
    this.now = opts.now ?? Date.now;
    this.timers = opts.timers ?? realTimers;
    this.emitter = new Emitter<LiveEvents>(this.log);
    this.perSocket = opts.assetsPerSocket ?? 500;
    this.snapshotTimeoutMs = opts.snapshotTimeoutMs ?? 10_000;
    this.cooldownMs = opts.resyncCooldownMs ?? 30_000;
    this.fetchBook = opts.fetchBook;
    this.url = !opts.offline && opts.url ? channelUrl(opts.url, MARKET_CHANNEL_PATH) : undefined;
    this.hashState = opts.hashCheck === false || !this.url ? 'off' : 'unknown';
    if (this.url) {
      this.settings = {
        url: this.url,
        now: this.now,
        timers: this.timers,
        random: opts.random ?? Math.random,
        log: this.log,
        pingIntervalMs: opts.pingIntervalMs ?? 10_000,
        silentMs: opts.silentMs ?? 20_000,
        backoffBaseMs: opts.backoff?.baseMs ?? 500,
        backoffMaxMs: opts.backoff?.maxMs ?? 30_000,
        activeMessages: 10,
      };
    }
  }

  /** Adds a listener; the returned function removes it. */
  on<K extends keyof LiveEvents>(name: K, fn: (v: LiveEvents[K]) => void): () => void {
    return this.emitter.on(name, fn);
  }

  /**
   * Holds `ids` (trading ids; anything else is ignored) for `owner` until the returned function is
   * called. An asset is subscribed upstream while anyone holds it.
   */
  acquire(ids: readonly string[], owner: string): () => void {
    const unique = [...new Set(ids)].filter(isAssetId);
    if (this.closed) return () => {};
    for (const id of unique) {
      let held = this.owners.get(id);
      if (!held) {
        held = new Map();
        this.owners.set(id, held);
        this.removed.delete(id);
        this.added.add(id);
      }
      held.set(owner, (held.get(owner) ?? 0) + 1);
    }
    this.queueFlush();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      for (const id of unique) {
        const held = this.owners.get(id);
        const n = held?.get(owner);
        if (!held || n === undefined) continue;
        if (n > 1) held.set(owner, n - 1);
        else held.delete(owner);
        if (held.size === 0) {
          this.owners.delete(id);
          this.added.delete(id);
          this.removed.add(id);
        }
      }
      this.queueFlush();
    };
  }

  /** The assets held by anyone. */
  assets(): string[] {
    return [...this.owners.keys()];
  }

  /** An asset's book and prices; undefined when it is not subscribed (or the layer is off). */
  book(assetId: string): LiveBook | undefined {
    return this.books.get(assetId)?.view();
  }

  /** The socket carrying the asset; null when it is not subscribed. */
  shardIdOf(assetId: string): number | null {
    return this.shardOf.get(assetId)?.id ?? null;
  }

  /** The asset's recent trades (at most TAPE_SIZE), newest first, as applied since it was subscribed. */
  trades(assetId: string): LiveTrade[] {
    return this.books.get(assetId)?.recentTrades() ?? [];
  }

  /** The asset's book as the channel's own `book` message; undefined until its snapshot came. */
  bookMessage(assetId: string): Record<string, unknown> | undefined {
    return this.books.get(assetId)?.bookMessage();
  }

  private queueFlush(): void {
    if (this.flushQueued) return;
    this.flushQueued = true;
    queueMicrotask(() => {
      this.flushQueued = false;
      this.flush();
    });
  }

  /** Applies the tick's subscription changes: one message per socket. */
  private flush(): void {
    if (this.closed || !this.settings) {
      this.added.clear();
      this.removed.clear();
      return;
    }
    const touched = new Set<Shard>();
    for (const id of this.removed) {
      const shard = this.shardOf.get(id);
      if (!shard) continue;
      shard.remove(id);
      this.shardOf.delete(id);
      this.books.delete(id);
      touched.add(shard);
    }
    this.removed.clear();
    for (const id of this.added) {
      if (this.shardOf.has(id)) continue;
      let shard = this.shards.find((s) => s.assets.size < this.perSocket);
      if (!shard) {
        shard = new Shard(this.nextShardId++, this.settings, {
          opened: (s) => this.opened(s),
          frame: (s, t, pong) => this.frame(s, t, pong),
          down: (_s, replaced) => this.down(replaced),
        });
        this.shards.push(shard);
      }
      shard.add(id);
      this.shardOf.set(id, shard);
      this.books.set(id, new AssetBook(id, this.now()));
      touched.add(shard);
    }
    this.added.clear();
    let changed = false;
    for (const shard of touched) {
      if (shard.assets.size === 0) {
        shard.stop();
        this.shards = this.shards.filter((s) => s !== shard);
        changed = true;
      } else {
        if (!shard.open) changed = true;
        shard.flush();
      }
    }
    if (touched.size) this.armSweep();
    if (changed) this.emitHealth();
  }

  private opened(shard: Shard): void {
    const now = this.now();
    for (const id of shard.assets) {
      const b = this.books.get(id);
      // The new subscription's snapshot is the truth: nothing is applied to the old book meanwhile.
      if (b) b.await(b.state === 'waiting' ? 'waiting' : 'resyncing', now);
    }
    this.armSweep();
    this.emitHealth();
  }

  private down(replaced: boolean): void {
    if (replaced) this.counters.replaced++;
    else this.counters.drops++;
    this.emitHealth();
  }

  private frame(shard: Shard, raw: string, pong: boolean): void {
    if (pong) return;
    const now = this.now();
    this.lastMessageAt = now;
    const f = parseFrame(raw);
    this.counters.malformed += f.malformed;
    if (f.malformed && !this.refusedWarned && raw.trim() === 'INVALID OPERATION') {
      // The channel's answer to a message it could not take: a protocol change worth a line.
      this.refusedWarned = true;
      this.log.warn(`live: market channel socket ${shard.id} answered INVALID OPERATION to a subscription message`);
    }
    const accepted: LiveFrameEvent[] = [];
    const passOn = this.emitter.has('frame');
    for (const e of f.events) {
      this.counters.messages++;
      this.count(now);
      const assets = this.handle(shard, e, now);
      if (assets && passOn) {
        const type = e['event_type'] as string;
        const single = !f.array && f.events.length === 1;
        accepted.push({ type, assets, text: single ? raw : JSON.stringify(e), broadcast: BROADCAST_EVENTS.has(type) });
      }
    }
    if (accepted.length) {
      const whole = accepted.length === f.events.length && f.malformed === 0;
      this.emitter.emit('frame', { events: accepted, array: f.array, text: whole ? raw : undefined });
    }
  }

  private count(now: number): void {
    const s = Math.floor(now / 1000);
    const i = s % 10;
    if (this.rate.seconds[i] !== s) {
      this.rate.seconds[i] = s;
      this.rate.counts[i] = 0;
    }
    this.rate.counts[i]!++;
  }

  /** Applies one event; returns the subscribed assets it concerns when it was accepted, else undefined. */
  private handle(shard: Shard, e: Raw, now: number): string[] | undefined {
    const type = e['event_type'] as string;
    switch (type) {
      case 'book': {
        const m = readBook(e);
        if (!m) return this.malformed();
        const b = this.mine(shard, m.assetId);
        if (!b) return undefined;
        const fp = fingerprint(JSON.stringify(e));
        // Awaited after a (re)subscription, the same book as before is the answer, not a copy.
        if (b.state === 'live' && b.isDuplicate(fp)) return this.duplicate();
        if (!this.snapshot(b, m, now)) return undefined;
        b.remember(fp);
        return [b.assetId];
      }
      case 'price_change':
        return this.priceChange(shard, e, now);
      case 'last_trade_price': {
        const t = readTrade(e);
        if (!t) return this.malformed();
        const b = this.mine(shard, t.assetId);
        if (!b) return undefined;
        const fp = fingerprint(JSON.stringify(e));
        if (b.isDuplicate(fp)) return this.duplicate();
        if (b.applyTrade(t) === 'stale') return this.stale();
        b.remember(fp);
        b.receivedAt = now;
        this.emitter.emit('trade', { assetId: b.assetId, market: b.market || t.market, trade: b.lastTrade! });
        return [b.assetId];
      }
      case 'tick_size_change': {
        const m = readTickSize(e);
        if (!m) return this.malformed();
        const b = this.mine(shard, m.assetId);
        if (!b) return undefined;
        const fp = fingerprint(JSON.stringify(e));
        if (b.isDuplicate(fp)) return this.duplicate();
        const old = b.tickSize;
        if (b.applyTickSize(m) === 'stale') return this.stale();
        b.remember(fp);
        b.receivedAt = now;
        this.emitter.emit('tick-size', {
          assetId: b.assetId,
          market: b.market || m.market,
          tickSize: m.newTickSize,
          oldTickSize: old ?? m.oldTickSize,
        });
        return [b.assetId];
      }
      case 'new_market':
      case 'market_resolved': {
        const fp = fingerprint(JSON.stringify(e));
        if (this.notices.has(fp)) return undefined;
        this.notices.add(fp);
        this.noticeOrder.push(fp);
        if (this.noticeOrder.length > NOTICES_KEPT) this.notices.delete(this.noticeOrder.shift()!);
        const ids = Array.isArray(e['assets_ids']) ? e['assets_ids'] : Array.isArray(e['clob_token_ids']) ? e['clob_token_ids'] : [];
        this.emitter.emit(type, {
          market: text(e['market']) ?? '',
          id: text(e['id']),
          assetIds: ids.filter(isAssetId),
          winningAssetId: text(e['winning_asset_id']),
          message: e,
        });
        return [];
      }
      default: {
        // best_bid_ask and anything newer: passed on for the assets it names, not applied.
        const assets = eventAssets(e).filter((id) => this.mine(shard, id));
        if (assets.length === 0) return undefined;
        const fp = fingerprint(JSON.stringify(e));
        const books = assets.map((id) => this.books.get(id)!);
        if (books.every((b) => b.isDuplicate(fp))) return this.duplicate();
        for (const b of books) {
          b.remember(fp);
          b.receivedAt = now;
        }
        return assets;
      }
    }
  }

  /** The asset's book when it is subscribed on this socket (a late message for a released asset is dropped). */
  private mine(shard: Shard, id: string): AssetBook | undefined {
    return this.shardOf.get(id) === shard ? this.books.get(id) : undefined;
  }

  private malformed(): undefined {
    this.counters.malformed++;
    return undefined;
  }
  private duplicate(): undefined {
    this.counters.duplicates++;
    return undefined;
  }
  private stale(): undefined {
    this.counters.stale++;
    return undefined;
  }

  /** Applies a snapshot (from the channel or `GET /book`) and publishes what changed; false when it was stale. */
  private snapshot(b: AssetBook, m: BookMessage, now: number): boolean {
    const bid = b.bestBid;
    const ask = b.bestAsk;
    const tick = b.tickSize;
    if (b.applySnapshot(m) === 'stale') {
      this.counters.stale++;
      return false;
    }
    b.receivedAt = now;
    this.checkSnapshotHash(b, m);
    this.emitter.emit('book', { assetId: b.assetId, market: b.market, snapshot: true, changes: [] });
    if (b.bestBid !== bid || b.bestAsk !== ask) this.emitPrice(b);
    if (b.tickSize !== null && tick !== null && b.tickSize !== tick) {
      this.emitter.emit('tick-size', { assetId: b.assetId, market: b.market, tickSize: b.tickSize, oldTickSize: tick });
    }
    return true;
  }

  private emitPrice(b: AssetBook): void {
    this.emitter.emit('price', { assetId: b.assetId, market: b.market, bestBid: b.bestBid, bestAsk: b.bestAsk, timestamp: b.bookTs });
  }

  private priceChange(shard: Shard, e: Raw, now: number): string[] | undefined {
    const m = readPriceChange(e);
    if (!m) return this.malformed();
    const fp = fingerprint(JSON.stringify(e));
    /** Per asset: its changes, best prices before, and whether the message was skipped for it. */
    const seen = new Map<AssetBook, { changes: LiveChange[]; bid: string | null; ask: string | null; skip: boolean }>();
    for (const c of m.changes) {
      const b = this.mine(shard, c.assetId);
      if (!b) continue;
      let s = seen.get(b);
      if (!s) {
        const dup = b.isDuplicate(fp);
        if (dup) this.counters.duplicates++;
        s = { changes: [], bid: b.bestBid, ask: b.bestAsk, skip: dup };
        seen.set(b, s);
      }
      if (s.skip) continue;
      const r = b.applyChange(c, m.timestamp, m.timestampText);
      if (r === 'ignored') continue;
      if (r === 'stale') {
        this.counters.stale++;
        s.skip = true;
        continue;
      }
      if (r === 'gap') {
        this.counters.gaps++;
        s.skip = true;
        this.resync(b.assetId);
        continue;
      }
      s.changes.push({ side: c.side, price: c.price, size: c.size });
      if (!b.bestAgrees(c)) {
        this.counters.gaps++;
        s.skip = true;
        this.resync(b.assetId);
        continue;
      }
      if (!this.changeHashOk(b, c, now)) {
        s.skip = true;
        this.resync(b.assetId);
      }
    }
    const accepted: string[] = [];
    for (const [b, s] of seen) {
      if (!s.changes.length) continue;
      b.remember(fp);
      b.receivedAt = now;
      if (s.skip) continue;
      accepted.push(b.assetId);
      this.emitter.emit('book', { assetId: b.assetId, market: b.market, snapshot: false, changes: s.changes });
      if (b.bestBid !== s.bid || b.bestAsk !== s.ask) this.emitPrice(b);
    }
    return accepted.length ? accepted : undefined;
  }

  private checkSnapshotHash(b: AssetBook, m: BookMessage): void {
    b.hashArmed = false;
    if (this.hashState === 'off' || this.hashState === 'uncheckable' || m.hash === null) return;
    const summary = b.summary();
    if (!summary) return;
    if (bookSummaryHash(summary) === m.hash) {
      b.hashArmed = true;
      if (this.hashState === 'unknown') {
        this.hashState = 'checkable';
        this.log.info('live: the upstream book hashes are the official SDK book-summary hash; a mismatch now forces a fresh snapshot');
      }
    } else if (this.hashState === 'unknown' && ++this.snapshotHashFailures >= HASH_EVIDENCE) {
      this.uncheckable('snapshots');
    }
  }

  /** False when the change's hash disagrees with the book and the asset should be resynced. */
  private changeHashOk(b: AssetBook, c: LevelChange, now: number): boolean {
    if (!b.hashArmed || c.hash === null || this.hashState !== 'checkable') return true;
    const summary = b.summary();
    if (!summary) return true;
    if (bookSummaryHash(summary) === c.hash) {
      this.changeHashesOk++;
      return true;
    }
    this.counters.hashMismatches++;
    if (this.changeHashesOk === 0 && ++this.changeHashFailures >= HASH_EVIDENCE) {
      this.uncheckable('book changes');
      return true;
    }
    if (now - b.lastResyncAt < this.cooldownMs) {
      // Resynced moments ago: check again after the next snapshot instead of asking again.
      b.hashArmed = false;
      return true;
    }
    return false;
  }

  private uncheckable(what: string): void {
    this.hashState = 'uncheckable';
    this.log.warn(
      `live: the upstream's hashes of ${what} are not the official SDK's book-summary hash; hashes are not checked (gaps still resync)`,
    );
  }

  /**
   * Asks for a fresh snapshot of an asset: resubscribes it on its socket (a closed socket's
   * reconnect brings every snapshot anyway); `GET /book` follows if none comes in time.
   */
  resync(assetId: string): void {
    const b = this.books.get(assetId);
    if (!b || b.state === 'resyncing' || this.closed) return;
    const now = this.now();
    b.await('resyncing', now);
    b.lastResyncAt = now;
    this.counters.resyncs++;
    this.shardOf.get(assetId)?.resubscribe(assetId);
    this.armSweep();
  }

  /** While assets await a snapshot, checks every half timeout for those waiting too long. */
  private armSweep(): void {
    if (this.sweepTimer !== undefined || this.closed || !this.fetchBook) return;
    this.sweepTimer = this.timers.set(
      () => {
        this.sweepTimer = undefined;
        this.sweep();
      },
      Math.max(1, Math.floor(this.snapshotTimeoutMs / 2)),
    );
  }

  private sweep(): void {
    if (this.closed) return;
    const now = this.now();
    let waiting = false;
    for (const b of this.books.values()) {
      if (b.awaitingSince === null) continue;
      waiting = true;
      if (b.restInFlight || b.noBook || !this.shardOf.get(b.assetId)?.open || now - b.awaitingSince < this.snapshotTimeoutMs) continue;
      void this.restBook(b);
    }
    if (waiting) this.armSweep();
  }

  /** The asset's book from `GET /book`, when the channel sent no snapshot in time. */
  private async restBook(b: AssetBook): Promise<void> {
    b.restInFlight = true;
    try {
      const answer = await this.fetchBook!(b.assetId, this.abort.signal);
      if (this.closed || this.books.get(b.assetId) !== b || b.state === 'live') return;
      const m = answer && typeof answer === 'object' ? readBook(answer as Raw) : null;
      if (!m || m.assetId !== b.assetId) {
        this.counters.malformed++;
        return;
      }
      if (!this.snapshot(b, m, this.now())) return;
      this.counters.restBooks++;
      const message = b.bookMessage();
      if (message && this.emitter.has('frame')) {
        const t = JSON.stringify(message);
        this.emitter.emit('frame', { events: [{ type: 'book', assets: [b.assetId], text: t, broadcast: false }], array: false, text: t });
      }
    } catch (e) {
      // No book for this id (unknown, or of the other kind than its market's version): the channel
      // sends nothing for it either; it is not asked again while subscribed.
      if ((e as { status?: unknown }).status === 404) b.noBook = true;
      const why = (e as Error).message;
      if (!this.closed && why !== this.restWarned) this.log.warn(`live: GET /book for a resync failed: ${why}`);
      this.restWarned = why;
    } finally {
      b.restInFlight = false;
      // The next try waits a whole timeout again.
      if (b.awaitingSince !== null) b.awaitingSince = this.now();
    }
  }

  private emitHealth(): void {
    if (this.emitter.has('health')) this.emitter.emit('health', this.status());
  }

  status(): LiveStatus {
    const now = this.now();
    const silentMs = this.settings?.silentMs ?? 0;
    const shards = this.shards.map((s) => s.status(now));
    const open = shards.filter((s) => s.state === 'open').length;
    const silent = this.shards.some((s) => s.assets.size > 0 && s.open && (s.frameAge(now) ?? 0) > silentMs);
    const down = this.shards.some((s) => s.assets.size > 0 && !s.open);
    const everOpened = this.shards.some((s) => s.lastFrameAt !== null);
    let state: LiveStatus['state'];
    if (!this.url) state = 'off';
    else if (this.owners.size === 0 && this.shards.length === 0) state = 'idle';
    else if (silent || (down && everOpened)) state = 'degraded';
    else if (down || open < this.shards.length || this.shards.length === 0) state = 'connecting';
    else state = 'live';
    let recent = 0;
    const second = Math.floor(now / 1000);
    for (let i = 0; i < 10; i++) if (second - this.rate.seconds[i]! < 10) recent += this.rate.counts[i]!;
    return {
      state,
      url: this.url ?? null,
      sockets: { total: shards.length, open },
      assets: this.owners.size,
      owners: new Set([...this.owners.values()].flatMap((m) => [...m.keys()])).size,
      messagesPerSecond: recent / 10,
      lastMessageAgeMs: this.lastMessageAt === null ? null : Math.max(0, now - this.lastMessageAt),
      stalled: silent || down,
      staleAfterMs: Math.round(silentMs / 2),
      hashCheck: this.hashState,
      counters: { ...this.counters },
      shards,
    };
  }

  /** Closes every socket; nothing is opened again. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.abort.abort(new Error('the live layer is closing'));
    if (this.sweepTimer !== undefined) this.timers.clear(this.sweepTimer);
    this.sweepTimer = undefined;
    for (const s of this.shards) s.stop();
    this.shards = [];
    this.shardOf.clear();
    this.books.clear();
  }
}
