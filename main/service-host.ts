/**
 * Hosts the service core off the Electron main thread (DESIGN.md, Processes). The core
 * (`src/`) does not exist yet, so for now nothing is started and every operation answers
 * "unavailable"; the renderer shows its empty state. The later version forks the core with
 * `utilityProcess.fork()` (or a worker thread) and relays `invoke` and push events over its
 * message port; callers of this module should not need to change.
 */
import type { BridgeReply } from './preload/bridge.ts';

export interface ServiceHostOptions {
  /** Where the core keeps catalog.sqlite; `app.getPath('userData')` in the desktop app. */
  dataDir: string;
}

export interface ServiceHost {
  /** Runs one contract operation in the core. Never rejects: failures are replies. */
  invoke(op: string, params: unknown): Promise<BridgeReply>;
  /** Push events from the core (sync progress, catalog changed, ...). Returns an unsubscribe. */
  onEvent(listener: (event: string, payload: unknown) => void): () => void;
  /** Asks the core to persist and exit. */
  stop(): Promise<void>;
}

/** Status of the "core not running" reply; not an HTTP status the service itself ever sends. */
export const UNAVAILABLE_STATUS = 503;

export function startServiceHost(_opts: ServiceHostOptions): ServiceHost {
  const listeners = new Set<(event: string, payload: unknown) => void>();
  return {
    invoke(op: string): Promise<BridgeReply> {
      return Promise.resolve({
        ok: false,
        status: UNAVAILABLE_STATUS,
        body: { type: 'unavailable', error: `the service core is not running (${op})` },
      });
    },
    onEvent(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    stop(): Promise<void> {
      listeners.clear();
      return Promise.resolve();
    },
  };
}
