/** The header's tabs, in shortcut order (Alt+1 … Alt+8, see useShortcuts.ts). */
import { UnseenBadge } from '../alerts/AlertsProvider.tsx';
import { useNav } from '../nav.tsx';
import { TABS, type Tab, useUi } from '../ui-state.tsx';

export const TAB_LABEL: Record<Tab, string> = {
  watchlist: 'Watchlist',
  markets: 'Markets',
  events: 'Events',
  search: 'Search',
  orders: 'Orders',
  leaderboard: 'Leaderboard',
  alerts: 'Alerts',
  since: 'Since',
};

export function Tabs() {
  const { ui } = useUi();
  const nav = useNav();
  return (
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
          title={`${t === 'since' ? 'Since you last looked' : TAB_LABEL[t]} (Alt+${i + 1})`}
          onClick={() => nav.showTab(t)}
        >
          {TAB_LABEL[t]}
          {t === 'alerts' ? <UnseenBadge /> : null}
        </button>
      ))}
    </div>
  );
}
