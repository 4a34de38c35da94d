/**
 * The Since view's data: the feed since a time, grouped, with the markets' rows and the user's
 * marks. The feed is not a `cache: 'catalog'` route, so it is refetched here when the catalog
 * changes (the push event `catalog`, throttled by live.tsx) and once more when a sync ends (an
 * answer read during a sync may miss its last records). The row queries are `markets.list`,
 * which the live provider refreshes itself.
 */
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { Market } from '../api.ts';
import { onCatalogChange, useLive } from '../live.tsx';
import { useWatchlist } from '../watchlist.tsx';
import { fetchFeed, type FeedAnswer, marketRows } from './feed.ts';
import { buildGroups, type Groups, marketIds, type MarketRow } from './groups.ts';
import { type SinceRange, sinceTime } from './last-look.ts';

export type FeedState =
  | { kind: 'loading' }
  | { kind: 'error'; error: Error; retry: () => void }
  /** `current`: the answer is for this `since` (not the previous one, kept on screen while the new one loads). */
  | { kind: 'ready'; groups: Groups; answer: FeedAnswer; current: boolean; busy: boolean };

const FEED_KEY = ['changes.list', 'since'] as const;

export function useSinceFeed(range: SinceRange, lastLook: number | null): { state: FeedState; since: number } {
  const queryClient = useQueryClient();
  const live = useLive();
  const syncRunning = live.sync?.running ?? false;
  // "24 h" and "7 days" slide with the clock: they are re-anchored at each refresh.
  const [now, setNow] = useState(Date.now);
  useEffect(
    () =>
      onCatalogChange(() => {
        setNow(Date.now());
        void queryClient.invalidateQueries({ queryKey: FEED_KEY });
      }),
    [queryClient],
  );
  const running = useRef(syncRunning);
  running.current = syncRunning;
  const wasRunning = useRef(syncRunning);
  useEffect(() => {
    if (wasRunning.current && !syncRunning) void queryClient.invalidateQueries({ queryKey: FEED_KEY });
    wasRunning.current = syncRunning;
  }, [syncRunning, queryClient]);

  const since = sinceTime(range, lastLook, range === 'last' ? Date.now() : now);
  const sinceSecond = Math.floor(since / 1000);
  const feed = useQuery({
    queryKey: [...FEED_KEY, sinceSecond],
    queryFn: () => fetchFeed(sinceSecond * 1000, running.current),
    placeholderData: keepPreviousData,
  });
  const ids = useMemo(() => (feed.data ? marketIds(feed.data.feed) : []), [feed.data]);
  const rows = useQuery({
    queryKey: ['markets.list', { id: ids, since: true }],
    queryFn: () => marketRows(ids),
    enabled: ids.length > 0,
    placeholderData: keepPreviousData,
  });
  const orders = useQuery({
    queryKey: ['markets.list', { id: ids, md_has_orders: true, since: true }],
    queryFn: () => marketRows(ids, { md_has_orders: true }),
    enabled: ids.length > 0,
    placeholderData: keepPreviousData,
  });
  const { has } = useWatchlist();
  const groups = useMemo(() => {
    if (!feed.data) return undefined;
    const byId = new Map<string, MarketRow>((rows.data ?? []).map((m: Market) => [m.id, m]));
    const withOrders = new Set((orders.data ?? []).map((m) => m.id));
    return buildGroups(feed.data.feed, { rows: byId, watched: has, withOrders });
  }, [feed.data, rows.data, orders.data, has]);

  let state: FeedState;
  if (feed.error && !feed.data) state = { kind: 'error', error: feed.error, retry: () => void feed.refetch() };
  else if (!feed.data || !groups || (ids.length > 0 && rows.isPending)) state = { kind: 'loading' };
  else state = { kind: 'ready', groups, answer: feed.data, current: !feed.isPlaceholderData, busy: feed.isFetching };
  return { state, since: sinceSecond * 1000 };
}
