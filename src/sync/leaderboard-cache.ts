/**
 * Leaderboards through the cache. A board (category, timePeriod, orderBy) is fetched whole
 * (up to 1,050 entries: every offset + limit the route accepts, see upstream/data-api.ts) when
 * a request finds it missing or older than the TTL (default 60 s), then every page and filter of
 * it is answered from the cache. Concurrent requests for one board share one fetch. When the
 * upstream fails, a stale board is served as it is; with nothing cached the answer is the
 * spec's internal_error.
 */
import { internalError } from '../contract/errors.ts';
import type { LeaderboardEntry, LeaderboardMeta } from '../contract/leaderboard-ops.ts';
import type { BoardKey, BoardQuery } from '../store/leaderboard-store.ts';
import type { LeaderboardCacheStore } from '../store/store-api.ts';
import { silentLogger, type Logger } from '../logger.ts';
import type { UpstreamClient } from '../upstream/client.ts';
import { BOARD_DEPTH, fetchBoard } from '../upstream/data-api.ts';

export interface LeaderboardCacheOptions {
  ttlMs?: number;
  now?: () => number;
  log?: Logger;
}

export class LeaderboardCache {
  private readonly opts: Required<LeaderboardCacheOptions>;
  private readonly inflight = new Map<string, Promise<void>>();
  private readonly abort = new AbortController();

  /** `client` undefined: offline, the cache only. */
  constructor(
    private readonly store: LeaderboardCacheStore,
    private readonly client: UpstreamClient | undefined,
    opts: LeaderboardCacheOptions = {},
  ) {
    this.opts = { ttlMs: 60_000, now: Date.now, log: silentLogger, ...opts };
  }

  private fresh(key: BoardKey): boolean {
    const at = this.store.fetchedAt(key);
    return at !== null && this.opts.now() - at < this.opts.ttlMs;
  }

  async list(key: BoardKey, q: BoardQuery): Promise<LeaderboardEntry[]> {
    if (!this.fresh(key) && this.client) {
      try {
        await this.refresh(key);
      } catch (e) {
        if (this.store.fetchedAt(key) === null) {
          this.opts.log.warn(`leaderboard ${boardName(key)}: upstream failed and nothing is cached: ${(e as Error).message}`);
          throw internalError('leaderboard');
        }
        this.opts.log.warn(`leaderboard ${boardName(key)}: upstream failed, serving the cached board: ${(e as Error).message}`);
      }
    }
    if (this.store.fetchedAt(key) === null) throw internalError('leaderboard');
    return this.store.query(key, q);
  }

  meta(key: BoardKey & Pick<LeaderboardMeta, 'category' | 'timePeriod' | 'orderBy'>): LeaderboardMeta {
    const at = this.store.fetchedAt(key);
    const entries = this.store.count(key);
    return {
      category: key.category,
      timePeriod: key.timePeriod,
      orderBy: key.orderBy,
      fetchedAt: at === null ? null : new Date(at).toISOString(),
      stale: at === null || !this.fresh(key),
      entries,
      truncated: entries >= BOARD_DEPTH,
    };
  }

  /** Fetches one board now, joining a fetch of it under way. */
  refresh(key: BoardKey): Promise<void> {
    const name = boardName(key);
    let p = this.inflight.get(name);
    if (!p) {
      const client = this.client;
      if (!client) return Promise.reject(new Error('offline'));
      p = (async () => {
        const entries = await fetchBoard(client, key, this.abort.signal);
        this.store.replace(key, entries, this.opts.now());
      })().finally(() => this.inflight.delete(name));
      this.inflight.set(name, p);
    }
    return p;
  }

  /** Calls off fetches under way (service shutdown). */
  async stop(): Promise<void> {
    this.abort.abort(new Error('leaderboard cache stopped'));
    await Promise.allSettled([...this.inflight.values()]);
  }
}

const boardName = (k: BoardKey): string => `${k.category}/${k.timePeriod}/${k.orderBy}`;
