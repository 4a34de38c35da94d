/**
 * The inbound limiter: section 8's windows applied to the service's own HTTP faces, per client
 * (the verified API key on authenticated routes, remote address otherwise). A request is admitted only if
 * every window it belongs to has room, and is then counted in all of them; a refused request
 * is counted in none. Check and count happen in one synchronous step, so no other request can
 * slip in between (one process; a shared store for several would need the same as a script).
 */
import { CompiledTable, DEFAULT_LIMITS, type LimitsTable, type RoutePlan } from './table.ts';
import { SlidingLog } from './window.ts';

export interface Decision {
  admitted: boolean;
  /** Whole seconds until every blocking window has room (refusals only). */
  retryAfterS: number;
  /** `RateLimit-Policy` header value. */
  policy: string;
  /** `RateLimit` header value: remaining quota and seconds to the next freed unit, per window. */
  rateLimit: string;
}

export interface WindowUse {
  name: string;
  limit: number;
  cap: number;
  used: number;
}

export interface InboundOptions {
  table?: LimitsTable;
  /** Monotonic milliseconds; injected by tests. */
  now?: () => number;
}

/** Keys idle for longer than the longest window are dropped, checked at most this often. */
const SWEEP_EVERY = 10_000;

export class InboundLimiter {
  readonly compiled: CompiledTable;
  private readonly now: () => number;
  private readonly logs = new Map<string, (SlidingLog | undefined)[]>();
  private admits = 0;

  constructor(opts: InboundOptions = {}) {
    this.compiled = new CompiledTable(opts.table ?? DEFAULT_LIMITS);
    this.now = opts.now ?? (() => performance.now());
  }

  /** The plan for a matched route (`GET /markets/:id`) or, `route` undefined, an unmatched path on `face`. */
  plan(route: string | undefined, face: 'base' | 'clob'): RoutePlan {
    return this.compiled.plan(route, this.compiled.table.faces[face]);
  }

  /**
   * The limiter key of a caller: on authenticated routes the API key its signature proved
   * (never a bare header: anyone can send that), else its address.
   */
  clientKey(plan: RoutePlan, address: string, verifiedApiKey: string | undefined): string {
    return verifiedApiKey && this.compiled.apiKeyRoutes.has(plan.route) ? `key:${verifiedApiKey}` : `ip:${address}`;
  }

  admit(plan: RoutePlan, client: string): Decision {
    const now = this.now();
    let logs = this.logs.get(client);
    if (!logs) {
      logs = [];
      this.logs.set(client, logs);
    }
    // Check every window first: a refusal must leave all of them untouched.
    let waitMs = 0;
    for (const w of plan.windows) {
      const log = logs[w.index];
      if (log) waitMs = Math.max(waitMs, log.waitMs(now, w.cap));
    }
    const admitted = waitMs === 0;
    if (admitted) {
      for (const w of plan.windows) {
        logs[w.index] ??= new SlidingLog(w.def.limit, w.windowMs);
        logs[w.index]!.add(now);
      }
    }
    if (++this.admits % SWEEP_EVERY === 0) this.sweep(now);
    return {
      admitted,
      retryAfterS: admitted ? 0 : Math.max(1, Math.ceil(waitMs / 1000)),
      policy: plan.policy,
      rateLimit: this.rateLimit(plan, logs, now),
    };
  }

  private rateLimit(plan: RoutePlan, logs: (SlidingLog | undefined)[], now: number): string {
    const items: string[] = [];
    for (const w of plan.windows) {
      const log = logs[w.index];
      const used = log?.used(now) ?? 0;
      const remaining = Math.max(0, w.cap - used);
      const t = remaining > 0 ? Math.ceil((log?.nextFreeMs(now) ?? 0) / 1000) : Math.ceil((log?.waitMs(now, w.cap) ?? 0) / 1000);
      items.push(`"${w.def.name}";r=${remaining};t=${t}`);
    }
    return items.join(', ');
  }

  /** What one client has used of each window (tests, diagnostics). */
  usage(client: string): WindowUse[] {
    const now = this.now();
    const logs = this.logs.get(client) ?? [];
    return this.compiled.windows.map((def, i) => ({ name: def.name, limit: def.limit, cap: def.limit, used: logs[i]?.used(now) ?? 0 }));
  }

  /** Clients with anything counted. */
  get clients(): number {
    return this.logs.size;
  }

  private sweep(now: number): void {
    for (const [key, logs] of this.logs) {
      if (logs.every((l) => l === undefined || l.empty(now))) this.logs.delete(key);
    }
  }
}
