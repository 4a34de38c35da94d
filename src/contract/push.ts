/**
 * Push events: what the service tells its clients without being asked. One typed map, sent
 * over IPC (`webContents.send`) in Electron and as Server-Sent Events (`GET /stream`) in web
 * mode; the renderer subscribes through one client either way. Plain data (no zod): the
 * preload and the renderer import it.
 */
import type { AlertList, FiredAlert } from './alerts-ops.ts';
import type { WatchList } from './desk-ops.ts';
import type { LiveMarketBook, LiveQuote, LiveStatus } from './live.ts';
import type { StorageStatus, SyncStatus } from './types.ts';

export interface PushEvents {
  /** Sync phase and progress; sent when a run starts, after each written batch, and when it ends. */
  sync: SyncStatus;
  /** The cached catalog changed; `version` is the store's catalogVersion. */
  catalog: { version: number };
  /** Whether the upstream is reachable (the cache keeps serving either way). */
  online: { online: boolean };
  /** Saving the cache: sent after each save attempt and when a retry is scheduled. */
  storage: StorageStatus;
  /** The watchlist changed (added or removed an item); the whole list, newest first. */
  watchlist: WatchList;
  /** An alert fired (one event per firing; the desktop shows it as a notification). */
  alert: FiredAlert;
  /** The alert rules changed (added, removed, or a firing updated `lastFiredAt`); the whole list. */
  alerts: AlertList;
  /**
   * The live layer's health (sockets, assets, messages per second, quiet times): every second
   * while anything is subscribed, and when its state changes. Sent to every client.
   */
  live: LiveStatus;
  /** Quotes that changed, of the markets in this client's live view (`live.view`); at most one batch per frame. Only to that client. */
  quotes: { quotes: LiveQuote[] };
  /** The books and tape of the market page this client has open (`live.view` `book`), when they change. Only to that client. */
  liveBook: LiveMarketBook;
}

export type PushName = keyof PushEvents;

/** Web mode's Server-Sent Events route on the base face (src/http/push-stream.ts). */
export const STREAM_PATH = '/stream';

/** Every event name; the record makes a name missing from this list a type error. */
const PUSH_NAMES = {
  sync: 1,
  catalog: 1,
  online: 1,
  storage: 1,
  watchlist: 1,
  alert: 1,
  alerts: 1,
  live: 1,
  quotes: 1,
  liveBook: 1,
} satisfies Record<PushName, 1>;
export const PUSH_EVENTS = Object.keys(PUSH_NAMES) as PushName[];

export function isPushName(name: string): name is PushName {
  return (PUSH_EVENTS as readonly string[]).includes(name);
}
