import { describe, expect, it } from 'vitest';
import {
  type AlertRule,
  type AlertSubject,
  changeText,
  conditionText,
  createParams,
  firedTarget,
  initialForm,
  kindsFor,
  targetText,
} from './describe.ts';

const market: AlertSubject = { kind: 'market', id: '12', title: 'Fed cuts?', price: 0.583 };
const rule = (r: Partial<AlertRule>): AlertRule => ({
  id: 'r1',
  kind: 'price_cross',
  label: 'x',
  createdAt: '2026-11-23T10:00:00.000Z',
  lastFiredAt: null,
  ...r,
});

describe('the alert form', () => {
  it('offers each subject its kinds and starts a price alert at the current price', () => {
    expect(kindsFor(market)).toEqual(['price_cross', 'price_move', 'ends_soon', 'rule_edit']);
    expect(kindsFor({ kind: 'event', id: '3', title: 'E' })).toEqual(['rule_edit', 'ends_soon']);
    expect(kindsFor({ kind: 'search', q: 'fed' })).toEqual(['new_match']);
    expect(initialForm(market).levelCents).toBe('58.3');
    expect(initialForm({ kind: 'market', id: '1', title: 't', price: undefined }).levelCents).toBe('');
  });

  it('turns cents and points into prices, and sends only the kind’s own fields', () => {
    const f = initialForm(market);
    expect(createParams(market, { ...f, levelCents: '63.1', direction: 'up' })).toEqual({
      kind: 'price_cross',
      market: '12',
      level: 0.631,
      direction: 'up',
    });
    expect(createParams(market, { ...f, kind: 'price_move', points: '5', windowHours: '6', label: ' Fast ' })).toEqual({
      kind: 'price_move',
      market: '12',
      points: 0.05,
      window_hours: 6,
      label: 'Fast',
    });
    expect(createParams({ kind: 'event', id: '3', title: 'E' }, { ...f, kind: 'ends_soon', hours: '48' })).toEqual({
      kind: 'ends_soon',
      event: '3',
      hours: 48,
    });
    expect(createParams({ kind: 'screen', id: 's1', name: 'Flips' }, { ...f, kind: 'new_match' })).toEqual({
      kind: 'new_match',
      screen: 's1',
    });
    expect(createParams({ kind: 'search', q: 'fed' }, { ...f, kind: 'new_match' })).toEqual({ kind: 'new_match', q: 'fed' });
  });

  it('leaves a blank level out and passes a typo on as NaN, for the service to refuse', () => {
    const f = initialForm(market);
    expect(createParams(market, { ...f, levelCents: ' ' }).level).toBeUndefined();
    expect(createParams(market, { ...f, levelCents: 'abc' }).level).toBeNaN();
  });
});

describe('rules and firings on screen', () => {
  it('names what a rule watches and its condition', () => {
    expect(targetText(rule({ market: { id: '1', slug: 's', question: 'Q?' } }))).toBe('Q?');
    expect(targetText(rule({ event: { id: '2', slug: 'ev', title: null } }))).toBe('ev');
    expect(targetText(rule({ kind: 'new_match', q: 'fed' }))).toBe('Search “fed”');
    expect(targetText(rule({ kind: 'new_match', screen: 's1' }), (id) => (id === 's1' ? 'Flips' : undefined))).toBe('Screen “Flips”');
    expect(targetText(rule({ kind: 'rule_edit' }))).toBe('Watchlist');
    expect(conditionText(rule({ level: 0.6, direction: 'up' }))).toBe('crosses 60¢ ↑');
    expect(conditionText(rule({ level: 0.6, direction: 'either' }))).toBe('crosses 60¢');
    expect(conditionText(rule({ kind: 'price_move', points: 0.05, windowHours: 24 }))).toBe('moves 5 pts in 24 h');
    expect(conditionText(rule({ kind: 'ends_soon', hours: 12 }))).toBe('ends within 12 h');
  });

  it('shows a firing’s change in a short line, or nothing when the title says it all', () => {
    expect(changeText({ kind: 'price_cross', before: 0.58, after: 0.63 })).toBe('58¢ → 63¢');
    expect(changeText({ kind: 'price_cross', before: null, after: 0.63 })).toBe('— → 63¢');
    // As the service's title writes them: 0.0535 is 5.3¢ there (toFixed), so here too.
    expect(changeText({ kind: 'price_move', before: 0.0535, after: 0.11 })).toBe('5.3¢ → 11¢');
    expect(changeText({ kind: 'order_done', before: { sizeMatched: 5, originalSize: 10 }, after: { status: 'cancelled' } })).toBe(
      '5/10 matched → cancelled',
    );
    expect(changeText({ kind: 'rule_edit', before: { title: 'Old' }, after: { title: 'New' } })).toBe('Old → New');
    expect(changeText({ kind: 'rule_edit', before: { description: 'a'.repeat(200) }, after: { description: 'b' } })).toBeUndefined();
    expect(changeText({ kind: 'new_match', before: null, after: { id: '9' } })).toBeUndefined();
    expect(changeText({ kind: 'ends_soon', before: null, after: { endDate: '2026-12-01T15:00:00.000Z' } })).toMatch(/^ends .*2026/);
  });

  it('leads a firing to its market, else its event', () => {
    expect(firedTarget({ market: { id: '1', slug: null, question: null }, event: { id: '2', slug: null, title: null } })).toEqual({
      kind: 'market',
      id: '1',
    });
    expect(firedTarget({ event: { id: '2', slug: null, title: null } })).toEqual({ kind: 'event', id: '2' });
    expect(firedTarget({})).toBeUndefined();
  });
});
