// @vitest-environment happy-dom
import { act, createElement } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { WatchItem } from '../../src/contract/desk-ops.ts';

// React's act() warns unless the environment says it is a test.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

// An in-memory service behind `call`: reachable or not, refusing some ids.
const svc = vi.hoisted(() => ({
  items: [] as WatchItem[],
  reachable: true,
  refuse: new Set<string>(),
  calls: [] as string[],
  listeners: new Map<string, (p: unknown) => void>(),
  connection: undefined as ((up: boolean) => void) | undefined,
}));

vi.mock('./api.ts', async (importActual) => {
  const actual = await importActual<typeof import('./api.ts')>();
  return {
    ...actual,
    mode: 'web',
    call: async (op: string, p: { kind?: 'market' | 'event'; id?: string }) => {
      svc.calls.push(p.id ? `${op} ${p.kind}:${p.id}` : op);
      if (!svc.reachable) throw new actual.ServiceUnreachableError();
      if (p.id && svc.refuse.has(p.id)) throw new actual.ApiError(404, { error: `no market ${p.id} in the cache` });
      const rest = svc.items.filter((i) => !(i.kind === p.kind && i.id === p.id));
      if (op === 'watchlist.add') svc.items = [{ kind: p.kind!, id: p.id!, addedAt: '2026-01-01T00:00:00.000Z' }, ...rest];
      if (op === 'watchlist.remove') svc.items = rest;
      return { items: svc.items };
    },
  };
});
vi.mock('./push.ts', () => ({
  subscribe: (event: string, fn: (p: unknown) => void) => {
    svc.listeners.set(event, fn);
    return () => svc.listeners.delete(event);
  },
  onConnection: (fn: (up: boolean) => void) => {
    svc.connection = fn;
    return () => {};
  },
}));

const { STORAGE_KEY, Star, WatchlistProvider, useWatchlist } = await import('./watchlist.tsx');

let seen: ReturnType<typeof useWatchlist>;
function Probe() {
  seen = useWatchlist();
  return null;
}
const ids = () => seen.items.map((i) => `${i.kind}:${i.id}`);
/** Lets the provider's pending promises settle. */
const settle = () => act(async () => new Promise((r) => setTimeout(r, 0)));

let root: Root;
let host: HTMLElement;
async function mount(extra?: ReturnType<typeof createElement>) {
  host = document.createElement('div');
  document.body.append(host);
  root = createRoot(host);
  await act(async () => root.render(createElement(WatchlistProvider, null, createElement(Probe), extra)));
}

beforeEach(() => {
  localStorage.clear();
  Object.assign(svc, { items: [], reachable: true, calls: [] });
  svc.refuse.clear();
});
afterEach(() => {
  act(() => root.unmount());
  host.remove();
});

describe('watchlist store', () => {
  it('shows the local copy at once, then the service list', async () => {
    localStorage.setItem(STORAGE_KEY, JSON.stringify({ items: [{ kind: 'market', id: '7', addedAt: 'x' }], pending: [] }));
    svc.items = [{ kind: 'event', id: '9', addedAt: 'y' }];
    svc.reachable = false;
    await mount();
    expect(ids()).toEqual(['market:7']);
    svc.reachable = true;
    await act(async () => svc.connection?.(true));
    await settle();
    expect(ids()).toEqual(['event:9']);
    expect(JSON.parse(localStorage.getItem(STORAGE_KEY)!).items).toEqual(svc.items);
  });

  it('toggles optimistically and rolls back what the service refuses', async () => {
    svc.refuse.add('404');
    await mount();
    await settle();
    act(() => seen.toggle('market', '404'));
    expect(seen.has('market', '404')).toBe(true);
    await settle();
    expect(seen.has('market', '404')).toBe(false);
    expect(seen.error).toContain('no market 404');
    act(() => seen.toggle('market', '5'));
    await settle();
    expect(svc.items.map((i) => i.id)).toEqual(['5']);
    act(() => seen.toggle('market', '5'));
    await settle();
    expect(svc.items).toEqual([]);
    expect(seen.items).toEqual([]);
  });

  it('keeps toggles made while the service is unreachable and replays them in order when it is back', async () => {
    svc.items = [{ kind: 'market', id: '1', addedAt: 'a' }];
    await mount();
    await settle();
    svc.reachable = false;
    act(() => seen.toggle('event', '2'));
    act(() => seen.toggle('market', '1'));
    await settle();
    expect(ids()).toEqual(['event:2']);
    const stored = JSON.parse(localStorage.getItem(STORAGE_KEY)!);
    expect(stored.pending.map((p: { op: string; id: string }) => `${p.op} ${p.id}`)).toEqual(['add 2', 'remove 1']);
    svc.calls = [];
    svc.reachable = true;
    await act(async () => svc.connection?.(true));
    await settle();
    expect(svc.calls).toEqual(['watchlist.add event:2', 'watchlist.remove market:1', 'watchlist.list']);
    expect(svc.items.map((i) => `${i.kind}:${i.id}`)).toEqual(['event:2']);
    expect(JSON.parse(localStorage.getItem(STORAGE_KEY)!).pending).toEqual([]);
  });

  it('follows the watchlist push event', async () => {
    await mount();
    await settle();
    act(() => svc.listeners.get('watchlist')?.({ items: [{ kind: 'event', id: '3', addedAt: 'z' }] }));
    expect(ids()).toEqual(['event:3']);
  });
});

describe('Star', () => {
  it('is a labelled toggle whose clicks and Enter/Space stay out of the row around it', async () => {
    const rowClick = vi.fn();
    const rowKey = vi.fn();
    const row = createElement(
      'div',
      { onClick: rowClick, onKeyDown: rowKey },
      createElement(Star, { kind: 'market', id: '8', label: 'Will it rain?' }),
    );
    await mount(row);
    await settle();
    const button = host.querySelector('button')!;
    expect(button.getAttribute('aria-pressed')).toBe('false');
    expect(button.getAttribute('aria-label')).toBe('Add Will it rain? to watchlist');
    await act(async () => button.click());
    await settle();
    expect(button.getAttribute('aria-pressed')).toBe('true');
    expect(button.getAttribute('aria-label')).toBe('Remove Will it rain? from watchlist');
    expect(svc.items.map((i) => i.id)).toEqual(['8']);
    for (const key of ['Enter', ' ']) {
      act(() => {
        button.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }));
      });
    }
    expect(rowClick).not.toHaveBeenCalled();
    expect(rowKey).not.toHaveBeenCalled();
  });
});
