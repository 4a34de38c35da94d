/**
 * A BlockList over rows already in hand (a short list fetched whole, e.g. the watchlist), so
 * it shows in the same DataGrid as the paged catalogs.
 */
import type { BlockList } from './useBlockList.ts';

export function staticList<T>(
  rows: readonly T[] | undefined,
  q: { pending: boolean; fetching: boolean; error: Error | null; refetch: () => void },
): BlockList<T> {
  const all = rows ?? [];
  return {
    count: all.length,
    ended: rows !== undefined,
    loaded: all.length,
    hidden: 0,
    total: rows?.length,
    rowAt: (i) => all[i],
    errorAt: () => undefined,
    pending: q.pending,
    stale: false,
    busy: q.fetching,
    fetching: q.fetching,
    error: q.error,
    show: () => {},
    refetch: q.refetch,
    // Its rows are all here: nothing to ask for ahead.
    prefetch: () => {},
  };
}
