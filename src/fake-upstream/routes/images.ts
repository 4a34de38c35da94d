/**
 * The pictures the catalog's `image`/`icon` URLs name when localised (images.ts). They stand for
 * a CDN, not an API: answered before the fake's rate limits and faults.
 */
import { IMAGES_PATH, imageReply } from '../images.ts';
import type { FakeRouter } from '../router.ts';

export function registerImageRoutes(router: FakeRouter): void {
  router.asset(IMAGES_PATH, imageReply);
}
