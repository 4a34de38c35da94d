/**
 * Push events from the service: IPC through the preload bridge in Electron, Server-Sent
 * Events from GET /stream in web mode. One EventSource serves every subscriber.
 */
import type { DesktopEventName, DesktopEvents } from '../../src/contract/bridge.ts';
import { STREAM_PATH } from '../../src/contract/push.ts';
import { apiBase } from './api.ts';
import { liveClient } from './stream/client.ts';

type Listener<E extends DesktopEventName> = (payload: DesktopEvents[E]) => void;

let source: EventSource | undefined;
const sourceListeners = new Map<string, Set<(payload: unknown) => void>>();
const connectionListeners = new Set<(connected: boolean) => void>();
let connected = true;

function setConnected(v: boolean): void {
  if (v === connected) return;
  connected = v;
  for (const fn of connectionListeners) fn(v);
}

function ensureSource(): EventSource {
  if (source) return source;
  // Relative to the API base, like every route (web mode serves the page one level below it).
  // `client`: this page's live view (src/service/live-views.ts) streams its quotes here.
  const url = new URL(STREAM_PATH.slice(1), apiBase());
  url.searchParams.set('client', liveClient);
  source = new EventSource(url);
  source.onopen = () => setConnected(true);
  // EventSource retries by itself (the stream sets `retry: 1000`).
  source.onerror = () => setConnected(false);
  return source;
}

export function subscribe<E extends DesktopEventName>(event: E, listener: Listener<E>): () => void {
  const bridge = window.marketdesk;
  if (bridge) return bridge.on(event, listener);
  if (event === 'service') return () => {};
  const es = ensureSource();
  let set = sourceListeners.get(event);
  if (!set) {
    const fresh = new Set<(payload: unknown) => void>();
    sourceListeners.set(event, fresh);
    es.addEventListener(event, (e) => {
      let payload: unknown;
      try {
        payload = JSON.parse((e as MessageEvent<string>).data);
      } catch {
        return;
      }
      for (const fn of fresh) fn(payload);
    });
    set = fresh;
  }
  const fn = listener as (payload: unknown) => void;
  set.add(fn);
  return () => set.delete(fn);
}

/** Web mode: whether the event stream (so the service) is reachable. Desktop uses `service`. */
export function onConnection(listener: (connected: boolean) => void): () => void {
  if (window.marketdesk) return () => {};
  ensureSource();
  connectionListeners.add(listener);
  return () => connectionListeners.delete(listener);
}
