/**
 * A list paged through the service in blocks of 100, by random access: the grid asks for the
 * blocks of the rows in view (and a little ahead), wherever they are. The total comes from the
 * list's count route, so the grid has its full height from the start and End reaches the end;
 * rows not loaded yet show as placeholders (blockLayout.ts).
 *
 * Every block is a query in the QueryClient (key: op + params + offset). Block 0 is a
 * `useQuery` with keepPreviousData, so the rows on screen stay while a new sort or filter
 * loads. Other blocks are fetched through the same cache (`fetchQuery`) and kept in state,
 * rather than as one observer each: a list 100 blocks deep would otherwise re-run 100
 * observers on every block that arrives. A catalog change refetches the count and only the
 * blocks on screen.
 */
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { onCatalogChange } from '../live.tsx';
import { BLOCK, blockLayout } from './blockLayout.ts';

export { BLOCK };
/** Blocks fetched at once: enough to stay ahead of a fast scroll, few enough for a flung scrollbar. */
const MAX_IN_FLIGHT = 2;
/** How far past the rows in view blocks are fetched: ahead of a scroll, and a little behind. */
const AHEAD_ROWS = BLOCK * 1.5;
const BEHIND_ROWS = BLOCK / 2;
/**
 * After a new sort or filter, blocks ahead wait until its rows have been on screen this long (or
 * the view moves): a quick run of changes (arrow keys through a filter) would otherwise queue a
 * block ahead for each state it passes, and the service answers one request at a time.
 */
const AHEAD_SETTLE_MS = 300;

export interface BlockSource<T> {
  op: string;
  /** The listing's parameters: filters and sort (limit and offset are the hook's). */
  params: Record<string, unknown>;
  fetchBlock: (params: Record<string, unknown>) => Promise<T[]>;
  /** The count route (same filters; order and paging left out): the list's length from the start. */
  countOp?: string;
  fetchCount?: (params: Record<string, unknown>) => Promise<number>;
  /** Rows to show; the others (placeholder markets) are dropped as their block arrives. */
  keep?: (row: T) => boolean;
}

export interface BlockList<T> {
  /** Rows the grid shows: the total when known (loaded or not); else those loaded, +1 while more may follow. */
  count: number;
  /** The end is known: `count` is the whole list. */
  ended: boolean;
  /** Rows loaded so far. */
  loaded: number;
  /** Rows of loaded blocks left out by `keep`. */
  hidden: number;
  /** The count route's total (before `keep`), once known. */
  total: number | undefined;
  rowAt(index: number): T | undefined;
  /** Why the row's block could not be loaded (its placeholder says so). */
  errorAt(index: number): Error | undefined;
  /** Nothing to show yet (first block pending, no previous rows). */
  pending: boolean;
  /** Rows on screen belong to the previous params while the new ones load. */
  stale: boolean;
  /** The first block is loading (a new sort or filter, or a refresh of the top). */
  busy: boolean;
  /** Any block is loading. */
  fetching: boolean;
  error: Error | null;
  /** The rows in view: loads their blocks (and those just ahead), and remembers them for catalog changes. */
  show(first: number, last: number): void;
  refetch(): void;
  /**
   * Asks for the first block and the count of `params` now, at the user's input, rather than
   * after the view has re-rendered with them: the service works while the page renders.
   */
  prefetch(params: Record<string, unknown>): void;
}

interface More<T> {
  key: string;
  /** Blocks by index (block 0 is the useQuery's). */
  blocks: Map<number, T[]>;
  errors: Map<number, Error>;
}

const fresh = <T>(key: string): More<T> => ({ key, blocks: new Map(), errors: new Map() });
const without = (p: Record<string, unknown>, keys: string[]) => Object.fromEntries(Object.entries(p).filter(([k]) => !keys.includes(k)));
const blockKey = (op: string, params: Record<string, unknown>, i: number) =>
  [op, { ...params, limit: BLOCK, offset: i * BLOCK }, 'block'] as const;
/** The count's parameters: the same filters, order and paging left out (one count for every sort). */
const countParamsOf = (params: Record<string, unknown>) => without(params, ['order', 'ascending']);

export function useBlockList<T>(src: BlockSource<T>): BlockList<T> {
  const { op, fetchBlock, countOp, fetchCount, keep } = src;
  const queryClient = useQueryClient();
  const paramsKey = JSON.stringify(src.params);
  const keyFor = useCallback((i: number) => blockKey(op, JSON.parse(paramsKey) as Record<string, unknown>, i), [op, paramsKey]);
  const first = useQuery({ queryKey: keyFor(0), queryFn: () => fetchBlock(keyFor(0)[1]), placeholderData: keepPreviousData });
  const countParams = useMemo(() => countParamsOf(JSON.parse(paramsKey) as Record<string, unknown>), [paramsKey]);
  const countQuery = useQuery({
    queryKey: [countOp ?? `${op}#count`, countParams],
    queryFn: () => fetchCount!(countParams),
    enabled: !!fetchCount,
  });
  const prefetch = useCallback(
    (params: Record<string, unknown>) => {
      // The same query (a choice that changes nothing) is not asked again.
      if (JSON.stringify(params) === paramsKey) return;
      const key = blockKey(op, params, 0);
      void queryClient.prefetchQuery({ queryKey: key, queryFn: () => fetchBlock(key[1]) });
      if (!fetchCount) return;
      const cp = countParamsOf(params);
      void queryClient.prefetchQuery({ queryKey: [countOp ?? `${op}#count`, cp], queryFn: () => fetchCount(cp) });
    },
    [queryClient, op, paramsKey, fetchBlock, countOp, fetchCount],
  );
  // The previous params' count would misplace the new rows: only this params' total counts.
  const total = fetchCount && !first.isPlaceholderData ? countQuery.data : undefined;

  const [moreState, setMore] = useState<More<T>>(() => fresh(paramsKey));
  const more = moreState.key === paramsKey ? moreState : fresh<T>(paramsKey);
  // In flight, per params: `${paramsKey}#${block}`.
  const inFlight = useRef(new Set<string>());
  const [, setInFlightCount] = useState(0);

  const load = useCallback(
    (i: number, refresh = false) => {
      const tag = `${paramsKey}#${i}`;
      if (inFlight.current.has(tag)) return;
      inFlight.current.add(tag);
      setInFlightCount(inFlight.current.size);
      const key = keyFor(i);
      const put = (update: (m: More<T>) => void) =>
        setMore((old) => {
          const m = old.key === paramsKey ? old : fresh<T>(paramsKey);
          const next = { key: m.key, blocks: new Map(m.blocks), errors: new Map(m.errors) };
          update(next);
          return next;
        });
      queryClient
        .fetchQuery({ queryKey: key, queryFn: () => fetchBlock(key[1]), staleTime: refresh ? 0 : Infinity })
        .then(
          (data) =>
            put((m) => {
              m.blocks.set(i, data);
              m.errors.delete(i);
            }),
          (error: unknown) => put((m) => m.errors.set(i, error as Error)),
        )
        .finally(() => {
          inFlight.current.delete(tag);
          setInFlightCount(inFlight.current.size);
        });
    },
    [queryClient, keyFor, paramsKey, fetchBlock],
  );

  // The layout is rebuilt only when a block's data object or the total changes: scrolling
  // re-renders must not walk 10,000 rows.
  const keptRef = useRef(new WeakMap<readonly T[], readonly T[]>());
  const kept = useCallback(
    (d: readonly T[]) => {
      if (!keep) return d;
      let k = keptRef.current.get(d);
      if (!k) {
        k = d.filter(keep);
        keptRef.current.set(d, k);
      }
      return k;
    },
    [keep],
  );
  const datas: (T[] | undefined)[] = [first.data];
  for (const [i, d] of more.blocks) datas[i] = d;
  const memo = useRef<{ datas: (T[] | undefined)[]; total: number | undefined; layout: ReturnType<typeof blockLayout<T>> } | null>(null);
  const m = memo.current;
  if (!m || m.total !== total || datas.length !== m.datas.length || datas.some((d, i) => d !== m.datas[i])) {
    memo.current = { datas, total, layout: blockLayout(datas, total, kept) };
  }
  const layout = memo.current!.layout;
  const error = (first.error ?? more.errors.values().next().value ?? null) as Error | null;
  const firstSettled = !first.isPlaceholderData && first.data !== undefined;
  const countSettled = !fetchCount || total !== undefined || countQuery.isError;
  const [settledKey, setSettledKey] = useState('');
  useEffect(() => {
    if (!firstSettled || !countSettled) return;
    const t = setTimeout(() => setSettledKey(paramsKey), AHEAD_SETTLE_MS);
    return () => clearTimeout(t);
  }, [paramsKey, firstSettled, countSettled]);
  // Ahead and behind once the count is in (after a new sort or filter, the count is the other
  // half of what the grid waits for) and the rows have settled, or at once when the view moves.
  const aheadReady = countSettled && settledKey === paramsKey;
  const pendingHere = [...inFlight.current].filter((t) => t.startsWith(`${paramsKey}#`)).length;

  const visibleRange = useRef<[number, number]>([0, 0]);
  const show = useCallback(
    (a: number, b: number) => {
      visibleRange.current = [a, b];
      if (!firstSettled || layout.count === 0) return;
      const last = layout.count - 1;
      const wanted: number[] = [];
      // The blocks in view first, then those ahead, then those just behind.
      const add = (from: number, to: number) => {
        for (let i = layout.blockOf(Math.max(0, from)); i <= layout.blockOf(Math.min(last, to)); i++)
          if (!wanted.includes(i)) wanted.push(i);
      };
      add(a, b);
      if (aheadReady || (countSettled && a > 0)) {
        add(b, b + AHEAD_ROWS);
        add(a - BEHIND_ROWS, a);
      }
      let budget = MAX_IN_FLIGHT - pendingHere;
      for (const i of wanted) {
        if (budget <= 0) break;
        if (i === 0 || layout.isLoaded(i) || more.errors.has(i) || inFlight.current.has(`${paramsKey}#${i}`)) continue;
        load(i);
        budget--;
      }
    },
    [firstSettled, countSettled, aheadReady, layout, pendingHere, more.errors, paramsKey, load],
  );

  // The rows settled: what is ahead of the view loads now (not only at the grid's next show()).
  const showRef = useRef(show);
  showRef.current = show;
  useEffect(() => {
    if (aheadReady) showRef.current(...visibleRange.current);
  }, [aheadReady]);

  // The catalog changed: everything is stale, but only the count and the blocks on screen are refetched now.
  useEffect(
    () =>
      onCatalogChange(() => {
        void queryClient.invalidateQueries({ queryKey: [op], refetchType: 'none' });
        if (countOp) void queryClient.invalidateQueries({ queryKey: [countOp] });
        const [a, b] = visibleRange.current;
        for (let i = layout.blockOf(a); i <= layout.blockOf(b); i++) {
          if (!layout.isLoaded(i)) continue;
          if (i === 0) void queryClient.refetchQueries({ queryKey: keyFor(0), exact: true });
          else load(i, true);
        }
      }),
    [queryClient, op, countOp, keyFor, layout, load],
  );

  const refetch = useCallback(() => {
    setMore(fresh(paramsKey));
    void queryClient.refetchQueries({ queryKey: keyFor(0), exact: true });
    if (countOp) void queryClient.refetchQueries({ queryKey: [countOp, countParams], exact: true });
  }, [queryClient, keyFor, paramsKey, countOp, countParams]);

  const errorAt = useCallback((index: number) => more.errors.get(layout.blockOf(index)), [more.errors, layout]);
  return {
    count: layout.count,
    ended: layout.ended,
    loaded: layout.loaded,
    hidden: layout.hidden,
    total,
    rowAt: layout.rowAt,
    errorAt,
    pending: first.data === undefined && !first.error,
    stale: first.isPlaceholderData,
    busy: first.isFetching || first.isPlaceholderData,
    fetching: first.isFetching || pendingHere > 0,
    error,
    show,
    refetch,
    prefetch,
  };
}
