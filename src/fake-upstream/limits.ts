/**
 * The fake upstream's rate limits: the same section 8 table and sliding windows as the
 * service's inbound limiter, applied to the upstream's paths (`/markets/keyset` is a markets
 * listing, `/markets/12` a by-id read, ...). Over any window: 429 with Retry-After.
 */
import { InboundLimiter, type Decision } from '../limits/inbound.ts';
import type { LimitsTable } from '../limits/table.ts';

const CLOB_PREFIXES = ['/data/', '/order', '/book', '/price', '/midpoint', '/batch-prices-history', '/auth/', '/time'];

export interface LimitCheck {
  decision: Decision;
  /** Catalog-class routes answer Gamma's `{type, error}` body. */
  catalog: boolean;
}

export class FakeLimits {
  readonly limiter: InboundLimiter;

  constructor(table?: LimitsTable, now?: () => number) {
    this.limiter = new InboundLimiter({ ...(table ? { table } : {}), ...(now ? { now } : {}) });
  }

  /** The table route a request path stands for; undefined when it is none of them. */
  routeOf(method: string, path: string): { route: string | undefined; face: 'base' | 'clob' } {
    const m = method === 'HEAD' ? 'GET' : method;
    const seg = path.split('/').slice(1);
    const [root, a] = seg;
    if ((root === 'markets' || root === 'events' || root === 'tags') && m === 'GET') {
      // Keyset pages are listings: they count where Gamma's listing routes do.
      if (seg.length === 1 || (seg.length === 2 && a === 'keyset' && root !== 'tags')) return { route: `GET /${root}`, face: 'base' };
      if (seg.length === 3 && a === 'slug') return { route: `GET /${root}/slug/:slug`, face: 'base' };
      if (seg.length === 2) return { route: `GET /${root}/:id`, face: 'base' };
    }
    const key = `${m} ${path}`;
    const face = path === '/' || CLOB_PREFIXES.some((p) => path.startsWith(p)) ? 'clob' : 'base';
    const plan = this.limiter.plan(key, face);
    // A route the table names keeps its name; anything else counts by its face's class only.
    return plan.windows.some((w) => w.def.routes.includes(key)) ||
      Object.values(this.limiter.compiled.table.classes).some((r) => r.includes(key))
      ? { route: key, face }
      : { route: undefined, face };
  }

  check(method: string, path: string, address: string, headers: Record<string, string | string[] | undefined>): LimitCheck {
    const { route, face } = this.routeOf(method, path);
    const plan = this.limiter.plan(route, face);
    const h = headers['poly_api_key'] ?? headers['kuest_api_key'];
    const key = this.limiter.clientKey(plan, address, typeof h === 'string' ? h : undefined);
    return { decision: this.limiter.admit(plan, key), catalog: plan.cls === this.limiter.compiled.table.faces.base };
  }
}
