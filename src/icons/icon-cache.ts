/**
 * The icon cache (issue 13): each source URL is fetched once through the outbound scheduler's
 * 'images' host, resized to a small WebP and kept on disk (IconFiles) with a memory LRU in
 * front; without a data dir the LRU is the whole cache. Concurrent requests for one URL share
 * one fetch. Failures are remembered (a negative entry with a growing retry delay), so a broken
 * URL is not fetched again on every scroll. Offline, only what is cached is served.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { Logger } from '../logger.ts';
import { BodyTooLargeError, DeadlineError, UpstreamError, type BytesOptions, type BytesReply } from '../upstream/client.ts';
import type { IconHit, IconSource, IconWait } from './icon-source.ts';
import { IconFiles } from './icon-files.ts';
import { LRUCache } from 'lru-cache';
import { BadImageError, ICON_TYPE, toIcon } from './resize.ts';

/** What the cache needs of the upstream client: UpstreamClient.getBytes. */
export interface BytesFetcher {
  getBytes(url: string, opts: BytesOptions): Promise<BytesReply>;
}

export interface IconCacheOptions {
  fetcher: BytesFetcher;
  /** undefined: memory only. Icons go to `<dataDir>/icons/`. */
  dataDir?: string;
  /** `--offline`: never fetch; cached icons only. */
  offline?: boolean;
  log: Logger;
  /** Bytes accepted per picture (default 5 MiB). */
  maxBytes?: number;
  /** One fetch on the wire (default 10 s). */
  timeoutMs?: number;
  /** Memory LRU (default 8 MiB with a data dir, 32 MiB without). */
  memoryBytes?: number;
  /** Retry delays after a failure: transient (offline, timeout, 5xx) and permanent (4xx, not an image). */
  retry?: { transientMs?: number; permanentMs?: number; maxMs?: number };
  now?: () => number;
}

/** Raster image types taken from a CDN; anything else (HTML error pages, SVG, JSON) is refused unread. */
const ACCEPTED = /^image\/(png|jpeg|jpg|pjpeg|webp|gif|avif|heif|heic|tiff)$/;
const ACCEPT_HEADER = 'image/webp,image/avif,image/png,image/jpeg,image/gif;q=0.9';
/** Failures remembered at most (oldest forgotten first). */
const MAX_FAILURES = 10_000;

/** One fetch in progress, shared by its callers. */
interface Load {
  promise: Promise<IconHit | null>;
  controller: AbortController;
  /** Callers still waiting that could go away; Infinity once one that cannot joined. */
  waiters: number;
}

interface Failure {
  count: number;
  retryAt: number;
}

export function urlHash(url: string): string {
  return createHash('sha256').update(url).digest('hex');
}

export class IconCache implements IconSource {
  private readonly files: IconFiles | undefined;
  private readonly memory: LRUCache<string, Uint8Array>;
  private readonly inFlight = new Map<string, Load>();
  private readonly failures = new Map<string, Failure>();
  private readonly now: () => number;
  /** Fetches started (for tests and measurements). */
  fetches = 0;

  constructor(private readonly opts: IconCacheOptions) {
    this.files = opts.dataDir !== undefined ? new IconFiles(path.join(opts.dataDir, 'icons'), opts.log) : undefined;
    // At start: a temp file a killed process left goes now (offline, nothing may ever be written).
    if (!opts.offline) void this.files?.prepare();
    // Bounded by bytes, not entries: icons vary from a few hundred bytes to a few KB.
    this.memory = new LRUCache({
      maxSize: opts.memoryBytes ?? (this.files ? 8 : 32) * 1024 * 1024,
      sizeCalculation: (v) => Math.max(1, v.byteLength),
    });
    this.now = opts.now ?? Date.now;
  }

  /**
   * The icon for `url`, or null (the caller shows the placeholder). `signal`: the caller went
   * away; when every caller of a fetch has gone, the fetch is cancelled (a fast scroll past
   * hundreds of rows must not leave their pictures queued) and nothing is remembered.
   */
  get(url: string, wait?: Omit<IconWait, 'waitMs'>): Promise<IconHit | null>;
  get(url: string, wait: IconWait): Promise<IconHit | 'pending' | null>;
  get(url: string, wait: IconWait = {}): Promise<IconHit | 'pending' | null> {
    const { signal, waitMs } = wait;
    const hash = urlHash(url);
    const hot = this.memory.get(hash);
    if (hot) return Promise.resolve({ bytes: hot, contentType: ICON_TYPE, hash });
    if (signal?.aborted) return Promise.resolve(null);
    let load = this.inFlight.get(hash);
    if (!load) {
      const controller = new AbortController();
      const entry: Load = { promise: Promise.resolve(null), controller, waiters: 0 };
      entry.promise = this.load(url, hash, controller.signal).finally(() => {
        if (this.inFlight.get(hash) === entry) this.inFlight.delete(hash);
      });
      this.inFlight.set(hash, entry);
      load = entry;
    }
    const entry = load;
    const answer = signal ? this.join(entry, hash, signal) : this.joinForGood(entry);
    if (waitMs === undefined) return answer;
    let timer: NodeJS.Timeout | undefined;
    const pending = new Promise<'pending'>((resolve) => {
      timer = setTimeout(() => resolve('pending'), waitMs);
    });
    return Promise.race([answer, pending]).finally(() => clearTimeout(timer));
  }

  /** A caller that cannot go away keeps the fetch alive for good. */
  private joinForGood(entry: Load): Promise<IconHit | null> {
    entry.waiters = Number.POSITIVE_INFINITY;
    return entry.promise;
  }

  private join(entry: Load, hash: string, signal: AbortSignal): Promise<IconHit | null> {
    entry.waiters++;
    return new Promise((resolve) => {
      const onAbort = () => {
        resolve(null);
        if (--entry.waiters === 0) {
          entry.controller.abort(new Error('no caller wants this icon'));
          // A later caller starts afresh rather than joining the cancelled fetch.
          if (this.inFlight.get(hash) === entry) this.inFlight.delete(hash);
        }
      };
      signal.addEventListener('abort', onAbort, { once: true });
      void entry.promise.then((hit) => {
        signal.removeEventListener('abort', onAbort);
        resolve(hit);
      });
    });
  }

  private async load(url: string, hash: string, signal: AbortSignal): Promise<IconHit | null> {
    const saved = await this.files?.read(hash);
    if (saved) {
      this.memory.set(hash, saved);
      return { bytes: saved, contentType: ICON_TYPE, hash };
    }
    if (this.opts.offline || signal.aborted) return null;
    const failed = this.failures.get(hash);
    if (failed && failed.retryAt > this.now()) return null;
    this.fetches++;
    try {
      const reply = await this.opts.fetcher.getBytes(url, {
        maxBytes: this.opts.maxBytes ?? 5 * 1024 * 1024,
        timeoutMs: this.opts.timeoutMs ?? 10_000,
        accept: ACCEPT_HEADER,
        deadlineMs: 30_000,
        priority: 'background',
        signal,
      });
      const type = reply.contentType.split(';')[0]!.trim().toLowerCase();
      if (!ACCEPTED.test(type)) throw new BadImageError(`not an image type: ${type || '(none)'}`);
      const bytes = await toIcon(reply.bytes);
      this.failures.delete(hash);
      this.memory.set(hash, bytes);
      await this.files?.write(hash, bytes);
      return { bytes, contentType: ICON_TYPE, hash };
    } catch (e) {
      // Cancelled: nobody asked for it any more, which says nothing about the picture.
      if (!signal.aborted) this.fail(hash, e);
      return null;
    }
  }

  /** Remembers a failure: permanent ones (4xx, not a picture) wait long, transient ones briefly. */
  private fail(hash: string, e: unknown): void {
    const rejected = e instanceof UpstreamError && e.status !== null && e.status >= 400 && e.status < 500 && e.status !== 429;
    const permanent = e instanceof BadImageError || e instanceof BodyTooLargeError || rejected;
    if (!(e instanceof BadImageError) && !(e instanceof UpstreamError) && !(e instanceof DeadlineError)) {
      this.opts.log.warn(`icons: ${(e as Error).message}`);
    }
    const r = this.opts.retry ?? {};
    const base = permanent ? (r.permanentMs ?? 3_600_000) : (r.transientMs ?? 30_000);
    const count = (this.failures.get(hash)?.count ?? 0) + 1;
    const delay = Math.min(base * 2 ** (count - 1), r.maxMs ?? 86_400_000);
    this.failures.delete(hash);
    this.failures.set(hash, { count, retryAt: this.now() + delay });
    if (this.failures.size > MAX_FAILURES) this.failures.delete(this.failures.keys().next().value!);
  }
}
