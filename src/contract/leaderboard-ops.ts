/**
 * The trader leaderboard (spec 2.5, 4.5), from the upstream Data API through the cache; its
 * routes are routes.ts's `leaderboardRoutes`. Unknown parameters are refused
 * (`unknown_field: <name>`); a bad value answers `invalid <param> parameter` (dispatch words it
 * so for the 'leaderboard' error style).
 */
import { z } from 'zod';
import { op, type DeclsFor } from './define.ts';
import {
  LEADERBOARD_CATEGORIES,
  LEADERBOARD_ORDERS,
  LEADERBOARD_PERIODS,
  type LeaderboardCategory,
  type LeaderboardOrder,
  type LeaderboardPeriod,
} from './leaderboard-choices.ts';
import { int, oneOf, str, type ParamDef } from './params.ts';
import type { leaderboardRoutes } from './routes.ts';

export * from './leaderboard-choices.ts';

/** One cached board: the upstream is asked per (category, timePeriod, orderBy). */
export interface BoardKey {
  category: string;
  timePeriod: string;
  orderBy: string;
}

/** Spec 2.5. `xUsername` and `verifiedBadge` are passed through as the upstream gives them (string / boolean) or null. */
export interface LeaderboardEntry {
  rank: string;
  proxyWallet: string;
  userName: string;
  vol: number;
  pnl: number;
  profileImage: string;
  xUsername: string | null;
  verifiedBadge: boolean | null;
}

/** How fresh the cached board of one (category, timePeriod, orderBy) is, for the UI. */
export interface LeaderboardMeta {
  category: LeaderboardCategory;
  timePeriod: LeaderboardPeriod;
  orderBy: LeaderboardOrder;
  /** When the cached board was fetched; null when nothing is cached. */
  fetchedAt: string | null;
  /** Older than the cache's time-to-live (served anyway while the upstream is unreachable). */
  stale: boolean;
  /** Entries cached for this board (the service keeps up to 1,050: every offset + limit the route accepts). */
  entries: number;
  /**
   * The board's deepest page the Data API serves was full, so the board may go on past `entries`
   * (the API says no total): `entries` is then the least there are. False: `entries` is the whole board.
   */
  truncated: boolean;
}

const wallet: ParamDef<string> = { schema: z.string().regex(/^0x[0-9a-fA-F]{40}$/), rule: 'a 0x wallet address' };

const board = {
  category: oneOf(LEADERBOARD_CATEGORIES, { default: 'OVERALL' }),
  timePeriod: oneOf(LEADERBOARD_PERIODS, { default: 'DAY' }),
  orderBy: oneOf(LEADERBOARD_ORDERS, { default: 'PNL' }),
};

export const leaderboardOperations = {
  'leaderboard.list': op<LeaderboardEntry[]>()({
    ...board,
    limit: int({ min: 1, max: 50, default: 25 }),
    offset: int({ min: 0, max: 1000, default: 0 }),
    user: wallet,
    userName: str({ maxLength: 100 }),
  }),
  'leaderboard.meta': op<LeaderboardMeta>()(board),
} satisfies DeclsFor<typeof leaderboardRoutes>;
