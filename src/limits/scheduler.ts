/**
 * The outbound scheduler: every upstream attempt waits here for room in section 8's windows
 * (the same table as the inbound limiter, less a safety margin), per upstream host. It is the
 * UpstreamClient's send gate; the client keeps the one retry loop (jittered exponential
 * backoff honouring Retry-After) and reports each attempt's outcome back here.
 *
 * - Windows roll (sliding logs) and a request takes room in all of its windows at once.
 * - Priorities: a 'user' request goes before queued 'background' ones, and while one waits for
 *   a window no background request may take room in that window.
 * - Concurrency is bounded per host; an attempt holds a slot only while it is on the wire.
 * - Queued requests are cancelled by their AbortSignal.
 * - Every queued request has a deadline (its `deadlineMs`, else a default by priority): one still
 *   queued then is rejected with a DeadlineError, never sent, so a caller is not kept waiting
 *   on a budget that will not free in time.
 * - A 429's Retry-After holds the route for that long.
 * - Circuit: after `failures` consecutive 5xx or network failures the host is marked offline
 *   and requests fail at once; after `openMs` (doubling up to `maxOpenMs`) one request probes
 *   it, and any HTTP answer brings it back online.
 */
import {
  DEFAULT_DEADLINE_MS,
  DeadlineError,
  UpstreamError,
  type AttemptOutcome,
  type Priority,
  type RequestOptions,
  type SendGate,
  type UpstreamHost,
} from '../upstream/client.ts';
import type { HostStatus, SchedulerStatus, WindowStatus } from '../contract/limits-ops.ts';
import { CompiledTable, DEFAULT_LIMITS, type LimitsTable, type RoutePlan } from './table.ts';
import { SlidingLog } from './window.ts';

export type { HostStatus, SchedulerStatus, WindowStatus };

export interface Timers {
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

export interface SchedulerOptions {
  table?: LimitsTable;
  /** Share of each window left unused, for clock skew and latency between here and the upstream (default 0.05). */
  margin?: number;
  /** Attempts on the wire at once, per host (default 4). */
  concurrency?: number;
  circuit?: { failures?: number; openMs?: number; maxOpenMs?: number };
  /** How long a request without `deadlineMs` may stay queued, by priority (default user 5 s, background 10 min). */
  deadlineMs?: Partial<Record<Priority, number>>;
  /** Sends one request to check an offline host (the service wires it to the client); any answer will do. */
  probe?: (host: UpstreamHost) => Promise<unknown>;
  /** Monotonic milliseconds and timers; injected by tests. */
  now?: () => number;
  timers?: Timers;
}

interface Pending {
  plan: RoutePlan;
  priority: Priority;
  resolve: (release: (o: AttemptOutcome) => void) => void;
  reject: (e: unknown) => void;
  signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
  /** When it is rejected if still queued (scheduler clock). */
  expiresAt: number;
}

class HostState {
  readonly logs: (SlidingLog | undefined)[] = [];
  readonly queues: Record<Priority, Pending[]> = { user: [], background: [] };
  inFlight = 0;
  circuit: 'closed' | 'open' | 'half-open' = 'closed';
  failures = 0;
  openUntil = 0;
  openMs: number;
  probing = false;
  /** Route -> time before which it is held (a 429's Retry-After). */
  readonly holds = new Map<string, number>();
  timer: unknown;
  timerAt = Infinity;
  constructor(
    readonly host: UpstreamHost,
    openMs: number,
  ) {
    this.openMs = openMs;
  }
}

const HOSTS: readonly UpstreamHost[] = ['gamma', 'clob', 'data'];
const PRIORITIES: readonly Priority[] = ['user', 'background'];

const realTimers: Timers = {
  set(fn, ms) {
    // Not unref'd: a queued request has a caller awaiting it, so the process must stay up
    // until it is sent (a CLI `sync` would otherwise exit with its top-level await unsettled).
    // close() clears the timers when the service stops.
    return setTimeout(fn, ms);
  },
  clear(h) {
    clearTimeout(h as NodeJS.Timeout);
  },
};

export class OutboundScheduler implements SendGate {
  readonly compiled: CompiledTable;
  private readonly margin: number;
  private readonly concurrency: number;
  private readonly failuresToOpen: number;
  private readonly openMs: number;
  private readonly maxOpenMs: number;
  private readonly now: () => number;
  private readonly timers: Timers;
  private readonly probe: SchedulerOptions['probe'];
  private readonly deadlines: Record<Priority, number>;
  private readonly hosts = new Map<UpstreamHost, HostState>();
  private readonly listeners = new Set<(host: UpstreamHost, online: boolean) => void>();
  private closed = false;

  constructor(opts: SchedulerOptions = {}) {
    this.margin = opts.margin ?? 0.05;
    this.compiled = new CompiledTable(opts.table ?? DEFAULT_LIMITS, 1 - this.margin);
    this.concurrency = opts.concurrency ?? 4;
    this.failuresToOpen = opts.circuit?.failures ?? 5;
    this.openMs = opts.circuit?.openMs ?? 5_000;
    this.maxOpenMs = opts.circuit?.maxOpenMs ?? 60_000;
    this.now = opts.now ?? (() => performance.now());
    this.timers = opts.timers ?? realTimers;
    this.probe = opts.probe;
    this.deadlines = { ...DEFAULT_DEADLINE_MS, ...opts.deadlineMs };
  }

  private state(host: UpstreamHost): HostState {
    let h = this.hosts.get(host);
    if (!h) {
      h = new HostState(host, this.openMs);
      this.hosts.set(host, h);
    }
    return h;
  }

  /** The budget plan of a request: its group ('GET /markets') or else method and path. */
  planOf(host: UpstreamHost, path: string, opts: Pick<RequestOptions, 'group' | 'method'>): RoutePlan {
    return this.compiled.plan(opts.group ?? `${opts.method ?? 'GET'} ${path}`, this.compiled.table.hosts[host]);
  }

  acquire(host: UpstreamHost, path: string, opts: RequestOptions): Promise<(o: AttemptOutcome) => void> {
    const signal = opts.signal;
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.closed) return Promise.reject(new UpstreamError(`${host}: the scheduler is closed`, null));
    const h = this.state(host);
    if (h.circuit === 'open') {
      if (this.now() < h.openUntil) return Promise.reject(this.offline(h));
      // The open period is over: this request is the probe.
      h.circuit = 'half-open';
    }
    return new Promise((resolve, reject) => {
      const priority = opts.priority ?? 'user';
      const p: Pending = {
        plan: this.planOf(host, path, opts),
        priority,
        resolve,
        reject,
        signal,
        onAbort: undefined,
        expiresAt: this.now() + (opts.deadlineMs ?? this.deadlines[priority]),
      };
      if (signal) {
        p.onAbort = () => {
          const q = h.queues[p.priority];
          const i = q.indexOf(p);
          if (i >= 0) q.splice(i, 1);
          reject(signal.reason);
          // A cancelled user request may have been holding windows back from background ones.
          this.pump(h);
        };
        signal.addEventListener('abort', p.onAbort, { once: true });
      }
      h.queues[p.priority].push(p);
      this.pump(h);
    });
  }

  /** Milliseconds until `plan` may be sent on `h` (Infinity: held back for a waiting user request). */
  private waitFor(h: HostState, plan: RoutePlan, now: number, reserved: Set<number> | undefined): number {
    let wait = 0;
    const hold = h.holds.get(plan.route);
    if (hold !== undefined) {
      if (hold > now) wait = hold - now;
      else h.holds.delete(plan.route);
    }
    for (const w of plan.windows) {
      if (reserved?.has(w.index)) return Infinity;
      const log = h.logs[w.index];
      if (log) wait = Math.max(wait, log.waitMs(now, w.cap));
    }
    return wait;
  }

  private pump(h: HostState): void {
    if (h.circuit === 'open') return;
    const now = this.now();
    let soonest = Infinity;
    // Windows a waiting user request needs: background requests may not take room in them.
    const reserved = new Set<number>();
    for (const prio of PRIORITIES) {
      const q = h.queues[prio];
      for (let i = 0; i < q.length; ) {
        const p = q[i]!;
        // No slot (a release pumps again) or a probe out (its outcome does): only deadlines to keep.
        const blocked = h.inFlight >= this.concurrency || (h.circuit === 'half-open' && h.probing);
        const wait = blocked ? Infinity : this.waitFor(h, p.plan, now, prio === 'background' ? reserved : undefined);
        if (wait > 0) {
          if (p.expiresAt <= now) {
            q.splice(i, 1);
            this.expire(h, p, now);
            continue;
          }
          if (prio === 'user') for (const w of p.plan.windows) reserved.add(w.index);
          soonest = Math.min(soonest, wait, p.expiresAt - now);
          i++;
          continue;
        }
        q.splice(i, 1);
        for (const w of p.plan.windows) {
          h.logs[w.index] ??= new SlidingLog(w.def.limit, w.windowMs);
          h.logs[w.index]!.add(now);
        }
        h.inFlight++;
        if (h.circuit === 'half-open') h.probing = true;
        if (p.signal && p.onAbort) p.signal.removeEventListener('abort', p.onAbort);
        p.resolve(this.release(h, p.plan));
      }
    }
    if (soonest < Infinity) this.arm(h, now + soonest);
  }

  /** Rejects a request whose deadline passed while it was queued; it never reached the wire. */
  private expire(h: HostState, p: Pending, now: number): void {
    if (p.signal && p.onAbort) p.signal.removeEventListener('abort', p.onAbort);
    // When its windows have room again; held only by concurrency, a second is a fair guess.
    const ms = this.waitFor(h, p.plan, now, undefined) || 1000;
    p.reject(new DeadlineError(`${h.host} ${p.plan.route}: no room in the upstream budget before the request's deadline`, ms));
  }

  /** Wakes the host's queue at `at` (one timer per host, the earliest wanted). */
  private arm(h: HostState, at: number): void {
    if (h.timer !== undefined && h.timerAt <= at) return;
    if (h.timer !== undefined) this.timers.clear(h.timer);
    h.timerAt = at;
    // +1 ms: a timer may fire a hair before the monotonic clock reaches `at`.
    h.timer = this.timers.set(
      () => {
        h.timer = undefined;
        h.timerAt = Infinity;
        this.wake(h);
      },
      Math.max(0, Math.ceil(at - this.now())) + 1,
    );
  }

  private wake(h: HostState): void {
    if (this.closed) return;
    if (h.circuit === 'open') {
      // An earlier window timer fired first: wait on for the end of the open period.
      if (this.now() < h.openUntil) {
        this.arm(h, h.openUntil);
        return;
      }
      h.circuit = 'half-open';
      // Nobody waiting to be the probe: send one, so the host comes back without a caller.
      if (this.probe && h.queues.user.length + h.queues.background.length === 0) void this.probe(h.host).catch(() => {});
    }
    this.pump(h);
  }

  private release(h: HostState, plan: RoutePlan): (o: AttemptOutcome) => void {
    let done = false;
    return (o) => {
      if (done) return;
      done = true;
      h.inFlight--;
      const now = this.now();
      switch (o.kind) {
        case 'ok':
        case 'rejected':
          this.answered(h);
          break;
        case 'throttled':
          this.answered(h);
          if (o.retryAfterMs) h.holds.set(plan.route, Math.max(h.holds.get(plan.route) ?? 0, now + o.retryAfterMs));
          break;
        case 'failed':
          this.failed(h, now);
          break;
        case 'aborted':
          // A cancelled probe proves nothing: the next request probes again.
          if (h.circuit === 'half-open') h.probing = false;
          break;
      }
      this.pump(h);
    };
  }

  /** Any HTTP answer (even a 4xx or 429) shows the host is reachable. */
  private answered(h: HostState): void {
    h.failures = 0;
    if (h.circuit !== 'closed') {
      h.circuit = 'closed';
      h.probing = false;
      h.openMs = this.openMs;
      this.emit(h.host, true);
    }
  }

  private failed(h: HostState, now: number): void {
    h.failures++;
    if (h.circuit === 'half-open') {
      h.openMs = Math.min(h.openMs * 2, this.maxOpenMs);
      this.open(h, now);
    } else if (h.circuit === 'closed' && h.failures >= this.failuresToOpen) {
      this.open(h, now);
      this.emit(h.host, false);
    }
  }

  private open(h: HostState, now: number): void {
    h.circuit = 'open';
    h.probing = false;
    h.openUntil = now + h.openMs;
    // Offline: queued requests fail now rather than wait out the open period.
    for (const prio of PRIORITIES) {
      for (const p of h.queues[prio].splice(0)) {
        if (p.signal && p.onAbort) p.signal.removeEventListener('abort', p.onAbort);
        p.reject(this.offline(h));
      }
    }
    this.arm(h, h.openUntil);
  }

  private offline(h: HostState): UpstreamError {
    const s = Math.max(0, Math.ceil((h.openUntil - this.now()) / 1000));
    return new UpstreamError(`${h.host} upstream is offline after ${h.failures} failed attempts; next try in ${s} s`, null);
  }

  private emit(host: UpstreamHost, online: boolean): void {
    for (const fn of this.listeners) fn(host, online);
  }

  /** Called when a host goes offline or comes back. */
  onOnlineChange(fn: (host: UpstreamHost, online: boolean) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Online until proven otherwise; offline from the circuit opening until a probe gets an answer. */
  isOnline(host: UpstreamHost): boolean {
    return (this.hosts.get(host)?.circuit ?? 'closed') === 'closed';
  }

  status(): SchedulerStatus {
    const now = this.now();
    const hosts = HOSTS.map((host): HostStatus => {
      const h = this.hosts.get(host);
      const cls = this.compiled.table.hosts[host];
      const windows: WindowStatus[] = [];
      this.compiled.windows.forEach((def, i) => {
        const log = h?.logs[i];
        // The host's own windows: those it has used, and its class-wide one.
        if (!log && !def.routes.includes(`class:${cls}`)) return;
        const budget = Math.max(1, Math.floor(def.limit * (1 - this.margin)));
        const used = log?.used(now) ?? 0;
        windows.push({
          name: def.name,
          limit: def.limit,
          budget,
          used,
          remaining: Math.max(0, budget - used),
          resetS: Math.ceil((log?.nextFreeMs(now) ?? 0) / 1000),
        });
      });
      return {
        host,
        online: this.isOnline(host),
        circuit: h?.circuit ?? 'closed',
        queued: { user: h?.queues.user.length ?? 0, background: h?.queues.background.length ?? 0 },
        inFlight: h?.inFlight ?? 0,
        failures: h?.failures ?? 0,
        probeInS: h?.circuit === 'open' ? Math.max(0, Math.ceil((h.openUntil - now) / 1000)) : null,
        windows,
      };
    });
    return { margin: this.margin, concurrency: this.concurrency, hosts };
  }

  /** Rejects everything queued and stops the timers. */
  close(): void {
    this.closed = true;
    for (const h of this.hosts.values()) {
      if (h.timer !== undefined) this.timers.clear(h.timer);
      h.timer = undefined;
      for (const prio of PRIORITIES) {
        for (const p of h.queues[prio].splice(0)) {
          if (p.signal && p.onAbort) p.signal.removeEventListener('abort', p.onAbort);
          p.reject(new UpstreamError(`${h.host}: the scheduler is closed`, null));
        }
      }
    }
  }
}
