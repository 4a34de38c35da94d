/**
 * The leaderboard's enumerated parameter values as plain data (no zod): leaderboard-ops.ts
 * validates against them and the renderer offers them as choices.
 */
export const LEADERBOARD_CATEGORIES = [
  'OVERALL',
  'POLITICS',
  'SPORTS',
  'CRYPTO',
  'FINANCE',
  'CULTURE',
  'MENTIONS',
  'WEATHER',
  'ECONOMICS',
  'TECH',
] as const;
export const LEADERBOARD_PERIODS = ['DAY', 'WEEK', 'MONTH', 'ALL'] as const;
export const LEADERBOARD_ORDERS = ['PNL', 'VOL'] as const;
export type LeaderboardCategory = (typeof LEADERBOARD_CATEGORIES)[number];
export type LeaderboardPeriod = (typeof LEADERBOARD_PERIODS)[number];
export type LeaderboardOrder = (typeof LEADERBOARD_ORDERS)[number];
