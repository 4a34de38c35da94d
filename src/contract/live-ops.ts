/**
 * The live view (issue 26): what a client shows, so the service streams exactly that to it. A
 * client (the app's window; a web page; a script) names the markets whose rows are on screen and
 * the market page it has open; the service subscribes their trading ids upstream, answers their
 * quotes now, and pushes each change to that client's push stream (`quotes`, `liveBook`), at most
 * one batch per frame. Calling again replaces the view; an empty list ends it. Its route is
 * routes.ts's `liveRoutes`.
 */
import { LIVE_VIEW_MAX_MARKETS, type LiveView } from './live.ts';
import { op, type DeclsFor } from './define.ts';
import { int, list, str } from './params.ts';
import type { liveRoutes } from './routes.ts';

const marketId = int({ min: 0, max: 999_999_999_999_999 });

export const liveOperations = {
  'live.view': op<LiveView>()({
    client: { ...str({ maxLength: 64 }), required: true as const },
    market: list(marketId, { maxItems: LIVE_VIEW_MAX_MARKETS }),
    book: marketId,
  }),
} satisfies DeclsFor<typeof liveRoutes>;
