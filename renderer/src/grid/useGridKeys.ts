/**
 * The grid's keyboard and pointer: the active row (arrows, Page Up/Down, Home/End; End is the
 * last row of the whole list, loaded or not), Enter opens it; a selection of rows (Ctrl/Cmd-
 * click or Space toggles one, Shift-click or Shift+arrows extends from the anchor) that Ctrl+C
 * copies as TSV. A plain click makes the clicked row active, selected alone, and opens it.
 */
import type { Virtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useRef, useState, type KeyboardEvent, type MouseEvent, type RefObject } from 'react';
import type { BlockList } from './useBlockList.ts';
import { ROW_HEIGHT } from './types.ts';

export type Selection<T> = ReadonlyMap<string, { index: number; row: T }>;
const EMPTY = new Map();

interface Opts<T> {
  list: BlockList<T>;
  virtualizer: Virtualizer<HTMLDivElement, Element>;
  scrollRef: RefObject<HTMLDivElement | null>;
  rowKey: (row: T) => string;
  resetKey: string;
  onOpen: (row: T, index: number) => void;
  onActive?: ((row: T, index: number) => void) | undefined;
  onSelection?: ((rows: T[]) => void) | undefined;
  onCopy: (rows: T[]) => void;
}

/** The selected rows in list order. */
export const selectedRows = <T>(sel: Selection<T>): T[] => [...sel.values()].sort((a, b) => a.index - b.index).map((x) => x.row);

export function useGridKeys<T>(o: Opts<T>) {
  const { list, virtualizer } = o;
  const [activeState, setActive] = useState(0);
  // Within the list: it shrinks when a loaded block drops rows (placeholders) below End's row.
  const active = Math.min(activeState, Math.max(0, list.count - 1));
  const [selection, setSelectionState] = useState<Selection<T>>(EMPTY);
  const anchor = useRef(0);
  const cb = useRef(o);
  cb.current = o;
  const setSelection = useCallback((s: Selection<T>) => {
    setSelectionState(s);
    cb.current.onSelection?.(selectedRows(s));
  }, []);

  // Read through refs: the row click handler stays one function, so a scroll does not re-render every row.
  const selRef = useRef(selection);
  selRef.current = selection;

  // Back to the top, nothing selected, when the query changes (new sort or filter). Only what is
  // not so already: scrolling reads the grid's height (a forced layout of the old rows) and a
  // new empty selection re-renders the view, both on the way to the new query's request.
  const shownKey = useRef(o.resetKey);
  useEffect(() => {
    if (shownKey.current === o.resetKey) return;
    shownKey.current = o.resetKey;
    if ((virtualizer.scrollOffset ?? 0) !== 0) virtualizer.scrollToOffset(0);
    setActive(0);
    if (selRef.current.size > 0) setSelection(EMPTY);
  }, [o.resetKey, virtualizer, setSelection]);
  /** The loaded rows from a to b (either order), keyed. */
  const range = (a: number, b: number): Selection<T> => {
    const next = new Map<string, { index: number; row: T }>();
    for (let i = Math.min(a, b); i <= Math.max(a, b); i++) {
      const row = cb.current.list.rowAt(i);
      if (row !== undefined) next.set(cb.current.rowKey(row), { index: i, row });
    }
    return next;
  };
  const rangeRef = useRef(range);
  rangeRef.current = range;
  const toggle = useCallback(
    (i: number, row: T) => {
      const next = new Map(selRef.current);
      const k = cb.current.rowKey(row);
      if (next.has(k)) next.delete(k);
      else next.set(k, { index: i, row });
      anchor.current = i;
      setSelection(next);
    },
    [setSelection],
  );

  const move = (to: number, extend: boolean) => {
    if (list.count === 0) return;
    const i = Math.max(0, Math.min(list.count - 1, to));
    setActive(i);
    virtualizer.scrollToIndex(i, { align: 'auto' });
    if (extend) setSelection(range(anchor.current, i));
    const row = list.rowAt(i);
    if (row !== undefined) cb.current.onActive?.(row, i);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    // Keys on the header's buttons (and the stars) are theirs: Enter sorts, it does not open a row.
    if (e.target !== e.currentTarget) return;
    const page = Math.max(1, Math.floor((o.scrollRef.current?.clientHeight ?? 400) / ROW_HEIGHT) - 1);
    const row = list.rowAt(active);
    const moves: Record<string, number> = {
      ArrowDown: active + 1,
      ArrowUp: active - 1,
      PageDown: active + page,
      PageUp: active - page,
      Home: 0,
      End: list.count - 1,
    };
    if (e.key in moves) move(moves[e.key]!, e.shiftKey);
    else if (e.key === 'Enter' && row !== undefined) cb.current.onOpen(row, active);
    else if (e.key === ' ' && row !== undefined) toggle(active, row);
    else if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'c') {
      const rows = selection.size ? selectedRows(selection) : row !== undefined ? [row] : [];
      if (rows.length) cb.current.onCopy(rows);
    } else return;
    e.preventDefault();
  };

  const onRowClick = useCallback(
    (row: T, index: number, e: MouseEvent) => {
      setActive(index);
      o.scrollRef.current?.focus({ preventScroll: true });
      if (e.ctrlKey || e.metaKey) return toggle(index, row);
      if (e.shiftKey) return setSelection(rangeRef.current(anchor.current, index));
      anchor.current = index;
      setSelection(new Map([[cb.current.rowKey(row), { index, row }]]));
      cb.current.onOpen(row, index);
    },
    [o.scrollRef, toggle, setSelection],
  );
  return { active, selection, onKeyDown, onRowClick };
}
