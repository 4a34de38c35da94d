/**
 * The rows' virtualiser: fixed row height, the header inside the scroller (sticky), and
 * overscan ahead of a scroll only (the rows behind are leaving).
 */
import { useVirtualizer, type Range, type Virtualizer } from '@tanstack/react-virtual';
import { useCallback, useRef, type RefObject } from 'react';
import { HEAD_HEIGHT, ROW_HEIGHT } from './types.ts';

export function useRowVirtualizer(count: number, scrollRef: RefObject<HTMLDivElement | null>): Virtualizer<HTMLDivElement, Element> {
  const virtualizerRef = useRef<Virtualizer<HTMLDivElement, Element> | null>(null);
  const scrolling = virtualizerRef.current?.isScrolling ?? false;
  const rangeExtractor = useCallback(
    (range: Range) => {
      const dir = scrolling ? virtualizerRef.current?.scrollDirection : null;
      const start = Math.max(0, range.startIndex - (dir === 'forward' ? 1 : range.overscan));
      const end = Math.min(range.count - 1, range.endIndex + (dir === 'backward' ? 1 : range.overscan));
      return Array.from({ length: Math.max(0, end - start + 1) }, (_, i) => start + i);
    },
    // A new function when scrolling starts or stops, so the range is recomputed then.
    [scrolling],
  );
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    // Rows start below the header, and scrolling a row into view keeps it clear of the header.
    scrollMargin: HEAD_HEIGHT,
    scrollPaddingStart: HEAD_HEIGHT,
    overscan: 3,
    rangeExtractor,
  });
  virtualizerRef.current = virtualizer;
  return virtualizer;
}
