/**
 * Keeps the cache in step with the upstream catalog.
 *
 * Full sync: every tag, every open event (with its markets and tags) and every open market,
 * by keyset paging; then the cached open items the walk no longer saw are looked up by id
 * (they closed, or are gone), and closed items past the horizon are pruned.
 *
 * Incremental sync (every `intervalMs`): listings ordered by updatedAt, newest first, read
 * until they reach what the cache already has; only changed items are written. An upstream
 * that cannot order by updatedAt, or a change set deeper than the offset cap, gets a full sync.
 */
import type { SyncStatus } from '../contract/index.ts';
import type { CatalogStore } from '../store/catalog-store.ts';
import { parseTs } from '../store/catalog-writer.ts';
import { silentLogger, type Logger } from '../store/sqlite.ts';
import { UpstreamError } from '../upstream/client.ts';
import { GammaApi, OFFSET_CAP, PAGE_SIZE, type Kind } from '../upstream/gamma.ts';
import type { GammaEvent, GammaMarket } from '../upstream/gamma-types.ts';

export interface SyncOptions {
  intervalMs?: number;
  /** Closed items are kept this long after they close. */
  horizonMs?: number;
  /** A full sync runs at least this often, to catch anything incremental sync cannot see. */
  fullEveryMs?: number;
  log?: Logger;
  now?: () => number;
}

const DAY = 86_400_000;
/** Incremental reads go this far past the watermark, for clock skew between upstream writers. */
const SLACK_MS = 60_000;

export class CatalogSync {
  private readonly gamma: GammaApi;
  private readonly opts: Required<SyncOptions>;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private abort = new AbortController();
  private stopped = false;
  private listeners = new Set<(s: SyncStatus) => void>();
  private readonly state: SyncStatus = {
    phase: 'idle',
    running: false,
    progress: { events: 0, markets: 0, tags: 0, pages: 0 },
    lastSuccessAt: null,
    lastError: null,
    lastFullSyncAt: null,
    online: true,
  };

  constructor(
    private readonly store: CatalogStore,
    client: ConstructorParameters<typeof GammaApi>[0],
    opts: SyncOptions = {},
  ) {
    // Sync never makes a user wait: its requests queue behind anything a user asked for.
    this.gamma = new GammaApi(client, { priority: 'background' });
    this.opts = {
      intervalMs: 60_000,
      horizonMs: 7 * DAY,
      fullEveryMs: 6 * 3_600_000,
      log: silentLogger,
      now: Date.now,
      ...opts,
    };
    this.state.lastFullSyncAt = store.getMeta('lastFullSyncAt') ?? null;
    this.state.lastSuccessAt = store.getMeta('lastSyncAt') ?? null;
  }

  status(): SyncStatus {
    return structuredClone(this.state);
  }

  onStatus(fn: (s: SyncStatus) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private emit(): void {
    const s = this.status();
    for (const fn of this.listeners) fn(s);
  }

  /** Runs one sync now (full when due, else incremental) unless one is running; resolves when done. */
  syncNow(kind: 'auto' | 'full' | 'incremental' = 'auto'): Promise<void> {
    this.running ??= this.run(kind).finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /** Starts the background loop: a sync now, then one every interval. */
  start(): void {
    const loop = async () => {
      await this.syncNow().catch(() => {});
      if (this.stopped) return;
      this.timer = setTimeout(loop, this.opts.intervalMs);
      this.timer.unref();
    };
    void loop();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.abort.abort(new Error('sync stopped'));
    await this.running?.catch(() => {});
  }

  private fullSyncDue(): boolean {
    const last = parseTs(this.state.lastFullSyncAt);
    return last === null || this.opts.now() - last > this.opts.fullEveryMs;
  }

  private async run(kind: 'auto' | 'full' | 'incremental'): Promise<void> {
    const full = kind === 'full' || (kind === 'auto' && this.fullSyncDue());
    this.state.running = true;
    this.state.phase = full ? 'full' : 'incremental';
    this.state.progress = { events: 0, markets: 0, tags: 0, pages: 0 };
    this.emit();
    try {
      if (full) await this.fullSync();
      else {
        const complete = await this.incrementalSync();
        if (!complete) {
          this.state.phase = 'full';
          this.emit();
          await this.fullSync();
        }
      }
      this.store.prune(this.opts.now() - this.opts.horizonMs);
      const at = new Date(this.opts.now()).toISOString();
      this.state.lastSuccessAt = at;
      this.store.setMeta('lastSyncAt', at);
      this.state.lastError = null;
      this.state.online = true;
    } catch (e) {
      const msg = (e as Error).message;
      this.state.lastError = msg;
      this.state.online = !(e instanceof UpstreamError && e.status === null) && !/fetch failed|ECONNREFUSED/.test(msg);
      if (!this.stopped) this.opts.log.warn(`sync failed: ${msg}`);
      throw e;
    } finally {
      this.state.running = false;
      this.state.phase = 'idle';
      this.emit();
    }
  }

  private write(batch: { events?: GammaEvent[]; markets?: GammaMarket[] }): void {
    const r = this.store.apply(batch);
    this.state.progress.events += r.events;
    this.state.progress.markets += r.markets;
    this.state.progress.pages++;
    this.emit();
  }

  async fullSync(): Promise<void> {
    const signal = this.abort.signal;
    const tags = await this.gamma.tags(signal);
    this.state.progress.tags += this.store.apply({ tags }).tags;

    const seen = { events: new Set<number>(), markets: new Set<number>() };
    const note = (kind: Kind, items: { id: string; markets?: GammaMarket[] }[]) => {
      for (const it of items) {
        seen[kind].add(Number(it.id));
        if (kind === 'events') for (const m of it.markets ?? []) if (m.closed !== true) seen.markets.add(Number(m.id));
      }
    };
    // Walks run two at a time: each keyset walk is a chain of round trips, so two chains halve
    // the wall time against a remote upstream. Their writes interleave batch by batch.
    const cutoff = this.opts.now() - this.opts.horizonMs;
    await this.store.bulkLoad(async () => {
      await Promise.all([
        this.gamma.walk('events', { filters: { closed: false }, signal }, (events) => {
          note('events', events);
          this.write({ events });
        }),
        this.gamma.walk('markets', { filters: { closed: false }, signal }, (markets) => {
          note('markets', markets);
          this.write({ markets });
        }),
      ]);
      await Promise.all([this.recentlyClosed('events', cutoff, signal), this.recentlyClosed('markets', cutoff, signal)]);
    });
    await this.sweep('events', seen.events, signal);
    await this.sweep('markets', seen.markets, signal);
    const at = new Date(this.opts.now()).toISOString();
    this.state.lastFullSyncAt = at;
    this.store.setMeta('lastFullSyncAt', at);
  }

  /**
   * Items closed within the horizon, newest-closed first, until the listing passes the cutoff.
   * Best effort: an upstream that cannot order by closedTime is read no further.
   */
  private async recentlyClosed(kind: Kind, cutoff: number, signal: AbortSignal): Promise<void> {
    let last = Infinity;
    await this.gamma.walk(kind, { filters: { closed: true, order: 'closedTime', ascending: false }, signal, capped: true }, (items) => {
      const stamps = items.map((it) => parseTs(it['closedTime']) ?? -Infinity);
      if (stamps.some((t, i) => t > (i === 0 ? last : stamps[i - 1]!))) {
        this.opts.log.info(`upstream does not order ${kind} by closedTime; recently closed ${kind} are not fetched`);
        return false;
      }
      last = stamps[stamps.length - 1] ?? last;
      const recent = items.filter((_, i) => stamps[i]! >= cutoff);
      if (recent.length) this.write(kind === 'events' ? { events: recent as GammaEvent[] } : { markets: recent as GammaMarket[] });
      return recent.length === items.length;
    });
  }

  /** Cached open items that the full walk did not see: closed since (update them) or gone (remove). */
  private async sweep(kind: Kind, seen: Set<number>, signal: AbortSignal): Promise<void> {
    const missing = this.store.openIds(kind).filter((id) => !seen.has(id));
    if (missing.length === 0) return;
    const found = await this.gamma.byIds(kind, missing, { closed: true }, signal);
    const wanted = new Set(missing);
    const returned = found.filter((it) => wanted.has(Number(it.id)));
    if (returned.length) this.write(kind === 'events' ? { events: returned as GammaEvent[] } : { markets: returned as GammaMarket[] });
    const back = new Set(returned.map((it) => Number(it.id)));
    const gone = missing.filter((id) => !back.has(id));
    if (gone.length) {
      this.opts.log.info(`removing ${gone.length} ${kind} the upstream no longer lists`);
      this.store.remove(kind, gone);
    }
  }

  /**
   * Reads what changed since the cache's newest `updatedAt`. Returns false when it cannot be
   * sure it saw every change (the caller then runs a full sync).
   */
  async incrementalSync(): Promise<boolean> {
    const signal = this.abort.signal;
    for (const kind of ['events', 'markets'] as const) {
      const watermark = this.store.newestUpdate(kind);
      if (watermark === null) return false;
      // Gamma's /markets treats a missing `closed` as false, so ask for both sides explicitly.
      for (const closed of [false, true]) {
        let reached = false;
        for (let offset = 0; offset <= OFFSET_CAP && !reached; offset += PAGE_SIZE) {
          let items: (GammaEvent | GammaMarket)[];
          try {
            items = await this.gamma.page(kind, { closed, order: 'updatedAt', ascending: false, offset }, signal);
          } catch (e) {
            if (e instanceof UpstreamError && e.status !== null && e.status >= 400 && e.status < 500) {
              this.opts.log.info(`incremental sync not possible (${e.message}); running a full sync`);
              return false;
            }
            throw e;
          }
          const stamps = items.map((it) => parseTs(it.updatedAt) ?? Infinity);
          // An upstream that ignores `order` would make the stop rule below skip changes.
          if (stamps.some((t, i) => i > 0 && t > stamps[i - 1]!)) {
            this.opts.log.info('upstream does not order by updatedAt; running a full sync');
            return false;
          }
          const fresh = items.filter((it) => (parseTs(it.updatedAt) ?? Infinity) >= watermark - SLACK_MS);
          if (fresh.length) this.write(kind === 'events' ? { events: fresh as GammaEvent[] } : { markets: fresh as GammaMarket[] });
          reached = items.length < PAGE_SIZE || fresh.length < items.length;
        }
        if (!reached) return false;
      }
    }
    return true;
  }
}
