/**
 * The fake's own routes, which no real upstream has: `POST /_fake/mutate` changes the catalog
 * between syncs (mutations.ts); `POST /_fake/market-ws` ticks the market channel and sets its faults
 * (market-ws.ts `marketWsControl`), for a fake in another process. HTTP faults and the request log
 * are driven in-process (`FakeUpstream.faults`, `.requests`), not over HTTP.
 */
import { MARKET_WS_CONTROL_PATH, marketWsControl } from '../market-ws.ts';
import { MUTATE_PATH, mutateBody } from '../mutations.ts';
import type { FakeRouter } from '../router.ts';
import type { FakeState } from '../state.ts';

export function registerControlRoutes(router: FakeRouter, state: FakeState): void {
  router.add('POST', MUTATE_PATH, (r) => mutateBody(state.catalog, r.body));
  router.add('POST', MARKET_WS_CONTROL_PATH, (r) => marketWsControl(state.marketWs, r.body));
}
