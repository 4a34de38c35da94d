// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, createElement } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useBlockList, type BlockList } from './useBlockList.ts';

// React's act() warns unless the environment says it is a test.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

// The live module's catalog signal, driven by the test.
const catalogListeners = vi.hoisted(() => new Set<() => void>());
vi.mock('../live.tsx', () => ({
  onCatalogChange: (fn: () => void) => {
    catalogListeners.add(fn);
    return () => catalogListeners.delete(fn);
  },
}));

interface Row {
  id: string;
  order: unknown;
  placeholder?: boolean;
}
type P = Record<string, unknown>;

/** A fake listing of `total` rows (every 10th a placeholder when asked), recording each request. */
function source(total: number, opts: { placeholders?: boolean; failAt?: number; noCount?: boolean } = {}) {
  const blocks: P[] = [];
  const counts: P[] = [];
  let failAt = opts.failAt;
  const fetchBlock = async (p: P): Promise<Row[]> => {
    blocks.push(p);
    const offset = p['offset'] as number;
    if (offset === failAt) throw new Error(`block at ${offset} failed`);
    const n = Math.max(0, Math.min(p['limit'] as number, total - offset));
    return Array.from({ length: n }, (_, i) => ({
      id: String(offset + i),
      order: p['order'],
      ...(opts.placeholders && (offset + i) % 10 === 9 ? { placeholder: true } : {}),
    }));
  };
  const fetchCount = async (p: P) => {
    counts.push(p);
    return total;
  };
  return {
    blocks,
    counts,
    offsets: () => blocks.map((b) => b['offset']),
    heal: () => {
      failAt = undefined;
    },
    hook: {
      op: 't.list',
      fetchBlock,
      ...(opts.noCount ? {} : { countOp: 't.count', fetchCount }),
      ...(opts.placeholders ? { keep: (r: Row) => !r.placeholder } : {}),
    },
  };
}

// A fake clock: the hook's settle time (300 ms) and the query client's timers run when the test
// moves the clock, so a wait is a number of fake milliseconds, whatever the machine's load.
beforeEach(() => {
  vi.useFakeTimers();
});

let root: Root | undefined;
afterEach(() => {
  act(() => root?.unmount());
  root = undefined;
  vi.useRealTimers();
});

/** Mounts the hook; `list()` is its latest value, `setParams` re-renders with new params. */
function mount(hook: ReturnType<typeof source>['hook'], params: P = { order: 'a' }) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  let current!: BlockList<Row>;
  function Probe({ p }: { p: P }) {
    current = useBlockList<Row>({ ...hook, params: p });
    return null;
  }
  root = createRoot(document.createElement('div'));
  const render = (p: P) => act(() => root!.render(createElement(QueryClientProvider, { client }, createElement(Probe, { p }))));
  render(params);
  return { list: () => current, setParams: render };
}

/** Moves the fake clock `ms` ahead, letting fetches resolve and React re-render on the way. */
async function advance(ms: number): Promise<void> {
  await act(() => vi.advanceTimersByTimeAsync(ms));
}

/**
 * Moves the fake clock a millisecond at a time until `ready` holds (at most `limitMs`, well past
 * the hook's 300 ms settle time; the fake fetches take no time).
 */
async function until(ready: () => boolean, limitMs = 1000): Promise<void> {
  for (let t = 0; t < limitMs && !ready(); t++) await advance(1);
  expect(ready(), `not ready after ${limitMs} ms on the fake clock`).toBe(true);
}

describe('useBlockList', () => {
  it('knows the whole length from the count and loads blocks in order as the view moves down', async () => {
    const src = source(250);
    const { list } = mount(src.hook);
    await until(() => list().loaded === 100 && list().total === 250);
    // The scrollbar's length is the total from the start, not the rows loaded so far.
    expect(list().count).toBe(250);
    expect(list().ended).toBe(true);
    expect(list().rowAt(150)).toBeUndefined();
    act(() => list().show(0, 20));
    await until(() => list().loaded === 200);
    expect(list().rowAt(150)?.id).toBe('150');
    act(() => list().show(100, 130));
    await until(() => list().loaded === 250);
    expect(src.offsets()).toEqual([0, 100, 200]);
    expect(list().rowAt(249)?.id).toBe('249');
    expect(list().rowAt(250)).toBeUndefined();
  });

  it('after a change, loads blocks ahead once the rows have settled, or at once when the view moves', async () => {
    const src = source(1000);
    const { list } = mount(src.hook);
    await until(() => list().total === 1000 && list().loaded === 100);
    const settled = Date.now();
    // At the top: the block ahead waits (a quick run of filter changes would queue one per state)...
    act(() => list().show(0, 20));
    await advance(250);
    expect(src.offsets()).toEqual([0]);
    // ... and comes when the rows have been on screen 300 ms, with no other call.
    await until(() => list().loaded === 200);
    expect(Date.now() - settled).toBeGreaterThanOrEqual(299);
    expect(Date.now() - settled).toBeLessThanOrEqual(301);
    expect(src.offsets()).toEqual([0, 100]);
    // The view moved: what is ahead of it (rows 170 to 320) loads at once, with no time passing.
    act(() => list().show(150, 170));
    await advance(0);
    expect(src.offsets()).toEqual([0, 100, 200, 300]);
  });

  it('prefetch asks for the first block and the count of the next params once, before the hook renders with them', async () => {
    const src = source(300);
    const { list, setParams } = mount(src.hook);
    await until(() => list().total === 300 && list().loaded === 100);
    const next = { order: 'b', closed: false };
    act(() => list().prefetch(next));
    await until(() => src.blocks.length === 2 && src.counts.length === 2);
    expect(src.blocks[1]).toEqual({ ...next, limit: 100, offset: 0 });
    expect(src.counts[1]).toEqual({ closed: false });
    // The same params as shown: nothing is asked.
    act(() => list().prefetch({ order: 'a' }));
    setParams(next);
    await until(() => list().rowAt(0)?.order === 'b' && !list().stale && list().total === 300);
    expect(src.blocks).toHaveLength(2);
    expect(src.counts).toHaveLength(2);
  });

  it('loads the block in view directly when the view jumps (End, a dragged scrollbar)', async () => {
    const src = source(1000);
    const { list } = mount(src.hook);
    await until(() => list().total === 1000 && list().loaded === 100);
    act(() => list().show(905, 930));
    await until(() => list().rowAt(905) !== undefined && list().rowAt(899) !== undefined);
    expect(list().rowAt(905)?.id).toBe('905');
    // The block in view first, then the one just behind it; nothing in between.
    expect(src.offsets()).toEqual([0, 900, 800]);
    expect(list().count).toBe(1000);
  });

  it('starts over when the params change; the count is shared by every sort of the same filters', async () => {
    const src = source(300);
    const { list, setParams } = mount(src.hook);
    await until(() => list().total === 300 && list().loaded === 100);
    act(() => list().show(0, 20));
    await until(() => list().loaded === 200);
    setParams({ order: 'b' });
    await until(() => list().rowAt(0)?.order === 'b' && !list().stale);
    expect(list().loaded).toBe(100);
    expect(list().rowAt(150)).toBeUndefined();
    expect(src.blocks.at(-1)).toMatchObject({ order: 'b', offset: 0, limit: 100 });
    expect(src.counts).toHaveLength(1);
    expect(src.counts[0]).toEqual({});
    setParams({ order: 'b', closed: false });
    await until(() => src.counts.length === 2 && list().total === 300);
    expect(src.counts[1]).toEqual({ closed: false });
  });

  it('refetches only the count and the loaded blocks in view when the catalog changes', async () => {
    const src = source(1000);
    const { list } = mount(src.hook);
    await until(() => list().total === 1000 && list().loaded === 100);
    act(() => list().show(0, 20));
    await until(() => list().loaded === 200);
    act(() => list().show(120, 140));
    await until(() => list().loaded === 300);
    const before = src.blocks.length;
    // Async: the refetched block arrives on a microtask, inside act.
    await act(async () => {
      for (const fn of catalogListeners) fn();
    });
    await until(() => src.counts.length === 2 && src.blocks.length === before + 1);
    expect(src.offsets().slice(before)).toEqual([100]);
  });

  it('without a count, grows block by block and ends at a short block', async () => {
    const src = source(150, { noCount: true });
    const { list } = mount(src.hook);
    await until(() => list().loaded === 100);
    // One row past the loaded ones: the "more may follow" row.
    expect(list().count).toBe(101);
    expect(list().ended).toBe(false);
    act(() => list().show(0, 20));
    await until(() => list().ended);
    expect(list().count).toBe(150);
  });

  it('hides the rows `keep` drops and says how many', async () => {
    const src = source(200, { placeholders: true });
    const { list } = mount(src.hook);
    await until(() => list().total === 200 && list().loaded === 90);
    expect(list().hidden).toBe(10);
    // 90 kept rows of block 0, then block 1 counted whole until it loads.
    expect(list().count).toBe(190);
    expect(list().rowAt(9)?.id).toBe('10');
    act(() => list().show(80, 89));
    await until(() => list().loaded === 180);
    expect(list().count).toBe(180);
    expect(list().rowAt(179)?.id).toBe('198');
  });

  it('reports a failed block on its rows, does not retry it by itself, and retries on refetch', async () => {
    const src = source(300, { failAt: 100 });
    const { list } = mount(src.hook);
    await until(() => list().loaded === 100 && list().total === 300);
    act(() => list().show(120, 140));
    await until(() => list().errorAt(120) !== undefined);
    expect(list().errorAt(120)?.message).toBe('block at 100 failed');
    expect(list().error?.message).toBe('block at 100 failed');
    expect(list().errorAt(20)).toBeUndefined();
    const tries = src.offsets().filter((o) => o === 100).length;
    act(() => list().show(120, 141));
    await until(() => !list().fetching);
    expect(src.offsets().filter((o) => o === 100)).toHaveLength(tries);
    src.heal();
    act(() => list().refetch());
    await until(() => !list().fetching && list().error === null);
    act(() => list().show(120, 140));
    await until(() => list().rowAt(120)?.id === '120');
  });

  it('reports a failed first block as the list error', async () => {
    const src = source(300, { failAt: 0 });
    const { list } = mount(src.hook);
    await until(() => list().error !== null);
    expect(list().pending).toBe(false);
    expect(list().loaded).toBe(0);
  });
});
