// @vitest-environment happy-dom
/**
 * The market page's fee line: the rule read from the market's own `feeSchedule` (fees.ts), and
 * nothing at all for a catalog that sends no fee fields (an older or white-label one), which
 * must not be shown as free.
 */
import { act, createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { describe, expect, it } from 'vitest';
import { describeFees, feeScheduleOf } from '../../../src/contract/fees.ts';
import type { Market } from '../api.ts';
import { MarketFees } from './Stats.tsx';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

function text(m: Market): string | null {
  const host = document.createElement('div');
  const root = createRoot(host);
  act(() => root.render(createElement(MarketFees, { m })));
  const out = host.querySelector('[data-testid="market-fees"]')?.textContent ?? null;
  act(() => root.unmount());
  return out;
}

describe('MarketFees', () => {
  it('says the schedule the market carries', () => {
    const feeSchedule = { exponent: 1, rate: 0.04, takerOnly: true, rebateRate: 0.25 };
    const m = { id: '1', feesEnabled: true, feeSchedule } as unknown as Market;
    expect(text(m)).toBe(describeFees(feeScheduleOf({ feesEnabled: true, feeSchedule })));
    expect(text(m)).toMatch(/^Taker fee 4% × p\(1−p\)/);
  });
  it('says there are none when the market turns fees off', () => {
    expect(text({ id: '1', feesEnabled: false } as unknown as Market)).toBe('No trading fees.');
  });
  it('says nothing when the catalog sends no fee fields', () => {
    expect(text({ id: '1' } as unknown as Market)).toBeNull();
  });
});
