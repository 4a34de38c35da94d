/**
 * The CLOB market channel, `ws://HOST:PORT/ws/market`, on the fake's own HTTP server (an `upgrade`
 * on server.ts's port, the `ws` library with `noServer`), behaving like Polymarket's
 * `wss://ws-subscriptions-clob.polymarket.com/ws/market` (docs/upstream/polymarket-2026.md section 5;
 * samples in fixtures/polymarket-2026/ws-market/).
 *
 * What a client sends (text frames):
 * - `{"assets_ids":[…],"type":"market","custom_feature_enabled"?:true,"initial_dump"?:false}` once;
 *   a second one is answered `INVALID OPERATION`, as the real server does (nautilus_trader PR #3717).
 * - `{"operation":"subscribe"|"unsubscribe","assets_ids":[…]}` any time after (`initial_dump` and
 *   `custom_feature_enabled` are read there too).
 * - `PING`, answered `PONG`. Anything else: `INVALID OPERATION`.
 *
 * What it sends: on a subscription, one JSON array frame of `book` snapshots, one per new asset that
 * has a book, unless `initial_dump` is false; then the updates of market-ticks.ts for the assets the
 * socket holds (`best_bid_ask` only with `custom_feature_enabled`), each frame one event object or a
 * JSON array of a step's events (drawn from the seed); `new_market` and `market_resolved` to every
 * socket with `custom_feature_enabled` when a mutation (mutations.ts) opens or resolves a market; a
 * `price` mutation makes the market's books again around the new price and sends those held as `book`s.
 * A socket holds at most `maxAssetsPerSocket` assets (500, the real, undocumented limit): the ones
 * asked for beyond get no snapshot and no updates (`overCap: 'refuse'` closes the socket with 1008
 * instead). Ids with no book (unknown, or of the other kind than their market's version) take a slot
 * but get nothing.
 *
 * Books are one state with the REST routes (market-books.ts): a step changes the asset's live book,
 * which `GET /book` & co. then answer, so REST and the channel agree. Updates come from `tick(n)`, a
 * timer at `rate` steps a second (`start`; 0 = only on demand) and scripted `emit`s; the walk is
 * seeded (`seed`), so the same subscriptions and calls give the same events. Timestamps follow the
 * fake CLOB's clock (`trading.now`, fixed by default) and rise by at least 1 ms per step.
 *
 * Faults (`faults`, and `POST /_fake/market-ws`): drop every socket without a close frame, freeze
 * (sockets stay open; nothing is sent, `PING` and protocol pings go unanswered; what clients send is
 * read when thawed; updates made meanwhile are lost to them), a malformed frame, duplicated frames,
 * two consecutive `price_change`s of an asset swapped, refusing sockets over the cap.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { type RawData, type WebSocket, WebSocketServer } from 'ws';
import type { FakeCatalog } from './catalog.ts';
import { parseList } from './clob.ts';
import type { BookSummary } from './market-books.ts';
import { BookWalker, bookEvent, type MarketChange, type MarketEvent } from './market-ticks.ts';
import { onMutation, type Mutation } from './mutations.ts';
import type { FakeTrading } from './trading.ts';

export type { MarketChange, MarketEvent } from './market-ticks.ts';

export const MARKET_WS_PATH = '/ws/market';
/** Assets one socket carries on the real channel (nautilus_trader's docs: an "undocumented limitation"). */
export const MARKET_WS_MAX_ASSETS = 500;
/** The control route (routes/control.ts): `{"action": …}`, see `marketWsControl`. */
export const MARKET_WS_CONTROL_PATH = '/_fake/market-ws';
export const INVALID_OPERATION = 'INVALID OPERATION';

export interface MarketWsOptions {
  /** Seed of the walk and the framing choices (default 1). */
  seed?: number;
  /** Steps per second of the timer, started with the server; 0 (default): only `tick` and `emit`. */
  rate?: number;
  /** Assets one socket carries (default 500). */
  maxAssetsPerSocket?: number;
  /** Over the cap: 'ignore' (default, as the real one: no snapshot, no updates) or 'refuse' (close 1008). */
  overCap?: 'ignore' | 'refuse';
  /** The clock of event timestamps (ms; default: the fake CLOB's clock). */
  now?: () => number;
  /**
   * Called as a publish's frames are handed to the sockets (never while frozen), with its events:
   * the bench's per-message send time (bench/live-upstream.ts); absent: nothing is recorded.
   */
  sent?: (events: readonly MarketEvent[]) => void;
}

/** What a socket sent, in order. */
export interface MarketWsReceived {
  /** Wall-clock ms of arrival. */
  at: number;
  /** The text frame as sent (binary frames as `<binary N bytes>`). */
  text: string;
  /** How it was taken: a heartbeat, a subscription (first, or an operation), or refused. */
  kind: 'ping' | 'market' | 'subscribe' | 'unsubscribe' | 'invalid';
}

export interface MarketWsSocketInfo {
  /** 1, 2, … in connection order. */
  id: number;
  open: boolean;
  /** The close code seen (1006: closed without a close frame). */
  closeCode?: number;
  customFeature: boolean;
  /** Subscribed assets within the cap, in subscription order (ids with no book included). */
  assets: string[];
  /** Assets asked for beyond the cap: no snapshot, no updates. */
  overCap: string[];
  /** Every frame the client sent, in order, once read (frames sent during a freeze are read at thaw). */
  received: MarketWsReceived[];
  /** Frames sent during a freeze, not yet read. */
  queued: number;
  /** Frames sent to it (PONGs and faults included). */
  framesSent: number;
  /** Protocol-level pings received. */
  pings: number;
}

interface Sock {
  id: number;
  ws: WebSocket;
  open: boolean;
  closeCode?: number;
  initial: boolean;
  customFeature: boolean;
  assets: Set<string>;
  /** Of `assets`, those with a book: the ones updates are about. */
  booked: Set<string>;
  overCap: string[];
  received: MarketWsReceived[];
  /** Frames read while frozen, handled at thaw. */
  queued: { data: RawData; binary: boolean; at: number }[];
  framesSent: number;
  pings: number;
}

type Framing = 'single' | 'array';

/** Events that go to a socket by the asset they are about. */
const ASSET_EVENTS = new Set(['book', 'price_change', 'last_trade_price', 'tick_size_change', 'best_bid_ask']);
/** Events only sockets with `custom_feature_enabled` get. */
const CUSTOM_EVENTS = new Set(['best_bid_ask', 'new_market', 'market_resolved']);

export interface MarketWsFaults {
  /** Closes every socket without a close frame (`terminate()`; clients see 1006); returns how many. */
  drop(): number;
  /** Keeps sockets open but sends nothing and answers no PING (text or protocol) until `thaw()`. */
  freeze(): void;
  /** Ends a freeze: frames clients sent meanwhile are read now, in order. */
  thaw(): void;
  readonly frozen: boolean;
  /** Sends a frame that is not JSON to every open socket (default: a truncated `price_change`). */
  malformed(text?: string): void;
  /** The frames of the next `n` publishes (a step, an `emit`, a catalog event) are each sent twice. */
  duplicate(n?: number): void;
  /** Holds the next `price_change` and sends it right after the following `price_change` of the same asset. */
  reorder(): void;
}

export const MALFORMED_FRAME = '{"event_type":"price_change","market":"0x';
/** Frames a socket's `received` log keeps (the newest). */
const MAX_RECEIVED = 10_000;

export class FakeMarketWs {
  readonly path = MARKET_WS_PATH;
  readonly seed: number;
  /** Assets one socket carries; changing it applies to later subscriptions. */
  maxAssetsPerSocket: number;
  overCap: 'ignore' | 'refuse';
  readonly faults: MarketWsFaults;
  private base = '';
  private readonly wss = new WebSocketServer({ noServer: true, autoPong: false, maxPayload: 1 << 20 });
  private readonly socks: Sock[] = [];
  private readonly walker: BookWalker;
  private readonly now: () => number;
  private readonly sentHook: ((events: readonly MarketEvent[]) => void) | undefined;
  private lastTs = 0;
  private rateValue = 0;
  private timer: NodeJS.Timeout | undefined;
  private frozen = false;
  private duplicates = 0;
  private reorderArmed = false;
  private held: { asset: string; event: MarketEvent } | undefined;
  private sentTotal = 0;
  private waiters: { pred: () => boolean; resolve: () => void }[] = [];
  private readonly unwatch: () => void;
  private closed = false;

  constructor(
    private readonly trading: FakeTrading,
    private readonly catalog: FakeCatalog,
    opts: MarketWsOptions = {},
  ) {
    this.seed = opts.seed ?? 1;
    this.maxAssetsPerSocket = opts.maxAssetsPerSocket ?? MARKET_WS_MAX_ASSETS;
    this.overCap = opts.overCap ?? 'ignore';
    this.now = opts.now ?? trading.now;
    this.sentHook = opts.sent;
    // Updates come after every snapshot of a book that never ticked (stamped with the clock's now).
    this.lastTs = Math.floor(this.now());
    this.rateValue = opts.rate ?? 0;
    this.walker = new BookWalker(this.seed, trading, () => this.stamp());
    this.unwatch = onMutation(catalog, (m) => this.onMutation(m));
    const self = this;
    this.faults = {
      drop: () => this.drop(),
      freeze: () => {
        this.frozen = true;
      },
      thaw: () => this.thaw(),
      get frozen() {
        return self.frozen;
      },
      malformed: (text = MALFORMED_FRAME) => {
        for (const s of this.openSocks()) this.send(s, text);
        this.changed();
      },
      duplicate: (n = 1) => {
        this.duplicates += n;
      },
      reorder: () => {
        this.reorderArmed = true;
      },
    };
  }

  // ---- addresses --------------------------------------------------------------------------

  /** `ws://HOST:PORT`: the fake's own host and port (the channel is at `${url}/ws/market`). */
  get url(): string {
    return this.base;
  }

  /** `ws://HOST:PORT/ws/market`. */
  get channelUrl(): string {
    return `${this.base}${MARKET_WS_PATH}`;
  }

  /** server.ts, once listening: the HTTP URL the channel shares; starts the timer when a rate was given. */
  listening(httpUrl: string): void {
    this.base = httpUrl.replace(/^http/, 'ws');
    if (this.rateValue > 0) this.start(this.rateValue);
  }

  /** server.ts's `upgrade`: takes requests for `/ws/market` (true), leaves the others (false). */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean {
    const path = (req.url ?? '').split('?')[0];
    if (path !== MARKET_WS_PATH || this.closed) return false;
    this.wss.handleUpgrade(req, socket, head, (ws) => this.connection(ws));
    return true;
  }

  // ---- state ------------------------------------------------------------------------------

  /** The fake's current book of an asset (live once it ticked, else derived), as `GET /book` answers it. */
  book(assetId: string): BookSummary | undefined {
    return this.trading.bookOf(assetId);
  }

  get socketCount(): number {
    return this.openSocks().length;
  }

  /** Distinct assets subscribed over the open sockets, within each socket's cap, in subscription order. */
  subscribedAssets(): string[] {
    const out = new Set<string>();
    for (const s of this.openSocks()) for (const a of s.assets) out.add(a);
    return [...out];
  }

  get assetCount(): number {
    return this.subscribedAssets().length;
  }

  /** Every socket so far (closed ones too) with what it subscribed and sent. */
  sockets(): MarketWsSocketInfo[] {
    return this.socks.map((s) => ({
      id: s.id,
      open: s.open,
      ...(s.closeCode !== undefined ? { closeCode: s.closeCode } : {}),
      customFeature: s.customFeature,
      assets: [...s.assets],
      overCap: [...s.overCap],
      received: [...s.received],
      queued: s.queued.length,
      framesSent: s.framesSent,
      pings: s.pings,
    }));
  }

  /** Frames sent over all sockets. */
  get framesSent(): number {
    return this.sentTotal;
  }

  /** Steps per second of the timer (0: stopped). */
  get rate(): number {
    return this.timer ? this.rateValue : 0;
  }

  /**
   * Resolves once `pred()` holds, checked now and after every change of the channel (a socket
   * opened or closed, a frame read or sent); rejects after `timeoutMs` (default 10 s).
   */
  until(pred: () => boolean, timeoutMs = 10_000): Promise<void> {
    if (pred()) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const w = {
        pred,
        resolve: () => {
          clearTimeout(t);
          resolve();
        },
      };
      const t = setTimeout(() => {
        this.waiters = this.waiters.filter((x) => x !== w);
        reject(new Error(`marketWs.until: not true after ${timeoutMs} ms`));
      }, timeoutMs);
      t.unref();
      this.waiters.push(w);
    });
  }

  // ---- updates ----------------------------------------------------------------------------

  /**
   * Runs `n` steps of the walk now, each on an asset drawn from the subscribed ones that have a book,
   * and sends them; returns their events (also when frozen, when nothing is sent). No subscribed
   * asset: nothing happens.
   */
  tick(n = 1): MarketEvent[] {
    const assets = this.tickAssets();
    const all: MarketEvent[] = [];
    if (assets.length === 0) return all;
    for (let i = 0; i < n; i++) {
      const asset = assets[Math.floor(this.walker.random() * assets.length)]!;
      const events = this.walker.step(asset);
      // Like the real channel, a frame is sometimes one event, sometimes an array of them.
      const framing: Framing = this.walker.random() < (events.length > 1 ? 0.5 : 0.2) ? 'array' : 'single';
      this.publish(events, framing);
      all.push(...events);
    }
    return all;
  }

  /** Applies a scripted change to an asset's book and sends its events (one frame each, or one array). */
  emit(assetId: string, change: MarketChange, framing: Framing = 'single'): MarketEvent[] {
    const events = this.walker.apply(assetId, change);
    this.publish(events, framing);
    return events;
  }

  /** Ticks `rate` steps a second from now on (0 stops); at most one second's worth at a time. */
  start(rate: number): void {
    this.stop();
    this.rateValue = rate > 0 ? rate : 0;
    if (this.rateValue === 0 || this.closed) return;
    const period = Math.max(10, 1000 / rate);
    let last = performance.now();
    let due = 0;
    this.timer = setInterval(() => {
      const t = performance.now();
      due = Math.min(due + ((t - last) / 1000) * rate, Math.max(1, rate));
      last = t;
      const n = Math.floor(due);
      due -= n;
      if (n > 0) this.tick(n);
    }, period);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Stops the timer, drops every socket and stops taking upgrades. */
  close(): Promise<void> {
    this.closed = true;
    this.stop();
    this.unwatch();
    for (const s of this.openSocks()) {
      s.open = false;
      s.ws.terminate();
    }
    return new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }

  // ---- internals --------------------------------------------------------------------------

  /** The next event timestamp: the clock, but at least 1 ms after the previous one. */
  private stamp(): string {
    this.lastTs = Math.max(Math.floor(this.now()), this.lastTs + 1);
    return String(this.lastTs);
  }

  private openSocks(): Sock[] {
    return this.socks.filter((s) => s.open);
  }

  private tickAssets(): string[] {
    const out = new Set<string>();
    for (const s of this.openSocks()) for (const a of s.booked) out.add(a);
    return [...out];
  }

  private changed(): void {
    if (this.waiters.length === 0) return;
    this.waiters = this.waiters.filter((w) => {
      if (!w.pred()) return true;
      w.resolve();
      return false;
    });
  }

  private connection(ws: WebSocket): void {
    const s: Sock = {
      id: this.socks.length + 1,
      ws,
      open: true,
      initial: false,
      customFeature: false,
      assets: new Set(),
      booked: new Set(),
      overCap: [],
      received: [],
      queued: [],
      framesSent: 0,
      pings: 0,
    };
    this.socks.push(s);
    ws.on('message', (data, binary) => {
      if (this.frozen) s.queued.push({ data, binary, at: Date.now() });
      else this.read(s, data, binary, Date.now());
      this.changed();
    });
    ws.on('ping', (data) => {
      s.pings++;
      if (!this.frozen) ws.pong(data);
      this.changed();
    });
    ws.on('close', (code) => {
      s.open = false;
      s.closeCode = code;
      this.changed();
    });
    // A client's protocol error closes its socket (the 'close' above); nothing to report.
    ws.on('error', () => {});
    this.changed();
  }

  private read(s: Sock, data: RawData, binary: boolean, at: number): void {
    const text = binary ? `<binary ${Buffer.isBuffer(data) ? data.length : 0} bytes>` : data.toString();
    const log = (kind: MarketWsReceived['kind']) => {
      s.received.push({ at, text, kind });
      // A long-running fake (the CLI) keeps the newest frames only.
      if (s.received.length > MAX_RECEIVED) s.received.splice(0, s.received.length - MAX_RECEIVED);
    };
    if (!binary && text === 'PING') {
      log('ping');
      this.send(s, 'PONG');
      return;
    }
    const invalid = () => {
      log('invalid');
      this.send(s, INVALID_OPERATION);
    };
    const m = binary ? undefined : parseObject(text);
    const ids = m?.['assets_ids'] ?? [];
    if (!m || !Array.isArray(ids) || !ids.every((x) => typeof x === 'string')) {
      invalid();
      return;
    }
    const dump = m['initial_dump'] !== false;
    const custom = () => {
      if (typeof m['custom_feature_enabled'] === 'boolean') s.customFeature = m['custom_feature_enabled'];
    };
    const op = typeof m['operation'] === 'string' ? m['operation'].toLowerCase() : undefined;
    if (op === 'subscribe') {
      log('subscribe');
      custom();
      this.subscribe(s, ids, dump);
    } else if (op === 'unsubscribe') {
      log('unsubscribe');
      custom();
      for (const id of ids) {
        s.assets.delete(id);
        s.booked.delete(id);
      }
      s.overCap = s.overCap.filter((x) => !ids.includes(x));
    } else if (op === undefined && typeof m['type'] === 'string' && m['type'].toLowerCase() === 'market' && !s.initial) {
      log('market');
      s.initial = true;
      custom();
      this.subscribe(s, ids, dump);
    } else invalid();
  }

  private subscribe(s: Sock, ids: string[], dump: boolean): void {
    const fresh = [...new Set(ids)].filter((id) => !s.assets.has(id));
    if (this.overCap === 'refuse' && s.assets.size + fresh.length > this.maxAssetsPerSocket) {
      s.overCap.push(...fresh.filter((id) => !s.overCap.includes(id)));
      s.ws.close(1008, 'too many assets');
      return;
    }
    const books: MarketEvent[] = [];
    for (const id of fresh) {
      if (s.assets.size >= this.maxAssetsPerSocket) {
        if (!s.overCap.includes(id)) s.overCap.push(id);
        continue;
      }
      s.assets.add(id);
      const b = this.trading.bookOf(id);
      if (!b) continue;
      s.booked.add(id);
      if (dump) books.push(bookEvent(b));
    }
    if (books.length > 0 && !this.frozen) this.send(s, JSON.stringify(books));
  }

  private send(s: Sock, text: string): void {
    if (!s.open) return;
    s.ws.send(text);
    s.framesSent++;
    this.sentTotal++;
  }

  private drop(): number {
    const open = this.openSocks();
    for (const s of open) {
      s.open = false;
      s.closeCode = 1006;
      s.queued = [];
      s.ws.terminate();
    }
    this.changed();
    return open.length;
  }

  private thaw(): void {
    this.frozen = false;
    for (const s of this.openSocks()) {
      const q = s.queued.splice(0);
      for (const f of q) this.read(s, f.data, f.binary, f.at);
    }
    this.changed();
  }

  /** Sends a publish's events to each socket that takes them, after the reorder and duplicate faults. */
  private publish(input: MarketEvent[], framing: Framing): void {
    let events = input;
    if (this.reorderArmed || this.held) {
      events = this.reorder(input);
      framing = 'single';
    }
    const copies = this.duplicates > 0 ? 2 : 1;
    if (this.duplicates > 0) this.duplicates--;
    if (this.frozen || events.length === 0) return;
    this.sentHook?.(events);
    for (const s of this.openSocks()) {
      const mine = events.flatMap((e) => this.forSocket(s, e));
      if (mine.length === 0) continue;
      const frames = framing === 'array' ? [JSON.stringify(mine)] : mine.map((e) => JSON.stringify(e));
      for (const f of frames) for (let c = 0; c < copies; c++) this.send(s, f);
    }
    this.changed();
  }

  /** The reorder fault: hold a price_change, release it after the next one of its asset. */
  private reorder(events: MarketEvent[]): MarketEvent[] {
    const out: MarketEvent[] = [];
    for (const e of events) {
      const asset = e.event_type === 'price_change' ? assetOf(e) : undefined;
      if (asset !== undefined && this.reorderArmed && !this.held) {
        this.reorderArmed = false;
        this.held = { asset, event: e };
        continue;
      }
      out.push(e);
      if (asset !== undefined && this.held?.asset === asset) {
        out.push(this.held.event);
        this.held = undefined;
      }
    }
    return out;
  }

  /** An event as this socket gets it: [] when not for it; a price_change keeps only its assets' entries. */
  private forSocket(s: Sock, e: MarketEvent): MarketEvent[] {
    if (CUSTOM_EVENTS.has(e.event_type) && !s.customFeature) return [];
    if (!ASSET_EVENTS.has(e.event_type)) return [e];
    if (e.event_type === 'price_change') {
      const entries = (e['price_changes'] as { asset_id: string }[]).filter((c) => s.booked.has(c.asset_id));
      if (entries.length === 0) return [];
      return [entries.length === (e['price_changes'] as unknown[]).length ? e : { ...e, price_changes: entries }];
    }
    return s.booked.has(String(e['asset_id'])) ? [e] : [];
  }

  // ---- catalog events ---------------------------------------------------------------------

  private onMutation(m: Mutation): void {
    if (this.closed) return;
    if (m.op === 'openMarket') this.publish([this.newMarket(m.id)], 'single');
    else if (m.op === 'openEvent') this.publish([this.newMarket(m.marketId)], 'single');
    else if (m.op === 'resolve') this.publish([this.resolved(m.id, m.winner)], 'single');
    else if (m.op === 'price') this.repriced(m.id);
  }

  /**
   * A `price` mutation: Gamma's price follows the book, so each of the market's books that a socket
   * holds or the channel changed is made again around the new price (trading.ts `rebook`), and the
   * held ones are sent as `book` snapshots. The others stay derived, which follows the catalog.
   */
  private repriced(id: string): void {
    const m = this.catalog.marketRecord(id)?.obj as Record<string, unknown> | undefined;
    if (!m) return;
    const held = new Set(this.tickAssets());
    const books: MarketEvent[] = [];
    for (const token of this.tradingIds(m)) {
      if (!held.has(token) && !this.trading.live.get(token)) continue;
      const book = this.trading.rebook(token);
      if (!book) continue;
      book.timestamp = this.stamp();
      if (held.has(token)) books.push(bookEvent(book.summary()));
    }
    if (books.length > 0) this.publish(books, 'single');
  }

  /** The market's outcome ids on the CLOB: a v2 market's positionIds, a v1 market's clobTokenIds. */
  private tradingIds(m: Record<string, unknown>): string[] {
    if (m['version'] === 'v2') return Array.isArray(m['positionIds']) ? m['positionIds'].map(String) : [];
    return parseList(m['clobTokenIds']);
  }

  private eventOf(marketId: string): Record<string, unknown> | undefined {
    const rec = this.catalog.marketRecord(marketId);
    const eventId = rec?.eventIds[0];
    return eventId === undefined ? undefined : (this.catalog.eventRecord(eventId)?.obj as Record<string, unknown> | undefined);
  }

  private eventMessage(e: Record<string, unknown> | undefined): Record<string, unknown> | null {
    if (!e) return null;
    return {
      id: str(e['id']),
      ticker: str(e['ticker'] ?? e['slug']),
      slug: str(e['slug']),
      title: str(e['title']),
      description: str(e['description']),
    };
  }

  private tagSlugs(e: Record<string, unknown> | undefined): string[] {
    const tags = e?.['tags'];
    return Array.isArray(tags) ? tags.map((t) => str((t as Record<string, unknown>)['slug'])).filter((x) => x !== '') : [];
  }

  /**
   * `new_market` in its 2026 shape (nautilus_trader's fixture of 2026-03-26 and @polymarket/client's
   * parser): snake_case, decimals as strings, `fee_schedule` with snake_case keys and string numbers.
   */
  private newMarket(id: string): MarketEvent {
    const m = this.catalog.marketRecord(id)!.obj as Record<string, unknown>;
    const e = this.eventOf(id);
    const ids = this.tradingIds(m);
    const fs = m['feeSchedule'] as Record<string, unknown> | undefined;
    return {
      event_type: 'new_market',
      id,
      question: str(m['question']),
      market: str(m['conditionId']),
      slug: str(m['slug']),
      description: str(m['description']),
      assets_ids: ids,
      outcomes: parseList(m['outcomes']),
      event_message: this.eventMessage(e),
      timestamp: this.stamp(),
      tags: this.tagSlugs(e),
      condition_id: str(m['conditionId']),
      active: m['active'] !== false,
      // No v2 market was seen on this channel: the CLOB's ids of either kind, as `assets_ids` (an assumption).
      clob_token_ids: ids,
      sports_market_type: str(m['sportsMarketType']),
      line: m['line'] === undefined || m['line'] === null ? '' : String(m['line']),
      game_start_time: str(m['gameStartTime']),
      order_price_min_tick_size: String(m['orderPriceMinTickSize'] ?? '0.01'),
      group_item_title: str(m['groupItemTitle']),
      taker_base_fee: String(m['takerBaseFee'] ?? 0),
      fees_enabled: m['feesEnabled'] === true,
      fee_schedule:
        fs && typeof fs === 'object'
          ? {
              exponent: String(fs['exponent']),
              rate: String(fs['rate']),
              taker_only: fs['takerOnly'] === true,
              rebate_rate: String(fs['rebateRate']),
            }
          : null,
    };
  }

  /** `market_resolved` (nautilus_trader's fixture of 2026-03-26, with the docs example's other fields). */
  private resolved(id: string, winner: number): MarketEvent {
    const m = this.catalog.marketRecord(id)!.obj as Record<string, unknown>;
    const e = this.eventOf(id);
    const ids = this.tradingIds(m);
    return {
      event_type: 'market_resolved',
      id,
      question: str(m['question']),
      market: str(m['conditionId']),
      slug: str(m['slug']),
      description: str(m['description']),
      assets_ids: ids,
      winning_asset_id: ids[winner] ?? '',
      winning_outcome: parseList(m['outcomes'])[winner] ?? '',
      event_message: this.eventMessage(e),
      timestamp: this.stamp(),
      tags: this.tagSlugs(e),
    };
  }
}

const str = (v: unknown): string => (typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v));

/** A JSON object, or undefined (not JSON, or not an object). */
function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function assetOf(e: MarketEvent): string | undefined {
  const first = (e['price_changes'] as { asset_id?: unknown }[] | undefined)?.[0];
  return typeof first?.asset_id === 'string' ? first.asset_id : undefined;
}

/**
 * `POST /_fake/market-ws` (routes/control.ts), for a fake in another process (e2e, the CLI): a body
 * `{"action": A, …}` with A one of `tick` (`n`), `start` (`rate`), `stop`, `emit` (`asset_id`,
 * `change`: a MarketChange), `drop`, `freeze`, `thaw`, `malformed` (`text`?), `duplicate` (`n`?),
 * `reorder`, `cap` (`max`?, `overCap`?), `status`. Answers the channel's counts (and `events` for
 * `tick`/`emit`); 400 `{"error"}` for a bad body.
 */
export function marketWsControl(ws: FakeMarketWs, body: string): { status: number; body: string } {
  const bad = (error: string) => ({ status: 400, body: JSON.stringify({ error }) });
  let b: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(body);
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return bad('the body must be a JSON object');
    b = parsed as Record<string, unknown>;
  } catch {
    return bad('the body is not JSON');
  }
  const int = (k: string, dflt: number): number | undefined => {
    const v = b[k] ?? dflt;
    return typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : undefined;
  };
  let events: MarketEvent[] | undefined;
  try {
    switch (b['action']) {
      case 'tick': {
        const n = int('n', 1);
        if (n === undefined) return bad('n must be an integer >= 0');
        events = ws.tick(n);
        break;
      }
      case 'start': {
        const rate = b['rate'];
        if (typeof rate !== 'number' || !(rate >= 0)) return bad('rate must be a number >= 0');
        ws.start(rate);
        break;
      }
      case 'stop':
        ws.stop();
        break;
      case 'emit': {
        if (typeof b['asset_id'] !== 'string' || !b['change'] || typeof b['change'] !== 'object')
          return bad('emit needs asset_id and change');
        events = ws.emit(b['asset_id'], b['change'] as MarketChange, b['framing'] === 'array' ? 'array' : 'single');
        break;
      }
      case 'drop':
        ws.faults.drop();
        break;
      case 'freeze':
        ws.faults.freeze();
        break;
      case 'thaw':
        ws.faults.thaw();
        break;
      case 'malformed':
        ws.faults.malformed(typeof b['text'] === 'string' ? b['text'] : undefined);
        break;
      case 'duplicate': {
        const n = int('n', 1);
        if (n === undefined) return bad('n must be an integer >= 0');
        ws.faults.duplicate(n);
        break;
      }
      case 'reorder':
        ws.faults.reorder();
        break;
      case 'cap': {
        const max = int('max', ws.maxAssetsPerSocket);
        if (max === undefined || max < 1) return bad('max must be an integer >= 1');
        ws.maxAssetsPerSocket = max;
        if (b['overCap'] === 'ignore' || b['overCap'] === 'refuse') ws.overCap = b['overCap'];
        break;
      }
      case 'status':
        break;
      default:
        return bad(`unknown action ${JSON.stringify(b['action'])}`);
    }
  } catch (e) {
    return bad(e instanceof Error ? e.message : String(e));
  }
  return {
    status: 200,
    body: JSON.stringify({
      sockets: ws.socketCount,
      assets: ws.assetCount,
      rate: ws.rate,
      frozen: ws.faults.frozen,
      framesSent: ws.framesSent,
      maxAssetsPerSocket: ws.maxAssetsPerSocket,
      seed: ws.seed,
      ...(events ? { events } : {}),
    }),
  };
}
