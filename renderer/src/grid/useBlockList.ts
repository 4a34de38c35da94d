/**
 * An "infinite" list paged through the service in blocks of 100 as the user scrolls. The
 * service has no count route, so the end is known when a block comes back short. Each block
 * is its own query (key: op + params + offset), so a catalog change refetches only the
 * blocks on screen, and block 0 keeps the previous rows on screen while a new sort or filter
 * loads (keepPreviousData).
 */
import { keepPreviousData, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { onCatalogChange } from '../live.tsx';

export const BLOCK = 100;
const MAX_IN_FLIGHT = 2;

export interface BlockList<T> {
  rows: T[];
  /** A block came back short: `rows` is the whole result. */
  ended: boolean;
  /** Nothing to show yet (first block pending, no previous rows). */
  pending: boolean;
  /** Rows on screen belong to the previous params while the new ones load. */
  stale: boolean;
  fetching: boolean;
  error: Error | null;
  /** Asks for enough blocks to show row `lastIndex` (called as the user scrolls). */
  ensure(lastIndex: number): void;
  /** Records which rows are on screen, so catalog changes refetch just those blocks. */
  visible(first: number, last: number): void;
  refetch(): void;
}

export function useBlockList<T>(
  op: string,
  params: Record<string, unknown>,
  fetchBlock: (params: Record<string, unknown>) => Promise<T[]>,
): BlockList<T> {
  const queryClient = useQueryClient();
  const paramsKey = JSON.stringify(params);
  const [want, setWant] = useState({ key: paramsKey, blocks: 1 });
  const blocks = want.key === paramsKey ? want.blocks : 1;
  const keyFor = useCallback(
    (i: number) => [op, { ...(JSON.parse(paramsKey) as Record<string, unknown>), limit: BLOCK, offset: i * BLOCK }, 'block'] as const,
    [op, paramsKey],
  );

  const first = useQuery({
    queryKey: keyFor(0),
    queryFn: () => fetchBlock(keyFor(0)[1]),
    placeholderData: keepPreviousData,
  });
  const restOptions = useMemo(
    () =>
      Array.from({ length: blocks - 1 }, (_, j) => {
        const key = keyFor(j + 1);
        return { queryKey: key, queryFn: () => fetchBlock(key[1]) };
      }),
    // fetchBlock is a module-level function per op; the key captures everything else.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [blocks, keyFor],
  );
  const rest = useQueries({ queries: restOptions });

  // Rows: the loaded blocks in order, up to the first gap. Rebuilt only when a block's data
  // object changes (scrolling re-renders must not copy 10,000 rows).
  const datas = [first.data, ...rest.map((r) => r.data)];
  const memo = useRef<{ datas: (T[] | undefined)[]; rows: T[]; ended: boolean }>({ datas: [], rows: [], ended: false });
  if (datas.length !== memo.current.datas.length || datas.some((d, i) => d !== memo.current.datas[i])) {
    const rows: T[] = [];
    let ended = false;
    for (const d of datas) {
      if (!d) break;
      for (const r of d) rows.push(r);
      if (d.length < BLOCK) {
        ended = true;
        break;
      }
    }
    memo.current = { datas, rows, ended };
  }
  const { rows, ended } = memo.current;
  const loading = first.isFetching || rest.some((r) => r.isFetching);
  const error = (first.error ?? rest.find((r) => r.error)?.error ?? null) as Error | null;
  const firstSettled = !first.isPlaceholderData && first.data !== undefined;
  const inFlight = rest.filter((r) => r.data === undefined && !r.error).length;

  const ensure = useCallback(
    (lastIndex: number) => {
      if (ended || !firstSettled || error) return;
      // Fetch ahead: a block and a half before the end of what is loaded, at most two blocks
      // in flight, so a fast scroll rarely waits and a flung scrollbar does not queue dozens.
      const needed = Math.floor((lastIndex + BLOCK * 1.5) / BLOCK) + 1;
      if (needed > blocks && inFlight < MAX_IN_FLIGHT) {
        setWant({ key: paramsKey, blocks: Math.min(needed, blocks + MAX_IN_FLIGHT - inFlight) });
      }
    },
    [ended, firstSettled, error, blocks, inFlight, paramsKey],
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
        for (let i = Math.floor(a / BLOCK); i <= Math.floor(b / BLOCK) && i < blocks; i++) {
          void queryClient.refetchQueries({ queryKey: keyFor(i), exact: true });
        }
      }),
    [queryClient, op, keyFor, blocks],
  );

  const refetch = useCallback(() => {
    void queryClient.refetchQueries({ queryKey: [op], type: 'active' });
  }, [queryClient, op]);

  return {
    rows,
    ended,
    pending: first.data === undefined && !first.error,
    stale: first.isPlaceholderData,
    fetching: loading,
    error,
    ensure,
    visible,
    refetch,
  };
}
