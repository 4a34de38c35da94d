import { describe, expect, it } from 'vitest';
import { fmtDollars, fmtOrderPrice, fmtSignedDollars, toTsv } from './format-trade.ts';

describe('format-trade', () => {
  it('shows order prices in cents, as Polymarket does', () => {
    expect(fmtOrderPrice('0.91')).toBe('91¢');
    expect(fmtOrderPrice('0.375')).toBe('37.5¢');
    expect(fmtOrderPrice('0.57')).toBe('57¢');
    expect(fmtOrderPrice('0.001')).toBe('0.1¢');
    expect(fmtOrderPrice('nope')).toBe('—');
  });

  it('tells close money values apart in whole dollars', () => {
    const ranks = [2_143_552, 2_098_000.4, 2_051_220, 2_012_999.9].map(fmtSignedDollars);
    expect(new Set(ranks).size).toBe(4);
    expect(fmtSignedDollars(2_143_552)).toBe('+$2,143,552');
    expect(fmtSignedDollars(-12_040)).toBe('-$12,040');
    expect(fmtSignedDollars(0.5)).toBe('+$0.50');
    expect(fmtSignedDollars(0)).toBe('$0');
    expect(fmtDollars(-3)).toBe('$3');
  });

  it('writes TSV with a cell per column and no stray tabs or breaks', () => {
    expect(
      toTsv([
        ['a', 'b'],
        ['x\ty', null],
        [1, 'line\nbreak'],
      ]),
    ).toBe('a\tb\nx y\t\n1\tline break');
  });
});
