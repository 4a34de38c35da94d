/**
 * The first view after the app was closed for a while: at start, when the last look is older than
 * AWAY_FOR and the feed has something since then, the app opens on the Since tab instead of the
 * saved one. Only at start: once the user has moved (another tab, a panel), a late answer changes
 * nothing.
 */
import { useEffect, useRef } from 'react';
import { useNav } from '../nav.tsx';
import { useUi } from '../ui-state.tsx';
import { shownTotal } from './feed.ts';
import { awayLongEnough } from './last-look.ts';

export function useSinceOnStart(): void {
  const { ui } = useUi();
  const nav = useNav();
  const start = useRef({ tab: ui.tab, lastLook: ui.since.lastLook });
  const untouched = useRef(true);
  if (ui.tab !== start.current.tab || nav.detail) untouched.current = false;
  const showTab = useRef(nav.showTab);
  showTab.current = nav.showTab;

  useEffect(() => {
    const { tab, lastLook } = start.current;
    if (tab === 'since' || lastLook === null || !awayLongEnough(lastLook, Date.now())) return;
    let current = true;
    shownTotal(lastLook).then(
      (total) => {
        if (current && untouched.current && total > 0) showTab.current('since');
      },
      // No service yet, or an older one without the feed: the saved tab stays.
      () => {},
    );
    return () => {
      current = false;
    };
  }, []);
}
