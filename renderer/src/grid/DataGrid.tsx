/**
 * A dense, virtualised data grid over a service-paged list. Sorting, filtering and paging
 * are the service's (react-table in manual mode, owning columns, sort state and widths): a
 * header click changes the sort state, which changes the query. Rows are virtualised: only
 * those on screen (plus overscan) exist in the DOM, each a memoised component that renders
 * when a row scrolls in, so 100,000 rows scroll like 40. Fixed row height, no wrapping.
 *
 * A fast scroll brings a screenful of new rows in every frame, so that frame's work is kept
 * small: the DOM rows are recycled (assignSlots), cell contents are made ahead of time
 * (prepareRows), the header does not re-render, and overscan is ahead of the scroll only.
 *
 * Keyboard: arrows, Page Up/Down, Home/End move the active row; Enter opens it.
 */
import {
  getCoreRowModel,
  useReactTable,
  type ColumnDef,
  type ColumnSizingState,
  type SortingState,
  type Table,
  type Updater,
} from '@tanstack/react-table';
import { useVirtualizer, type Range, type VirtualItem, type Virtualizer } from '@tanstack/react-virtual';
import { memo, useCallback, useEffect, useId, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import type { Sort } from '../ui-state.tsx';
import type { BlockList } from './useBlockList.ts';

export const ROW_HEIGHT = 28;
/** The sticky header's height (styles.css .grid-head), above the first row in the scroller. */
const HEAD_HEIGHT = 29;

export interface GridColumn<T> {
  /** Column id; for a sortable column, also the service's `order` field. */
  id: string;
  header: string;
  size: number;
  minSize?: number;
  align?: 'left' | 'right';
  /** Takes the width the other columns leave (at least `size`). */
  grow?: boolean;
  sortable?: boolean;
  /** First click sorts descending (numbers, dates) or ascending (text). */
  descFirst?: boolean;
  /** The cell's content; pure (kept per row object, see prepareRows). */
  cell: (row: T) => ReactNode;
  title?: (row: T) => string | undefined;
  /** Extra class of the column's body cells. */
  className?: string;
}

interface Props<T> {
  label: string;
  columns: GridColumn<T>[];
  list: BlockList<T>;
  sort: Sort;
  onSort: (sort: Sort) => void;
  columnSizing: Record<string, number>;
  onColumnSizing: (sizing: Record<string, number>) => void;
  /** Changes when the params change: the grid goes back to the top. */
  resetKey: string;
  onOpen: (row: T, index: number) => void;
  /** The active row moved (keyboard or click); the detail panel follows it when open. */
  onActive?: (row: T, index: number) => void;
  isOpen?: (row: T) => boolean;
  empty: ReactNode;
  rowTestId?: string;
}

/** Class names joined, the false and absent ones left out. */
function classes(...names: (string | false | undefined)[]): string {
  return names.filter(Boolean).join(' ');
}

function resolve<S>(updater: Updater<S>, old: S): S {
  return typeof updater === 'function' ? (updater as (o: S) => S)(old) : updater;
}

export function DataGrid<T>(props: Props<T>) {
  const { list, columns, sort, onSort, columnSizing, onColumnSizing, onOpen, onActive } = props;
  const { rows, ended } = list;
  const domId = useId();
  const scrollRef = useRef<HTMLDivElement>(null);
  const [active, setActive] = useState(0);

  const count = rows.length + (ended || list.error ? 0 : 1);
  // Overscan ahead of a scroll, not behind it: the rows behind are leaving (see rangeExtractor).
  const virtualizerRef = useRef<Virtualizer<HTMLDivElement, Element> | null>(null);
  const scrolling = virtualizerRef.current?.isScrolling ?? false;
  const rangeExtractor = useCallback(
    (range: Range) => {
      const dir = scrolling ? virtualizerRef.current?.scrollDirection : null;
      const start = Math.max(0, range.startIndex - (dir === 'forward' ? 1 : range.overscan));
      const end = Math.min(range.count - 1, range.endIndex + (dir === 'backward' ? 1 : range.overscan));
      return Array.from({ length: end - start + 1 }, (_, i) => start + i);
    },
    // A new function when scrolling starts or stops, so the range is recomputed then.
    [scrolling],
  );
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    // The header sits in the scroller (sticky): rows start below it, and scrolling a row into
    // view keeps it clear of the header.
    scrollMargin: HEAD_HEIGHT,
    scrollPaddingStart: HEAD_HEIGHT,
    overscan: 3,
    rangeExtractor,
  });
  virtualizerRef.current = virtualizer;
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items[items.length - 1]?.index ?? 0;
  const slotsRef = useRef<Slots>({ byIndex: new Map() });
  const slotted = assignSlots(slotsRef.current, items, rows.length);

  const columnDefs = useMemo<ColumnDef<T>[]>(
    () =>
      columns.map((c) => ({
        id: c.id,
        // react-table sorts only accessor columns; the service does the sorting, by this id.
        accessorFn: (row: T) => (row as Record<string, unknown>)[c.id],
        header: c.header,
        size: c.size,
        minSize: c.minSize ?? 48,
        enableSorting: !!c.sortable,
        sortDescFirst: c.descFirst ?? false,
        meta: c,
      })),
    [columns],
  );
  const sorting = useMemo<SortingState>(() => [{ id: sort.field, desc: sort.desc }], [sort.field, sort.desc]);
  // The table models columns, sort and widths; rows are the virtualiser's (none given here).
  const table = useReactTable<T>({
    data: NO_ROWS as T[],
    columns: columnDefs,
    getCoreRowModel: getCoreRowModel(),
    manualSorting: true,
    manualFiltering: true,
    manualPagination: true,
    enableMultiSort: false,
    enableSortingRemoval: false,
    columnResizeMode: 'onChange',
    state: { sorting, columnSizing },
    onSortingChange: (u) => {
      const next = resolve(u, sorting)[0];
      if (next) onSort({ field: next.id, desc: next.desc });
    },
    onColumnSizingChange: (u) => onColumnSizing(resolve<ColumnSizingState>(u, columnSizing)),
  });
  const totalWidth = table.getTotalSize();
  const rowStyle = { minWidth: totalWidth };
  // Column widths are CSS variables on the grid (--c0, --c1, ...): a resize restyles the
  // cells without re-rendering a row, and a row that scrolls in sets no inline styles.
  const leaves = table.getVisibleLeafColumns();
  const widthVars = Object.fromEntries(leaves.map((c, i) => [`--c${i}`, `${c.getSize()}px`]));
  const cells = useMemo<CellSpec<T>[]>(
    () =>
      leaves.map((c, i) => {
        const col = c.columnDef.meta as GridColumn<T>;
        return {
          col,
          className: classes(`grid-cell c${i}`, col.grow && 'grow', col.align === 'right' && 'num', col.className),
        };
      }),
    // react-table memoises the leaf list: a new array only when the columns or their visibility change.
    [leaves],
  );
  // Through a ref, so a new onOpen from the parent does not re-render every row.
  const openRef = useRef(onOpen);
  openRef.current = onOpen;
  const onRowClick = useCallback((row: T, index: number) => {
    setActive(index);
    scrollRef.current?.focus({ preventScroll: true });
    openRef.current(row, index);
  }, []);

  // Back to the top when the query changes (new sort or filter); the first render is at the top already.
  const { resetKey } = props;
  const shownKey = useRef(resetKey);
  useEffect(() => {
    if (shownKey.current === resetKey) return;
    shownKey.current = resetKey;
    virtualizer.scrollToOffset(0);
    setActive(0);
  }, [resetKey, virtualizer]);

  // Load the next block as the end comes into view; remember what is visible.
  const { visible, ensure } = list;
  useEffect(() => {
    visible(first, last);
    ensure(last);
  }, [visible, ensure, first, last]);

  const move = useCallback(
    (to: number) => {
      if (rows.length === 0) return;
      const i = Math.max(0, Math.min(rows.length - 1, to));
      setActive(i);
      virtualizer.scrollToIndex(i, { align: 'auto' });
      onActive?.(rows[i]!, i);
    },
    [rows, virtualizer, onActive],
  );

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    // Keys on the header's buttons are theirs (Enter sorts, it does not open a row).
    if (e.target !== e.currentTarget) return;
    const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? 400) / ROW_HEIGHT) - 1);
    switch (e.key) {
      case 'ArrowDown':
        move(active + 1);
        break;
      case 'ArrowUp':
        move(active - 1);
        break;
      case 'PageDown':
        move(active + page);
        break;
      case 'PageUp':
        move(active - page);
        break;
      case 'Home':
        move(0);
        break;
      case 'End':
        move(rows.length - 1);
        break;
      case 'Enter': {
        const row = rows[active];
        if (row) onOpen(row, active);
        break;
      }
      default:
        return;
    }
    e.preventDefault();
  };

  const state = list.error && rows.length === 0 ? 'error' : list.pending ? 'loading' : ended && rows.length === 0 ? 'empty' : 'ready';

  return (
    <div className="grid" data-state={state} data-rows={rows.length} data-ended={ended} data-busy={list.busy} style={widthVars}>
      <div
        ref={scrollRef}
        className="grid-body"
        role="grid"
        aria-label={props.label}
        aria-rowcount={ended ? rows.length + 1 : -1}
        aria-colcount={columns.length}
        aria-activedescendant={rows.length ? `${domId}-r${active}` : undefined}
        tabIndex={0}
        onKeyDown={onKeyDown}
      >
        <GridHead
          table={table}
          columns={columnDefs}
          // What the header shows; a scroll re-renders the grid but not the header.
          sorting={sorting}
          columnSizing={columnSizing}
          sizingInfo={table.getState().columnSizingInfo}
          totalWidth={totalWidth}
        />
        <div className="grid-canvas" role="rowgroup" style={{ height: virtualizer.getTotalSize(), minWidth: totalWidth }}>
          {slotted.map(({ v, slot }) => {
            const row = rows[v.index];
            if (row === undefined) {
              return (
                <div
                  key="loading"
                  className="grid-row grid-loading-row"
                  style={{ transform: `translateY(${v.start - HEAD_HEIGHT}px)`, ...rowStyle }}
                  role="row"
                >
                  <div className="grid-cell" role="gridcell">
                    {list.error ? `Could not load more: ${list.error.message}` : 'Loading…'}
                  </div>
                </div>
              );
            }
            return (
              <Row
                key={slot}
                id={`${domId}-r${v.index}`}
                row={row}
                index={v.index}
                start={v.start - HEAD_HEIGHT}
                minWidth={totalWidth}
                cells={cells}
                active={v.index === active}
                open={props.isOpen?.(row) ?? false}
                testId={props.rowTestId}
                onClick={onRowClick}
              />
            );
          })}
        </div>
        {state !== 'ready' && state !== 'loading' ? (
          <div className="grid-overlay">{state === 'error' ? <GridError error={list.error} retry={list.refetch} /> : props.empty}</div>
        ) : null}
        {state === 'loading' ? <div className="grid-overlay muted">Loading…</div> : null}
      </div>
    </div>
  );
}

const NO_ROWS: unknown[] = [];

/** Which DOM row (slot) shows which row index; kept from one render to the next. */
interface Slots {
  byIndex: Map<number, number>;
}

/**
 * Row recycling. A row keeps its slot (React key) while it stays in view, and a row that
 * scrolls in takes the slot of one that scrolled out: React then updates that row's text and
 * attributes in place instead of removing one DOM subtree and building another. On a fast
 * scroll every row on screen is new in each frame; recycled, the browser only re-lays out the
 * changed text, with no elements to create, style and attach, or to detach. The rows are
 * rendered in slot order, so a recycled row never moves in the DOM (a move would detach and
 * re-attach it); they are positioned absolutely, and carry aria-rowindex for their place.
 */
function assignSlots(slots: Slots, items: VirtualItem[], loaded: number): { v: VirtualItem; slot: number }[] {
  const byIndex = new Map<number, number>();
  const used = new Set<number>();
  const rowItems = items.filter((v) => v.index < loaded);
  for (const v of rowItems) {
    const s = slots.byIndex.get(v.index);
    if (s !== undefined) {
      byIndex.set(v.index, s);
      used.add(s);
    }
  }
  let free = 0;
  for (const v of rowItems) {
    if (byIndex.has(v.index)) continue;
    while (used.has(free)) free++;
    byIndex.set(v.index, free);
    used.add(free);
  }
  slots.byIndex = byIndex;
  const out = rowItems.map((v) => ({ v, slot: byIndex.get(v.index)! })).sort((a, b) => a.slot - b.slot);
  // The "Loading…" row (past the loaded rows) comes last, under its own key.
  for (const v of items) if (v.index >= loaded) out.push({ v, slot: -1 });
  return out;
}

interface HeadProps<T> {
  table: Table<T>;
  columns: ColumnDef<T>[];
  sorting: SortingState;
  columnSizing: Record<string, number>;
  sizingInfo: unknown;
  totalWidth: number;
}

/** The sticky header row: sort buttons and resize handles. Memoised on what it shows. */
const GridHead = memo(function GridHead<T>({ table, totalWidth }: HeadProps<T>) {
  const headers = table.getHeaderGroups()[0]?.headers ?? [];
  const rowStyle = { minWidth: totalWidth };
  return (
    <div className="grid-head" role="rowgroup" style={rowStyle}>
      <div className="grid-row grid-head-row" role="row" style={rowStyle}>
        {headers.map((h) => {
          const meta = h.column.columnDef.meta as GridColumn<T>;
          const sorted = h.column.getIsSorted();
          return (
            <div
              key={h.id}
              role="columnheader"
              aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : 'none'}
              className={classes(`grid-cell grid-th c${h.index}`, meta.grow && 'grow', meta.align === 'right' && 'num', sorted && 'sorted')}
            >
              {h.column.getCanSort() ? (
                <button type="button" className="th-button" onClick={h.column.getToggleSortingHandler()} title={`Sort by ${meta.header}`}>
                  <span className="th-label">{meta.header}</span>
                  <SortMark dir={sorted} />
                </button>
              ) : (
                <span className="th-label th-static">{meta.header}</span>
              )}
              <div
                className={`resizer${h.column.getIsResizing() ? ' resizing' : ''}`}
                onMouseDown={h.getResizeHandler()}
                onTouchStart={h.getResizeHandler()}
                onDoubleClick={() => h.column.resetSize()}
                role="separator"
                aria-orientation="vertical"
                aria-label={`Resize ${meta.header}`}
              />
            </div>
          );
        })}
      </div>
    </div>
  );
}) as <T>(p: HeadProps<T>) => ReactNode;

interface CellSpec<T> {
  col: GridColumn<T>;
  className: string;
}

interface RowProps<T> {
  id: string;
  row: T;
  index: number;
  start: number;
  minWidth: number;
  cells: CellSpec<T>[];
  active: boolean;
  open: boolean;
  testId: string | undefined;
  onClick: (row: T, index: number) => void;
}

interface CellContent {
  content: ReactNode;
  title: string | undefined;
}

/**
 * Cell contents and titles by column, for the rows prepared or shown last (row object ->
 * contents), oldest first. Bounded, so a long scroll does not keep the contents of every row
 * it passed: far more rows than a screenful plus the blocks fetched ahead.
 */
const contentCache = new Map<object, Map<GridColumn<never>, CellContent>>();
const CONTENT_CACHE_ROWS = 1000;

/** A cell's content and title, made once per row object (formatting, parsing) and reused. */
function cellContent<T>(col: GridColumn<T>, row: T): CellContent {
  const key = row as object;
  let byCol = contentCache.get(key);
  if (!byCol) {
    byCol = new Map();
    contentCache.set(key, byCol);
    if (contentCache.size > CONTENT_CACHE_ROWS) contentCache.delete(contentCache.keys().next().value!);
  }
  let c = byCol.get(col as GridColumn<never>);
  if (!c) {
    c = { content: col.cell(row), title: col.title?.(row) };
    byCol.set(col as GridColumn<never>, c);
  }
  return c;
}

/**
 * Makes the cell contents of newly fetched rows in idle time, so that the frame that scrolls
 * them in only updates and lays out the DOM (the block arrives well before its rows show).
 * Cell renderers must be pure functions of the row: the result is kept per row object, and
 * row objects are not changed in place (a refetch brings new ones).
 */
export function prepareRows<T>(columns: readonly GridColumn<T>[], rows: readonly T[]): void {
  if (typeof requestIdleCallback !== 'function') return;
  let i = 0;
  const step = (deadline: IdleDeadline) => {
    // Out of idle time (a long fling): a few rows per callback, never a long task.
    const end = deadline.didTimeout ? Math.min(rows.length, i + 10) : rows.length;
    while (i < end && (deadline.didTimeout || deadline.timeRemaining() > 1)) {
      const row = rows[i++]!;
      if (typeof row === 'object' && row !== null) for (const col of columns) cellContent(col, row);
    }
    if (i < rows.length) requestIdleCallback(step, { timeout: 500 });
  };
  requestIdleCallback(step, { timeout: 500 });
}

/** One grid row; memoised, so scrolling renders only the rows that come into view. */
const Row = memo(function Row<T>(p: RowProps<T>) {
  return (
    <div
      id={p.id}
      role="row"
      aria-rowindex={p.index + 2}
      aria-selected={p.active}
      data-testid={p.testId}
      data-index={p.index}
      className={`grid-row${p.active ? ' active' : ''}${p.open ? ' open' : ''}${p.index % 2 ? ' odd' : ''}`}
      style={{ transform: `translateY(${p.start}px)`, minWidth: p.minWidth }}
      onClick={() => p.onClick(p.row, p.index)}
    >
      {p.cells.map(({ col, className }) => {
        const c = cellContent(col, p.row);
        return (
          <div key={col.id} role="gridcell" className={className} title={c.title}>
            {c.content}
          </div>
        );
      })}
    </div>
  );
}) as <T>(p: RowProps<T>) => ReactNode;

function SortMark({ dir }: { dir: false | 'asc' | 'desc' }) {
  if (!dir) return <span className="sort-mark" aria-hidden="true" />;
  return (
    <svg className="sort-mark" viewBox="0 0 8 8" width="8" height="8" aria-hidden="true">
      <path d={dir === 'asc' ? 'M4 1 L7.5 6.5 H0.5 Z' : 'M4 7 L7.5 1.5 H0.5 Z'} fill="currentColor" />
    </svg>
  );
}

function GridError({ error, retry }: { error: Error | null; retry: () => void }) {
  return (
    <div className="empty">
      <p className="empty-title">Could not load this list</p>
      <p className="empty-hint">{error?.message ?? 'unknown error'}</p>
      <button type="button" className="btn" onClick={retry}>
        Retry
      </button>
    </div>
  );
}
