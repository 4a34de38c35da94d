/**
 * Where each block of a paged list sits among the grid's rows. With the total known (a count
 * route), every block has its place from the start: the grid is its full height at once, and
 * any block can be loaded on its own (End, a dragged scrollbar). Rows a `keep` test drops
 * (placeholder markets) shorten their block once it is loaded; a block not loaded yet counts
 * as full. Without a total, blocks follow one another and a short block ends the list.
 */
export const BLOCK = 100;

export interface Layout<T> {
  /** Rows the grid shows, loaded or not. */
  count: number;
  /** `count` is the whole list (the total is known, or a short block came back). */
  ended: boolean;
  /** Rows loaded (after `keep`). */
  loaded: number;
  /** Rows of loaded blocks that `keep` dropped. */
  hidden: number;
  blocks: number;
  rowAt(index: number): T | undefined;
  /** The block holding row `index` (the last block past the end). */
  blockOf(index: number): number;
  isLoaded(block: number): boolean;
}

export function blockLayout<T>(
  datas: readonly (readonly T[] | undefined)[],
  total: number | undefined,
  kept: (d: readonly T[]) => readonly T[],
) {
  let n: number;
  let ended = total !== undefined;
  if (total !== undefined) n = Math.max(1, Math.ceil(total / BLOCK));
  else {
    let k = 0;
    while (datas[k]) k++;
    n = k === 0 ? 0 : k + 1;
  }
  // A short block ends the list wherever it is (no count, or the catalog shrank since).
  for (let b = 0; b < n; b++) {
    const d = datas[b];
    if (d && d.length < BLOCK) {
      n = b + 1;
      ended = true;
      break;
    }
  }
  const rows: (readonly T[] | undefined)[] = [];
  const starts: number[] = [];
  let count = 0;
  let loaded = 0;
  let hidden = 0;
  for (let b = 0; b < n; b++) {
    const d = datas[b];
    const r = d ? kept(d) : undefined;
    rows.push(r);
    starts.push(count);
    if (d && r) {
      loaded += r.length;
      hidden += d.length - r.length;
      count += r.length;
    } else count += total !== undefined ? Math.min(BLOCK, Math.max(0, total - b * BLOCK)) : 1;
  }
  const blockOf = (index: number): number => {
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= index) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  const layout: Layout<T> = {
    count,
    ended,
    loaded,
    hidden,
    blocks: n,
    blockOf,
    rowAt: (index) => {
      if (index < 0 || index >= count) return undefined;
      const b = blockOf(index);
      return rows[b]?.[index - starts[b]!];
    },
    isLoaded: (b) => rows[b] !== undefined,
  };
  return layout;
}
