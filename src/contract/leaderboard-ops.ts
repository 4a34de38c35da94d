/**
 * The trader leaderboard (spec 2.5, 4.5), from the upstream Data API through the cache.
 * Unknown parameters are refused (`unknown_field: <name>`); a bad value answers
 * `invalid <param> parameter` (dispatch words it so for the 'leaderboard' error style).
 */
import { z } from 'zod';
import { op } from './define.ts';
import { int, oneOf, str, type ParamDef } from './params.ts';

export const LEADERBOARD_CATEGORIES = [
  'OVERALL', 'POLITICS', 'SPORTS', 'CRYPTO', 'FINANCE', 'CULTURE', 'MENTIONS', 'WEATHER', 'ECONOMICS', 'TECH',
] as const;
export const LEADERBOARD_PERIODS = ['DAY', 'WEEK', 'MONTH', 'ALL'] as const;
export const LEADERBOARD_ORDERS = ['PNL', 'VOL'] as const;
export type LeaderboardCategory = (typeof LEADERBOARD_CATEGORIES)[number];
export type LeaderboardPeriod = (typeof LEADERBOARD_PERIODS)[number];
export type LeaderboardOrder = (typeof LEADERBOARD_ORDERS)[number];

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
}

const wallet: ParamDef<string> = { schema: z.string().regex(/^0x[0-9a-fA-F]{40}$/), rule: 'a 0x wallet address' };

const board = {
  category: oneOf(LEADERBOARD_CATEGORIES, { default: 'OVERALL' }),
  timePeriod: oneOf(LEADERBOARD_PERIODS, { default: 'DAY' }),
  orderBy: oneOf(LEADERBOARD_ORDERS, { default: 'PNL' }),
};

export const leaderboardOperations = {
  'leaderboard.list': op<LeaderboardEntry[]>()({
    face: 'base', method: 'GET', path: '/v1/leaderboard', errors: 'leaderboard', unknownParams: 'reject',
    params: {
      ...board,
      limit: int({ min: 1, max: 50, default: 25 }),
      offset: int({ min: 0, max: 1000, default: 0 }),
      user: wallet,
      userName: str({ maxLength: 100 }),
    },
  }),
  'leaderboard.meta': op<LeaderboardMeta>()({
    face: 'base', method: 'GET', path: '/leaderboard/meta', errors: 'leaderboard', unknownParams: 'reject', params: board,
  }),
} as const;
