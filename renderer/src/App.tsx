/**
 * The app shell: header (tabs, search box), offline banner, the current view with the detail
 * panel, the status bar, dialogs and the global keyboard shortcuts. `data-ready` on the root
 * tells tests (and nothing else) that the first service answer is in.
 */
import { useEffect, useRef, useState } from 'react';
import icon from '../../resources/icon.svg';
import { AlertsProvider } from './alerts/AlertsProvider.tsx';
import { mode } from './api.ts';
import { DetailPanel } from './panel/DetailPanel.tsx';
import { SearchBox } from './shell/SearchBox.tsx';
import { Tabs } from './shell/Tabs.tsx';
import { useShortcuts } from './shell/useShortcuts.ts';
import { CredentialsDialog, SettingsDialog } from './components/Dialogs.tsx';
import { OfflineBanner, StatusBar } from './components/StatusBar.tsx';
import { StorageBanner } from './components/StorageNotice.tsx';
import { LiveProvider, useLive } from './live.tsx';
import { NavProvider, useNav } from './nav.tsx';
import { loadUiState } from './persist.ts';
import { readUiState, UiStateProvider, useUi, type Tab, type UiState } from './ui-state.tsx';
import { useSinceOnStart } from './since/useSinceStart.ts';
import { AlertsView } from './views/Alerts.tsx';
import { EventsView } from './views/Events.tsx';
import { LeaderboardView } from './views/Leaderboard.tsx';
import { MarketsView } from './views/Markets.tsx';
import { OrdersView } from './views/Orders.tsx';
import { SearchView } from './views/Search.tsx';
import { SinceView } from './views/Since.tsx';
import { WatchlistView } from './views/Watchlist.tsx';
import { WatchlistProvider } from './watchlist.tsx';

/** Tabs whose rows open the side panel. */
const PANEL_TABS = new Set<Tab>(['watchlist', 'markets', 'events', 'search', 'orders', 'alerts', 'since']);

export function App() {
  const [initial, setInitial] = useState<UiState>();
  useEffect(() => {
    void loadUiState().then((raw) => setInitial(readUiState(raw)));
  }, []);
  if (!initial) return null;
  return (
    <LiveProvider>
      <UiStateProvider initial={initial}>
        <WatchlistProvider>
          <NavProvider>
            <AlertsProvider>
              <Shell />
            </AlertsProvider>
          </NavProvider>
        </WatchlistProvider>
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

  useShortcuts(searchRef);
  useSinceOnStart();

  const showDetail = nav.detail && PANEL_TABS.has(ui.tab);
  return (
    <div className="app" data-ready={live.ready ? 'true' : undefined} data-tab={ui.tab}>
      <header className="bar">
        <img className="bar-icon" src={icon} alt="" width={20} height={20} />
        <span className="bar-title">marketdesk</span>
        <Tabs />
        <span className="toolbar-spacer" />
        <SearchBox ref={searchRef} />
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
      <main className={`main${showDetail ? ' with-detail' : ''}`} id="view" role="tabpanel" aria-labelledby={`tab-${ui.tab}`} tabIndex={-1}>
        {ui.tab === 'watchlist' ? <WatchlistView /> : null}
        {ui.tab === 'markets' ? <MarketsView /> : null}
        {ui.tab === 'events' ? <EventsView /> : null}
        {ui.tab === 'search' ? <SearchView /> : null}
        {ui.tab === 'orders' ? <OrdersView /> : null}
        {ui.tab === 'leaderboard' ? <LeaderboardView /> : null}
        {ui.tab === 'alerts' ? <AlertsView /> : null}
        {ui.tab === 'since' ? <SinceView /> : null}
        {showDetail ? <DetailPanel /> : null}
      </main>
      <StatusBar />
      <CredentialsDialog />
      {mode === 'desktop' ? <SettingsDialog open={settingsOpen} onClose={() => setSettingsOpen(false)} /> : null}
    </div>
  );
}
