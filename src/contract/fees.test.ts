/**
 * The fee rule against the official client's own fee arithmetic (`adjustBuyAmountForFees` of
 * `@polymarket/clob-client-v2`): when a buyer spends exactly their balance, the client takes the
 * platform fee off it, so `amount − adjusted` is the fee it charges. Random schedules, prices and
 * sizes from a printed seed.
 */
import { adjustBuyAmountForFees } from '@polymarket/clob-client-v2';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { testSeed } from '../testing/seed.ts';
import { NO_FEES, describeFees, feePerShare, feeScheduleOf, tradeFee } from './fees.ts';

const { seed } = testSeed('fees');

describe('fees from feeSchedule', () => {
  it('a taker pays what the official client charges, at any price, rate and exponent', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.001, max: 0.999, noNaN: true }),
        fc.double({ min: 0, max: 0.2, noNaN: true }),
        fc.integer({ min: 0, max: 3 }),
        fc.double({ min: 1, max: 100_000, noNaN: true }),
        (price, rate, exponent, amount) => {
          const adjusted = adjustBuyAmountForFees(amount, price, amount, rate, exponent, 0);
          const s = feeScheduleOf({ feesEnabled: true, feeSchedule: { exponent, rate, takerOnly: true, rebateRate: 0.25 } })!;
          const fee = tradeFee(s, price, amount / price);
          // A fee as large as the amount leaves nothing to buy: the client answers 0 there.
          if (adjusted === 0) expect(fee).toBeGreaterThanOrEqual(amount * (1 - 1e-12));
          // The SDK subtracts from the amount, so compare relative to the amount.
          else expect(Math.abs(fee - (amount - adjusted))).toBeLessThanOrEqual(1e-12 * amount);
        },
      ),
      { seed, numRuns: 500 },
    );
  });

  it('reads Gamma camelCase numbers, the WebSocket snake_case strings and JSON text alike', () => {
    const gamma = feeScheduleOf({ feesEnabled: true, feeSchedule: { exponent: 1, rate: 0.04, takerOnly: true, rebateRate: 0.25 } });
    const ws = feeScheduleOf({ feeSchedule: { exponent: '1', rate: '0.04', taker_only: true, rebate_rate: '0.25' } });
    const text = feeScheduleOf({ feeSchedule: '{"exponent":1,"rate":0.04,"takerOnly":true,"rebateRate":0.25}' });
    expect(ws).toEqual(gamma);
    expect(text).toEqual(gamma);
    // The live sample's politics market: 4% × p(1−p), 1¢ a share at 50¢.
    expect(feePerShare(gamma!, 0.5)).toBeCloseTo(0.01, 12);
    expect(describeFees(gamma)).toBe(
      'Taker fee 4% × p(1−p): 1.00¢ a share at 50¢; makers pay none, and 25% of it is paid to them as rebates.',
    );
  });

  it('makers pay nothing on a taker-only schedule, and the same as takers otherwise', () => {
    const takerOnly = feeScheduleOf({ feeSchedule: { exponent: 1, rate: 0.07, takerOnly: true } })!;
    const both = feeScheduleOf({ feeSchedule: { exponent: 1, rate: 0.07, takerOnly: false } })!;
    expect(tradeFee(takerOnly, 0.3, 100, 'maker')).toBe(0);
    expect(tradeFee(both, 0.3, 100, 'maker')).toBeCloseTo(tradeFee(both, 0.3, 100, 'taker'), 12);
  });

  it('fees off, or no schedule, is no fee; a schedule that cannot be read is undefined, not zero', () => {
    expect(feeScheduleOf({ feesEnabled: false, feeSchedule: { exponent: 1, rate: 0.04 } })).toEqual(NO_FEES);
    expect(feeScheduleOf({})).toEqual(NO_FEES);
    expect(describeFees(NO_FEES)).toBe('No trading fees.');
    for (const bad of ['{', [], { rate: 'x', exponent: 1 }, { rate: 0.04 }, { rate: -1, exponent: 1 }])
      expect(feeScheduleOf({ feeSchedule: bad })).toBeUndefined();
    expect(describeFees(undefined)).toMatch(/could not be read/);
  });

  it('charges nothing at or past the edges of the price range', () => {
    const s = feeScheduleOf({ feeSchedule: { exponent: 1, rate: 0.04, takerOnly: true } })!;
    for (const p of [0, 1, -0.1, 1.2, Number.NaN]) expect(feePerShare(s, p)).toBe(0);
  });
});
