/**
 * Live service state for the whole UI: sync phase and progress, online/offline, catalog
 * version, and whether the service itself is reachable. Seeded by `service.status`, then
 * kept current by push events; catalog changes refresh what is on screen.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { ROUTES, opNames, type OpName, type RouteDef } from '../../src/contract/routes.ts';
import { api, type ServiceState, type ServiceStatus, type StorageStatus, type SyncStatus } from './api.ts';
import { onConnection, subscribe } from './push.ts';
import { receiveBook, receiveQuotes, receiveStatus } from './stream/store.ts';
import { resendView } from './stream/view.ts';

export interface Live {
  status: ServiceStatus | undefined;
  sync: SyncStatus | undefined;
  /** The upstream is reachable (false: serving the cache). */
  online: boolean;
  /** The service itself answers (web: its event stream is up; desktop: the core is running). */
  connected: boolean;
  service: ServiceState | undefined;
  /** Whether the cache reaches the disk (save failures, read-only data dir). */
  storage: StorageStatus | undefined;
  catalogVersion: number;
  /** The first status answer arrived (or failed): the app can render its real state. */
  ready: boolean;
}

const LiveContext = createContext<Live | null>(null);

export function useLive(): Live {
  const live = useContext(LiveContext);
  if (!live) throw new Error('useLive outside LiveProvider');
  return live;
}

// ---- catalog changes: one throttled signal for every grid --------------------------------------
const catalogListeners = new Set<() => void>();
export function onCatalogChange(fn: () => void): () => void {
  catalogListeners.add(fn);
  return () => catalogListeners.delete(fn);
}
/** A full sync writes a batch per page; grids refresh at most this often. */
const CATALOG_REFRESH_MS = 1500;

/**
 * Ops whose answers change with the catalog, refetched when it does: the contract's
 * `cache: 'catalog'` ones, and service.status for its counts and catalogVersion.
 */
const CATALOG_OPS = new Set<string>([
  ...opNames.filter((op) => (ROUTES[op] as RouteDef).cache === 'catalog'),
  'service.status' satisfies OpName,
]);

export function LiveProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const statusQuery = useQuery({ queryKey: ['service.status', {}], queryFn: api.service.status, staleTime: 5000, retry: false });
  const [sync, setSync] = useState<SyncStatus>();
  const [online, setOnline] = useState<boolean>();
  const [storage, setStorage] = useState<StorageStatus>();
  const [catalogVersion, setCatalogVersion] = useState(0);
  const [connected, setConnected] = useState(true);
  const [service, setService] = useState<ServiceState>();
  const versionRef = useRef(0);
  const seeded = statusQuery.data?.catalogVersion;
  if (versionRef.current === 0 && seeded) versionRef.current = seeded;

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let lastRun = 0;
    const refresh = () => {
      timer = undefined;
      lastRun = Date.now();
      // Blocks of the grids refresh themselves (only those on screen); the rest refetch if active.
      void queryClient.invalidateQueries({
        predicate: (q) => CATALOG_OPS.has(String(q.queryKey[0])) && q.queryKey[2] !== 'block',
      });
      for (const fn of catalogListeners) fn();
    };
    const offs = [
      subscribe('sync', setSync),
      subscribe('online', (o) => setOnline(o.online)),
      subscribe('storage', setStorage),
      subscribe('catalog', (c) => {
        const before = versionRef.current;
        versionRef.current = c.version;
        setCatalogVersion(c.version);
        // The first value seen is the baseline (what the first queries already read).
        if (before !== 0 && c.version !== before && !timer) {
          timer = setTimeout(refresh, Math.max(0, CATALOG_REFRESH_MS - (Date.now() - lastRun)));
        }
      }),
      subscribe('service', (s) => {
        setService(s);
        setConnected(s.state === 'running');
        // A restarted core may hold a newer cache: refetch what is on screen.
        if (s.state === 'running') {
          void queryClient.invalidateQueries();
          resendView();
        }
      }),
      onConnection((up) => {
        setConnected(up);
        if (!up) return;
        void queryClient.invalidateQueries();
        // A new stream (or a restarted service) carries no view yet.
        resendView();
      }),
      // The stream (stream/): applied once per frame.
      subscribe('quotes', (q) => receiveQuotes(q.quotes)),
      subscribe('liveBook', (b) => receiveBook(b)),
      subscribe('live', receiveStatus),
    ];
    return () => {
      if (timer) clearTimeout(timer);
      for (const off of offs) off();
    };
  }, [queryClient]);

  const status = statusQuery.data;
  const value = useMemo<Live>(
    () => ({
      status,
      sync: sync ?? status?.sync,
      online: online ?? (status ? !status.offline : true),
      connected: connected && !(statusQuery.error && !status),
      service,
      storage: storage ?? status?.storage,
      catalogVersion: catalogVersion || status?.catalogVersion || 0,
      ready: statusQuery.isFetched || statusQuery.isError,
    }),
    [status, sync, online, connected, service, storage, catalogVersion, statusQuery.isFetched, statusQuery.isError, statusQuery.error],
  );
  return <LiveContext.Provider value={value}>{children}</LiveContext.Provider>;
}
