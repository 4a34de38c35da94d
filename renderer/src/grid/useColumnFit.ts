/**
 * Which columns the grid hides to fit its width: rather than cut a number in half or make the
 * user scroll sideways for it (the detail panel takes half the window), whole columns go, the
 * lowest `priority` first, until the rest fit; a growing column (the name) counts with its
 * `fitSize`, so optional columns go before the name is cut to a few words. A column that says
 * it is empty (`empty`) is hidden too, and its width given to the others. Measured with a
 * ResizeObserver; the grid re-renders only when the set of hidden columns changes, not on every
 * pixel.
 */
import { useEffect, useRef, useState, type RefObject } from 'react';
import type { GridColumn } from './types.ts';
import { columnWidth } from './useGridTable.ts';

/** The ids to hide so that the shown columns' widths add up to at most `width`. */
export function fitColumns<T>(columns: readonly GridColumn<T>[], sizing: Record<string, number>, width: number): Set<string> {
  const hidden = new Set<string>(columns.filter((c) => c.empty?.isEmpty()).map((c) => c.id));
  if (width <= 0) return hidden;
  const shown = columns.filter((c) => !hidden.has(c.id));
  const fitWidth = (c: GridColumn<T>) =>
    c.grow && sizing[c.id] === undefined && c.fitSize !== undefined ? Math.max(c.fitSize, columnWidth(c, sizing)) : columnWidth(c, sizing);
  let total = shown.reduce((a, c) => a + fitWidth(c), 0);
  // A column the user resized is one they want: it goes after the others.
  const resized = (c: GridColumn<T>) => Number(sizing[c.id] !== undefined);
  const droppable = shown.filter((c) => c.priority !== undefined).sort((a, b) => resized(a) - resized(b) || a.priority! - b.priority!);
  for (const c of droppable) {
    if (total <= width) break;
    hidden.add(c.id);
    total -= fitWidth(c);
  }
  return hidden;
}

const NONE: ReadonlySet<string> = new Set();

export function useColumnFit<T>(ref: RefObject<HTMLElement | null>, columns: readonly GridColumn<T>[], sizing: Record<string, number>) {
  const [hidden, setHidden] = useState<ReadonlySet<string>>(NONE);
  const width = useRef(0);
  const inputs = useRef({ columns, sizing });
  inputs.current = { columns, sizing };

  const update = useRef(() => {
    const next = fitColumns(inputs.current.columns, inputs.current.sizing, width.current);
    setHidden((old) => (old.size === next.size && [...next].every((id) => old.has(id)) ? old : next));
  });

  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver !== 'function') return;
    const ro = new ResizeObserver((entries) => {
      const w = entries[entries.length - 1]?.contentRect.width ?? 0;
      if (w === width.current) return;
      width.current = w;
      update.current();
    });
    ro.observe(el);
    return () => ro.disconnect();
  }, [ref]);

  // A resize of a column or another column set: refit at the last measured width.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the inputs are read through the ref
  useEffect(() => update.current(), [columns, sizing]);
  // A column that becomes empty (or stops being empty): refit.
  useEffect(() => {
    const stops = columns.flatMap((c) => (c.empty ? [c.empty.subscribe(() => update.current())] : []));
    return () => {
      for (const stop of stops) stop();
    };
  }, [columns]);
  return hidden;
}
