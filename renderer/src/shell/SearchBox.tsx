/**
 * The header's search box: typing shows the Search tab; ArrowDown moves to the first result and
 * Enter opens the top hit (the first event's matched market when the words matched a market).
 */
import type { Ref } from 'react';
import { useNav } from '../nav.tsx';
import { useUi } from '../ui-state.tsx';
import { RESULT_SELECTOR, TOP_HIT_SELECTOR } from '../views/Search.tsx';

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

export function SearchBox({ ref }: { ref: Ref<HTMLInputElement> }) {
  const { ui } = useUi();
  const nav = useNav();
  return (
    <div className="search-box">
      <svg className="search-icon" viewBox="0 0 16 16" width="14" height="14" aria-hidden="true">
        <circle cx="7" cy="7" r="4.5" fill="none" stroke="currentColor" strokeWidth="1.6" />
        <path d="M10.5 10.5 L14 14" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
      </svg>
      <input
        ref={ref}
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
            const topHit = document.querySelector<HTMLButtonElement>(TOP_HIT_SELECTOR) ?? first;
            if (first && topHit) {
              e.preventDefault();
              if (e.key === 'Enter') topHit.click();
              else first.focus();
            }
          }
        }}
      />
      <kbd className="search-kbd">{isMac ? '⌘K' : 'Ctrl K'}</kbd>
    </div>
  );
}
