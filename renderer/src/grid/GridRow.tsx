/**
 * One grid row, memoised, so scrolling renders only the rows that come into view; and the
 * placeholder row of a block not loaded yet (same height, a skeleton).
 */
// A virtualised ARIA grid (see DataGrid.tsx, and biome.jsonc's override for it): rows and cells are
// not tab stops, the focusable grid body moves the active row and handles the keys.
import { memo, type MouseEvent, type ReactNode } from 'react';
import { cellContent } from './recycler.ts';
import type { CellSpec } from './types.ts';

interface RowProps<T> {
  id: string;
  row: T;
  index: number;
  start: number;
  minWidth: number;
  cells: CellSpec<T>[];
  active: boolean;
  selected: boolean;
  open: boolean;
  testId: string | undefined;
  onClick: (row: T, index: number, e: MouseEvent) => void;
}

export const GridRow = memo(function GridRow<T>(p: RowProps<T>) {
  return (
    <div
      id={p.id}
      role="row"
      aria-rowindex={p.index + 2}
      aria-selected={p.selected}
      data-testid={p.testId}
      data-index={p.index}
      className={`grid-row${p.active ? ' active' : ''}${p.selected ? ' selected' : ''}${p.open ? ' open' : ''}${p.index % 2 ? ' odd' : ''}`}
      style={{ transform: `translateY(${p.start}px)`, minWidth: p.minWidth }}
      onClick={(e) => p.onClick(p.row, p.index, e)}
      // Shift/Ctrl-click selects rows, not the text between two clicks.
      onMouseDown={(e) => (e.shiftKey || e.ctrlKey || e.metaKey) && e.preventDefault()}
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

/** A row whose block is not loaded yet: one cheap element with a skeleton bar, or the block's error. */
export function SkeletonRow({ index, start, minWidth, error }: { index: number; start: number; minWidth: number; error?: string }) {
  return (
    <div
      role="row"
      aria-rowindex={index + 2}
      aria-busy={!error}
      data-index={index}
      className={`grid-row grid-skeleton-row${index % 2 ? ' odd' : ''}`}
      style={{ transform: `translateY(${start}px)`, minWidth }}
    >
      <div className="grid-cell grow" role="gridcell">
        {error ? <span className="grid-row-error">Could not load these rows: {error}</span> : <span className="skeleton-bar" />}
      </div>
    </div>
  );
}
