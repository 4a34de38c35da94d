/**
 * The fake upstream's CLOB `GET /data/orders`, in Polymarket's real shape
 * (docs/upstream/clob-data-limits.md §2): L2-verified against the credentials it was started with,
 * snake_case orders, 100 per page, intermediate cursors base64(offset), last page `LTE=`.
 * The orders are deterministic: drawn by a seeded generator over markets of the fake's catalog
 * (so the app can show their questions), topped up with made-up markets when it has few.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Credentials } from '../auth/credentials.ts';
import { UNAUTHORIZED_BODY, verifyL2 } from '../auth/l2.ts';
import type { FakeCatalog } from './catalog.ts';
import { mulberry32, pick, randDigits, randHex, randInt } from './prng.ts';
import type { PolymarketOrder } from '../contract/orders-ops.ts';

/** One order as Polymarket's CLOB sends it: the contract's Polymarket wire shape. */
export type RawOrder = PolymarketOrder;

export interface FakeMarketRef {
  conditionId: string;
  tokenIds: string[];
  outcomes: string[];
}

export interface FakeOrdersOptions {
  /** How many orders (default 275: three pages, the last one partial). */
  count?: number;
  seed?: number;
  /** Markets to place the orders in (default: made up). */
  markets?: FakeMarketRef[];
  /** Made-up markets top `markets` up to this many (default 6). */
  minMarkets?: number;
  /** `owner` of every order: the API key (Polymarket sends the key's UUID). */
  owner?: string;
  /** `maker_address` of every order. */
  maker?: string;
  /** Newest `created_at`, epoch seconds (default 2026-03-01). */
  createdBefore?: number;
}

export interface FakeClobOptions {
  /** The account the fake accepts; requests signed with anything else get 401. */
  credentials: Credentials;
  /** The orders to serve (default: createFakeOrders over the catalog's markets). */
  orders?: RawOrder[];
  /** Options of the generated orders when `orders` is not given. */
  generate?: FakeOrdersOptions;
  /** Accepted timestamp skew, seconds (default 300). */
  windowS?: number;
  now?: () => number;
}

export const FAKE_PAGE_SIZE = 100;
export const END_CURSOR = 'LTE=';
const MIN_MARKETS = 6;

/** A Gamma JSON-encoded string list (`"[\"Yes\", \"No\"]"`); [] when absent or malformed. */
export function parseList(v: unknown): string[] {
  if (typeof v !== 'string') return [];
  try {
    const a: unknown = JSON.parse(v);
    return Array.isArray(a) && a.every((x) => typeof x === 'string') ? a : [];
  } catch {
    return [];
  }
}

/** Up to 8 open two-outcome markets of the catalog, in id order. */
export function catalogMarkets(catalog: FakeCatalog, max = 8): FakeMarketRef[] {
  const out: FakeMarketRef[] = [];
  for (const rec of catalog.marketRecords()) {
    const m = rec.obj as Record<string, unknown>;
    const tokenIds = parseList(m['clobTokenIds']);
    const outcomes = parseList(m['outcomes']);
    if (typeof m['conditionId'] !== 'string' || m['closed'] === true || tokenIds.length !== 2 || outcomes.length !== 2) continue;
    out.push({ conditionId: m['conditionId'], tokenIds, outcomes });
    if (out.length >= max) break;
  }
  return out;
}

/** A deterministic set of live orders over several markets and both assets of each. */
export function createFakeOrders(opts: FakeOrdersOptions = {}): RawOrder[] {
  const rng = mulberry32(opts.seed ?? 7);
  const markets = [...(opts.markets ?? [])];
  while (markets.length < Math.max(1, opts.minMarkets ?? MIN_MARKETS)) {
    markets.push({ conditionId: randHex(rng, 64, '0x'), tokenIds: [randDigits(rng, 77), randDigits(rng, 77)], outcomes: ['Yes', 'No'] });
  }
  const owner = opts.owner ?? '00000000-0000-4000-8000-000000000000';
  const maker = opts.maker ?? '0xb98ad946c7f753596F26396Bf3F34A2EeBc39E86';
  let created = opts.createdBefore ?? 1_772_323_200;
  const out: RawOrder[] = [];
  for (let i = 0; i < (opts.count ?? 275); i++) {
    const m = pick(rng, markets);
    const side = rng() < 0.6 ? 'BUY' : 'SELL';
    const k = rng() < 0.5 ? 0 : 1;
    const size = randInt(rng, 5, 500);
    const filled = rng() < 0.25 ? randInt(rng, 1, size - 1) : 0;
    const gtd = rng() < 0.15;
    created -= randInt(rng, 30, 7200);
    out.push({
      id: randHex(rng, 64, '0x'),
      status: 'LIVE',
      owner,
      maker_address: maker,
      market: m.conditionId,
      asset_id: m.tokenIds[k] as string,
      side,
      original_size: String(size),
      size_matched: String(filled),
      price: (randInt(rng, 1, 99) / 100).toFixed(2),
      outcome: m.outcomes[k] as string,
      expiration: gtd ? String(created + 30 * 86_400) : '0',
      order_type: gtd ? 'GTD' : 'GTC',
      associate_trades:
        filled > 0 ? [`${randHex(rng, 8)}-${randHex(rng, 4)}-${randHex(rng, 4)}-${randHex(rng, 4)}-${randHex(rng, 12)}`] : [],
      created_at: created,
    });
  }
  return out;
}

export interface ClobReply {
  status: number;
  body: string;
}

const reply = (status: number, value: unknown): ClobReply => ({ status, body: JSON.stringify(value) });

export class FakeClob {
  /** The served orders, newest first; tests may change the list between requests. */
  orders: RawOrder[];
  /** Orders that left the list by fill() or cancel(): `GET /data/order/{id}` still answers them, MATCHED or CANCELED. */
  readonly finished = new Map<string, RawOrder>();
  credentials: Credentials;

  constructor(
    private readonly opts: FakeClobOptions,
    catalog?: FakeCatalog,
  ) {
    this.credentials = opts.credentials;
    this.orders =
      opts.orders ??
      createFakeOrders({
        owner: opts.credentials.apiKey,
        maker: opts.credentials.address,
        ...(catalog ? { markets: catalogMarkets(catalog) } : {}),
        ...opts.generate,
      });
  }

  private verified(method: string, path: string, headers: IncomingHttpHeaders): boolean {
    return verifyL2(
      this.credentials,
      { method, path, headers },
      {
        ...(this.opts.windowS !== undefined ? { windowS: this.opts.windowS } : {}),
        nowMs: (this.opts.now ?? Date.now)(),
      },
    );
  }

  /** `GET /data/order/{id}`: one order, the same object the list carries (signed over the full path). */
  orderById(method: string, path: string, headers: IncomingHttpHeaders): ClobReply {
    if (!this.verified(method, path, headers)) return reply(401, UNAUTHORIZED_BODY);
    const id = decodeURIComponent(path.slice('/data/order/'.length));
    const o = this.orders.find((x) => x.id === id) ?? this.finished.get(id);
    return o ? reply(200, o) : reply(404, { error: 'order not found' });
  }

  /** The order matched whole: it leaves the open list as MATCHED with its full size matched. False: no such open order. */
  fill(id: string): boolean {
    return this.finish(id, (o) => ({ ...o, status: 'MATCHED', size_matched: o.original_size }));
  }

  /** The order cancelled (what is matched stays): it leaves the open list as CANCELED. */
  cancel(id: string): boolean {
    return this.finish(id, (o) => ({ ...o, status: 'CANCELED' }));
  }

  private finish(id: string, to: (o: RawOrder) => RawOrder): boolean {
    const o = this.orders.find((x) => x.id === id);
    if (!o) return false;
    this.orders = this.orders.filter((x) => x.id !== id);
    this.finished.set(id, to(o));
    return true;
  }

  /** `GET /data/orders`; the path's other methods and sub-paths are the server's business. */
  orderList(method: string, path: string, q: URLSearchParams, headers: IncomingHttpHeaders): ClobReply {
    if (!this.verified(method, path, headers)) return reply(401, UNAUTHORIZED_BODY);
    const cursor = q.get('next_cursor') ?? 'MA==';
    const decoded = cursor === '' ? '0' : Buffer.from(cursor, 'base64').toString('utf8');
    if (!/^\d{1,9}$/.test(decoded)) return reply(400, { error: 'invalid next_cursor' });
    const offset = Number(decoded);
    const id = q.get('id');
    const market = q.get('market');
    const asset = q.get('asset_id');
    const matching = this.orders.filter(
      (o) => (id === null || o.id === id) && (market === null || o.market === market) && (asset === null || o.asset_id === asset),
    );
    const data = matching.slice(offset, offset + FAKE_PAGE_SIZE);
    const end = offset + FAKE_PAGE_SIZE >= matching.length;
    return reply(200, {
      data,
      next_cursor: end ? END_CURSOR : Buffer.from(String(offset + FAKE_PAGE_SIZE)).toString('base64'),
      limit: FAKE_PAGE_SIZE,
      count: data.length,
    });
  }
}
