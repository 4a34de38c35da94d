/**
 * The parser reads back what the grids print: for many values, the grids' own formatters'
 * output parses to the value within the rounding the format shows (the model: a compact amount
 * is within half of its last shown digit); and the forms a trader types.
 */
import { describe, expect, it } from 'vitest';
import { parseAmount } from './amount.ts';
import { fmtCents, fmtChance } from './chance.ts';
import { fmtChange, fmtMoney } from './format.ts';

/** A deterministic spread of values over many magnitudes (no random seed to chase). */
const values = Array.from({ length: 400 }, (_, i) => Math.round(10 ** ((i % 40) / 4) * (1 + ((i * 7919) % 97) / 97) * 100) / 100);

describe('parseAmount reads what the grids print', () => {
  it('money: "$592", "$4.0K", "$1.2M" parse back within the printed precision', () => {
    for (const v of values) {
      const printed = fmtMoney(v);
      const back = parseAmount(printed, '$')!;
      // One decimal of the compact unit, or whole dollars: half a step either way.
      const step = v >= 999.5 ? 10 ** (Math.floor(Math.log10(v) / 3) * 3 - 1) : 1;
      expect(Math.abs(back - v), `${v} printed ${printed} read ${back}`).toBeLessThanOrEqual(step / 2 + 1e-9);
    }
  });

  it('prices and chances: "42¢" and "42%" are 42 in a ¢ or % field', () => {
    for (let c = 0; c <= 100; c += 0.5) {
      const p = c / 100;
      const cents = parseAmount(fmtCents(p), '¢')!;
      expect(Math.abs(cents - c), `${fmtCents(p)}`).toBeLessThanOrEqual(0.05 + 1e-9);
      const pct = parseAmount(fmtChance(p), '%')!;
      expect(Math.abs(pct - c), `${fmtChance(p)}`).toBeLessThanOrEqual(0.5 + 1e-9);
    }
  });

  it("a change with the grids' minus sign", () => {
    for (const v of [-0.5, -0.015, -0.001, 0, 0.032]) expect(parseAmount(fmtChange(v))).toBeCloseTo(Math.round(v * 1000) / 10, 9);
  });

  it('what a trader types', () => {
    const cases: [string, string | undefined, number | undefined][] = [
      ['1M', '$', 1e6],
      ['1m', '$', 1e6],
      ['$1.2k', '$', 1200],
      ['1,250,000', '$', 1250000],
      [' 2.5 B ', '$', 2.5e9],
      ['42¢', '¢', 42],
      ['42 %', '¢', 42],
      ['$0.42', '¢', 42],
      ['42¢', '$', 0.42],
      ['-$5', '$', -5],
      ['−3.5', undefined, -3.5],
      ['.5', '¢', 0.5],
      ['0,5', '¢', 0.5],
      ['', '$', undefined],
      ['   ', '¢', undefined],
    ];
    for (const [text, unit, expected] of cases) expect(parseAmount(text, unit as never), text).toBe(expected);
  });

  it('not a number is NaN (the service then says what is wrong)', () => {
    for (const text of ['abc', '1..2', '1M2', '$', '%', '1,2,3', '12e5']) expect(parseAmount(text, '$'), text).toBeNaN();
  });
});
