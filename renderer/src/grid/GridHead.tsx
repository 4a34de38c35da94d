/**
 * The sticky header row: sort buttons and resize handles. Memoised on what it shows, so a
 * scroll (which re-renders the grid) does not re-render it.
 */
// A virtualised ARIA grid (see DataGrid.tsx, and biome.jsonc's override for it): rows and cells are
// not tab stops, the focusable grid body moves the active row and handles the keys.
import type { ColumnDef, SortingState, Table } from '@tanstack/react-table';
import { memo, type ReactNode } from 'react';
import { classes, type GridColumn } from './types.ts';

interface HeadProps<T> {
  table: Table<T>;
  // What the header shows, for the memo: the table object itself stays the same.
  columns: ColumnDef<T>[];
  sorting: SortingState;
  columnSizing: Record<string, number>;
  sizingInfo: unknown;
  hidden: string;
  widths: string;
  totalWidth: number;
}

export const GridHead = memo(function GridHead<T>({ table, totalWidth }: HeadProps<T>) {
  const headers = table.getHeaderGroups()[0]?.headers ?? [];
  const rowStyle = { minWidth: totalWidth };
  return (
    <div className="grid-head" role="rowgroup" style={rowStyle}>
      <div className="grid-row grid-head-row" role="row" style={rowStyle}>
        {headers.map((h, i) => {
          const meta = h.column.columnDef.meta as GridColumn<T>;
          const sorted = h.column.getIsSorted();
          return (
            <div
              key={h.id}
              role="columnheader"
              aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : 'none'}
              data-column={meta.id}
              className={classes(`grid-cell grid-th c${i}`, meta.grow && 'grow', meta.align === 'right' && 'num', sorted && 'sorted')}
            >
              {h.column.getCanSort() ? (
                <button type="button" className="th-button" onClick={h.column.getToggleSortingHandler()} title={`Sort by ${meta.header}`}>
                  <span className="th-label">{meta.header}</span>
                  <SortMark dir={sorted} />
                </button>
              ) : (
                <span className="th-label th-static" title={`${meta.header} (the service cannot sort by it)`}>
                  {meta.header}
                </span>
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

function SortMark({ dir }: { dir: false | 'asc' | 'desc' }) {
  if (!dir) return <span className="sort-mark" aria-hidden="true" />;
  return (
    <svg className="sort-mark" viewBox="0 0 8 8" width="8" height="8" aria-hidden="true">
      <path d={dir === 'asc' ? 'M4 1 L7.5 6.5 H0.5 Z' : 'M4 7 L7.5 1.5 H0.5 Z'} fill="currentColor" />
    </svg>
  );
}
