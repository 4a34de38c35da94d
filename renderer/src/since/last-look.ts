/**
 * The "last look" rules of the Since view. Two times are kept in the UI state (persisted):
 * `lastLook`, what "Since last look" shows changes since, and `seen`, how far the view's latest
 * answer reached while it is open. `lastLook` moves to `seen` only when the user leaves the view
 * or at the next start (the app was closed while the view was open), so the list does not empty
 * while it is being read.
 */

export const SINCE_RANGES = ['last', '24h', '7d'] as const;
export type SinceRange = (typeof SINCE_RANGES)[number];

export interface SinceState {
  /** Epoch ms; null: never looked. */
  lastLook: number | null;
  /** Epoch ms the open view's answers reach; null when the view was not open since the last advance. */
  seen: number | null;
  range: SinceRange;
}

export const DEFAULT_SINCE: SinceState = { lastLook: null, seen: null, range: 'last' };

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** With no last look yet, "since last look" shows this much. */
export const FIRST_LOOK_WINDOW = DAY;
/** On start, a last look older than this (and a non-empty feed since) opens the Since view. */
export const AWAY_FOR = 4 * HOUR;

const time = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.floor(v) : null);

/**
 * The persisted state as read at start. A `seen` left over means the app was closed with the
 * view open: the user saw up to there, so it becomes the last look now.
 */
export function readSince(raw: unknown, now: number): SinceState {
  const o = raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  const range = SINCE_RANGES.find((r) => r === o['range']) ?? 'last';
  // A time in the future (a clock set back) would hide everything: cap it at now.
  const cap = (t: number | null) => (t === null ? null : Math.min(t, now));
  return leaveView({ lastLook: cap(time(o['lastLook'])), seen: cap(time(o['seen'])), range });
}

/** The user left the view (or the app starts after it was left open): the last look moves up to what was seen. */
export function leaveView(s: SinceState): SinceState {
  if (s.seen === null) return s;
  return { ...s, lastLook: Math.max(s.seen, s.lastLook ?? 0), seen: null };
}

/**
 * How far one answer of the feed reaches. The feed's times are whole seconds (the sync's start),
 * and `since` takes changes at or after its second. With no sync running, every change up to the
 * fetch is in: the answer reaches the next second. During a sync, more changes may still be written
 * with an earlier time: it reaches only its newest change (shown again rather than lost).
 */
export function seenMark(fetchedAt: number, syncRunning: boolean, newestAt: number | undefined): number | undefined {
  if (!syncRunning) return (Math.floor(fetchedAt / 1000) + 1) * 1000;
  return newestAt;
}

/** The view showed an answer reaching `mark`. */
export function markSeen(s: SinceState, mark: number | undefined): SinceState {
  if (mark === undefined || (s.seen !== null && s.seen >= mark)) return s;
  return { ...s, seen: mark };
}

/** The time the view lists changes since, for a range (epoch ms). */
export function sinceTime(range: SinceRange, lastLook: number | null, now: number): number {
  if (range === '24h') return now - DAY;
  if (range === '7d') return now - 7 * DAY;
  return lastLook ?? now - FIRST_LOOK_WINDOW;
}

/** Whether the start should be worth a look: away long enough (never looked: no). The feed is asked only then. */
export function awayLongEnough(lastLook: number | null, now: number): boolean {
  return lastLook !== null && now - lastLook > AWAY_FOR;
}
