/**
 * The fake upstream's rate limits: the same section 8 table and sliding windows as the
 * service's inbound limiter, applied to the upstream's paths (`/markets/keyset` is a markets
 * listing, `/markets/12` a by-id read, ...). Over any window: 429 with Retry-After.
 */
import { ROUTES, type OpName } from '../contract/routes.ts';
import { InboundLimiter, type Decision } from '../limits/inbound.ts';
import { routeName, type LimitsTable } from '../limits/table.ts';
import { PathTable } from './router.ts';

/**
 * Gamma's item paths, which count as their route's pattern (`/markets/12` as `GET /markets/:id`),
 * and keyset pages, which count as the listing they page through. Any other path counts as its
 * literal `METHOD /path` when the table names that.
 */
const ITEM_OPS = [
  'markets.list',
  'markets.get',
  'markets.bySlug',
  'events.list',
  'events.get',
  'events.bySlug',
  'tags.list',
  'tags.get',
  'tags.bySlug',
] as const;
const COUNTED_AS: [OpName, OpName][] = [
  ...ITEM_OPS.map((op): [OpName, OpName] => [op, op]),
  ['markets.keyset', 'markets.list'],
  ['events.keyset', 'events.list'],
];
const GAMMA_PATHS = new PathTable<OpName>();
for (const [op, as] of COUNTED_AS) GAMMA_PATHS.add(ROUTES[op].method, ROUTES[op].path, as);

/**
 * The face of a path no item route matched, by prefix: this decides only the class of a path
 * the table does not name (an unknown one). Kept as it was rather than derived from the
 * contract's clob routes, which would move unnamed paths such as `/spread/x` or `POST /tick-size`
 * to the CLOB and `/orderbook` or `/timeline` off it.
 */
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
    const item = GAMMA_PATHS.find(m, path)?.value;
    if (item) return { route: routeName(item), face: ROUTES[item].face };
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
