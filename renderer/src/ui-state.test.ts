import { describe, expect, it } from 'vitest';
import { DEFAULT_UI, readUiState, TABS } from './ui-state.tsx';

describe('tabs', () => {
  it('puts the Watchlist first, so Alt+1 … Alt+8 read Watchlist, Markets, Events, Search, Orders, Leaderboard, Alerts, Since', () => {
    expect(TABS).toEqual(['watchlist', 'markets', 'events', 'search', 'orders', 'leaderboard', 'alerts', 'since']);
  });

  it('reads states saved before the Watchlist tab by name, and the new tab too', () => {
    expect(readUiState({ tab: 'search' }).tab).toBe('search');
    expect(readUiState({ tab: 'leaderboard' }).tab).toBe('leaderboard');
    expect(readUiState({ tab: 'watchlist' }).tab).toBe('watchlist');
    expect(readUiState({ tab: 4 }).tab).toBe(DEFAULT_UI.tab);
  });
});

describe('grid sorts', () => {
  it('keeps a remembered "what moved" sort and "Ending soon", and drops a field the service does not sort by', () => {
    const read = (sort: unknown) => readUiState({ markets: { sort } }).markets.sort;
    expect(read({ field: 'oneDayPriceChangeSize', desc: true })).toEqual({ field: 'oneDayPriceChangeSize', desc: true });
    expect(read({ field: 'endDate', desc: false, upcoming: true })).toEqual({ field: 'endDate', desc: false, upcoming: true });
    expect(read({ field: 'endDate', desc: false, upcoming: 'yes' })).toEqual({ field: 'endDate', desc: false });
    expect(read({ field: 'nope', desc: false }).field).toBe(DEFAULT_UI.markets.sort.field);
    expect(readUiState({ events: { sort: { field: 'spread', desc: true } } }).events.sort.field).toBe(DEFAULT_UI.events.sort.field);
  });
});
