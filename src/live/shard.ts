/**
 * One upstream socket to the market channel, holding at most `assetsPerSocket` assets (500: the
 * channel sends no book past that, docs/upstream/polymarket-2026.md, section 5). It subscribes
 * its assets when it opens, sends subscription changes while open, sends `PING` every 10 s, and
 * is replaced when it goes silent: no frame at all (not even a `PONG`) for 20 s, or no market
 * message for 20 s while its assets were trading (the 10 messages before the silence came within
 * 20 s). A socket that closes is opened again after a jittered exponential backoff. Timers and
 * the clock are injected, so tests drive the heartbeat without sleeping.
 */
import WebSocket from 'ws';
import type { LiveShardStatus } from '../contract/live.ts';
import type { Logger } from '../logger.ts';
import type { Timers } from '../limits/scheduler.ts';
import { operationMessage, PING, subscribeMessage } from './protocol.ts';

export interface ShardSettings {
  url: string;
  now: () => number;
  timers: Timers;
  random: () => number;
  log: Logger;
  pingIntervalMs: number;
  silentMs: number;
  backoffBaseMs: number;
  backoffMaxMs: number;
  /** How many market messages within `silentMs` make a socket's assets "known to trade". */
  activeMessages: number;
}

export interface ShardEvents {
  /** The socket opened and subscribed its assets: their snapshots are on their way. */
  opened(shard: Shard): void;
  frame(shard: Shard, text: string, pong: boolean): void;
  /** The socket closed (dropped, failed or replaced); `replaced`: it was closed for silence. */
  down(shard: Shard, replaced: boolean): void;
}

export class Shard {
  readonly assets = new Set<string>();
  state: LiveShardStatus['state'] = 'closed';
  reconnects = 0;
  lastFrameAt: number | null = null;
  private ws: WebSocket | undefined;
  private opens = 0;
  private attempt = 0;
  private lastDataAt: number | null = null;
  /** Times of the last `activeMessages` market messages. */
  private readonly dataTimes: number[] = [];
  private pingTimer: unknown;
  private watchTimer: unknown;
  private backoffTimer: unknown;
  private replacing = false;
  private stopped = false;
  private readonly pendingSub = new Set<string>();
  private readonly pendingUnsub = new Set<string>();
  private lastError = '';

  constructor(
    readonly id: number,
    private readonly s: ShardSettings,
    private readonly on: ShardEvents,
  ) {}

  get open(): boolean {
    return this.state === 'open';
  }

  add(id: string): void {
    this.assets.add(id);
    this.pendingUnsub.delete(id);
    this.pendingSub.add(id);
  }

  remove(id: string): void {
    this.assets.delete(id);
    this.pendingSub.delete(id);
    this.pendingUnsub.add(id);
  }

  /** Sends the subscription changes made since the last flush, or opens the socket. */
  flush(): void {
    if (this.stopped) return;
    if (this.state === 'open') {
      if (this.pendingUnsub.size) this.send(operationMessage('unsubscribe', [...this.pendingUnsub]));
      if (this.pendingSub.size) this.send(operationMessage('subscribe', [...this.pendingSub]));
      this.pendingSub.clear();
      this.pendingUnsub.clear();
    } else if (this.state === 'closed' && this.assets.size > 0) {
      this.connect();
    }
  }

  /** Asks for a fresh snapshot of one asset: unsubscribe, then subscribe again. */
  resubscribe(id: string): boolean {
    if (this.state !== 'open') return false;
    this.send(operationMessage('unsubscribe', [id]));
    this.send(operationMessage('subscribe', [id]));
    return true;
  }

  private send(text: string): void {
    try {
      this.ws?.send(text);
    } catch {
      // A socket closing under us: its close event brings the reconnect.
    }
  }

  private connect(): void {
    this.state = 'connecting';
    this.replacing = false;
    const ws = new WebSocket(this.s.url, { handshakeTimeout: 10_000 });
    this.ws = ws;
    ws.on('open', () => {
      if (this.ws !== ws) return;
      this.state = 'open';
      if (this.opens++ > 0) this.reconnects++;
      this.lastError = '';
      const now = this.s.now();
      this.lastFrameAt = now;
      this.lastDataAt = null;
      this.dataTimes.length = 0;
      this.pendingSub.clear();
      this.pendingUnsub.clear();
      if (this.assets.size) this.send(subscribeMessage([...this.assets]));
      this.armPing();
      this.armWatch(now + this.s.silentMs);
      this.on.opened(this);
    });
    ws.on('message', (data) => {
      if (this.ws !== ws) return;
      const text = Buffer.isBuffer(data)
        ? data.toString('utf8')
        : Array.isArray(data)
          ? Buffer.concat(data).toString('utf8')
          : Buffer.from(data).toString('utf8');
      const now = this.s.now();
      this.lastFrameAt = now;
      const pong = text.trim().toUpperCase() === 'PONG';
      if (!pong) {
        // Data flows again: the next drop starts its backoff from the beginning.
        this.attempt = 0;
        this.lastDataAt = now;
        this.dataTimes.push(now);
        if (this.dataTimes.length > this.s.activeMessages) this.dataTimes.shift();
      }
      this.on.frame(this, text, pong);
    });
    ws.on('error', (e) => {
      // The close event follows; one line per distinct reason.
      if (e.message !== this.lastError) this.s.log.warn(`live: market channel socket ${this.id}: ${e.message}`);
      this.lastError = e.message;
    });
    ws.on('close', () => {
      if (this.ws !== ws) return;
      this.ws = undefined;
      this.clearTimers();
      const replaced = this.replacing;
      this.replacing = false;
      if (this.stopped) return;
      this.state = 'closed';
      this.on.down(this, replaced);
      if (this.assets.size > 0) this.scheduleReconnect();
    });
  }

  private scheduleReconnect(): void {
    // Jittered exponential backoff: half the cap for sure, the other half at random.
    const cap = Math.min(this.s.backoffMaxMs, this.s.backoffBaseMs * 2 ** this.attempt++);
    const delay = Math.round(cap / 2 + (this.s.random() * cap) / 2);
    this.state = 'backoff';
    this.backoffTimer = this.s.timers.set(() => {
      this.backoffTimer = undefined;
      if (this.stopped || this.state !== 'backoff') return;
      this.state = 'closed';
      if (this.assets.size > 0) this.connect();
    }, delay);
  }

  private armPing(): void {
    this.pingTimer = this.s.timers.set(() => {
      this.pingTimer = undefined;
      if (this.state !== 'open') return;
      this.send(PING);
      this.armPing();
    }, this.s.pingIntervalMs);
  }

  /** Market messages are expected: the last `activeMessages` of them came within `silentMs`. */
  private knownToTrade(): boolean {
    const t = this.dataTimes;
    return t.length >= this.s.activeMessages && t[t.length - 1]! - t[0]! <= this.s.silentMs;
  }

  private armWatch(at: number): void {
    if (this.watchTimer !== undefined) this.s.timers.clear(this.watchTimer);
    this.watchTimer = this.s.timers.set(
      () => {
        this.watchTimer = undefined;
        if (this.state !== 'open') return;
        const now = this.s.now();
        const frameDue = (this.lastFrameAt ?? now) + this.s.silentMs;
        const dataDue = this.lastDataAt !== null && this.knownToTrade() ? this.lastDataAt + this.s.silentMs : Number.POSITIVE_INFINITY;
        if (now >= frameDue || now >= dataDue) {
          const what = now >= frameDue ? 'no frame' : 'no market message while its assets trade';
          this.s.log.warn(`live: market channel socket ${this.id} silent (${what} for ${this.s.silentMs / 1000} s): replacing it`);
          this.replace();
          return;
        }
        this.armWatch(Math.min(frameDue, dataDue));
      },
      Math.max(0, at - this.s.now()),
    );
  }

  /** Closes a silent socket; its close event opens a new one. */
  private replace(): void {
    this.replacing = true;
    this.ws?.terminate();
  }

  /** Milliseconds since the last frame; null before the first. */
  frameAge(now: number): number | null {
    return this.lastFrameAt === null ? null : Math.max(0, now - this.lastFrameAt);
  }

  /** The silence that counts (LiveShardStatus `quietMs`): since the last frame, or the last market message while the assets trade. */
  quietMs(now: number): number | null {
    const frame = this.frameAge(now);
    if (frame === null) return null;
    return this.lastDataAt !== null && this.knownToTrade() ? Math.max(frame, now - this.lastDataAt) : frame;
  }

  status(now: number): LiveShardStatus {
    return {
      id: this.id,
      state: this.state,
      assets: this.assets.size,
      lastFrameAgeMs: this.frameAge(now),
      reconnects: this.reconnects,
      quietMs: this.quietMs(now),
    };
  }

  private clearTimers(): void {
    for (const t of [this.pingTimer, this.watchTimer]) if (t !== undefined) this.s.timers.clear(t);
    this.pingTimer = undefined;
    this.watchTimer = undefined;
  }

  /** Closes the socket for good. */
  stop(): void {
    this.stopped = true;
    this.clearTimers();
    if (this.backoffTimer !== undefined) this.s.timers.clear(this.backoffTimer);
    this.backoffTimer = undefined;
    this.state = 'closed';
    const ws = this.ws;
    this.ws = undefined;
    if (ws) {
      ws.removeAllListeners('message');
      ws.on('error', () => {});
      ws.terminate();
    }
  }
}
