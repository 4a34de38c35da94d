/**
 * Scriptable failures for tests: queue faults that fire on the next matching requests, or turn
 * on a seeded random mode. A queued fault is consumed as it fires.
 */
import { mulberry32, type Rng } from './prng.ts';

export interface FaultRequest {
  method: string;
  /** Path without query string, e.g. "/markets/keyset". */
  path: string;
  query: URLSearchParams;
}

/** A path prefix ("/markets" also matches "/markets/keyset") or a predicate. */
export type FaultMatch = string | ((req: FaultRequest) => boolean);

export type Fault =
  /** 429 with `Retry-After: retryAfter` (seconds, default 1). */
  | { kind: '429'; retryAfter?: number; match?: FaultMatch }
  /** 500 with Gamma's internal-error body. */
  | { kind: '500'; match?: FaultMatch }
  /** Answers normally after `ms`. */
  | { kind: 'slow'; ms: number; match?: FaultMatch }
  /** Sends the headers and part of the body, then destroys the socket. */
  | { kind: 'drop'; match?: FaultMatch }
  /** Never answers; the socket stays open until the client gives up or the server closes. */
  | { kind: 'hang'; match?: FaultMatch };

export type FaultKind = Fault['kind'];

export interface RandomFaults {
  seed?: number;
  rate429?: number;
  rate500?: number;
  rateDrop?: number;
  rateSlow?: number;
  /** Delay of random `slow` faults (default 200 ms). */
  slowMs?: number;
  /** Retry-After of random 429s (default 1). */
  retryAfter?: number;
  match?: FaultMatch;
}

function matches(m: FaultMatch | undefined, req: FaultRequest): boolean {
  if (m === undefined) return true;
  if (typeof m === 'string') return req.path === m || req.path.startsWith(m.endsWith('/') ? m : `${m}/`);
  return m(req);
}

export class FaultScript {
  private queue: { fault: Fault; left: number }[] = [];
  private randomOpts: RandomFaults | null = null;
  private rng: Rng = mulberry32(1);
  /** Faults that fired, in order (scripted and random). */
  readonly fired: { kind: FaultKind; path: string }[] = [];

  /** Queues `fault` to fire on the next `times` matching requests (default 1). */
  push(fault: Fault, times = 1): this {
    if (times > 0) this.queue.push({ fault, left: times });
    return this;
  }

  /** Random faults on every matching request; `null` turns the mode off. */
  random(opts: RandomFaults | null): this {
    this.randomOpts = opts;
    if (opts) this.rng = mulberry32(opts.seed ?? 1);
    return this;
  }

  /** Drops queued faults and random mode. */
  clear(): void {
    this.queue = [];
    this.randomOpts = null;
  }

  /** Scripted fault firings still queued. */
  get pending(): number {
    return this.queue.reduce((n, q) => n + q.left, 0);
  }

  /** The fault for this request, if any (consuming it). Scripted faults go first. */
  take(req: FaultRequest): Fault | undefined {
    const at = this.queue.findIndex((q) => matches(q.fault.match, req));
    if (at >= 0) {
      const q = this.queue[at]!;
      if (--q.left <= 0) this.queue.splice(at, 1);
      this.fired.push({ kind: q.fault.kind, path: req.path });
      return q.fault;
    }
    const r = this.randomOpts;
    if (!r || !matches(r.match, req)) return undefined;
    let x = this.rng();
    const pick = (rate: number | undefined): boolean => {
      if (!rate) return false;
      if (x < rate) return true;
      x -= rate;
      return false;
    };
    let fault: Fault | undefined;
    if (pick(r.rate429)) fault = { kind: '429', retryAfter: r.retryAfter ?? 1 };
    else if (pick(r.rate500)) fault = { kind: '500' };
    else if (pick(r.rateDrop)) fault = { kind: 'drop' };
    else if (pick(r.rateSlow)) fault = { kind: 'slow', ms: r.slowMs ?? 200 };
    if (fault) this.fired.push({ kind: fault.kind, path: req.path });
    return fault;
  }
}
