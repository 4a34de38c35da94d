import { describe, expect, it } from 'vitest';
import { MINUS } from '../../format.ts';
import { totalText } from '../leaderboard/LeaderboardToolbar.tsx';
import { positionsByValue } from '../leaderboard/TraderPanel.tsx';
import { fmtDistance } from './columns.ts';

describe('orders and leaderboard figures', () => {
  it('writes an order’s distance from the market in signed cents, to a tenth', () => {
    expect(fmtDistance(5)).toBe('+5¢');
    expect(fmtDistance(-2.5)).toBe(`${MINUS}2.5¢`);
    // The service's millionths round to the tenth shown; a distance that rounds to nothing has no sign.
    expect(fmtDistance(-96.749999)).toBe(`${MINUS}96.7¢`);
    expect(fmtDistance(0.04)).toBe('0¢');
    expect(fmtDistance(-0.04)).toBe('0¢');
    expect(fmtDistance(null)).toBe('—');
  });

  it('counts a board, with "+" when the Data API pages no deeper', () => {
    expect(totalText({ entries: 37, truncated: false })).toBe('37 traders');
    expect(totalText({ entries: 1, truncated: false })).toBe('1 trader');
    expect(totalText({ entries: 1050, truncated: true })).toBe('1,050+ traders');
  });

  it('orders positions by current value, largest first, missing values last', () => {
    const rows = [{ current_value: 3 }, { current_value: 10 }, {}, { current_value: 7 }];
    expect(positionsByValue(rows).map((r) => r['current_value'])).toEqual([10, 7, 3, undefined]);
  });
});
