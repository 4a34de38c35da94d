/**
 * The CLOB's routes: the trading reads and writes (books, prices, histories, placing and
 * cancelling orders: trading.ts), and, when the fake was given credentials, the account's
 * order list and one order by id (clob.ts). All on the one server: tests point every upstream URL here.
 */
import type { FakeRouter } from '../router.ts';
import type { FakeState } from '../state.ts';
import { TRADING_OPS } from '../trading.ts';

export function registerClobRoutes(router: FakeRouter, state: FakeState): void {
  const { clob, trading } = state;
  for (const op of TRADING_OPS) router.op(op, (r) => trading.answer(op, { path: r.path, q: r.query, body: r.body, headers: r.headers }));
  if (!clob) return;
  router.op('orders.list', (r) => clob.orderList(r.method, r.path, r.query, r.headers));
  // Signed over the full path, so the order's id is read from it there.
  router.opPrefix('order.get', (r) => clob.orderById(r.method, r.path, r.headers));
}
