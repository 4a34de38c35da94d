import { describe, expect, it } from 'vitest';
import { eventLeader, fmtCents, fmtChance, isPlaceholder, marketLeader, rankMarkets, spreadOf } from './chance.ts';

const m = (id: string, prices: string | null | undefined, volumeNum = 0, extra: Record<string, unknown> = {}) => ({
  id,
  question: `Q ${id}?`,
  outcomes: '["Yes","No"]',
  outcomePrices: prices,
  volumeNum,
  ...extra,
});

describe('chance', () => {
  it('tells placeholders by their missing prices', () => {
    expect(isPlaceholder(m('a', undefined))).toBe(true);
    expect(isPlaceholder(m('a', null))).toBe(true);
    expect(isPlaceholder(m('a', ''))).toBe(true);
    expect(isPlaceholder(m('a', '[]'))).toBe(true);
    expect(isPlaceholder(m('a', '["0","1"]'))).toBe(false);
  });

  it('ranks priced markets by chance, then volume', () => {
    const ranked = rankMarkets([
      m('big', '["0.1","0.9"]', 900),
      m('ph', null, 5),
      m('lo', '["0.29","0.71"]', 1),
      m('hi', '["0.29","0.71"]', 2),
    ]);
    expect(ranked.map((x) => x.id)).toEqual(['hi', 'lo', 'big']);
    const settled = rankMarkets([m('won', '["1","0"]', 5, { closed: true }), m('open', '["0.4","0.6"]', 1)]);
    expect(settled.map((x) => x.id)).toEqual(['open', 'won']);
  });

  it('names the leader by its group title, or the outcome of a single market', () => {
    expect(
      eventLeader([m('a', '["0.2","0.8"]', 9, { groupItemTitle: 'Newsom' }), m('b', '["0.3","0.7"]', 1, { groupItemTitle: 'AOC' })]),
    ).toEqual({
      label: 'AOC',
      price: 0.3,
    });
    expect(eventLeader([m('a', '["0.2","0.8"]'), m('ph', null)])).toEqual({ label: 'No', price: 0.8 });
    expect(eventLeader([m('ph', null)])).toBeUndefined();
  });

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

  it("takes a market's chance from its Yes price, or its leading named outcome", () => {
    expect(marketLeader(m('a', '["0.31","0.69"]'))).toEqual({ name: 'Yes', price: 0.31 });
    expect(marketLeader({ outcomes: '["Lakers","Celtics"]', outcomePrices: '["0.42","0.58"]' })).toEqual({ name: 'Celtics', price: 0.58 });
    expect(marketLeader(m('ph', null))).toBeUndefined();
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
