/**
 * A dense, virtualised data grid over a service-paged list. Sorting, filtering and paging
 * are the service's (useGridTable: react-table in manual mode): a header click changes the
 * sort state, which changes the query. Rows are virtualised: only those on screen (plus
 * overscan) exist in the DOM, each a memoised component that renders when a row scrolls in,
 * so 100,000 rows scroll like 40. Fixed row height, no wrapping.
 *
 * A fast scroll brings a screenful of new rows in every frame, so that frame's work is kept
 * small: the DOM rows are recycled and cell contents made ahead of time (recycler.ts), the
 * header does not re-render (GridHead), and overscan is ahead of the scroll only
 * (useRowVirtualizer). Rows not loaded yet are one-element placeholders (SkeletonRow).
 * Columns that do not fit the grid's width are hidden whole (useColumnFit). Keyboard,
 * selection and copy: useGridKeys.
 */
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { copyText, toTsv } from './copy.ts';
import { holdIcons } from '../components/Icon.tsx';
import { GridHead } from './GridHead.tsx';
import { GridRow, SkeletonRow } from './GridRow.tsx';
import { GridError } from './GridStates.tsx';
import { assignSlots, type Slots } from './recycler.ts';
import { HEAD_HEIGHT, type GridColumn, type Sort } from './types.ts';
import type { BlockList } from './useBlockList.ts';
import { useColumnFit } from './useColumnFit.ts';
import { useGridKeys } from './useGridKeys.ts';
import { useGridTable } from './useGridTable.ts';
import { useRowVirtualizer } from './useRowVirtualizer.ts';
import './grid.css';

export type { GridColumn, Sort } from './types.ts';
export { ROW_HEIGHT } from './types.ts';
export { prepareRows } from './recycler.ts';

interface Props<T, S extends string> {
  label: string;
  columns: GridColumn<T, S>[];
  list: BlockList<T>;
  /** Absent: no column sorts (a list in its own order). */
  sort?: Sort<S>;
  onSort?: (sort: Sort<S>) => void;
  columnSizing: Record<string, number>;
  onColumnSizing: (sizing: Record<string, number>) => void;
  /** Changes when the params change: the grid goes back to the top. */
  resetKey: string;
  rowKey: (row: T) => string;
  onOpen: (row: T, index: number) => void;
  /** The active row moved (keyboard or click); the detail panel follows it when open. */
  onActive?: (row: T, index: number) => void;
  /** The selected rows changed (in list order), e.g. for a Copy button. */
  onSelection?: (rows: T[]) => void;
  isOpen?: (row: T) => boolean;
  empty: ReactNode;
  rowTestId?: string;
}

export function DataGrid<T, S extends string = never>(props: Props<T, S>) {
  const { list, columns } = props;
  const domId = useId();
  const scrollRef = useRef<HTMLDivElement>(null);
  const hidden = useColumnFit(scrollRef, columns, props.columnSizing);
  const t = useGridTable({ ...props, hidden });
  const virtualizer = useRowVirtualizer(list.count, scrollRef);
  const keys = useGridKeys({
    ...props,
    virtualizer,
    scrollRef,
    onCopy: (rows) =>
      void copyText(
        toTsv(
          t.cells.map((c) => c.col),
          rows,
        ),
      ),
  });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items[items.length - 1]?.index ?? 0;
  const slotsRef = useRef<Slots>({ byIndex: new Map() });
  const slotted = assignSlots(slotsRef.current, items, (i) => list.rowAt(i) !== undefined);

  // Load the blocks of the rows in view (and ahead); remember them for catalog changes.
  const { show } = list;
  useEffect(() => show(first, last), [show, first, last]);
  // The rows' icons wait while a new sort or filter loads (Icon.tsx).
  useEffect(() => (list.busy ? holdIcons() : undefined), [list.busy]);

  const { count } = list;
  const state = list.error && list.loaded === 0 ? 'error' : list.pending ? 'loading' : list.ended && count === 0 ? 'empty' : 'ready';
  const minWidth = t.totalWidth;
  const activeRow = list.rowAt(keys.active);
  return (
    <div className="grid" data-state={state} data-rows={count} data-ended={list.ended} data-busy={list.busy} style={t.widthVars}>
      <div
        ref={scrollRef}
        className="grid-body"
        role="grid"
        aria-label={props.label}
        aria-rowcount={list.ended ? count + 1 : -1}
        aria-colcount={t.cells.length}
        aria-multiselectable={true}
        aria-activedescendant={activeRow !== undefined ? `${domId}-r${keys.active}` : undefined}
        tabIndex={0}
        // The view's main list: Alt+N focuses it (shell/focus.ts).
        data-main-list=""
        onKeyDown={keys.onKeyDown}
      >
        <GridHead
          table={t.table}
          columns={t.columnDefs}
          sorting={t.sorting}
          columnSizing={props.columnSizing}
          sizingInfo={t.table.getState().columnSizingInfo}
          hidden={[...hidden].join()}
          widths={t.widthsKey}
          totalWidth={minWidth}
        />
        <div className="grid-canvas" role="rowgroup" style={{ height: virtualizer.getTotalSize(), minWidth }}>
          {slotted.map(({ v, slot }) => {
            const row = list.rowAt(v.index);
            const start = v.start - HEAD_HEIGHT;
            if (row === undefined) {
              const error = list.errorAt(v.index)?.message;
              return <SkeletonRow key={`s${v.index}`} index={v.index} start={start} minWidth={minWidth} error={error} />;
            }
            return (
              <GridRow
                key={slot}
                id={`${domId}-r${v.index}`}
                row={row}
                index={v.index}
                start={start}
                minWidth={minWidth}
                cells={t.cells}
                active={v.index === keys.active}
                selected={keys.selection.has(props.rowKey(row))}
                open={props.isOpen?.(row) ?? false}
                testId={props.rowTestId}
                onClick={keys.onRowClick}
              />
            );
          })}
        </div>
        {state === 'error' ? <GridError error={list.error} retry={list.refetch} /> : null}
        {state === 'empty' ? <div className="grid-overlay">{props.empty}</div> : null}
        {state === 'loading' ? <div className="grid-overlay muted">Loading…</div> : null}
      </div>
    </div>
  );
}
