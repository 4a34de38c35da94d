/**
 * The grid's column model: react-table in manual mode (sorting, filtering and paging are the
 * service's) owning columns, sort state, widths and which columns are shown. Widths become CSS
 * variables on the grid (--c0, --c1, ...): a resize restyles the cells without re-rendering a
 * row, and a row that scrolls in sets no inline styles.
 */
import {
  getCoreRowModel,
  useReactTable,
  type ColumnDef,
  type ColumnSizingState,
  type SortingState,
  type Updater,
  type VisibilityState,
} from '@tanstack/react-table';
import { useMemo } from 'react';
import { classes, type CellSpec, type GridColumn, type Sort } from './types.ts';

const NO_ROWS: unknown[] = [];

function resolve<S>(updater: Updater<S>, old: S): S {
  return typeof updater === 'function' ? (updater as (o: S) => S)(old) : updater;
}

/** A column's width: the user's, else its size; a growing column starts at its minimum and takes the rest. */
export function columnWidth<T>(c: GridColumn<T>, sizing: Record<string, number>): number {
  return sizing[c.id] ?? (c.grow ? (c.minSize ?? c.size) : c.size);
}

export function useGridTable<T, S extends string>(opts: {
  columns: GridColumn<T, S>[];
  sort?: Sort<S> | undefined;
  onSort?: ((sort: Sort<S>) => void) | undefined;
  columnSizing: Record<string, number>;
  onColumnSizing: (sizing: Record<string, number>) => void;
  hidden: ReadonlySet<string>;
}) {
  const { columns, sort, onSort, columnSizing, onColumnSizing, hidden } = opts;
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
  const field = sort?.field;
  const desc = sort?.desc ?? false;
  const sorting = useMemo<SortingState>(() => (field === undefined ? [] : [{ id: field, desc }]), [field, desc]);
  const columnVisibility = useMemo<VisibilityState>(() => Object.fromEntries([...hidden].map((id) => [id, false])), [hidden]);
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
    state: { sorting, columnSizing, columnVisibility },
    onSortingChange: (u) => {
      const next = resolve(u, sorting)[0];
      // Only a sortable column sorts, and its id is an `order` field.
      const col = next && columns.find((c) => c.id === next.id);
      if (next && col?.sortable) onSort?.({ field: col.id, desc: next.desc });
    },
    onColumnSizingChange: (u) => onColumnSizing(resolve<ColumnSizingState>(u, columnSizing)),
  });
  const leaves = table.getVisibleLeafColumns();
  const shown = leaves.map((c) => c.columnDef.meta as GridColumn<T>);
  const widths = shown.map((c) => columnWidth(c, columnSizing));
  const totalWidth = widths.reduce((a, b) => a + b, 0);
  const widthVars = Object.fromEntries(widths.map((w, i) => [`--c${i}`, `${w}px`]));
  const cells = useMemo<CellSpec<T>[]>(
    () =>
      leaves.map((c, i) => {
        const col = c.columnDef.meta as GridColumn<T>;
        const cls = classes(`grid-cell c${i} col-${col.id}`, col.grow && 'grow', col.align === 'right' && 'num', col.className);
        return { col, className: cls };
      }),
    // react-table memoises the leaf list: a new array only when the columns or their visibility change.
    [leaves],
  );
  return { table, columnDefs, sorting, cells, widthVars, totalWidth, widthsKey: widths.join(',') };
}
