/**
 * The header's tabs, in shortcut order (Alt+1 … Alt+8, see useShortcuts.ts). One Tab stop (the
 * ARIA tabs pattern): the arrow keys, Home and End move along the tabs, Enter or Space shows one
 * (manual activation: walking past a view does not load it).
 */
import { useRef, useState, type KeyboardEvent } from 'react';
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
  // The tab the arrows are on; back to the shown one when the focus leaves the bar.
  const [focused, setFocused] = useState<Tab | null>(null);
  const stop = focused ?? ui.tab;
  const refs = useRef(new Map<Tab, HTMLButtonElement>());
  const onKeyDown = (e: KeyboardEvent) => {
    const at = TABS.indexOf(stop);
    const n = TABS.length;
    const to = ({ ArrowRight: (at + 1) % n, ArrowLeft: (at - 1 + n) % n, Home: 0, End: n - 1 } as Record<string, number>)[e.key];
    if (to === undefined || e.altKey || e.ctrlKey || e.metaKey) return;
    e.preventDefault();
    const t = TABS[to]!;
    setFocused(t);
    refs.current.get(t)?.focus();
  };
  return (
    <div
      className="tabs"
      role="tablist"
      aria-label="Views"
      onKeyDown={onKeyDown}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setFocused(null);
      }}
    >
      {TABS.map((t, i) => (
        <button
          key={t}
          ref={(el) => {
            if (el) refs.current.set(t, el);
            else refs.current.delete(t);
          }}
          type="button"
          role="tab"
          id={`tab-${t}`}
          aria-selected={ui.tab === t}
          aria-controls="view"
          tabIndex={t === stop ? 0 : -1}
          onFocus={() => setFocused(t)}
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
