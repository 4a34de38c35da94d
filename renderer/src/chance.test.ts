import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fmtCents, fmtChance, spreadOf } from './chance.ts';

/**
 * The chance rule's model, in whole millionths of a dollar (integer arithmetic, halves rounded
 * up): whole percent from 1% to 99%, one decimal below 1% and above 99%, "<0.1%" and ">99.9%"
 * for what rounds to the ends without being them.
 */
function modelChance(millionths: number): string {
  const tenths = Math.floor((millionths + 500) / 1000);
  const whole = Math.floor((millionths + 5000) / 10000);
  if (millionths > 0 && tenths === 0) return '<0.1%';
  if (millionths < 1_000_000 && tenths === 1000) return '>99.9%';
  if (millionths > 0 && millionths < 1_000_000 && (tenths < 10 || tenths > 990)) return `${Math.floor(tenths / 10)}.${tenths % 10}%`;
  return `${whole}%`;
}

// The rules behind chance (a market's, an event's leader) are src/contract/market-rules.test.ts's.
describe('chance', () => {
  it('formats chance by the one rule, against the model', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.integer({ min: 0, max: 1_000_000 }), fc.constantFrom(0, 1, 499, 500, 9_499, 9_500, 990_000, 999_500)),
        (k) => {
          expect(fmtChance(k / 1e6)).toBe(modelChance(k));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('reads the examples the issue names', () => {
    expect(fmtChance(0.004)).toBe('0.4%');
    expect(fmtChance(0.0004)).toBe('<0.1%');
    expect(fmtChance(0.9996)).toBe('>99.9%');
    expect(fmtChance(0.054)).toBe('5%');
    expect(fmtChance(0.285)).toBe('29%');
    expect(fmtChance(1)).toBe('100%');
    expect(fmtChance(0)).toBe('0%');
    expect(fmtChance(undefined)).toBe('—');
    expect(fmtChance(Number.NaN)).toBe('—');
    expect(fmtCents(0.29)).toBe('29¢');
    expect(fmtCents(0.003)).toBe('0.3¢');
  });

  it('takes the spread from Gamma, else from the best bid and ask', () => {
    expect(spreadOf({ spread: 0.002, bestBid: 0.1, bestAsk: 0.5 })).toBe(0.002);
    expect(spreadOf({ bestBid: 0.47, bestAsk: 0.49 })).toBe(0.02);
    expect(spreadOf({ bestBid: 0.47 })).toBeUndefined();
    expect(fmtCents(0.002)).toBe('0.2¢');
    expect(fmtCents(0.01)).toBe('1¢');
    expect(fmtCents(0.015)).toBe('1.5¢');
  });
});
