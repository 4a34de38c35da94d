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
