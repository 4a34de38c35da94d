/**
 * An "infinite" list paged through the service in blocks of 100 as the user scrolls. The
 * service has no count route, so the end is known when a block comes back short.
 *
 * Every block is a query in the QueryClient (key: op + params + offset). Block 0 is a
 * `useQuery` with keepPreviousData, so the rows on screen stay while a new sort or filter
 * loads. Later blocks are fetched through the same cache (`fetchQuery`) and kept in state,
 * rather than as one observer each: a list 100 blocks deep would otherwise re-run 100
 * observers on every block that arrives. A catalog change refetches only the blocks on screen.
 */
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { onCatalogChange } from '../live.tsx';

export const BLOCK = 100;
/** Blocks fetched at once: enough to stay ahead of a fast scroll, few enough for a flung scrollbar. */
const MAX_IN_FLIGHT = 2;
/** How far ahead of the last visible row the next block is fetched. */
const LOOKAHEAD_ROWS = BLOCK * 1.5;

export interface BlockList<T> {
  rows: T[];
  /** A block came back short: `rows` is the whole result. */
  ended: boolean;
  /** Nothing to show yet (first block pending, no previous rows). */
  pending: boolean;
  /** Rows on screen belong to the previous params while the new ones load. */
  stale: boolean;
  /** The first block is loading (a new sort or filter, or a refresh of the top). */
  busy: boolean;
  /** Any block is loading. */
  fetching: boolean;
  error: Error | null;
  /** Asks for enough blocks to show row `lastIndex` (called as the user scrolls). */
  ensure(lastIndex: number): void;
  /** Records which rows are on screen, so catalog changes refetch just those blocks. */
  visible(first: number, last: number): void;
  refetch(): void;
}

interface More<T> {
  key: string;
  /** Blocks 1, 2, ... (index i holds block i + 1). */
  blocks: (T[] | undefined)[];
  error: Error | null;
}

export function useBlockList<T>(
  op: string,
  params: Record<string, unknown>,
  fetchBlock: (params: Record<string, unknown>) => Promise<T[]>,
): BlockList<T> {
  const queryClient = useQueryClient();
  const paramsKey = JSON.stringify(params);
  const keyFor = useCallback(
    (i: number) => [op, { ...(JSON.parse(paramsKey) as Record<string, unknown>), limit: BLOCK, offset: i * BLOCK }, 'block'] as const,
    [op, paramsKey],
  );

  const first = useQuery({
    queryKey: keyFor(0),
    queryFn: () => fetchBlock(keyFor(0)[1]),
    placeholderData: keepPreviousData,
  });

  const [moreState, setMore] = useState<More<T>>({ key: paramsKey, blocks: [], error: null });
  const more: More<T> = moreState.key === paramsKey ? moreState : { key: paramsKey, blocks: [], error: null };
  // In flight, per params: `${paramsKey}#${block}`.
  const inFlight = useRef(new Set<string>());
  const [, setInFlightCount] = useState(0);

  const load = useCallback(
    (i: number, fresh = false) => {
      const tag = `${paramsKey}#${i}`;
      if (inFlight.current.has(tag)) return;
      inFlight.current.add(tag);
      setInFlightCount(inFlight.current.size);
      const key = keyFor(i);
      const put = (update: (m: More<T>) => More<T>) =>
        setMore((m) => update(m.key === paramsKey ? m : { key: paramsKey, blocks: [], error: null }));
      queryClient
        .fetchQuery({ queryKey: key, queryFn: () => fetchBlock(key[1]), staleTime: fresh ? 0 : Infinity })
        .then(
          (data) =>
            put((m) => {
              const blocks = m.blocks.slice();
              blocks[i - 1] = data;
              return { ...m, blocks, error: null };
            }),
          (error: unknown) => put((m) => ({ ...m, error: error as Error })),
        )
        .finally(() => {
          inFlight.current.delete(tag);
          setInFlightCount(inFlight.current.size);
        });
    },
    [queryClient, keyFor, paramsKey, fetchBlock],
  );

  // Rows: the loaded blocks in order, up to the first gap. Rebuilt only when a block's data
  // object changes (scrolling re-renders must not copy 10,000 rows).
  const datas = [first.data, ...more.blocks];
  const memo = useRef<{ datas: (T[] | undefined)[]; rows: T[]; ended: boolean; loaded: number }>({
    datas: [],
    rows: [],
    ended: false,
    loaded: 0,
  });
  if (datas.length !== memo.current.datas.length || datas.some((d, i) => d !== memo.current.datas[i])) {
    const rows: T[] = [];
    let ended = false;
    let loaded = 0;
    for (const d of datas) {
      if (!d) break;
      loaded++;
      for (const r of d) rows.push(r);
      if (d.length < BLOCK) {
        ended = true;
        break;
      }
    }
    memo.current = { datas, rows, ended, loaded };
  }
  const { rows, ended, loaded } = memo.current;
  const error = (first.error ?? more.error) as Error | null;
  const firstSettled = !first.isPlaceholderData && first.data !== undefined;
  const pendingHere = [...inFlight.current].filter((t) => t.startsWith(`${paramsKey}#`)).length;

  const ensure = useCallback(
    (lastIndex: number) => {
      if (ended || !firstSettled || error) return;
      const needed = Math.floor((lastIndex + LOOKAHEAD_ROWS) / BLOCK) + 1;
      let budget = MAX_IN_FLIGHT - pendingHere;
      for (let i = loaded; i < needed && budget > 0; i++) {
        if (inFlight.current.has(`${paramsKey}#${i}`)) continue;
        load(i);
        budget--;
      }
    },
    [ended, firstSettled, error, loaded, pendingHere, paramsKey, load],
  );

  const visibleRange = useRef<[number, number]>([0, 0]);
  const visible = useCallback((a: number, b: number) => {
    visibleRange.current = [a, b];
  }, []);

  // The catalog changed: everything is stale, but only the blocks on screen are refetched now.
  useEffect(
    () =>
      onCatalogChange(() => {
        void queryClient.invalidateQueries({ queryKey: [op], refetchType: 'none' });
        const [a, b] = visibleRange.current;
        for (let i = Math.floor(a / BLOCK); i <= Math.floor(b / BLOCK) && i < loaded; i++) {
          if (i === 0) void queryClient.refetchQueries({ queryKey: keyFor(0), exact: true });
          else load(i, true);
        }
      }),
    [queryClient, op, keyFor, loaded, load],
  );

  const refetch = useCallback(() => {
    setMore({ key: paramsKey, blocks: [], error: null });
    void queryClient.refetchQueries({ queryKey: keyFor(0), exact: true });
  }, [queryClient, keyFor, paramsKey]);

  return {
    rows,
    ended,
    pending: first.data === undefined && !first.error,
    stale: first.isPlaceholderData,
    busy: first.isFetching || first.isPlaceholderData,
    fetching: first.isFetching || pendingHere > 0,
    error,
    ensure,
    visible,
    refetch,
  };
}
