/**
 * The one choke point for every request the service makes upstream. It retries 429, 5xx,
 * timeouts and dropped connections with jittered exponential backoff, honouring Retry-After.
 * The rate-limit scheduler plugs in here as the `gate` (src/limits/scheduler.ts): every attempt
 * waits for its budget and a slot (concurrency per host, by priority) and reports how it ended.
 *
 * Two bounds: `maxRetries` counts real failures (5xx, timeouts, drops, a 429 without
 * Retry-After); a 429 with Retry-After is the upstream pacing us, not a failure, so it costs
 * no retry and only the request's deadline (`deadlineMs`) bounds how long it keeps waiting.
 */

import { attemptSignal } from './attempt-signal.ts';

export type UpstreamHost = 'gamma' | 'clob' | 'data';
/**
 * The send gate's hosts: the three APIs, and 'images', the arbitrary CDN hosts that market and
 * event pictures come from (src/icons/), with their own budget and slots so icons never wait in
 * front of, or take room from, catalog sync and user requests.
 */
export type GateHost = UpstreamHost | 'images';
/** 'user': made for something the user is waiting on; sent before queued 'background' work (sync). */
export type Priority = 'user' | 'background';
export type QueryValue = string | number | boolean | readonly (string | number)[] | undefined;

export interface UpstreamUrls {
  gamma: string;
  clob: string;
  data: string;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'DELETE';
  query?: Record<string, QueryValue>;
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Which budget the request belongs to (for the scheduler); defaults to the path. */
  group?: string;
  /** Default 'user'. */
  priority?: Priority;
  /** A body sent byte for byte instead of `JSON.stringify(body)` (a client-signed order must not change). */
  rawBody?: string;
  /**
   * How long the request may wait to be sent, from the call: queued for its budget, and waiting
   * out 429s and backoff between attempts (an attempt on the wire has `timeoutMs`). Past it the
   * request fails with a DeadlineError. Default by priority (ClientOptions.deadlineMs).
   * The client hands the gate what is left of it on each attempt.
   */
  deadlineMs?: number;
  /**
   * 'throttled': retry only 429s (writes: a 5xx or a dropped connection may have placed the
   * order already, and only a 429 certainly did nothing). Default 'all'.
   */
  retry?: 'all' | 'throttled';
}

/** How one attempt ended, for the send gate (budgets, circuit). */
export type AttemptOutcome =
  | { kind: 'ok' }
  /** A final 4xx other than 429: the upstream is up. */
  | { kind: 'rejected'; status: number }
  | { kind: 'throttled'; retryAfterMs: number | null }
  /** 5xx (status), or a timeout or network error (null). */
  | { kind: 'failed'; status: number | null }
  | { kind: 'aborted' };

/**
 * Admits each attempt (the outbound scheduler: budgets, priorities, concurrency per host,
 * circuit). It resolves when the attempt may be sent, with a function to call once with how
 * the attempt ended; it rejects when the request is cancelled or the upstream is marked offline.
 */
export interface SendGate {
  acquire(host: GateHost, path: string, opts: RequestOptions): Promise<(outcome: AttemptOutcome) => void>;
}

/** Default deadlines by priority: a user is waiting on 'user' requests; sync can wait. */
export const DEFAULT_DEADLINE_MS: Readonly<Record<Priority, number>> = { user: 5_000, background: 600_000 };

/**
 * A request not sent within its deadline: it waited in the scheduler's queue, or a 429's
 * Retry-After reached past it. Nothing was sent for the wait that ran out. `retryAfterMs`:
 * when the budget should have room again.
 */
export class DeadlineError extends Error {
  constructor(
    message: string,
    readonly retryAfterMs: number,
  ) {
    super(message);
    this.name = 'DeadlineError';
  }
}

/** An upstream answer that is final (not retried): a 4xx other than 429, or retries exhausted. */
export class UpstreamError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
    readonly body: unknown = undefined,
  ) {
    super(message);
    this.name = 'UpstreamError';
  }
}

export interface ClientOptions {
  urls: UpstreamUrls;
  /** Retries after real failures (not after a 429 that says when to come back). Default 6. */
  maxRetries?: number;
  /** One attempt on the wire (default 30 s). */
  timeoutMs?: number;
  /** Default `RequestOptions.deadlineMs` by priority (DEFAULT_DEADLINE_MS). */
  deadlineMs?: Partial<Record<Priority, number>>;
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** Admits each attempt. The service always gives one; without it (tests) attempts go straight out. */
  gate?: SendGate;
  random?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Monotonic ms for deadlines (tests). */
  now?: () => number;
}

export interface ClientStats {
  requests: number;
  retries: number;
  throttled: number;
  failures: number;
  inFlight: number;
}

function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Retry-After in milliseconds: delta-seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | null {
  if (header === null || header.trim() === '') return null;
  if (/^\d+(\.\d+)?$/.test(header.trim())) return Number(header) * 1000;
  const t = Date.parse(header);
  return Number.isNaN(t) ? null : Math.max(0, t - now);
}

export function buildUrl(base: string, path: string, query?: Record<string, QueryValue>): string {
  const url = new URL(path.replace(/^\//, ''), base.endsWith('/') ? base : `${base}/`);
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v === undefined) continue;
    // Gamma takes arrays as repeated keys, never comma-joined (docs/upstream/gamma.md §0).
    if (Array.isArray(v)) for (const item of v) url.searchParams.append(k, String(item));
    else url.searchParams.set(k, String(v));
  }
  return url.toString();
}

/** A body longer than the caller's bound: refused without reading the rest (a final answer, not retried soon). */
export class BodyTooLargeError extends UpstreamError {
  override name = 'BodyTooLargeError';
}

/** One GET of bytes from an absolute URL (an image on a CDN): bounded in size and time, never retried here. */
export interface BytesOptions {
  /** A longer body is refused (UpstreamError, status null) without reading the rest. */
  maxBytes: number;
  /** The one attempt on the wire. */
  timeoutMs: number;
  /** Accept header. */
  accept: string;
  /** How long it may wait in the gate's queue (the caller retries later: no backoff loop here). */
  deadlineMs: number;
  priority?: Priority;
  /** Cancels it, queued or on the wire (nobody wants the picture any more). */
  signal?: AbortSignal;
}

export interface BytesReply {
  contentType: string;
  bytes: Uint8Array;
}

/** Reads a response body up to `max` bytes; past it the read stops and null is returned. */
async function readBounded(res: Response, max: number): Promise<Uint8Array | null> {
  const declared = Number(res.headers.get('content-length') ?? NaN);
  if (declared > max) {
    await res.body?.cancel().catch(() => {});
    return null;
  }
  const reader = res.body?.getReader();
  if (!reader) return new Uint8Array();
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => {});
      return null;
    }
    parts.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}

export class UpstreamClient {
  private readonly opts: Required<Omit<ClientOptions, 'gate' | 'deadlineMs'>> & Pick<ClientOptions, 'gate'>;
  private readonly deadlines: Record<Priority, number>;
  readonly stats: ClientStats = { requests: 0, retries: 0, throttled: 0, failures: 0, inFlight: 0 };

  constructor(opts: ClientOptions) {
    this.opts = {
      maxRetries: 6,
      timeoutMs: 30_000,
      baseDelayMs: 250,
      maxDelayMs: 30_000,
      random: Math.random,
      sleep: abortableSleep,
      now: () => performance.now(),
      ...opts,
    };
    this.deadlines = { ...DEFAULT_DEADLINE_MS, ...opts.deadlineMs };
  }

  get urls(): UpstreamUrls {
    return this.opts.urls;
  }

  /** Sends one request (with retries) and returns the parsed JSON body. */
  async request<T>(host: UpstreamHost, path: string, opts: RequestOptions = {}): Promise<T> {
    this.stats.inFlight++;
    try {
      return await this.withRetries<T>(host, path, opts);
    } finally {
      this.stats.inFlight--;
    }
  }

  /**
   * GETs the bytes at an absolute URL (`http:`/`https:` only) through the gate's 'images' host:
   * one attempt, its outcome reported so an unreachable network opens that host's circuit.
   */
  async getBytes(url: string, opts: BytesOptions): Promise<BytesReply> {
    const u = new URL(url);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new UpstreamError(`not an http(s) URL: ${u.protocol}`, null);
    const { signal } = opts;
    const release = await this.opts.gate?.acquire('images', u.pathname, {
      group: 'GET images',
      priority: opts.priority ?? 'background',
      deadlineMs: opts.deadlineMs,
      ...(signal ? { signal } : {}),
    });
    this.stats.requests++;
    this.stats.inFlight++;
    let outcome: AttemptOutcome = { kind: 'aborted' };
    const wire = attemptSignal(opts.timeoutMs, signal);
    try {
      const res = await fetch(u, { headers: { accept: opts.accept }, signal: wire.signal });
      if (!res.ok) {
        await res.body?.cancel().catch(() => {});
        if (res.status === 429) outcome = { kind: 'throttled', retryAfterMs: retryAfterMs(res.headers.get('retry-after')) };
        else outcome = res.status >= 500 ? { kind: 'failed', status: res.status } : { kind: 'rejected', status: res.status };
        throw new UpstreamError(`image ${u.host} answered ${res.status}`, res.status);
      }
      const bytes = await readBounded(res, opts.maxBytes);
      outcome = { kind: 'ok' };
      if (!bytes) throw new BodyTooLargeError(`image ${u.host}: larger than ${opts.maxBytes} bytes`, null);
      return { contentType: res.headers.get('content-type') ?? '', bytes };
    } catch (e) {
      if (e instanceof UpstreamError) throw e;
      if (signal?.aborted) throw signal.reason;
      outcome = { kind: 'failed', status: null };
      this.stats.failures++;
      const reason = (e as Error).name === 'TimeoutError' ? 'timeout' : `network error (${(e as Error).message})`;
      throw new UpstreamError(`image ${u.host} failed: ${reason}`, null);
    } finally {
      wire.done();
      this.stats.inFlight--;
      release?.(outcome);
    }
  }

  private backoff(attempt: number): number {
    // Full jitter: a random delay up to the exponential cap spreads retries of many clients.
    const cap = Math.min(this.opts.maxDelayMs, this.opts.baseDelayMs * 2 ** attempt);
    return Math.round(this.opts.random() * cap);
  }

  private async withRetries<T>(host: UpstreamHost, path: string, opts: RequestOptions): Promise<T> {
    const url = buildUrl(this.opts.urls[host], path, opts.query);
    const deadlineAt = this.opts.now() + (opts.deadlineMs ?? this.deadlines[opts.priority ?? 'user']);
    let failures = 0;
    for (let attempt = 0; ; attempt++) {
      opts.signal?.throwIfAborted();
      const release = await this.opts.gate?.acquire(host, path, { ...opts, deadlineMs: Math.max(0, deadlineAt - this.opts.now()) });
      this.stats.requests++;
      let wait: number;
      let reason: string;
      /** A 429 with Retry-After: the upstream said when to come back, so no retry is spent. */
      let paced = false;
      let outcome: AttemptOutcome = { kind: 'aborted' };
      const wire = attemptSignal(this.opts.timeoutMs, opts.signal);
      try {
        const body = opts.rawBody ?? (opts.body !== undefined ? JSON.stringify(opts.body) : undefined);
        const res = await fetch(url, {
          method: opts.method ?? 'GET',
          headers: { accept: 'application/json', ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...opts.headers },
          ...(body !== undefined ? { body } : {}),
          signal: wire.signal,
        });
        if (res.ok) {
          // Reading the body can still fail when the connection drops mid-response.
          const value = (await res.json()) as T;
          outcome = { kind: 'ok' };
          return value;
        }
        const resBody: unknown = await res.json().catch(() => undefined);
        if (res.status === 429) {
          this.stats.throttled++;
          const after = retryAfterMs(res.headers.get('retry-after'));
          outcome = { kind: 'throttled', retryAfterMs: after };
          paced = after !== null;
          // A stream of "Retry-After: 0" cannot spin: the gate's budget paces every attempt.
          wait = after ?? this.backoff(failures);
          reason = '429';
        } else if (res.status >= 500) {
          outcome = { kind: 'failed', status: res.status };
          if (opts.retry === 'throttled') throw new UpstreamError(`${host} ${path} answered ${res.status}`, res.status, resBody);
          wait = retryAfterMs(res.headers.get('retry-after')) ?? this.backoff(failures);
          reason = String(res.status);
        } else {
          outcome = { kind: 'rejected', status: res.status };
          throw new UpstreamError(`${host} ${path} answered ${res.status}`, res.status, resBody);
        }
      } catch (e) {
        if (e instanceof UpstreamError) throw e;
        if (opts.signal?.aborted) throw opts.signal.reason;
        outcome = { kind: 'failed', status: null };
        reason = (e as Error).name === 'TimeoutError' ? 'timeout' : `network error (${(e as Error).message})`;
        if (opts.retry === 'throttled') throw new UpstreamError(`${host} ${path} failed: ${reason}`, null);
        wait = this.backoff(failures);
      } finally {
        wire.done();
        release?.(outcome);
      }
      if (!paced && failures++ >= this.opts.maxRetries) {
        this.stats.failures++;
        throw new UpstreamError(`${host} ${path} failed after ${attempt + 1} attempts: ${reason}`, null);
      }
      if (this.opts.now() + wait > deadlineAt) {
        this.stats.failures++;
        if (paced) throw new DeadlineError(`${host} ${path}: throttled past the request's deadline`, wait);
        throw new UpstreamError(`${host} ${path} failed after ${attempt + 1} attempts: ${reason}; its deadline passed`, null);
      }
      this.stats.retries++;
      await this.opts.sleep(Math.min(wait, this.opts.maxDelayMs), opts.signal);
    }
  }
}
