/**
 * The watchlist: starred markets and events. The service's `watchlist.*` operations are the
 * source of truth; a toggle shows at once (optimistic) and is dropped again if the service
 * refuses it. Web mode also keeps a copy in localStorage, so the list shows on load and while
 * the service is unreachable, and replays the toggles made meanwhile once it is back.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { WatchItem, WatchList } from '../../src/contract/desk-ops.ts';
import type { WatchKind } from '../../src/contract/enums.ts';
import { ApiError, call, mode, ServiceUnreachableError } from './api.ts';
import { onConnection, subscribe } from './push.ts';
import { applyPending, isItem, loadLocal, type PendingOp, saveLocal } from './watchlist-local.ts';
import './watchlist.css';

export type { WatchItem, WatchKind };
export { applyPending, loadLocal, STORAGE_KEY, type PendingOp } from './watchlist-local.ts';
export { Star } from './watchlist-star.tsx';

function send(p: PendingOp): Promise<WatchList> {
  return p.op === 'add' ? call('watchlist.add', { kind: p.kind, id: p.id }) : call('watchlist.remove', { kind: p.kind, id: p.id });
}

export interface Watchlist {
  items: WatchItem[];
  has(kind: WatchKind, id: string): boolean;
  toggle(kind: WatchKind, id: string): void;
  /** The last refused toggle's message (cleared by the next toggle). */
  error: string | undefined;
}

const WatchlistContext = createContext<Watchlist | null>(null);

export function useWatchlist(): Watchlist {
  const v = useContext(WatchlistContext);
  if (!v) throw new Error('useWatchlist outside WatchlistProvider');
  return v;
}

const web = () => mode === 'web';

export function WatchlistProvider({ children }: { children: ReactNode }) {
  const initial = useMemo(() => (web() ? loadLocal() : { items: [], pending: [] }), []);
  const [server, setServer] = useState<WatchItem[]>(initial.items);
  // The queue lives in a ref (read by the running drain) and is mirrored into state for rendering.
  const queue = useRef<PendingOp[]>(initial.pending);
  const [pending, setPendingState] = useState<PendingOp[]>(initial.pending);
  const [error, setError] = useState<string>();
  const draining = useRef(false);

  const setQueue = useCallback((q: PendingOp[]) => {
    queue.current = q;
    setPendingState(q);
  }, []);

  /**
   * Sends the queued toggles one by one, in order. Unreachable in web mode: stop and keep them
   * for the next connection. Any other failure drops that toggle (the rollback).
   */
  const drain = useCallback(
    async (thenList: boolean) => {
      if (draining.current) return;
      draining.current = true;
      try {
        while (queue.current.length > 0) {
          const p = queue.current[0]!;
          try {
            setServer((await send(p)).items);
          } catch (e) {
            if (web() && e instanceof ServiceUnreachableError) return;
            setError(e instanceof ApiError || e instanceof Error ? e.message : String(e));
          }
          setQueue(queue.current.filter((x) => x !== p));
        }
        if (thenList) setServer((await call('watchlist.list', {})).items);
      } catch {
        // The list could not be read: keep what we have; the next connection retries.
      } finally {
        draining.current = false;
      }
    },
    [setQueue],
  );

  useEffect(() => {
    void drain(true);
    const offs = [
      subscribe('watchlist', (p) => {
        if (Array.isArray(p?.items)) setServer(p.items.filter(isItem));
      }),
      onConnection((up) => {
        if (up) void drain(true);
      }),
      subscribe('service', (s) => {
        if (s.state === 'running') void drain(true);
      }),
    ];
    return () => {
      for (const off of offs) off();
    };
  }, [drain]);

  useEffect(() => {
    if (web()) saveLocal(server, pending);
  }, [server, pending]);

  const items = useMemo(() => applyPending(server, pending), [server, pending]);
  const keys = useMemo(() => new Set(items.map((i) => `${i.kind}:${i.id}`)), [items]);
  const has = useCallback((kind: WatchKind, id: string) => keys.has(`${kind}:${id}`), [keys]);
  const toggle = useCallback(
    (kind: WatchKind, id: string) => {
      const on = applyPending(server, queue.current).some((i) => i.kind === kind && i.id === id);
      setError(undefined);
      setQueue([...queue.current, { op: on ? 'remove' : 'add', kind, id, at: new Date().toISOString() }]);
      void drain(false);
    },
    [server, setQueue, drain],
  );
  const value = useMemo(() => ({ items, has, toggle, error }), [items, has, toggle, error]);
  // A refused toggle says why for a few seconds (the star has already gone back).
  useEffect(() => {
    if (!error) return;
    const t = setTimeout(() => setError(undefined), 6000);
    return () => clearTimeout(t);
  }, [error]);
  return (
    <WatchlistContext.Provider value={value}>
      {children}
      {error ? (
        <div className="watch-toast" role="alert" data-testid="watchlist-error">
          Watchlist not changed: {error}
        </div>
      ) : null}
    </WatchlistContext.Provider>
  );
}
