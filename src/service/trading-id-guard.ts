/**
 * The clob face's check of the ids a forwarded CLOB request carries (issue 25): an id the local
 * catalog knows to be the wrong trading id of its market (a Protocol V2 market's CTF token id,
 * its `clobTokenIds`; a V1 market's position id, its `positionIds`: the CLOB has no book for
 * either) is refused with a 400 in the orders family's `{error}` shape, naming the market and the
 * ids to use, and the request is never sent. Ids the catalog does not know, and those of markets
 * without a known version, pass through (the upstream decides). The store's index
 * (store/trading-id-index.ts) answers each lookup with one indexed read.
 *
 * Which ids a request carries is decided by its route (`METHOD /path`), so a route added later
 * at one of these paths (or any with a `token_id` parameter) is checked with no change here.
 */
import { ApiError } from '../contract/index.ts';
import type { WrongTradingId } from '../store/store-api.ts';

/** The store's read (Store.wrongTradingId). */
export type WrongIdLookup = (id: string) => WrongTradingId | undefined;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const idText = (v: unknown): string | undefined =>
  typeof v === 'string' ? v : typeof v === 'number' && Number.isSafeInteger(v) ? String(v) : undefined;
const defined = (xs: (string | undefined)[]): string[] => xs.filter((x): x is string => x !== undefined);

/** `[{"token_id": "..."}, ...]`: the batch reads' bodies. */
const tokenList = (body: unknown): string[] =>
  Array.isArray(body) ? defined(body.map((it) => (isObj(it) ? idText(it['token_id']) : undefined))) : [];

/**
 * The token ids of a CLOB order body: Polymarket's `{"order": {"tokenId": ...}, "owner", "orderType"}`
 * (POST /order), or an array of those (POST /orders, a batch).
 */
export function orderTokenIds(body: unknown): string[] {
  const one = (o: unknown) => (isObj(o) && isObj(o['order']) ? idText(o['order']['tokenId']) : undefined);
  return Array.isArray(body) ? defined(body.map(one)) : defined([one(body)]);
}

/** The ids in each route's JSON body. */
const BODY_IDS: Readonly<Record<string, (body: unknown) => string[]>> = {
  'POST /books': tokenList,
  'POST /prices': tokenList,
  'POST /midpoints': tokenList,
  'POST /spreads': tokenList,
  'POST /last-trades-prices': tokenList,
  'POST /batch-prices-history': (b) => (isObj(b) && Array.isArray(b['markets']) ? defined(b['markets'].map(idText)) : []),
  'POST /order': orderTokenIds,
  'POST /orders': orderTokenIds,
};

/** The routes whose `market` parameter is a token id (elsewhere it is a condition id). */
const MARKET_IS_TOKEN = new Set(['GET /prices-history']);

/**
 * The trading ids a request to `route` (`METHOD /path`, the route's template) carries: its
 * `token_id` (query or path), `market` where that is a token id, and its JSON body's ids.
 * `params` are the operation's, the body as its JSON text in `body`.
 */
export function tradingIdsOf(route: string, params: Readonly<Record<string, unknown>>): string[] {
  const ids = defined([idText(params['token_id']), MARKET_IS_TOKEN.has(route) ? idText(params['market']) : undefined]);
  const fromBody = BODY_IDS[route];
  const body = params['body'];
  if (fromBody && typeof body === 'string') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      // Not JSON: the face refuses it before here; nothing to check.
    }
    ids.push(...fromBody(parsed));
  }
  return ids;
}

const KIND = { clobTokenIds: 'a CTF token id', positionIds: 'a position id' } as const;
const PROTOCOL = { v1: 'Protocol V1', v2: 'Protocol V2' } as const;

/** The refusal's message: `token id 123 is a CTF token id of market 456, a Protocol V2 market: trade it by its positionIds (...)`. */
export function wrongIdMessage(id: string, w: WrongTradingId): string {
  const instead = w.instead === undefined ? '' : ` (for this outcome: ${w.instead})`;
  const market = `market ${w.market}, a ${PROTOCOL[w.version]} market`;
  return `token id ${id} is ${KIND[w.field]} of ${market}: trade it by its ${w.tradeBy}${instead}`;
}

/** Throws the 400 for the first of `ids` the catalog knows to be a wrong trading id. */
export function refuseWrongTradingIds(lookup: WrongIdLookup, ids: readonly string[]): void {
  for (const id of ids) {
    const wrong = lookup(id);
    if (wrong) throw new ApiError(400, { error: wrongIdMessage(id, wrong) });
  }
}

/**
 * The whole check of one request (tradingIdsOf, then refuseWrongTradingIds): call it before the
 * request is sent. `route` is `METHOD /path` of the route's template.
 */
export function guardTradingIds(lookup: WrongIdLookup, route: string, params: Readonly<Record<string, unknown>>): void {
  refuseWrongTradingIds(lookup, tradingIdsOf(route, params));
}
