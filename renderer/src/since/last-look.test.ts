import { describe, expect, it } from 'vitest';
import {
  AWAY_FOR,
  awayLongEnough,
  DEFAULT_SINCE,
  FIRST_LOOK_WINDOW,
  leaveView,
  markSeen,
  readSince,
  type SinceState,
  seenMark,
  sinceTime,
} from './last-look.ts';

const NOW = Date.UTC(2026, 10, 23, 12, 0, 0);
const H = 3_600_000;

describe('readSince (at start)', () => {
  it('falls back to the default for anything unreadable', () => {
    expect(readSince(undefined, NOW)).toEqual(DEFAULT_SINCE);
    expect(readSince({ lastLook: 'yesterday', seen: -5, range: 'month' }, NOW)).toEqual(DEFAULT_SINCE);
  });

  it('keeps the last look and the range', () => {
    expect(readSince({ lastLook: NOW - H, seen: null, range: '7d' }, NOW)).toEqual({ lastLook: NOW - H, seen: null, range: '7d' });
  });

  it('turns what was seen when the app closed with the view open into the last look', () => {
    expect(readSince({ lastLook: NOW - 9 * H, seen: NOW - 2 * H }, NOW)).toMatchObject({ lastLook: NOW - 2 * H, seen: null });
  });

  it('caps a time in the future at now', () => {
    expect(readSince({ lastLook: NOW + 5 * H }, NOW).lastLook).toBe(NOW);
  });
});

describe('while the view is open and when it is left', () => {
  it('keeps the last look while seeing, and advances it only on leaving', () => {
    let s: SinceState = { ...DEFAULT_SINCE, lastLook: NOW - 5 * H };
    s = markSeen(s, NOW - H);
    s = markSeen(s, NOW);
    expect(s).toMatchObject({ lastLook: NOW - 5 * H, seen: NOW });
    s = leaveView(s);
    expect(s).toMatchObject({ lastLook: NOW, seen: null });
  });

  it('never moves seen backwards, and leaving without having seen anything changes nothing', () => {
    const s = markSeen({ ...DEFAULT_SINCE, seen: NOW }, NOW - H);
    expect(s.seen).toBe(NOW);
    expect(markSeen(s, undefined)).toBe(s);
    const unseen = { ...DEFAULT_SINCE, lastLook: NOW - H };
    expect(leaveView(unseen)).toBe(unseen);
  });

  it('never moves the last look backwards', () => {
    expect(leaveView({ lastLook: NOW, seen: NOW - H, range: 'last' }).lastLook).toBe(NOW);
  });
});

describe('seenMark', () => {
  it('reaches the next whole second of the fetch when no sync runs (the feed is in whole seconds, since is inclusive)', () => {
    expect(seenMark(NOW + 250, false, undefined)).toBe(NOW + 1000);
  });

  it('reaches only the newest change during a sync, which may still write earlier times', () => {
    expect(seenMark(NOW + 250, true, NOW - 5000)).toBe(NOW - 5000);
    expect(seenMark(NOW + 250, true, undefined)).toBeUndefined();
  });
});

describe('sinceTime and the start rule', () => {
  it('maps each range to its time, a first look to the last 24 h', () => {
    expect(sinceTime('last', NOW - H, NOW)).toBe(NOW - H);
    expect(sinceTime('last', null, NOW)).toBe(NOW - FIRST_LOOK_WINDOW);
    expect(sinceTime('24h', NOW - H, NOW)).toBe(NOW - 24 * H);
    expect(sinceTime('7d', NOW - H, NOW)).toBe(NOW - 7 * 24 * H);
  });

  it('opens the view at start only after being away long enough, never on a first start', () => {
    expect(awayLongEnough(NOW - AWAY_FOR - 1, NOW)).toBe(true);
    expect(awayLongEnough(NOW - AWAY_FOR, NOW)).toBe(false);
    expect(awayLongEnough(NOW - H, NOW)).toBe(false);
    expect(awayLongEnough(null, NOW)).toBe(false);
  });
});
