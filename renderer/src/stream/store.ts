/**
 * What the stream tells the window (issue 26): the quotes of the markets on screen, the open
 * market page's books and tape, and the live layer's health. Updates arrive as push events
 * (`quotes`, `liveBook`, `live`) and answers of `live.view`; they are applied together once per
 * animation frame, so a burst of ticks costs one paint. Components read them through hooks
 * (useSyncExternalStore), each for its own market, so a tick re-renders only its cells.
 */
import { useSyncExternalStore } from 'react';
import type { LiveMarketBook, LiveQuote, LiveStatus } from '../../../src/contract/live.ts';

/** A market's latest quote and the direction of its last price move, for the highlight. */
export interface Tick {
  quote: LiveQuote;
  /** The first outcome's price moved up or down with the last update that moved it. */
  dir: 'up' | 'down' | null;
  /** Counts price moves: a new value restarts the highlight. */
  moves: number;
}

export interface StatusSeen {
  status: LiveStatus;
  /** When it arrived (the window's clock): the quiet times it reports have grown since. */
  at: number;
  /** The window's clock at the last beat (every second while anyone reads it), for ages. */
  now: number;
}

const ticks = new Map<string, Tick>();
const tickListeners = new Map<string, Set<() => void>>();
const pendingQuotes = new Map<string, LiveQuote>();
let status: StatusSeen | undefined;
const statusListeners = new Set<() => void>();
let pendingStatus: LiveStatus | undefined;
let book: LiveMarketBook | undefined;
let pendingBook: LiveMarketBook | undefined;
const bookListeners = new Set<() => void>();
let frame = 0;

// A hidden window gets no animation frames: a timer stands in, so the store stays current.
const schedule = (fn: () => void): number =>
  typeof document !== 'undefined' && document.visibilityState === 'hidden'
    ? (setTimeout(fn, 250) as unknown as number)
    : requestAnimationFrame(fn);

function queue(): void {
  if (frame === 0) frame = schedule(flush);
}

/** Applies everything received since the last frame, then tells the readers of what changed. */
export function flush(): void {
  frame = 0;
  const changed: string[] = [];
  for (const [id, q] of pendingQuotes) {
    const before = ticks.get(id);
    const was = before?.quote.prices[0] ?? null;
    const now = q.prices[0] ?? null;
    const moved = was !== null && now !== null && now !== was;
    ticks.set(id, {
      quote: q,
      dir: moved ? (now > was ? 'up' : 'down') : (before?.dir ?? null),
      moves: (before?.moves ?? 0) + (moved ? 1 : 0),
    });
    changed.push(id);
  }
  pendingQuotes.clear();
  for (const id of changed) for (const fn of tickListeners.get(id) ?? []) fn();
  if (pendingStatus) {
    const at = Date.now();
    status = { status: pendingStatus, at, now: at };
    pendingStatus = undefined;
    for (const fn of statusListeners) fn();
  }
  if (pendingBook) {
    book = pendingBook;
    pendingBook = undefined;
    for (const fn of bookListeners) fn();
  }
}

export function receiveQuotes(quotes: readonly LiveQuote[]): void {
  for (const q of quotes) pendingQuotes.set(q.marketId, q);
  if (quotes.length > 0) queue();
}

export function receiveStatus(s: LiveStatus): void {
  pendingStatus = s;
  queue();
}

export function receiveBook(b: LiveMarketBook | null, forMarket?: string): void {
  if (b) pendingBook = b;
  else if (book?.marketId === forMarket || forMarket === undefined) {
    book = undefined;
    pendingBook = undefined;
    for (const fn of bookListeners) fn();
    return;
  }
  queue();
}

/** A market left the view: its quote is no longer kept current, so it is no longer shown. */
export function forgetQuote(id: string): void {
  pendingQuotes.delete(id);
  if (!ticks.delete(id)) return;
  for (const fn of tickListeners.get(id) ?? []) fn();
}

export function tickOf(id: string): Tick | undefined {
  return ticks.get(id);
}

export function useTick(id: string): Tick | undefined {
  return useSyncExternalStore(
    (fn) => {
      let set = tickListeners.get(id);
      if (!set) {
        set = new Set();
        tickListeners.set(id, set);
      }
      set.add(fn);
      return () => {
        set.delete(fn);
        if (set.size === 0) tickListeners.delete(id);
      };
    },
    () => ticks.get(id),
  );
}

/**
 * One beat a second while anyone reads the status: ages grow, and a status that stopped coming
 * (the service is gone) turns what it vouched for stale, without a timer per cell.
 */
let beat: ReturnType<typeof setInterval> | undefined;
function beatStatus(): void {
  // Off (offline, no WebSocket host) or nothing subscribed: no age to grow, nothing to re-render.
  if (!status || status.status.state === 'off' || status.status.assets === 0) return;
  status = { ...status, now: Date.now() };
  for (const fn of statusListeners) fn();
}

export function useStreamStatus(): StatusSeen | undefined {
  return useSyncExternalStore(
    (fn) => {
      statusListeners.add(fn);
      beat ??= setInterval(beatStatus, 1000);
      return () => {
        statusListeners.delete(fn);
        if (statusListeners.size === 0 && beat !== undefined) {
          clearInterval(beat);
          beat = undefined;
        }
      };
    },
    () => status,
  );
}

/** The open market page's live books and tape, when they are for `id`. */
export function useLiveBook(id: string): LiveMarketBook | undefined {
  const b = useSyncExternalStore(
    (fn) => {
      bookListeners.add(fn);
      return () => bookListeners.delete(fn);
    },
    () => book,
  );
  return b?.marketId === id ? b : undefined;
}
