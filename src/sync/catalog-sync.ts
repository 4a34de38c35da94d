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
 *
 * A walk whose page still fails after the client's retries waits and fetches that page again
 * from its cursor, rather than failing the run: until the run's deadline when it has one (the
 * CLI's `--timeout`), else for `maxStalls` failures of one page in a row.
 *
 * A horizon of Infinity (`--horizon-days all`) prunes nothing and, once the open catalog is in,
 * walks the closed history in the background (history-walk.ts).
 */
import type { SyncStatus } from '../contract/index.ts';
import type { Store } from '../store/store-api.ts';
import { parseTs, silentLogger, type Logger } from '../logger.ts';
import { DeadlineError, UpstreamError } from '../upstream/client.ts';
import { GammaApi, OFFSET_CAP, PAGE_SIZE, type Kind, type WalkOptions } from '../upstream/gamma.ts';
import type { GammaEvent, GammaMarket } from '../contract/gamma.ts';
import { loopTurns } from '../limits/fair-turns.ts';
import { HistoryWalk } from './history-walk.ts';

export interface SyncOptions {
  intervalMs?: number;
  /** Closed items are kept this long after they close; Infinity keeps every one and walks the whole history. */
  horizonMs?: number;
  /** A full sync runs at least this often, to catch anything incremental sync cannot see. */
  fullEveryMs?: number;
  log?: Logger;
  now?: () => number;
  /** Without a deadline, a walk gives up after this many failures of one page in a row (default 5). */
  maxStalls?: number;
  /** First wait before a walk fetches a failed page again; doubles up to 30 s (default 1 s). */
  resumeDelayMs?: number;
}

export interface RunOptions {
  /** Aborts the run (the CLI's `--timeout`); until then a walk resumes after every failed page. */
  deadline?: AbortSignal;
}

const DAY = 86_400_000;
/** Incremental reads go this far past the watermark, for clock skew between upstream writers. */
const SLACK_MS = 60_000;
const MAX_RESUME_DELAY_MS = 30_000;

/** A failure worth fetching the page again for: the upstream unreachable, failing, or pacing us. */
function transient(e: unknown): boolean {
  return e instanceof DeadlineError || (e instanceof UpstreamError && (e.status === null || e.status >= 500 || e.status === 429));
}

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal.reason);
    };
    const t = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export class CatalogSync {
  private readonly gamma: GammaApi;
  private readonly opts: Required<SyncOptions>;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private abort = new AbortController();
  private stopped = false;
  private listeners = new Set<(s: SyncStatus) => void>();
  private readonly history: HistoryWalk;
  private historyRun: Promise<void> | undefined;
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
    private readonly store: Store,
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
      maxStalls: 5,
      resumeDelayMs: 1000,
      ...opts,
    };
    this.state.lastFullSyncAt = store.getMeta('lastFullSyncAt') ?? null;
    this.state.lastSuccessAt = store.getMeta('lastSyncAt') ?? null;
    this.history = new HistoryWalk({
      store,
      gamma: this.gamma,
      write: async (batch) => {
        await loopTurns.turn(this);
        this.store.apply(batch);
      },
      log: this.opts.log,
      now: this.opts.now,
      changed: () => this.emit(),
    });
  }

  /** `--horizon-days all`: nothing closed is pruned, and the closed history is walked. */
  get keepsAll(): boolean {
    return this.opts.horizonMs === Infinity;
  }

  status(): SyncStatus {
    const history = this.keepsAll
      ? this.history.status()
      : { state: 'off' as const, events: 0, markets: 0, startedAt: null, updatedAt: null };
    return { ...structuredClone(this.state), history };
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
  syncNow(kind: 'auto' | 'full' | 'incremental' = 'auto', opts: RunOptions = {}): Promise<void> {
    this.running ??= this.run(kind, opts.deadline).finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /** Starts the background loop: a sync now, then one every interval. */
  start(): void {
    const loop = async () => {
      // The history walk starts once a sync has brought the open catalog in, and again after a
      // later one if it failed; it runs beside the loop, so the open catalog never waits for it.
      const synced = await this.syncNow().then(
        () => true,
        () => false,
      );
      if (this.stopped) return;
      if (synced && this.keepsAll && !this.history.finished && !this.historyRun)
        this.syncHistory().catch((e: unknown) => {
          if (!this.stopped) this.opts.log.warn(`history walk stopped: ${(e as Error).message}; it goes on after the next sync`);
        });
      this.timer = setTimeout(loop, this.opts.intervalMs);
      this.timer.unref();
    };
    void loop();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.abort.abort(new Error('sync stopped'));
    await Promise.all([this.running?.catch(() => {}), this.historyRun?.catch(() => {})]);
  }

  /**
   * Walks what is left of the closed history now (horizon `all` only; else resolves at once),
   * unless a walk is running; resolves when the history is read, rejects when stopped or failing.
   * Where it stands is saved page by page, so the next call (or the next start) goes on from there.
   */
  syncHistory(opts: RunOptions = {}): Promise<void> {
    if (!this.keepsAll) return Promise.resolve();
    const signal = opts.deadline ? AbortSignal.any([this.abort.signal, opts.deadline]) : this.abort.signal;
    this.historyRun ??= this.history.run(signal, this.resumer(signal, opts.deadline !== undefined)).finally(() => {
      this.historyRun = undefined;
    });
    return this.historyRun;
  }

  private fullSyncDue(): boolean {
    const last = parseTs(this.state.lastFullSyncAt);
    return last === null || this.opts.now() - last > this.opts.fullEveryMs;
  }

  private async run(kind: 'auto' | 'full' | 'incremental', deadline: AbortSignal | undefined): Promise<void> {
    const full = kind === 'full' || (kind === 'auto' && this.fullSyncDue());
    const signal = deadline ? AbortSignal.any([this.abort.signal, deadline]) : this.abort.signal;
    const resume = this.resumer(signal, deadline !== undefined);
    this.state.running = true;
    this.state.phase = full ? 'full' : 'incremental';
    this.state.progress = { events: 0, markets: 0, tags: 0, pages: 0 };
    this.emit();
    try {
      if (full) await this.fullSync(signal, resume);
      else {
        const complete = await this.incrementalSync(signal);
        if (!complete) {
          this.state.phase = 'full';
          this.emit();
          await this.fullSync(signal, resume);
        }
      }
      if (!this.keepsAll) {
        this.history.turnOff();
        this.store.prune(this.opts.now() - this.opts.horizonMs);
      }
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

  /** Writes a batch when the sync's turn comes (fair-turns.ts): under load, one batch per round of requests. */
  private async write(batch: { events?: GammaEvent[]; markets?: GammaMarket[] }): Promise<void> {
    await loopTurns.turn(this);
    const r = this.store.apply(batch);
    this.state.progress.events += r.events;
    this.state.progress.markets += r.markets;
    this.state.progress.pages++;
    this.emit();
  }

  /**
   * The walks' resume rule for one run: wait (1 s doubling to 30 s), then fetch the failed page
   * again; with a deadline until it fires, else up to `maxStalls` failures in a row.
   */
  private resumer(signal: AbortSignal, untilDeadline: boolean): NonNullable<WalkOptions['resume']> {
    return async (e, stalls) => {
      if (!transient(e) || (!untilDeadline && stalls > this.opts.maxStalls)) return false;
      const ms = Math.min(this.opts.resumeDelayMs * 2 ** Math.min(stalls - 1, 16), MAX_RESUME_DELAY_MS);
      this.opts.log.warn(`sync: a page failed (${(e as Error).message}); fetching it again in ${Math.ceil(ms / 1000)} s`);
      await delay(ms, signal);
      return true;
    };
  }

  async fullSync(signal = this.abort.signal, resume?: WalkOptions['resume']): Promise<void> {
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
    const cutoff = this.closedCutoff();
    await this.store.bulkLoad(async () => {
      await Promise.all([
        this.gamma.walk('events', { filters: { closed: false }, signal, ...(resume ? { resume } : {}) }, (events) => {
          note('events', events);
          return this.write({ events }).then(() => undefined);
        }),
        this.gamma.walk('markets', { filters: { closed: false }, signal, ...(resume ? { resume } : {}) }, (markets) => {
          note('markets', markets);
          return this.write({ markets }).then(() => undefined);
        }),
      ]);
      await Promise.all([this.recentlyClosed('events', cutoff, signal, resume), this.recentlyClosed('markets', cutoff, signal, resume)]);
    });
    await this.sweep('events', seen.events, signal);
    await this.sweep('markets', seen.markets, signal);
    const at = new Date(this.opts.now()).toISOString();
    this.state.lastFullSyncAt = at;
    this.store.setMeta('lastFullSyncAt', at);
  }

  /**
   * How far back the full sync reads recently closed items. With `all`, the history walk reads
   * the rest: until it is done, the last 7 days (as by default); after, back to the last sync
   * (what closed while the service was not running), at least 7 days.
   */
  private closedCutoff(): number {
    const now = this.opts.now();
    if (!this.keepsAll) return now - this.opts.horizonMs;
    const week = now - 7 * DAY;
    if (this.history.status().state !== 'done') return week;
    const last = parseTs(this.state.lastSuccessAt);
    return last === null ? week : Math.min(week, last - DAY);
  }

  /**
   * Items closed within the horizon, newest-closed first, until the listing passes the cutoff.
   * Best effort: an upstream that cannot order by closedTime is read no further.
   */
  private async recentlyClosed(kind: Kind, cutoff: number, signal: AbortSignal, resume: WalkOptions['resume']): Promise<void> {
    let last = Infinity;
    const filters = { closed: true, order: 'closedTime', ascending: false };
    await this.gamma.walk(kind, { filters, signal, capped: true, ...(resume ? { resume } : {}) }, async (items) => {
      const stamps = items.map((it) => parseTs(it['closedTime']) ?? -Infinity);
      if (stamps.some((t, i) => t > (i === 0 ? last : stamps[i - 1]!))) {
        this.opts.log.info(`upstream does not order ${kind} by closedTime; recently closed ${kind} are not fetched`);
        return false;
      }
      last = stamps[stamps.length - 1] ?? last;
      const recent = items.filter((_, i) => stamps[i]! >= cutoff);
      if (recent.length) await this.write(kind === 'events' ? { events: recent as GammaEvent[] } : { markets: recent as GammaMarket[] });
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
    if (returned.length)
      await this.write(kind === 'events' ? { events: returned as GammaEvent[] } : { markets: returned as GammaMarket[] });
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
  async incrementalSync(signal = this.abort.signal): Promise<boolean> {
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
          if (fresh.length) await this.write(kind === 'events' ? { events: fresh as GammaEvent[] } : { markets: fresh as GammaMarket[] });
          reached = items.length < PAGE_SIZE || fresh.length < items.length;
        }
        if (!reached) return false;
      }
    }
    return true;
  }
}
