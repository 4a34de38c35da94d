/**
 * A catalog grid (markets, events): every cached row, sorted and filtered by the service,
 * loaded in blocks of 100 wherever the user scrolls, with the service's count, CSV export and
 * copy. What differs between the grids is their CatalogConfig.
 */
import { useCallback, useMemo, useRef, useState } from 'react';
import { Empty } from '../catalog/Empty.tsx';
import { ExportCopy } from '../catalog/ExportCopy.tsx';
import { SortPresets, sortParams } from '../catalog/SortPresets.tsx';
import { FilterBar } from '../components/FilterBar.tsx';
import { copyText, toTsv } from '../grid/copy.ts';
import { DataGrid, type GridColumn } from '../grid/DataGrid.tsx';
import { useBlockList } from '../grid/useBlockList.ts';
import { useNav } from '../nav.tsx';
import { filterParams, useUi, type CatalogFilters, type GridPrefs, type Sort, type UiState } from '../ui-state.tsx';

/** The grids' remembered preferences, by listing. */
type PrefsKey = 'markets' | 'events';
/** A listing's sort fields: the contract's MARKET_ORDER_FIELDS or EVENT_ORDER_FIELDS. */
type SortField<P extends PrefsKey> = UiState[P]['sort']['field'];

export interface CatalogConfig<T extends { id: string }, P extends PrefsKey = PrefsKey> {
  /** The grid's label and the view's. */
  label: string;
  /** Row noun ("market"): the count's, the detail panel's kind and the export's list (plural). */
  noun: 'market' | 'event';
  prefs: P;
  op: 'markets.list' | 'events.list';
  countOp: 'markets.count' | 'events.count';
  /** A sortable column's id is one of the listing's `order` fields. */
  columns: GridColumn<T, SortField<P>>[];
  /** A block of rows (slimmed and prepared for the grid). */
  fetchRows: (params: Record<string, unknown>) => Promise<T[]>;
  fetchCount: (params: Record<string, unknown>) => Promise<number>;
  /** Rows shown; the rest (placeholder markets) are hidden with a note. */
  keep?: (row: T) => boolean;
  /** The filter bar's event filter (markets of one event). */
  withEvent: boolean;
  rowTestId: string;
}

const rowKey = (r: { id: string }) => r.id;

/** `screen`: a saved screen's parameters (catalog/ScreenTabs.tsx), added to the grid's filters and sort. */
export function CatalogView<T extends { id: string }, P extends PrefsKey>({
  config,
  screen,
}: {
  config: CatalogConfig<T, P>;
  screen?: Record<string, unknown>;
}) {
  const { ui, setUi } = useUi();
  const nav = useNav();
  const prefs: GridPrefs<SortField<P>> = ui[config.prefs];
  const setPrefs = useCallback(
    (p: Partial<GridPrefs<SortField<P>>>) => setUi((s) => ({ ...s, [config.prefs]: { ...s[config.prefs], ...p } })),
    [setUi, config.prefs],
  );
  const paramsOf = useCallback(
    (filters: CatalogFilters, sort: Sort<SortField<P>>) => ({
      ...screen,
      ...filterParams(filters, config.withEvent),
      ...sortParams(sort),
    }),
    [config.withEvent, screen],
  );
  const params = useMemo(() => paramsOf(prefs.filters, prefs.sort), [paramsOf, prefs.filters, prefs.sort]);
  const list = useBlockList<T>({
    op: config.op,
    params,
    fetchBlock: config.fetchRows,
    countOp: config.countOp,
    fetchCount: config.fetchCount,
    ...(config.keep ? { keep: config.keep } : {}),
  });
  const count = useMemo(
    () => ({ n: list.total ?? list.loaded, ended: list.total !== undefined || list.ended, noun: config.noun, hidden: list.hidden }),
    [list.total, list.loaded, list.ended, list.hidden, config.noun],
  );
  const [selected, setSelectedState] = useState<T[]>([]);
  // A new empty selection (a new sort or filter clears it) must not re-render the view for nothing.
  const setSelected = useCallback((rows: T[]) => setSelectedState((old) => (old.length === 0 && rows.length === 0 ? old : rows)), []);
  const detailOpen = nav.detail?.kind === config.noun;
  const openId = detailOpen ? nav.detail!.id : undefined;
  const onActive = useCallback((r: T) => detailOpen && nav.open(config.noun, r.id), [detailOpen, nav, config.noun]);
  // The new query leaves at the input; the view re-renders while the service answers it.
  const { prefetch } = list;
  const current = useRef(prefs);
  current.current = prefs;
  const onFilters = useCallback(
    (filters: CatalogFilters) => {
      prefetch(paramsOf(filters, current.current.sort));
      setPrefs({ filters });
    },
    [prefetch, paramsOf, setPrefs],
  );
  const onSort = useCallback(
    (sort: Sort<SortField<P>>) => {
      prefetch(paramsOf(current.current.filters, sort));
      setPrefs({ sort });
    },
    [prefetch, paramsOf, setPrefs],
  );
  // Memoised: the filter bar is, and it should not re-render as blocks arrive.
  const actions = useMemo(
    () => (
      <>
        <SortPresets sort={prefs.sort} onSort={onSort} />
        <ExportCopy
          list={config.prefs}
          params={params}
          selected={selected.length}
          onCopy={() => void copyText(toTsv(config.columns, selected))}
        />
      </>
    ),
    [config.prefs, config.columns, params, selected, prefs.sort, onSort],
  );

  return (
    <section className="view" aria-label={config.label}>
      <FilterBar filters={prefs.filters} withEvent={config.withEvent} onChange={onFilters} count={count} actions={actions} />
      <DataGrid
        label={config.label}
        columns={config.columns}
        list={list}
        sort={prefs.sort}
        onSort={onSort}
        columnSizing={prefs.columnSizing}
        onColumnSizing={(columnSizing) => setPrefs({ columnSizing })}
        resetKey={JSON.stringify(params)}
        rowKey={rowKey}
        onOpen={(r) => nav.open(config.noun, r.id)}
        onActive={onActive}
        onSelection={setSelected}
        isOpen={(r) => r.id === openId}
        rowTestId={config.rowTestId}
        empty={<Empty noun={`${config.noun}s`} />}
      />
    </section>
  );
}
