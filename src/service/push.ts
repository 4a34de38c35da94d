/**
 * The service's push events (src/contract/push.ts), derived from the sync engine's status,
 * the store's catalog version and its storage state. One hub feeds every transport: the SSE
 * stream of the base face and the Electron service worker's messages to main.
 */
import type { PushEvents, PushName, SyncStatus } from '../contract/index.ts';
import type { StoreHealth } from '../store/store-api.ts';
import type { CatalogSync } from '../sync/catalog-sync.ts';

export type PushListener = <K extends PushName>(name: K, payload: PushEvents[K]) => void;

export interface PushHub {
  /** Current value of every event, for a client that connects mid-stream. */
  snapshot(): { [K in PushName]?: PushEvents[K] };
  /**
   * Adds a transport. `client`: the live view it carries (src/service/live-views.ts): its
   * `quotes` and `liveBook` events come to this listener only.
   */
  subscribe(fn: PushListener, client?: string): () => void;
  close(): void;
}

/** Progress during a big sync arrives per page; clients need it a few times a second at most. */
const SYNC_EVERY_MS = 200;

export function createPushHub(store: StoreHealth, sync: CatalogSync | undefined, offline: boolean): PushHub {
  const listeners = new Set<PushListener>();
  let lastVersion = store.catalogVersion;
  let online = !offline && (sync?.status().online ?? false);
  let lastSync: SyncStatus | undefined = sync?.status();
  let lastSyncSentAt = 0;
  let sentPhase = lastSync ? `${lastSync.phase}/${lastSync.running}` : '';
  let trailing: NodeJS.Timeout | undefined;

  const emit: PushListener = (name, payload) => {
    for (const fn of listeners) {
      try {
        fn(name, payload);
      } catch {
        // One broken transport must not starve the others.
      }
    }
  };

  const sendSync = () => {
    trailing = undefined;
    if (!lastSync) return;
    lastSyncSentAt = Date.now();
    sentPhase = `${lastSync.phase}/${lastSync.running}`;
    emit('sync', lastSync);
  };

  // Save failures, retries and recoveries go out as they happen (StatusBar, storage banner).
  const unsubscribeStorage = store.onStorageChange((s) => emit('storage', s));

  const unsubscribe = sync?.onStatus((s) => {
    lastSync = s;
    // Phase changes go out at once; progress within a phase is coalesced.
    if (`${s.phase}/${s.running}` !== sentPhase || Date.now() - lastSyncSentAt >= SYNC_EVERY_MS) {
      if (trailing) clearTimeout(trailing);
      sendSync();
    } else if (!trailing) {
      trailing = setTimeout(sendSync, SYNC_EVERY_MS);
      trailing.unref();
    }
    if (store.catalogVersion !== lastVersion) {
      lastVersion = store.catalogVersion;
      emit('catalog', { version: lastVersion });
    }
    if (s.online !== online) {
      online = s.online;
      emit('online', { online });
    }
  });

  return {
    snapshot() {
      return {
        ...(lastSync ? { sync: lastSync } : {}),
        catalog: { version: store.catalogVersion },
        online: { online },
        storage: store.storageStatus(),
      };
    },
    subscribe(fn) {
      listeners.add(fn);
      return () => {
        listeners.delete(fn);
      };
    },
    close() {
      if (trailing) clearTimeout(trailing);
      unsubscribe?.();
      unsubscribeStorage();
      listeners.clear();
    },
  };
}
