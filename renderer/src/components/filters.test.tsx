// @vitest-environment happy-dom
/**
 * The grids' quick text filter (debounced, Esc clears, kept in the UI state as md_q), the tag
 * list's search, and which markets a search hit lists (matched ones first, always).
 */
import { act, createElement, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { filterParams, readUiState } from '../ui-state.tsx';
import { MARKETS_SHOWN, shownMarkets } from '../views/search-results.ts';
import { QUICK_FILTER_DEBOUNCE_MS, QuickFilter } from './QuickFilter.tsx';
import { matchTags } from './tag-match.ts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

afterEach(() => {
  vi.useRealTimers();
});

function mount(initial: string) {
  const seen: string[] = [];
  let reset: (v: string) => void = () => {};
  function Parent() {
    const [v, setV] = useState(initial);
    reset = setV;
    return createElement(QuickFilter, {
      value: v,
      noun: 'market',
      onChange: (x: string) => {
        seen.push(x);
        setV(x);
      },
    });
  }
  const host = document.createElement('div');
  document.body.append(host);
  const root = createRoot(host);
  act(() => root.render(createElement(Parent)));
  const input = () => host.querySelector<HTMLInputElement>('input')!;
  const type = (text: string) =>
    act(() => {
      const set = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
      set.call(input(), text);
      input().dispatchEvent(new Event('input', { bubbles: true }));
    });
  const key = (k: string) => act(() => input().dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true })));
  return { seen, input, type, key, reset: (v: string) => act(() => reset(v)), unmount: () => act(() => root.unmount()) };
}

describe('quick text filter', () => {
  it('hands up the text once typing pauses, trimmed; Esc clears it; an outside reset replaces it', () => {
    vi.useFakeTimers();
    const f = mount('');
    f.type('bit');
    f.type('bitcoin ');
    expect(f.seen).toEqual([]);
    act(() => vi.advanceTimersByTime(QUICK_FILTER_DEBOUNCE_MS));
    expect(f.seen).toEqual(['bitcoin']);
    f.key('Escape');
    expect(f.input().value).toBe('');
    expect(f.seen).toEqual(['bitcoin', '']);
    f.type('trump');
    f.key('Enter');
    expect(f.seen).toEqual(['bitcoin', '', 'trump']);
    f.reset('');
    expect(f.input().value).toBe('');
    f.unmount();
  });

  it('lives in the grid state and becomes md_q', () => {
    const ui = readUiState({ markets: { filters: { active: 'any', closed: 'no', archived: 'any', text: '  fed rates ' } } });
    expect(ui.markets.filters.text).toBe('fed rates');
    expect(filterParams(ui.markets.filters, true).md_q).toBe('fed rates');
    expect(filterParams({ active: 'any', closed: 'no', archived: 'any', text: '   ' }, true)).not.toHaveProperty('md_q');
    expect(readUiState({ markets: { filters: { text: 'x'.repeat(201) } } }).markets.filters.text).toBeUndefined();
  });
});

describe('tag search', () => {
  const tags = [
    { id: '1', label: 'Politics', open_markets: 40 },
    { id: '2', label: 'US Politics', open_markets: 20 },
    { id: '3', label: 'Crypto', open_markets: 10 },
    { id: '4', label: 'Économie', open_markets: 5 },
  ];
  it('keeps the tags with a label word starting with every typed word, in rank order, and the chosen one', () => {
    expect(matchTags(tags, 'pol', '').map((t) => t.id)).toEqual(['1', '2']);
    expect(matchTags(tags, 'us pol', '').map((t) => t.id)).toEqual(['2']);
    expect(matchTags(tags, 'econ', '').map((t) => t.id)).toEqual(['4']);
    expect(matchTags(tags, 'olit', '').map((t) => t.id)).toEqual([]);
    expect(matchTags(tags, 'crypto', '1').map((t) => t.id)).toEqual(['1', '3']);
    expect(matchTags(tags, '  ', '').map((t) => t.id)).toEqual(['1', '2', '3', '4']);
  });
});

describe('a search hit’s markets', () => {
  const market = (id: string, price: number) => ({
    id,
    question: `Q${id}?`,
    outcomes: '["Yes","No"]',
    outcomePrices: JSON.stringify([String(price), String(1 - price)]),
  });
  const markets = Array.from({ length: 10 }, (_, i) => market(String(i + 1), (i + 1) / 20));
  it('lists the matched markets first and always, then the leaders up to the limit', () => {
    const none = shownMarkets({ markets, matched_markets: [] });
    expect(none.markets.map((m) => m.market.id)).toEqual(['10', '9', '8', '7', '6', '5']);
    expect(none.more).toBe(4);
    const two = shownMarkets({ markets, matched_markets: ['1', '2'] });
    expect(two.markets.map((m) => [m.market.id, m.matched])).toEqual([
      ['2', true],
      ['1', true],
      ['10', false],
      ['9', false],
      ['8', false],
      ['7', false],
    ]);
    const many = shownMarkets({ markets, matched_markets: markets.slice(0, 8).map((m) => m.id) });
    expect(many.markets.filter((m) => m.matched)).toHaveLength(8);
    expect(many.markets).toHaveLength(8);
    expect(many.more).toBe(2);
    expect(MARKETS_SHOWN).toBe(6);
  });
});
