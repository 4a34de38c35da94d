/**
 * The limit table (interface spec section 8), as one value: which windows exist, which routes
 * each counts, and which class a route is in. The inbound limiter, the outbound scheduler and
 * the fake upstream all read it; `--limits FILE` replaces it with a JSON file of the same shape.
 *
 * Routes are named `METHOD /path` with the contract's `:param` segments ("GET /markets/:id").
 * A window lists routes and classes (`class:catalog`); a request counts in every window that
 * names its route or its class. The built-in table names each route by its contract operation
 * (`routeName('markets.get')`, src/contract/routes.ts); a `--limits` file names any route as a string.
 *
 * Decisions where section 8 is silent (docs/architecture.md, "Decisions": "Windows"):
 * - by-id/slug routes, a market's or event's tags, /series, /status, /v1/leaderboard and the
 *   service's own extra base-face routes
 *   (/limits, /leaderboard/meta, /stream, /app/ files, unknown paths) are catalog routes: they
 *   count in "all catalog routes together" (4,000/10 s) and nothing narrower.
 * - GET /data/orders, and any other clob-face route, is a trading read: it counts in "all such
 *   routes together" (5,000/10 s).
 * - The Data API v2 account reads (/v2/positions, /v2/activity, /v2/trades, /v2/value), which
 *   section 8 has no row for, are their own class 'data-read' at the upstream Data API's
 *   published figures (docs/upstream/clob-data-limits.md §4.1): all together 1,000/10 s (its
 *   general row), /v2/positions 150/10 s and /v2/trades 200/10 s (its /positions and /trades
 *   rows); /v2/activity and /v2/value have no row of their own, so only the general one.
 * - The two write rows share one write budget at the rows' figures (2,400/10 s and 24,000/10 min),
 *   of which `reserve.share` (10%) only cancels may use (DELETE /order, and CLOB V2's DELETE /orders,
 *   /cancel-all, /cancel-market-orders): cancellations get through when placements used the rest.
 *   Each route's own rows stay too; CLOB V2's batch routes have none beyond the shared budget.
 * - Routes are named by method and path, not face: the clob face's `GET /markets` (the CLOB's
 *   market listing) has the name of Gamma's listing and counts in its windows too.
 */
import { z } from 'zod';
import { ROUTES, type OpName } from '../contract/routes.ts';

export interface WindowDef {
  /** Policy name in the RateLimit headers: a short token. */
  name: string;
  limit: number;
  seconds: number;
  /** Routes ("GET /markets") and classes ("class:catalog") this window counts. */
  routes: string[];
  /** The listed routes may fill the window; the others stop at limit × (1 − share). */
  reserve?: { share: number; for: string[] };
}

export interface LimitsTable {
  windows: WindowDef[];
  /** Route classes; a route not listed takes its face's (or upstream host's) class below. */
  classes: Record<string, string[]>;
  faces: { base: string; clob: string };
  /** The class of each upstream host's requests; `images` (icon pictures on any CDN) defaults to 'images'. */
  hosts: { gamma: string; clob: string; data: string; images: string };
  /** Authenticated routes: keyed per API key (POLY_API_KEY / KUEST_API_KEY), others per address. */
  apiKeyRoutes: string[];
}

/**
 * A contract operation's name in the table: `METHOD /path` with its `:param` segments, as the
 * inbound limiter sees a matched Fastify route ("GET /markets/:id"). Every route the built-in
 * table names is an operation of src/contract/routes.ts (the upstream's routes the service
 * forwards or mirrors are declared there too), so none is typed here again.
 */
export function routeName(op: OpName): string {
  const r = ROUTES[op];
  return `${r.method} ${r.path}`;
}

const ops = (...names: OpName[]): string[] => names.map(routeName);

const S = 10;
const TEN_MIN = 600;

/** Every cancel: the single one and CLOB V2's batch, all and by-market cancels (the write budget's reserve is theirs). */
const CANCEL_OPS = ['order.cancel', 'orders.cancel', 'orders.cancelAll', 'orders.cancelMarket'] as const satisfies readonly OpName[];
const CANCELS = ops(...CANCEL_OPS);

/** A section 8 row over 10 seconds that counts the named operations. */
const row = (name: string, limit: number, ...names: OpName[]): WindowDef => ({ name, limit, seconds: S, routes: ops(...names) });

export const DEFAULT_LIMITS: LimitsTable = {
  windows: [
    // 8.2 catalog routes
    { name: 'catalog', limit: 4000, seconds: S, routes: ['class:catalog'] },
    // Gamma's keyset and pagination variants count as the listing they page through (gamma.md §0).
    row('events', 500, 'events.list', 'events.keyset', 'events.pagination'),
    row('markets', 300, 'markets.list', 'markets.keyset'),
    row('listings', 900, 'events.list', 'markets.list', 'events.keyset', 'events.pagination', 'markets.keyset'),
    row('tags', 200, 'tags.list'),
    row('search', 350, 'search.query', 'search.desk'),
    // 8.3 trading reads
    { name: 'trading', limit: 5000, seconds: S, routes: ['class:trading-read'] },
    row('health', 50, 'clob.health'),
    row('book', 200, 'book.get'),
    row('books', 80, 'books.post'),
    row('price', 200, 'price.get'),
    row('prices', 80, 'prices.post'),
    row('midpoint', 200, 'midpoint.get'),
    row('prices-history', 100, 'pricesHistory.get'),
    row('batch-prices-history', 80, 'pricesHistory.batch'),
    row('trades', 150, 'trades.list'),
    // The Data API v2 account reads: no section 8 row, so the upstream Data API's published ones.
    { name: 'data', limit: 1000, seconds: S, routes: ['class:data-read'] },
    row('data-positions', 150, 'dataPositions.list'),
    row('data-trades', 200, 'dataTrades.list'),
    // 8.4 trading writes: burst and sustained per route, and the shared write budget with the cancel reserve
    row('order-burst', 2400, 'order.place'),
    { name: 'order-sustained', limit: 24000, seconds: TEN_MIN, routes: ops('order.place') },
    row('cancel-burst', 2400, 'order.cancel'),
    { name: 'cancel-sustained', limit: 24000, seconds: TEN_MIN, routes: ops('order.cancel') },
    // Icon pictures (src/icons/), fetched once each from arbitrary CDN hosts: a modest budget of
    // their own (the 'images' host has its own slots too), so they never take room from the APIs.
    { name: 'images', limit: 100, seconds: S, routes: ['class:images'] },
    { name: 'writes-burst', limit: 2400, seconds: S, routes: ['class:trading-write'], reserve: { share: 0.1, for: CANCELS } },
    {
      name: 'writes-sustained',
      limit: 24000,
      seconds: TEN_MIN,
      routes: ['class:trading-write'],
      reserve: { share: 0.1, for: CANCELS },
    },
  ],
  classes: {
    catalog: ops(
      'markets.list',
      'events.list',
      'tags.list',
      'search.query',
      'search.desk',
      'tags.ranked',
      'markets.get',
      'markets.bySlug',
      'events.get',
      'events.bySlug',
      'tags.get',
      'tags.bySlug',
      'markets.keyset',
      'events.keyset',
      'events.pagination',
      'markets.tags',
      'events.tags',
      'series.list',
      'series.get',
      'service.status',
      'leaderboard.list',
    ),
    'trading-read': ops(
      'clob.health',
      'book.get',
      'books.post',
      'price.get',
      'prices.post',
      'midpoint.get',
      'pricesHistory.get',
      'pricesHistory.batch',
      'trades.list',
      'orders.list',
      // Polymarket's read helpers (clob-client's): no row of their own in section 8, so the trading reads' one.
      'time.get',
      'midpoints.post',
      'spread.get',
      'spreads.post',
      'lastTradePrice.get',
      'lastTradesPrices.post',
      'tickSize.get',
      'negRisk.get',
      'feeRate.get',
      'order.get',
      'auth.apiKeys',
      // CLOB V2's own routes: section 8 has no row for them, so the trading reads' default window
      // (5,000/10 s), the heartbeat POST too (it places nothing; the write rows are orders and cancels).
      'clob.ok',
      'clob.version',
      'clobMarket.get',
      'marketByToken.get',
      'builderFees.get',
      'builderTrades.list',
      'heartbeat.post',
      'preMigrationOrders.list',
    ),
    // CLOB V2's batch writes share the write budget; every cancel may use its reserve.
    'trading-write': ops('order.place', 'order.cancel', 'orders.place', ...CANCEL_OPS),
    'data-read': ops('dataPositions.list', 'dataActivity.list', 'dataTrades.list', 'dataValue.get'),
  },
  faces: { base: 'catalog', clob: 'trading-read' },
  hosts: { gamma: 'catalog', clob: 'trading-read', data: 'catalog', images: 'images' },
  apiKeyRoutes: ops(
    'orders.list',
    'trades.list',
    'order.place',
    'order.cancel',
    'order.get',
    'auth.apiKeys',
    'heartbeat.post',
    'preMigrationOrders.list',
    // CLOB V2's other account routes (issue 25); the L1 ones (apiKey.create, apiKey.derive) stay per address.
    'orders.place',
    ...CANCEL_OPS,
    'orderScoring.get',
    'ordersScoring.post',
    'notifications.list',
    'notifications.drop',
    'balanceAllowance.get',
    'balanceAllowance.update',
    'rewardsEarnings.list',
    'rewardsEarningsTotal.get',
    'rewardsPercentages.get',
    'rewardsUserMarkets.list',
    'closedOnly.get',
    'apiKey.delete',
    'readonlyApiKey.create',
    'readonlyApiKeys.list',
    'readonlyApiKey.delete',
    'builderApiKey.create',
    'builderApiKeys.list',
    'builderApiKey.revoke',
  ),
};

const ROUTE = z
  .string()
  .regex(/^(GET|POST|DELETE|PUT|PATCH|HEAD) \/\S*$|^class:[\w-]+$/, 'a route ("GET /markets") or a class ("class:catalog")');

const windowSchema = z.strictObject({
  // A token: the name goes unquoted-safe into the RateLimit headers' strings.
  name: z.string().regex(/^[\w.-]{1,40}$/, 'letters, digits, "-", "_" or "."'),
  limit: z.number().int().min(1).max(1_000_000_000),
  seconds: z.number().positive().max(86_400),
  routes: z.array(ROUTE).min(1),
  reserve: z.strictObject({ share: z.number().min(0).max(1), for: z.array(ROUTE) }).optional(),
});

const tableSchema = z.strictObject({
  windows: z.array(windowSchema).min(1),
  classes: z.record(z.string().regex(/^[\w-]+$/), z.array(ROUTE)).optional(),
  faces: z.strictObject({ base: z.string(), clob: z.string() }).optional(),
  hosts: z.strictObject({ gamma: z.string(), clob: z.string(), data: z.string(), images: z.string().optional() }).optional(),
  apiKeyRoutes: z.array(ROUTE).optional(),
});

/**
 * Reads a `--limits` JSON value. `windows` replaces the section 8 rows; the route mappings
 * (`classes`, `faces`, `hosts`, `apiKeyRoutes`) default to the built-in ones when left out.
 * Throws an Error whose message names the offending field.
 */
export function parseLimitsTable(input: unknown): LimitsTable {
  const r = tableSchema.safeParse(input);
  if (!r.success) {
    const issue = r.error.issues[0]!;
    throw new Error(`limits table: ${issue.path.join('.') || '(top level)'}: ${issue.message}`);
  }
  const t = r.data;
  const names = new Set<string>();
  for (const w of t.windows) {
    if (names.has(w.name)) throw new Error(`limits table: window name "${w.name}" is used twice`);
    names.add(w.name);
  }
  return {
    windows: t.windows.map((w) => ({ ...w, ...(w.reserve ? { reserve: { ...w.reserve } } : {}) })),
    classes: t.classes ?? DEFAULT_LIMITS.classes,
    faces: t.faces ?? DEFAULT_LIMITS.faces,
    hosts: { ...DEFAULT_LIMITS.hosts, ...t.hosts },
    apiKeyRoutes: t.apiKeyRoutes ?? DEFAULT_LIMITS.apiKeyRoutes,
  };
}

/** A window of a route's plan, with the capacity this route may use of it. */
export interface PlannedWindow {
  index: number;
  def: WindowDef;
  windowMs: number;
  cap: number;
}

export interface RoutePlan {
  route: string;
  cls: string;
  windows: PlannedWindow[];
  /** `RateLimit-Policy` value: one item per window (IETF draft httpapi-ratelimit-headers). */
  policy: string;
}

/**
 * The table resolved for lookups: each route's windows, computed once per route. `scale`
 * multiplies every capacity (the outbound scheduler's safety margin: 0.95).
 */
export class CompiledTable {
  private readonly classOf = new Map<string, string>();
  private readonly plans = new Map<string, RoutePlan>();
  readonly apiKeyRoutes: ReadonlySet<string>;
  /** The longest window, for evicting idle keys. */
  readonly maxWindowMs: number;

  constructor(
    readonly table: LimitsTable,
    private readonly scale = 1,
  ) {
    for (const [cls, routes] of Object.entries(table.classes)) for (const r of routes) if (!this.classOf.has(r)) this.classOf.set(r, cls);
    this.apiKeyRoutes = new Set(table.apiKeyRoutes);
    this.maxWindowMs = Math.max(...table.windows.map((w) => w.seconds * 1000));
  }

  get windows(): readonly WindowDef[] {
    return this.table.windows;
  }

  /** The plan of `route` (undefined: a path no route matched), whose class defaults to `fallbackClass`. */
  plan(route: string | undefined, fallbackClass: string): RoutePlan {
    const key = `${route ?? ''}\u0000${fallbackClass}`;
    let p = this.plans.get(key);
    if (!p) {
      p = this.build(route, fallbackClass);
      // Outbound paths without a group (`/markets/123`) would grow this without end.
      if (this.plans.size >= 10_000) this.plans.clear();
      this.plans.set(key, p);
    }
    return p;
  }

  private build(route: string | undefined, fallbackClass: string): RoutePlan {
    const cls = (route !== undefined ? this.classOf.get(route) : undefined) ?? fallbackClass;
    const windows: PlannedWindow[] = [];
    this.table.windows.forEach((def, index) => {
      const counts = def.routes.some((r) => (r.startsWith('class:') ? r.slice(6) === cls : r === route));
      if (!counts) return;
      const reserved = def.reserve && !(route !== undefined && def.reserve.for.includes(route));
      const share = reserved ? def.reserve!.share : 0;
      const cap = Math.max(1, Math.floor(def.limit * (1 - share) * this.scale));
      windows.push({ index, def, windowMs: def.seconds * 1000, cap });
    });
    const policy = windows.map((w) => `"${w.def.name}";q=${w.cap};w=${w.def.seconds}`).join(', ');
    return { route: route ?? '(unmatched)', cls, windows, policy };
  }
}
