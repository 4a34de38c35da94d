// @vitest-environment happy-dom
/**
 * The grids' sparkline cells: the rows shown together are one request, rows that scroll past
 * before settling ask for nothing, a batch waits while the grid's own rows load, and the line
 * is drawn from the service's answer (sparkline-path.ts: computed once per answer).
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, createElement } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SparkCell } from './Sparkline.tsx';
import { sparkPath } from './sparkline-path.ts';
import { resetSparklines, SETTLE_MS } from './sparkline-store.ts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const calls = vi.hoisted(() => [] as number[][]);
vi.mock('../api.ts', () => ({
  call: async (_op: string, p: { id: number[] }) => {
    calls.push(p.id);
    const series: Record<string, (number | null)[]> = {};
    for (const id of p.id) if (id % 2 === 0) series[String(id)] = [null, 0.4, 0.5, id % 4 === 0 ? 0.3 : 0.6];
    return { days: 7, buckets: 4, to: new Date().toISOString(), series };
  },
}));
vi.mock('../live.tsx', () => ({ onCatalogChange: () => () => undefined }));

let root: Root | undefined;
let box: HTMLDivElement;
const qc = new QueryClient();

function show(ids: string[]) {
  act(() =>
    root!.render(
      createElement(
        QueryClientProvider,
        { client: qc },
        ids.map((id) => createElement(SparkCell, { key: id, id })),
      ),
    ),
  );
}
async function passTime(ms: number) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

beforeEach(() => {
  vi.useFakeTimers();
  calls.length = 0;
  resetSparklines();
  box = document.createElement('div');
  document.body.append(box);
  root = createRoot(box);
});
afterEach(() => {
  act(() => root?.unmount());
  box.remove();
  qc.clear();
  vi.useRealTimers();
});

const cells = () => [...box.querySelectorAll('[data-testid=sparkline]')];

describe('SparkCell', () => {
  it('asks once for the rows shown together and draws each answer', async () => {
    show(['2', '3', '4', '5']);
    expect(cells().map((c) => c.getAttribute('data-state'))).toEqual(['loading', 'loading', 'loading', 'loading']);
    await passTime(SETTLE_MS + 100);
    expect(calls).toEqual([[2, 3, 4, 5]]);
    expect(cells().map((c) => c.getAttribute('data-state'))).toEqual(['drawn', 'none', 'drawn', 'none']);
    expect(cells().map((c) => c.getAttribute('data-trend'))).toEqual(['up', null, 'down', null]);
    expect(cells()[0]!.querySelector('polyline')!.getAttribute('points')).toBe(sparkPath([null, 0.4, 0.5, 0.6]).points);
    // Shown again: answered from memory, no request.
    show(['4', '2']);
    await passTime(SETTLE_MS + 100);
    expect(calls).toHaveLength(1);
  });

  it('asks nothing for rows that scroll past before settling', async () => {
    show(['10', '11']);
    await passTime(SETTLE_MS / 2);
    show(['12']);
    await passTime(SETTLE_MS + 100);
    expect(calls).toEqual([[12]]);
  });

  it('waits while the grid loads its rows', async () => {
    let release: (v: unknown[]) => void = () => undefined;
    void qc.fetchQuery({ queryKey: ['markets.list', {}], queryFn: () => new Promise<unknown[]>((r) => (release = r)) });
    show(['20', '21']);
    await passTime(SETTLE_MS + 500);
    expect(calls).toEqual([]);
    await act(async () => release([]));
    await passTime(100);
    expect(calls).toEqual([[20, 21]]);
  });
});

describe('sparkPath', () => {
  it('spreads the buckets over the width, keeps a late start to the right, and caches per answer', () => {
    const s = [null, null, 0.2, 0.8];
    const p = sparkPath(s);
    const xs = p.points.split(' ').map((pt) => Number(pt.split(',')[0]));
    expect(xs).toHaveLength(2);
    expect(xs[0]!).toBeGreaterThan(30);
    expect(p).toMatchObject({ trend: 'up', first: 0.2, last: 0.8 });
    expect(sparkPath(s)).toBe(p);
    expect(sparkPath([0.5, 0.5]).trend).toBe('flat');
    expect(sparkPath([0.5]).points.split(' ')).toHaveLength(2);
  });
});
