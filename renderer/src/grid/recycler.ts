/**
 * What keeps a fast scroll's frames short: DOM rows are recycled (assignSlots), and cell
 * contents are made ahead of time (prepareRows) and kept per row object (cellContent), so the
 * frame that scrolls a screenful of new rows in only updates text and lays it out.
 */
import type { VirtualItem } from '@tanstack/react-virtual';
import type { ReactNode } from 'react';
import type { GridColumn } from './types.ts';

/** Which DOM row (slot) shows which row index; kept from one render to the next. */
export interface Slots {
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
 * Items whose row is not loaded yet (`loaded(i)` false) come last with slot -1: placeholders.
 */
export function assignSlots(slots: Slots, items: VirtualItem[], loaded: (index: number) => boolean): { v: VirtualItem; slot: number }[] {
  const byIndex = new Map<number, number>();
  const used = new Set<number>();
  const rowItems = items.filter((v) => loaded(v.index));
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
  for (const v of items) if (!loaded(v.index)) out.push({ v, slot: -1 });
  return out;
}

export interface CellContent {
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
export function cellContent<T>(col: GridColumn<T>, row: T): CellContent {
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
