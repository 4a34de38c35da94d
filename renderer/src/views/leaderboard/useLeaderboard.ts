/**
 * The leaderboard's data and state: one board page (`leaderboard.list`) and how fresh the
 * service's cached copy of that board is (`leaderboard.meta`), as a discriminated union.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, ApiError, UnavailableOpError, type LeaderboardEntry, type LeaderboardMeta, type LeaderboardParams } from '../../api.ts';
import { useLive } from '../../live.tsx';

export type Board = Pick<LeaderboardMeta, 'category' | 'timePeriod' | 'orderBy'>;

export type LeaderboardState =
  | { kind: 'unavailable' }
  | { kind: 'loading' }
  /** Offline with nothing cached for this board. */
  | { kind: 'uncached' }
  | { kind: 'error'; message: string; retry: () => void }
  | { kind: 'empty' }
  | { kind: 'ready'; rows: LeaderboardEntry[]; busy: boolean; placeholder: boolean };

export interface Freshness {
  fetchedAt: string | null;
  /** Served from the cache because refreshing failed or the upstream is away. */
  cached: boolean;
  online: boolean;
}

/** How many traders the board has: `entries`, or at least that many when `truncated` (the Data API pages no deeper). */
export interface BoardTotal {
  entries: number;
  truncated: boolean;
}

export function useLeaderboard(
  board: Board,
  offset: number,
  limit: number,
): { state: LeaderboardState; freshness: Freshness; total: BoardTotal | undefined } {
  const live = useLive();
  const params: LeaderboardParams = { ...board, limit, offset };
  const q = useQuery({
    queryKey: ['leaderboard.list', params],
    queryFn: () => api.leaderboard.list(params),
    placeholderData: keepPreviousData,
    retry: false,
    staleTime: 60_000,
  });
  const meta = useQuery({
    queryKey: ['leaderboard.meta', board, q.dataUpdatedAt],
    queryFn: () => api.leaderboard.meta(board),
    enabled: q.isSuccess,
    placeholderData: keepPreviousData,
    retry: false,
  });
  const rows = q.data ?? [];
  // Offline with nothing cached, the service answers 500: say that, not its error code.
  const uncached = !live.online && q.error instanceof ApiError && q.error.status === 500;
  const state: LeaderboardState =
    q.error instanceof UnavailableOpError
      ? { kind: 'unavailable' }
      : q.isPending
        ? { kind: 'loading' }
        : uncached
          ? { kind: 'uncached' }
          : q.isError
            ? { kind: 'error', message: q.error.message, retry: () => void q.refetch() }
            : rows.length === 0
              ? { kind: 'empty' }
              : { kind: 'ready', rows, busy: q.isFetching, placeholder: q.isPlaceholderData };
  const freshness: Freshness = {
    fetchedAt: meta.data?.fetchedAt ?? null,
    cached: !!meta.data?.stale || !live.online,
    online: live.online,
  };
  // Only the shown board's count: a previous board's (kept while the next loads) would mislead;
  // the same board's last answer stays while it is asked again.
  const m = meta.data;
  const total =
    m && m.fetchedAt !== null && m.category === board.category && m.timePeriod === board.timePeriod && m.orderBy === board.orderBy
      ? { entries: m.entries, truncated: m.truncated }
      : undefined;
  return { state, freshness, total };
}
