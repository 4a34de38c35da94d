/**
 * A grid column: what the grid shows, sorts, copies and drops when the grid is narrow.
 */
import type { ReactNode } from 'react';

interface ColumnBase<T> {
  header: string;
  size: number;
  /** Narrowest width a resize may give; a numeric column's fits its longest formatted value. */
  minSize?: number;
  align?: 'left' | 'right';
  /** Takes the width the other columns leave (at least `minSize`, or `size` once resized). */
  grow?: boolean;
  /** First click sorts descending (numbers, dates) or ascending (text). */
  descFirst?: boolean;
  /**
   * When the grid is too narrow for every column, the lowest priorities are hidden first (a
   * whole column, never half of one). Absent: always shown.
   */
  priority?: number;
  /** The cell's content; pure (kept per row object, see recycler.ts prepareRows). */
  cell: (row: T) => ReactNode;
  title?: (row: T) => string | undefined;
  /**
   * The value copied (TSV), as the CSV export writes it (contract/plain-cells.ts): a number as a
   * number (no unit, no grouping), a date as ISO 8601. Absent: the cell's content when it is
   * text, else not copied.
   */
  text?: (row: T) => string | number | undefined;
  /** Extra class of the column's body cells. */
  className?: string;
  /**
   * A growing column's width when the fit decides which columns to hide (absent: its
   * `minSize`): the room it keeps before an optional column is shown, e.g. enough of a market's
   * name to tell it from its neighbours.
   */
  fitSize?: number;
  /** The column has nothing to show for any row (e.g. no local price history yet): the grid hides it while that holds. */
  empty?: { isEmpty: () => boolean; subscribe: (onChange: () => void) => () => void };
}

/**
 * A grid column. A sortable column's id is the service's `order` field, one of `S` (the contract's
 * MARKET_ORDER_FIELDS or EVENT_ORDER_FIELDS); any other column's id is its own name.
 */
export type GridColumn<T, S extends string = string> = ColumnBase<T> & ({ id: S; sortable: true } | { id: string; sortable?: false });

/** The sort a grid shows: a sortable column's id (an `order` field) and its direction. */
export interface Sort<S extends string = string> {
  field: S;
  desc: boolean;
  /** "Ending soon": only end dates from now on (the listing's `end_date_min`); a header's sort drops it. */
  upcoming?: boolean;
}

/** A shown column and the class names of its body cells. */
export interface CellSpec<T> {
  col: GridColumn<T>;
  className: string;
}

export const ROW_HEIGHT = 28;
/** The sticky header's height (grid-base.css .grid-head), above the first row in the scroller. */
export const HEAD_HEIGHT = 29;

/** Class names joined, the false and absent ones left out. */
export function classes(...names: (string | false | undefined)[]): string {
  return names.filter(Boolean).join(' ');
}
