/**
 * Navigation between views: which tab is shown, which market or event the detail panel
 * shows, and the cross-view actions (a search tag filters the grids, an event lists its
 * markets, ...).
 */
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { DEFAULT_FILTERS, useUi, type Tab } from './ui-state.tsx';

export type Detail = { kind: 'market' | 'event'; id: string } | null;

export interface Nav {
  detail: Detail;
  open(kind: 'market' | 'event', id: string, opts?: { tab?: Tab }): void;
  close(): void;
  showTab(tab: Tab): void;
  /** Shows the markets (or events) carrying a tag. */
  filterByTag(tag: { id: string; label: string }, tab?: 'markets' | 'events'): void;
  /** Shows the markets of one event in the markets grid. */
  marketsOfEvent(event: { id: string; title: string }): void;
  credentialsOpen: boolean;
  setCredentialsOpen(open: boolean): void;
  /** The search box's text (the Search tab shows its results). */
  query: string;
  setQuery(q: string): void;
}

const NavContext = createContext<Nav | null>(null);

export function useNav(): Nav {
  const v = useContext(NavContext);
  if (!v) throw new Error('useNav outside NavProvider');
  return v;
}

export function NavProvider({ children }: { children: ReactNode }) {
  const { setUi } = useUi();
  const [detail, setDetail] = useState<Detail>(null);
  const [credentialsOpen, setCredentialsOpen] = useState(false);
  const [query, setQuery] = useState('');
  const showTab = useCallback((tab: Tab) => setUi((s) => ({ ...s, tab })), [setUi]);
  const open = useCallback<Nav['open']>(
    (kind, id, opts) => {
      setDetail({ kind, id });
      if (opts?.tab) showTab(opts.tab);
    },
    [showTab],
  );
  const close = useCallback(() => setDetail(null), []);
  const filterByTag = useCallback<Nav['filterByTag']>(
    (tag, tab = 'markets') => {
      // Both grids, so switching tabs keeps showing the same tag.
      setUi((s) => ({
        ...s,
        tab,
        markets: { ...s.markets, filters: { ...DEFAULT_FILTERS, tag } },
        events: { ...s.events, filters: { ...DEFAULT_FILTERS, tag } },
      }));
      setDetail(null);
    },
    [setUi],
  );
  const marketsOfEvent = useCallback<Nav['marketsOfEvent']>(
    (event) => {
      setUi((s) => ({ ...s, tab: 'markets', markets: { ...s.markets, filters: { ...DEFAULT_FILTERS, closed: 'any', event } } }));
    },
    [setUi],
  );
  const value = useMemo(
    () => ({ detail, open, close, showTab, filterByTag, marketsOfEvent, credentialsOpen, setCredentialsOpen, query, setQuery }),
    [detail, open, close, showTab, filterByTag, marketsOfEvent, credentialsOpen, query],
  );
  return <NavContext.Provider value={value}>{children}</NavContext.Provider>;
}
