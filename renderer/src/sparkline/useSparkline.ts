/**
 * A grid cell's sparkline: asked for once the row has stayed on screen SETTLE_MS (batched with
 * the other rows that came in with it, sparkline-store.ts), and re-rendered only when its own
 * id's answer arrives.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useSyncExternalStore } from 'react';
import { type Entry, SETTLE_MS, setClient, sparklineOf, subscribe, unwant, want } from './sparkline-store.ts';

export function useSparkline(id: string): Entry | undefined {
  const qc = useQueryClient();
  useEffect(() => setClient(qc), [qc]);
  const entry = useSyncExternalStore(
    useCallback((fn: () => void) => subscribe(id, fn), [id]),
    () => sparklineOf(id),
  );
  // want() skips an id with a fresh answer; an old one (kept while its row was away) is asked again.
  useEffect(() => {
    const t = setTimeout(() => want(id), SETTLE_MS);
    return () => {
      clearTimeout(t);
      unwant(id);
    };
  }, [id]);
  return entry;
}
