/**
 * The fake's own routes, which no real upstream has: `POST /_fake/mutate` changes the catalog
 * between syncs (mutations.ts). Faults and the request log are driven in-process
 * (`FakeUpstream.faults`, `.requests`), not over HTTP.
 */
import { MUTATE_PATH, mutateBody } from '../mutations.ts';
import type { FakeRouter } from '../router.ts';
import type { FakeState } from '../state.ts';

export function registerControlRoutes(router: FakeRouter, state: FakeState): void {
  router.add('POST', MUTATE_PATH, (r) => mutateBody(state.catalog, r.body));
}
