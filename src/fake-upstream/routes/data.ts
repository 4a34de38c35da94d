/** The Data API's routes: the trader leaderboard (data-api.ts) and the v2 account routes (data-v2.ts). */
import type { FakeRouter } from '../router.ts';
import type { FakeState } from '../state.ts';

export function registerDataRoutes(router: FakeRouter, state: FakeState): void {
  router.op('leaderboard.list', (r) => state.leaderboard.route(r.query));
  state.dataV2.register(router);
}
