import { describe, expect, it } from 'vitest';
import { eventScreenParams, marketScreenParams } from '../../../src/contract/screen-params.ts';
import { FIELDS, screenFields, screenParams, screenSummary } from './NewScreen.tsx';

const filled = {
  name: 'x',
  chanceMin: '20',
  chanceMax: '80',
  change24Min: '-5',
  change24Max: ' 12 ',
  spreadMin: '',
  spreadMax: '3',
  volumeMin: ' 1000 ',
  volume24Min: '',
  liquidityMin: '50',
  endsDays: '7',
  endAfter: '2026-12-01',
  endBefore: '2026-12-31',
  tags: 'politics, elections',
  notTags: ' , ',
  text: ' fed rate ',
  watchlist: 'on',
  orders: '',
};

describe('the new-screen form as screen params', () => {
  it('markets: every filled field, scaled (percent to 0..1, days to hours), empty ones left out', () => {
    expect(screenParams(filled, 'markets')).toEqual({
      md_chance_min: '0.2',
      md_chance_max: '0.8',
      md_change24h_min: '-0.05',
      md_change24h_max: '0.12',
      md_spread_max: '0.03',
      md_volume_min: '1000',
      md_liquidity_min: '50',
      md_ends_within_hours: '168',
      md_end_after: '2026-12-01',
      md_end_before: '2026-12-31',
      md_tag: ['politics', 'elections'],
      md_q: 'fed rate',
      md_watchlist: true,
    });
  });

  it('events: the same without the chance, 24h change and spread (markets only)', () => {
    const p = screenParams(filled, 'events');
    expect(Object.keys(p).filter((k) => /^md_(chance|change24h|spread)/.test(k))).toEqual([]);
    expect(p['md_liquidity_min']).toBe('50');
    expect(p['md_q']).toBe('fed rate');
  });

  it('every field is a parameter its listings take', () => {
    for (const f of FIELDS) {
      expect(f.param in marketScreenParams, f.param).toBe(true);
      if (!f.markets) expect(f.param in eventScreenParams, f.param).toBe(true);
    }
  });
});

/** Params as the service keeps them: strings (and lists), `true` as "true". */
const saved = (p: ReturnType<typeof screenParams>) =>
  Object.fromEntries(Object.entries(p).map(([k, v]) => [k, typeof v === 'boolean' ? String(v) : v]));

describe('the form reads what the grids print, and types a saved screen back', () => {
  it('"1M", "$1.2k", "42%" and "1,500" are the amounts they say', () => {
    const p = screenParams({ volumeMin: '1M', liquidityMin: '$1.2k', chanceMin: '42%', chanceMax: '80¢', volume24Min: '1,500' }, 'markets');
    expect(p).toEqual({
      md_volume_min: '1000000',
      md_liquidity_min: '1200',
      md_chance_min: '0.42',
      md_chance_max: '0.8',
      md_volume24h_min: '1500',
    });
    // Not a number: sent as NaN, so the service's 400 names the field.
    expect(screenParams({ volumeMin: 'lots' }, 'markets')['md_volume_min']).toBe('NaN');
  });

  it('a saved screen fills the form with what makes the same params (edit, save, same screen)', () => {
    for (const kind of ['markets', 'events'] as const) {
      const params = screenParams(filled, kind);
      const back = screenFields({ name: 'x', kind, params: saved(params) });
      expect(screenParams(back, kind)).toEqual(params);
      expect(back['name']).toBe('x');
    }
  });

  it('the summary names each filter with its value', () => {
    const s = screenSummary({ name: 'x', kind: 'markets', params: saved(screenParams(filled, 'markets')) });
    expect(s).toContain('Chance ≥ 20%');
    expect(s).toContain('Chance ≤ 80%');
    expect(s).toContain('Volume ≥ 1000');
    expect(s).toContain('Tags: politics, elections');
    expect(s).toContain('on my watchlist');
    expect(screenSummary({ name: 'x', kind: 'events', params: {} })).toBe('No filters');
  });
});
