/**
 * A tiny stand-in for the CLOB market channel, for the live layer's unit tests: a real `ws`
 * server at `<url>/ws/market` speaking the channel's protocol (subscribe, `operation`, `PING` →
 * `PONG`, `book` snapshots on subscribe, `price_change` with hashes and best prices,
 * `last_trade_price`), with an independent model of each asset's book the tests read expected
 * values from, and the faults the layer must survive: silence, drops, raw frames, a per-socket
 * cap on books. The fake upstream's own channel (src/fake-upstream/market-ws.ts) is what the
 * end-to-end tests use.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { bookSummaryHash } from '../live/book-hash.ts';

export interface StubLevel {
  price: string;
  size: string;
}

export interface StubBook {
  market: string;
  assetId: string;
  /** price -> size */
  bids: Map<string, string>;
  asks: Map<string, string>;
  tickSize: string;
  lastTradePrice: string;
  ts: number;
}

export interface StubConn {
  n: number;
  ws: WebSocket;
  assets: Set<string>;
  custom: boolean;
  /** Every text frame the client sent, in order. */
  received: string[];
}

const fmt = (p: number) => String(Math.round(p * 1000) / 1000);

export class MarketWsStub {
  readonly books = new Map<string, StubBook>();
  readonly conns = new Set<StubConn>();
  /** Every client message on every socket, in order. */
  readonly received: { conn: number; text: string }[] = [];
  /** Sockets opened so far. */
  opened = 0;
  /** Send nothing at all (no PONG either): a frozen socket. */
  frozen = false;
  /** Answer PING with PONG (default true). */
  pong = true;
  /** Books sent per socket at most (the channel's undocumented 500). */
  cap = Number.POSITIVE_INFINITY;
  /** Hashes as the official SDK computes them (default), or made up. */
  hashes: 'sdk' | 'other' = 'sdk';
  private clock = 1_767_225_600_000;
  private seq = 0;
  private readonly waiters = new Set<() => void>();
  private closed = false;

  private constructor(
    private readonly server: Server,
    private readonly wss: WebSocketServer,
    readonly url: string,
  ) {}

  static async start(): Promise<MarketWsStub> {
    const server = createServer((_req, res) => res.writeHead(404).end());
    const wss = new WebSocketServer({ server, path: '/ws/market' });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const stub = new MarketWsStub(server, wss, `ws://127.0.0.1:${(server.address() as AddressInfo).port}`);
    wss.on('connection', (ws) => stub.accept(ws));
    return stub;
  }

  /** Resolves when `cond` holds, checked after every client message and connection. */
  until(cond: () => boolean): Promise<void> {
    if (cond()) return Promise.resolve();
    return new Promise((resolve) => {
      const check = () => {
        if (!cond()) return;
        this.waiters.delete(check);
        resolve();
      };
      this.waiters.add(check);
    });
  }

  private wake(): void {
    for (const w of [...this.waiters]) w();
  }

  private accept(ws: WebSocket): void {
    const c: StubConn = { n: ++this.opened, ws, assets: new Set(), custom: false, received: [] };
    this.conns.add(c);
    ws.on('message', (data) => this.onMessage(c, data.toString()));
    ws.on('close', () => {
      this.conns.delete(c);
      this.wake();
    });
    ws.on('error', () => {});
    this.wake();
  }

  private onMessage(c: StubConn, text: string): void {
    c.received.push(text);
    this.received.push({ conn: c.n, text });
    if (text === 'PING') {
      if (this.pong && !this.frozen) c.ws.send('PONG');
    } else {
      let m: { assets_ids?: string[]; operation?: string; custom_feature_enabled?: boolean };
      try {
        m = JSON.parse(text);
      } catch {
        this.wake();
        return;
      }
      const ids = m.assets_ids ?? [];
      if (m.custom_feature_enabled) c.custom = true;
      if (m.operation === 'unsubscribe') for (const id of ids) c.assets.delete(id);
      else {
        const fresh: string[] = [];
        for (const id of ids) {
          if (c.assets.size >= this.cap) break;
          c.assets.add(id);
          fresh.push(id);
        }
        if (!this.frozen) for (const id of fresh) c.ws.send(JSON.stringify(this.bookMessage(id)));
      }
    }
    this.wake();
  }

  /** The asset's book in the model, made up from its id the first time. */
  book(id: string): StubBook {
    let b = this.books.get(id);
    if (!b) {
      const mid = 0.2 + (Number(id.slice(-4)) % 60) / 100;
      b = {
        market: `0xmarket${id.slice(-6)}`,
        assetId: id,
        bids: new Map(),
        asks: new Map(),
        tickSize: '0.01',
        lastTradePrice: fmt(mid),
        ts: this.clock,
      };
      for (let k = 1; k <= 3; k++) {
        b.bids.set(fmt(mid - 0.01 * k), String(100 * k));
        b.asks.set(fmt(mid + 0.01 * k), String(50 * k));
      }
      this.books.set(id, b);
    }
    return b;
  }

  /** The model's levels as Polymarket orders them: bids ascending, asks descending. */
  levels(id: string): { bids: StubLevel[]; asks: StubLevel[] } {
    const b = this.book(id);
    const side = (m: Map<string, string>, asc: boolean) =>
      [...m.entries()]
        .sort((x, y) => (asc ? Number(x[0]) - Number(y[0]) : Number(y[0]) - Number(x[0])))
        .map(([price, size]) => ({ price, size }));
    return { bids: side(b.bids, true), asks: side(b.asks, false) };
  }

  best(id: string): { bid: string | null; ask: string | null } {
    const { bids, asks } = this.levels(id);
    return { bid: bids.at(-1)?.price ?? null, ask: asks.at(-1)?.price ?? null };
  }

  private hashOf(id: string, ts: string): string {
    if (this.hashes === 'other') return `other-${++this.seq}`;
    const b = this.book(id);
    const { bids, asks } = this.levels(id);
    return bookSummaryHash({
      market: b.market,
      asset_id: id,
      timestamp: ts,
      bids,
      asks,
      min_order_size: '5',
      tick_size: b.tickSize,
      neg_risk: false,
      last_trade_price: b.lastTradePrice,
    });
  }

  bookMessage(id: string): Record<string, unknown> {
    const b = this.book(id);
    const ts = String(b.ts);
    const { bids, asks } = this.levels(id);
    return {
      event_type: 'book',
      market: b.market,
      asset_id: id,
      timestamp: ts,
      hash: this.hashOf(id, ts),
      bids,
      asks,
      min_order_size: '5',
      tick_size: b.tickSize,
      neg_risk: false,
      last_trade_price: b.lastTradePrice,
    };
  }

  /** Moves the model's clock: every message gets a later timestamp. */
  private stamp(id: string): string {
    this.clock += 1;
    this.book(id).ts = this.clock;
    return String(this.clock);
  }

  /** Changes one level and returns the `price_change` message (not sent). */
  change(id: string, side: 'BUY' | 'SELL', price: string, size: string): Record<string, unknown> {
    const b = this.book(id);
    const m = side === 'BUY' ? b.bids : b.asks;
    // One level per price, however it is written ("0.2", "0.20").
    for (const k of [...m.keys()]) if (Number(k) === Number(price)) m.delete(k);
    if (Number(size) > 0) m.set(price, size);
    else m.delete(price);
    const ts = this.stamp(id);
    const best = this.best(id);
    return {
      event_type: 'price_change',
      market: b.market,
      timestamp: ts,
      price_changes: [{ asset_id: id, price, size, side, hash: this.hashOf(id, ts), best_bid: best.bid ?? '0', best_ask: best.ask ?? '0' }],
    };
  }

  /** A trade: the model's last trade price moves; returns the `last_trade_price` message (not sent). */
  trade(id: string, price: string, size: string, side: 'BUY' | 'SELL'): Record<string, unknown> {
    const b = this.book(id);
    b.lastTradePrice = price;
    const ts = this.stamp(id);
    return { event_type: 'last_trade_price', market: b.market, asset_id: id, price, size, side, timestamp: ts, fee_rate_bps: '0' };
  }

  /** Sends a message (or the text of one) to every socket subscribed to `id` (every socket when `id` is undefined). */
  send(message: Record<string, unknown> | unknown[] | string, id?: string): number {
    if (this.frozen) return 0;
    const text = typeof message === 'string' ? message : JSON.stringify(message);
    let n = 0;
    for (const c of this.conns) {
      if (id !== undefined && !c.assets.has(id)) continue;
      c.ws.send(text);
      n++;
    }
    return n;
  }

  /** The socket holding `id`. */
  connOf(id: string): StubConn | undefined {
    return [...this.conns].find((c) => c.assets.has(id));
  }

  /** Drops every socket (no close frame). */
  drop(): void {
    for (const c of this.conns) c.ws.terminate();
  }

  /** Subscribe messages (initial or `operation: subscribe`) naming `id`, over all sockets. */
  subscriptionsOf(id: string): number {
    return this.received.filter(({ text }) => {
      if (!text.startsWith('{')) return false;
      const m = JSON.parse(text) as { assets_ids?: string[]; operation?: string };
      return m.operation !== 'unsubscribe' && (m.assets_ids ?? []).includes(id);
    }).length;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const c of this.conns) c.ws.terminate();
    await new Promise<void>((r) => this.wss.close(() => r()));
    await new Promise<void>((r) => this.server.close(() => r()));
  }
}
