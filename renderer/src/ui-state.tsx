/**
 * The UI's own state: tab, filters, sort and column widths per grid, leaderboard choices.
 * Remembered between launches (persist.ts); anything unreadable falls back to the default.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { EVENT_ORDER_FIELDS, MARKET_ORDER_FIELDS, type EventOrderField, type MarketOrderField } from '../../src/contract/enums.ts';
import {
  LEADERBOARD_CATEGORIES,
  LEADERBOARD_ORDER,
  LEADERBOARD_PERIODS,
  type LeaderboardCategory,
  type LeaderboardOrder,
  type LeaderboardPeriod,
} from './api.ts';
import type { Sort } from './grid/types.ts';
import { saveUiState, type Persisted } from './persist.ts';
import { DEFAULT_SINCE, readSince, type SinceState } from './since/last-look.ts';

/** In shortcut order (Alt+1 … Alt+8). Persisted by name, so states saved before the Watchlist tab still read. */
export const TABS = ['watchlist', 'markets', 'events', 'search', 'orders', 'leaderboard', 'alerts', 'since'] as const;
export type Tab = (typeof TABS)[number];

export type Tri = 'any' | 'yes' | 'no';
export interface CatalogFilters {
  active: Tri;
  closed: Tri;
  archived: Tri;
  tag?: { id: string; label: string };
  /** Markets only: the markets of one event. */
  event?: { id: string; title: string };
  /** The quick text filter (FilterBar): every word starts a word of the question or title (md_q). */
  text?: string;
}
export type { Sort };
/** A catalog grid's remembered filters, sort (by one of the service's `order` fields, `S`) and widths. */
export interface GridPrefs<S extends string = string> {
  filters: CatalogFilters;
  sort: Sort<S>;
  columnSizing: Record<string, number>;
}
export interface UiState {
  tab: Tab;
  markets: GridPrefs<MarketOrderField>;
  events: GridPrefs<EventOrderField>;
  leaderboard: { category: LeaderboardCategory; timePeriod: LeaderboardPeriod; orderBy: LeaderboardOrder };
  orders: { market: string; asset: string };
  /** The Since view's last look and time range (since/last-look.ts). */
  since: SinceState;
}

export const DEFAULT_FILTERS: CatalogFilters = { active: 'any', closed: 'no', archived: 'any' };

export const DEFAULT_UI: UiState = {
  tab: 'markets',
  markets: { filters: DEFAULT_FILTERS, sort: { field: 'volume24hr', desc: true }, columnSizing: {} },
  events: { filters: DEFAULT_FILTERS, sort: { field: 'volume24hr', desc: true }, columnSizing: {} },
  leaderboard: { category: 'OVERALL', timePeriod: 'DAY', orderBy: 'PNL' },
  orders: { market: '', asset: '' },
  since: DEFAULT_SINCE,
};

const oneOf = <T extends string>(v: unknown, values: readonly T[], fallback: T): T =>
  typeof v === 'string' && (values as readonly string[]).includes(v) ? (v as T) : fallback;
const obj = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const str = (v: unknown, max = 300): string | undefined => (typeof v === 'string' && v.length <= max ? v : undefined);

function readRef<K extends string>(v: unknown, label: K): ({ id: string } & Record<K, string>) | undefined {
  const o = obj(v);
  const id = str(o['id'], 40);
  const text = str(o[label]);
  return id && /^\d+$/.test(id) && text !== undefined ? ({ id, [label]: text } as { id: string } & Record<K, string>) : undefined;
}

function readGrid<S extends string>(v: unknown, fallback: GridPrefs<S>, sortFields: readonly S[], withEvent: boolean): GridPrefs<S> {
  const o = obj(v);
  const f = obj(o['filters']);
  const tri = ['any', 'yes', 'no'] as const;
  const tag = readRef(f['tag'], 'label');
  const event = withEvent ? readRef(f['event'], 'title') : undefined;
  const text = str(f['text'], 200)?.trim();
  const s = obj(o['sort']);
  const sizing: Record<string, number> = {};
  for (const [k, w] of Object.entries(obj(o['columnSizing']))) {
    if (typeof w === 'number' && w >= 40 && w <= 2000) sizing[k] = Math.round(w);
  }
  return {
    filters: {
      active: oneOf(f['active'], tri, fallback.filters.active),
      closed: oneOf(f['closed'], tri, fallback.filters.closed),
      archived: oneOf(f['archived'], tri, fallback.filters.archived),
      ...(tag ? { tag } : {}),
      ...(event ? { event } : {}),
      ...(text ? { text } : {}),
    },
    sort: {
      field: oneOf(s['field'], sortFields, fallback.sort.field),
      desc: typeof s['desc'] === 'boolean' ? s['desc'] : fallback.sort.desc,
      ...(s['upcoming'] === true ? { upcoming: true } : {}),
    },
    columnSizing: sizing,
  };
}

export function readUiState(raw: Persisted): UiState {
  const lb = obj(raw['leaderboard']);
  const orders = obj(raw['orders']);
  return {
    tab: oneOf(raw['tab'], TABS, DEFAULT_UI.tab),
    // A remembered sort is any field the service sorts by (the contract's), else the default.
    markets: readGrid(raw['markets'], DEFAULT_UI.markets, MARKET_ORDER_FIELDS, true),
    events: readGrid(raw['events'], DEFAULT_UI.events, EVENT_ORDER_FIELDS, false),
    leaderboard: {
      category: oneOf(lb['category'], LEADERBOARD_CATEGORIES, 'OVERALL'),
      timePeriod: oneOf(lb['timePeriod'], LEADERBOARD_PERIODS, 'DAY'),
      orderBy: oneOf(lb['orderBy'], LEADERBOARD_ORDER, 'PNL'),
    },
    orders: { market: str(orders['market'], 100) ?? '', asset: str(orders['asset'], 100) ?? '' },
    since: readSince(raw['since'], Date.now()),
  };
}

/** Catalog filters as `markets.list` / `events.list` parameters. */
export function filterParams(
  f: CatalogFilters,
  withEvent: boolean,
): { active?: boolean; closed?: boolean; archived?: boolean; tag_id?: number; event_id?: number; md_q?: string } {
  const p: { active?: boolean; closed?: boolean; archived?: boolean; tag_id?: number; event_id?: number; md_q?: string } = {};
  for (const k of ['active', 'closed', 'archived'] as const) {
    if (f[k] !== 'any') p[k] = f[k] === 'yes';
  }
  if (f.tag) p.tag_id = Number(f.tag.id);
  if (withEvent && f.event) p.event_id = Number(f.event.id);
  if (f.text?.trim()) p.md_q = f.text.trim();
  return p;
}

type Updater = (update: (s: UiState) => UiState) => void;
const UiContext = createContext<{ ui: UiState; setUi: Updater } | null>(null);

export function UiStateProvider({ initial, children }: { initial: UiState; children: ReactNode }) {
  const [ui, setUiRaw] = useState(initial);
  const setUi = useCallback<Updater>((update) => setUiRaw((s) => update(s)), []);
  useEffect(() => saveUiState(ui as unknown as Persisted), [ui]);
  const value = useMemo(() => ({ ui, setUi }), [ui, setUi]);
  return <UiContext.Provider value={value}>{children}</UiContext.Provider>;
}

export function useUi(): { ui: UiState; setUi: Updater } {
  const v = useContext(UiContext);
  if (!v) throw new Error('useUi outside UiStateProvider');
  return v;
}
