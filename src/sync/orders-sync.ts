/**
 * Keeps the cached open orders of the configured account in step with the upstream CLOB:
 * a refresh at start, then every `intervalMs` (default 30 s), and on demand. Each refresh
 * walks every page and replaces the account's list; a failed one leaves the cache as it was,
 * so `/data/orders` keeps answering offline. Changing credentials drops the other account's
 * orders and refreshes for the new one.
 */
import type { CredentialHolder, Credentials } from '../auth/credentials.ts';
import type { HeaderFamily } from '../auth/l2.ts';
import type { OrdersStatus } from '../contract/orders-ops.ts';
import type { OrdersCache } from '../store/store-api.ts';
import { silentLogger, type Logger } from '../logger.ts';
import type { UpstreamClient } from '../upstream/client.ts';
import { fetchOpenOrders } from '../upstream/clob.ts';

export interface OrdersSyncOptions {
  intervalMs?: number;
  /** How long a request may wait for the very first fetch of an account's orders. */
  firstLoadWaitMs?: number;
  /** Header family the upstream expects (Kuest: KUEST_*). */
  family?: HeaderFamily;
  now?: () => number;
  log?: Logger;
}

export class OrdersSync {
  private readonly opts: Required<Omit<OrdersSyncOptions, 'family'>> & Pick<OrdersSyncOptions, 'family'>;
  private running: Promise<void> | undefined;
  private runningFor: Credentials | undefined;
  private abort = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private started = false;
  private stopped = false;
  private lastError: string | null = null;
  private readonly listeners = new Set<(s: OrdersStatus) => void>();
  private readonly unsubscribe: () => void;

  /** `client` undefined: offline, the cache only. */
  constructor(
    private readonly store: OrdersCache,
    private readonly client: UpstreamClient | undefined,
    private readonly creds: CredentialHolder,
    opts: OrdersSyncOptions = {},
  ) {
    this.opts = { intervalMs: 30_000, firstLoadWaitMs: 10_000, now: Date.now, log: silentLogger, ...opts };
    this.unsubscribe = creds.onChange((c) => this.credentialsChanged(c));
  }

  status(): OrdersStatus {
    const c = this.creds.get();
    const fetchedAt = c ? this.store.fetchedAt(c.address) : null;
    return {
      configured: !!c,
      refreshing: this.running !== undefined,
      count: c ? this.store.count(c.address) : 0,
      fetchedAt: fetchedAt === null ? null : new Date(fetchedAt).toISOString(),
      lastError: this.lastError,
      offline: !this.client,
    };
  }

  onStatus(fn: (s: OrdersStatus) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private emit(): void {
    if (this.listeners.size === 0) return;
    const s = this.status();
    for (const fn of this.listeners) fn(s);
  }

  /** Fetches the whole list now (joining a fetch under way); never throws, the outcome is in the status. */
  async refreshNow(): Promise<OrdersStatus> {
    for (;;) {
      const c = this.creds.get();
      if (!this.client || !c || this.stopped) break;
      // A fetch for replaced credentials is being called off; the new account gets its own.
      if (this.running && this.runningFor !== c) {
        await this.running;
        continue;
      }
      if (!this.running) {
        this.runningFor = c;
        this.running = this.run(c).finally(() => {
          this.running = undefined;
          this.emit();
        });
        this.emit();
      }
      await this.running;
      break;
    }
    return this.status();
  }

  /**
   * A write through marketdesk (an order placed or cancelled) changed the account's orders: fetch
   * again once any fetch under way has ended, since that one may have read the list before the
   * write. Writes close together share the fetch after them.
   */
  async refreshAfterWrite(): Promise<OrdersStatus> {
    await this.running?.catch(() => {});
    return this.refreshNow();
  }

  /**
   * Waits (bounded) for the first fetch of the configured account, so a request right after
   * start does not answer an empty list that is only empty because nothing was fetched yet.
   */
  async ensureLoaded(): Promise<void> {
    const c = this.creds.get();
    if (!c || !this.client || this.stopped || this.store.fetchedAt(c.address) !== null) return;
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, this.opts.firstLoadWaitMs);
      timer.unref();
    });
    await Promise.race([this.refreshNow(), bound]);
    clearTimeout(timer);
  }

  /** A refresh now, then one every interval. */
  start(): void {
    if (this.started || !this.client) return;
    this.started = true;
    const loop = async () => {
      await this.refreshNow();
      if (this.stopped) return;
      this.timer = setTimeout(loop, this.opts.intervalMs);
      this.timer.unref();
    };
    void loop();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe();
    if (this.timer) clearTimeout(this.timer);
    this.abort.abort(new Error('orders sync stopped'));
    await this.running?.catch(() => {});
  }

  private async run(creds: Credentials): Promise<void> {
    if (!this.client) return;
    const signal = this.abort.signal;
    try {
      const orders = await fetchOpenOrders(this.client, creds, {
        now: this.opts.now,
        signal,
        ...(this.opts.family ? { family: this.opts.family } : {}),
      });
      // Credentials changed while the pages were read: these orders are not the new account's.
      if (this.creds.get() !== creds) return;
      // Polymarket's `owner` is the API key itself: the account's address stands in for it, so
      // the key is never served, cached on disk or shown to the renderer.
      const key = creds.apiKey.toLowerCase();
      for (const o of orders) if (o.owner.toLowerCase() === key) o.owner = creds.address;
      this.store.replace(creds.address, orders, this.opts.now());
      this.lastError = null;
    } catch (e) {
      if (signal.aborted) return;
      // Messages name the host, path and status, never a header value. A failure that repeats
      // every interval is logged once.
      const msg = (e as Error).message;
      if (msg !== this.lastError) this.opts.log.warn(`orders refresh failed: ${msg}`);
      this.lastError = msg;
    }
  }

  private credentialsChanged(c: Credentials | undefined): void {
    // Whatever was being fetched belongs to the previous credentials.
    this.abort.abort(new Error('credentials changed'));
    this.abort = new AbortController();
    this.lastError = null;
    this.store.clear(c?.address);
    this.emit();
    if (c && this.started && !this.stopped) void this.refreshNow();
  }
}
