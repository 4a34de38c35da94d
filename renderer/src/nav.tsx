/**
 * Navigation between views: which tab is shown, which market or event the detail panel
 * shows, and the cross-view actions (a search tag filters the grids, an event lists its
 * markets, ...).
 */
import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';
import { isKeyActivation } from './focus.ts';
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
  /**
   * Bumped when a row or result is opened with Enter: the panel then takes the focus, once
   * (PanelShell calls takePanelFocus when its item is shown).
   */
  panelFocus: number;
  takePanelFocus(): boolean;
  /** Gives the focus back to what opened the panel (the grid); that element, if there is one. */
  focusOpener(): HTMLElement | null;
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
  const [panelFocus, setPanelFocus] = useState(0);
  const wantsFocus = useRef(false);
  // What had the focus when the panel opened (the grid, a result): it gets it back on close.
  const opener = useRef<HTMLElement | null>(null);
  const open = useCallback<Nav['open']>(
    (kind, id, opts) => {
      const from = document.activeElement;
      if (from instanceof HTMLElement && from !== document.body && !from.closest('[data-testid="detail"]')) opener.current = from;
      setDetail({ kind, id });
      if (opts?.tab) showTab(opts.tab);
      if (isKeyActivation()) {
        wantsFocus.current = true;
        setPanelFocus((n) => n + 1);
      }
    },
    [showTab],
  );
  const takePanelFocus = useCallback(() => {
    const wanted = wantsFocus.current;
    wantsFocus.current = false;
    return wanted;
  }, []);
  const focusOpener = useCallback(() => {
    const el = opener.current?.isConnected ? opener.current : null;
    el?.focus({ preventScroll: true });
    return el;
  }, []);
  const close = useCallback(() => {
    const inPanel = document.activeElement?.closest('[data-testid="detail"]');
    setDetail(null);
    // The panel's focus would fall to the page: it goes back to the row (the grid keeps its active row).
    requestAnimationFrame(() => {
      const lost = !document.activeElement || document.activeElement === document.body;
      if ((inPanel || lost) && opener.current?.isConnected) opener.current.focus({ preventScroll: true });
    });
  }, []);
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
    () => ({
      detail,
      open,
      close,
      showTab,
      filterByTag,
      marketsOfEvent,
      panelFocus,
      takePanelFocus,
      focusOpener,
      credentialsOpen,
      setCredentialsOpen,
      query,
      setQuery,
    }),
    [detail, open, close, showTab, filterByTag, marketsOfEvent, panelFocus, takePanelFocus, focusOpener, credentialsOpen, query],
  );
  return <NavContext.Provider value={value}>{children}</NavContext.Provider>;
}
