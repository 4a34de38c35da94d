/**
 * The leaderboard operations, answered through the leaderboard cache.
 */
import type { leaderboardOperations } from '../contract/leaderboard-ops.ts';
import type { LeaderboardCache } from '../sync/leaderboard-cache.ts';
import type { HandlersFor } from '../contract/handlers.ts';

export function leaderboardHandlers(cache: LeaderboardCache): HandlersFor<keyof typeof leaderboardOperations> {
  return {
    'leaderboard.list': (p) =>
      cache.list(
        { category: p.category, timePeriod: p.timePeriod, orderBy: p.orderBy },
        {
          offset: p.offset,
          limit: p.limit,
          ...(p.user !== undefined ? { user: p.user } : {}),
          ...(p.userName !== undefined ? { userName: p.userName } : {}),
        },
      ),
    'leaderboard.meta': (p) => cache.meta({ category: p.category, timePeriod: p.timePeriod, orderBy: p.orderBy }),
  };
}
