/**
 * The global keys: Ctrl/⌘+K focuses the search box, Alt+1 … Alt+8 pick a tab and put the focus
 * in its main list, so the arrows work at once (Alt+4, Search, focuses the box), Esc closes the
 * side panel (the focus goes back to the row, nav.tsx) or clears the search.
 */
import { type RefObject, useEffect } from 'react';
import { useNav } from '../nav.tsx';
import { TABS } from '../ui-state.tsx';
import { focusMainList, trackKeyActivation } from '../focus.ts';

export function useShortcuts(searchRef: RefObject<HTMLInputElement | null>): void {
  const nav = useNav();
  useEffect(() => {
    trackKeyActivation();
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        searchRef.current?.focus();
        searchRef.current?.select();
        return;
      }
      if (e.altKey && !e.ctrlKey && !e.metaKey && /^[1-9]$/.test(e.key) && Number(e.key) <= TABS.length) {
        e.preventDefault();
        const tab = TABS[Number(e.key) - 1]!;
        nav.showTab(tab);
        // The Search tab is for typing: what follows the shortcut goes into the box.
        if (tab === 'search') searchRef.current?.focus();
        else focusMainList(tab);
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
  }, [nav, searchRef]);
}
