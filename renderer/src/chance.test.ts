import { describe, expect, it } from 'vitest';
import { fmtCents, fmtChance, spreadOf } from './chance.ts';

// The rules behind chance (a market's, an event's leader) are src/contract/market-rules.test.ts's.
describe('chance', () => {
  it('formats chance like Polymarket', () => {
    expect(fmtChance(0.29)).toBe('29%');
    expect(fmtChance(0.004)).toBe('<1%');
    expect(fmtChance(0.997)).toBe('>99%');
    expect(fmtChance(0.969)).toBe('97%');
    expect(fmtChance(0.285)).toBe('29%');
    expect(fmtChance(1)).toBe('100%');
    expect(fmtChance(0)).toBe('0%');
    expect(fmtChance(undefined)).toBe('—');
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
