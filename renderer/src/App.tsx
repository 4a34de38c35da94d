/**
 * The app shell: header (tabs, search box), offline banner, the current view with the detail
 * panel, the status bar, dialogs and the global keyboard shortcuts. `data-ready` on the root
 * tells tests (and nothing else) that the first service answer is in.
 */
import { useEffect, useRef, useState } from 'react';
import icon from '../../resources/icon.svg';
import { mode } from './api.ts';
import { DetailPanel } from './components/DetailPanel.tsx';
import { CredentialsDialog, SettingsDialog } from './components/Dialogs.tsx';
import { OfflineBanner, StatusBar } from './components/StatusBar.tsx';
import { StorageBanner } from './components/StorageNotice.tsx';
import { LiveProvider, useLive } from './live.tsx';
import { NavProvider, useNav } from './nav.tsx';
import { loadUiState } from './persist.ts';
import { readUiState, TABS, UiStateProvider, useUi, type Tab, type UiState } from './ui-state.tsx';
import { EventsView } from './views/Events.tsx';
import { LeaderboardView } from './views/Leaderboard.tsx';
import { MarketsView } from './views/Markets.tsx';
import { OrdersView } from './views/Orders.tsx';
import { RESULT_SELECTOR, SearchView } from './views/Search.tsx';

const TAB_LABEL: Record<Tab, string> = {
  markets: 'Markets',
  events: 'Events',
  search: 'Search',
  orders: 'Orders',
  leaderboard: 'Leaderboard',
};
const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

export function App() {
  const [initial, setInitial] = useState<UiState>();
  useEffect(() => {
    void loadUiState().then((raw) => setInitial(readUiState(raw)));
  }, []);
  if (!initial) return null;
  return (
    <LiveProvider>
      <UiStateProvider initial={initial}>
        <NavProvider>
          <Shell />
        </NavProvider>
      </UiStateProvider>
    </LiveProvider>
  );
}

function Shell() {
  const { ui } = useUi();
  const nav = useNav();
  const live = useLive();
  const searchRef = useRef<HTMLInputElement>(null);
  const [settingsOpen, setSettingsOpen] = useState(false);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        searchRef.current?.focus();
        searchRef.current?.select();
        return;
      }
      if (e.altKey && !e.ctrlKey && !e.metaKey && /^[1-5]$/.test(e.key)) {
        e.preventDefault();
        const tab = TABS[Number(e.key) - 1]!;
        nav.showTab(tab);
        // The Search tab is for typing: what follows the shortcut goes into the box.
        if (tab === 'search') searchRef.current?.focus();
        return;
      }
      // Esc inside a dialog belongs to the dialog.
      if (e.key === 'Escape' && !document.querySelector('dialog[open]')) {
        if (nav.detail) {
          e.preventDefault();
          nav.close();
        } else if (document.activeElement === searchRef.current && nav.query) {
          nav.setQuery('');
        }
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [nav]);

  const showDetail = nav.detail && (ui.tab === 'markets' || ui.tab === 'events' || ui.tab === 'search');
  return (
    <div className="app" data-ready={live.ready ? 'true' : undefined} data-tab={ui.tab}>
      <header className="bar">
        <img className="bar-icon" src={icon} alt="" width={20} height={20} />
        <span className="bar-title">marketdesk</span>
        <div className="tabs" role="tablist" aria-label="Views">
          {TABS.map((t, i) => (
            <button
              key={t}
              type="button"
              role="tab"
              id={`tab-${t}`}
              aria-selected={ui.tab === t}
              aria-controls="view"
              className={`tab${ui.tab === t ? ' selected' : ''}`}
              title={`${TAB_LABEL[t]} (Alt+${i + 1})`}
              onClick={() => nav.showTab(t)}
            >
              {TAB_LABEL[t]}
            </button>
          ))}
        </div>
        <span className="toolbar-spacer" />
        <div className="search-box">
          <svg className="search-icon" viewBox="0 0 16 16" width="14" height="14" aria-hidden="true">
            <circle cx="7" cy="7" r="4.5" fill="none" stroke="currentColor" strokeWidth="1.6" />
            <path d="M10.5 10.5 L14 14" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
          </svg>
          <input
            ref={searchRef}
            type="search"
            aria-label="Search markets, events and tags"
            placeholder="Search markets, events, tags"
            value={nav.query}
            onChange={(e) => {
              nav.setQuery(e.target.value);
              if (e.target.value.trim() && ui.tab !== 'search') nav.showTab('search');
            }}
            onKeyDown={(e) => {
              if (e.key === 'ArrowDown' || e.key === 'Enter') {
                const first = document.querySelector<HTMLButtonElement>(RESULT_SELECTOR);
                if (first) {
                  e.preventDefault();
                  if (e.key === 'Enter') first.click();
                  else first.focus();
                }
              }
            }}
          />
          <kbd className="search-kbd">{isMac ? '⌘K' : 'Ctrl K'}</kbd>
        </div>
        <button
          type="button"
          className="icon-btn"
          aria-label="API credentials"
          title="API credentials"
          onClick={() => nav.setCredentialsOpen(true)}
        >
          <svg viewBox="0 0 16 16" width="15" height="15" aria-hidden="true">
            <circle cx="5" cy="8" r="3" fill="none" stroke="currentColor" strokeWidth="1.5" />
            <path d="M8 8 H15 M12.5 8 V11 M14.5 8 V10" stroke="currentColor" strokeWidth="1.5" fill="none" strokeLinecap="round" />
          </svg>
        </button>
        {mode === 'desktop' ? (
          <button type="button" className="icon-btn" aria-label="Settings" title="Settings" onClick={() => setSettingsOpen(true)}>
            <svg viewBox="0 0 16 16" width="15" height="15" aria-hidden="true">
              <path d="M2 4 H14 M2 8 H14 M2 12 H14" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" />
              <circle cx="5" cy="4" r="1.6" fill="var(--bg-bar)" stroke="currentColor" strokeWidth="1.3" />
              <circle cx="11" cy="8" r="1.6" fill="var(--bg-bar)" stroke="currentColor" strokeWidth="1.3" />
              <circle cx="7" cy="12" r="1.6" fill="var(--bg-bar)" stroke="currentColor" strokeWidth="1.3" />
            </svg>
          </button>
        ) : null}
      </header>
      <OfflineBanner />
      <StorageBanner storage={live.storage} />
      <main className={`main${showDetail ? ' with-detail' : ''}`} id="view" role="tabpanel" aria-labelledby={`tab-${ui.tab}`}>
        {ui.tab === 'markets' ? <MarketsView /> : null}
        {ui.tab === 'events' ? <EventsView /> : null}
        {ui.tab === 'search' ? <SearchView /> : null}
        {ui.tab === 'orders' ? <OrdersView /> : null}
        {ui.tab === 'leaderboard' ? <LeaderboardView /> : null}
        {showDetail ? <DetailPanel /> : null}
      </main>
      <StatusBar />
      <CredentialsDialog />
      {mode === 'desktop' ? <SettingsDialog open={settingsOpen} onClose={() => setSettingsOpen(false)} /> : null}
    </div>
  );
}
