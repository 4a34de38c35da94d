/**
 * The CLOB's routes: the trading reads and writes (books, prices, histories, placing and
 * cancelling orders, the market reads, the account's routes, API keys: trading.ts), and, when the
 * fake was given credentials, the account's order list and one order by id (clob.ts). All on the
 * one server: tests point every upstream URL here.
 *
 * Gamma and the CLOB both have `GET /markets` and `GET /markets/{id}`, and this one server plays
 * both, so those two paths are shared by what the request carries (registered after Gamma's):
 * - `GET /markets` with a `next_cursor` parameter is the CLOB's listing. Gamma pages with `offset`
 *   (and its keyset route with `after_cursor`) and never reads `next_cursor`; every CLOB client
 *   sends it (clob-client-v2 starts at `MA==`), and so does marketdesk's clob face, whose
 *   `clobMarkets.list` defaults it to `MA==`. Without it, the request is Gamma's.
 * - `GET /markets/0x<hex>` is the CLOB's market by condition id; Gamma's ids are decimal numbers.
 * Against the real APIs there is no clash: Gamma and the CLOB are two hosts.
 */
import type { FakeRequest, FakeRouter } from '../router.ts';
import type { FakeState } from '../state.ts';
import { TRADING_OPS, type TradingOp } from '../trading.ts';

/** The CLOB operations whose method and path Gamma's routes hold too, and how a request is told to be the CLOB's. */
const SHARED_WITH_GAMMA: Partial<Record<TradingOp, (r: FakeRequest) => boolean>> = {
  'clobMarkets.list': (r) => r.query.has('next_cursor'),
  'clobMarkets.get': (r) => /^0x[0-9a-fA-F]+$/.test(r.path.slice(r.path.lastIndexOf('/') + 1)),
};

export function registerClobRoutes(router: FakeRouter, state: FakeState): void {
  const { clob, trading } = state;
  for (const op of TRADING_OPS) {
    const handler = (r: FakeRequest) => trading.answer(op, { path: r.path, q: r.query, body: r.body, headers: r.headers });
    const claims = SHARED_WITH_GAMMA[op];
    if (claims) router.share(op, claims, handler);
    else router.op(op, handler);
  }
  if (!clob) return;
  router.op('orders.list', (r) => clob.orderList(r.method, r.path, r.query, r.headers));
  // Signed over the full path, so the order's id is read from it there.
  router.opPrefix('order.get', (r) => clob.orderById(r.method, r.path, r.headers));
}
