/**
 * The grids' sparklines, by market id: one request (`markets.sparklines`, at most a block of 100
 * ids) for the rows that came into view together, never one per row. A cell asks once its row has
 * stayed on screen a moment (a fast scroll passes thousands of rows), and the batch waits
 * while the grid's own rows load (the listing's block and count queries): those come first on
 * the browser's connections and the service's one thread. Answers are kept per id; a catalog
 * change makes the shown ones ask again (their last bucket is the latest price).
 */
import type { QueryClient } from '@tanstack/react-query';
import { call } from '../api.ts';
import { BLOCK } from '../grid/blockLayout.ts';
import { onCatalogChange } from '../live.tsx';
import type { Series } from './sparkline-path.ts';

/** null: the service has no local history for the market. */
export type Entry = { series: Series | null; at: number };

/** How long a row must stay on screen before its sparkline is asked for. */
export const SETTLE_MS = 150;
/** Rows settling within this of each other share a request. */
const GATHER_MS = 40;
/** An answer older than this is asked again when its row shows. */
const FRESH_MS = 5 * 60_000;
/** The grids' own data queries: a batch waits while any of them loads. */
const GRID_OPS = ['markets.list', 'markets.count', 'events.list', 'events.count'];

const entries = new Map<string, Entry>();
const listeners = new Map<string, Set<() => void>>();
const queued = new Set<string>();
const inFlight = new Set<string>();
let timer: ReturnType<typeof setTimeout> | undefined;
let client: QueryClient | undefined;
let waitingOnGrid: (() => void) | undefined;

/** How many answers the store holds, and how many of them have a line: the column is empty while none has. */
let drawn = 0;
const summaryListeners = new Set<() => void>();

/** Every market asked for so far has no local history in the window: the 7d column would be blank. */
export function noSparklines(): boolean {
  return entries.size > 0 && drawn === 0;
}

/** Told when noSparklines() may have changed. */
export function subscribeSummary(fn: () => void): () => void {
  summaryListeners.add(fn);
  return () => summaryListeners.delete(fn);
}

function setEntry(id: string, e: Entry): void {
  const was = entries.get(id);
  drawn += Number(e.series !== null) - Number(!!was && was.series !== null);
  entries.set(id, e);
}

export function sparklineOf(id: string): Entry | undefined {
  return entries.get(id);
}

export function subscribe(id: string, fn: () => void): () => void {
  let set = listeners.get(id);
  if (!set) {
    set = new Set();
    listeners.set(id, set);
  }
  set.add(fn);
  return () => {
    set.delete(fn);
    if (set.size === 0) listeners.delete(id);
  };
}

const notify = (id: string) => {
  for (const fn of listeners.get(id) ?? []) fn();
};

/** The QueryClient whose grid queries a batch waits for (set by the hook); also starts following catalog changes. */
export function setClient(qc: QueryClient): void {
  if (client === qc) return;
  client = qc;
  onCatalogChange(refreshShown);
}

const gridBusy = () => !!client && GRID_OPS.some((op) => client!.isFetching({ queryKey: [op] }) > 0);

/** Asks for `id`'s sparkline in the next batch, unless a fresh answer or a request is there. */
export function want(id: string, now = Date.now()): void {
  const e = entries.get(id);
  if ((e && now - e.at < FRESH_MS) || inFlight.has(id)) return;
  queued.add(id);
  timer ??= setTimeout(flush, GATHER_MS);
}

/** A row left the screen before its batch went: it is not asked for. */
export function unwant(id: string): void {
  queued.delete(id);
}

function flush(): void {
  timer = undefined;
  if (queued.size === 0) return;
  if (gridBusy()) {
    if (waitingOnGrid) return;
    // Again when the grid's queries settle (the cache tells of each change).
    const stop = client!.getQueryCache().subscribe(() => {
      if (gridBusy()) return;
      stop();
      waitingOnGrid = undefined;
      timer ??= setTimeout(flush, GATHER_MS);
    });
    waitingOnGrid = stop;
    return;
  }
  const ids = [...queued].slice(0, BLOCK);
  for (const id of ids) {
    queued.delete(id);
    inFlight.add(id);
  }
  call('markets.sparklines', { id: ids.map(Number) })
    .then(
      (ans) => {
        const at = Date.now();
        const empty = noSparklines();
        for (const id of ids) setEntry(id, { series: ans.series[id] ?? null, at });
        if (noSparklines() !== empty) for (const fn of summaryListeners) fn();
      },
      // Failed (service unreachable): the rows keep what they had and ask again when next shown.
      () => undefined,
    )
    .finally(() => {
      for (const id of ids) {
        inFlight.delete(id);
        notify(id);
      }
      if (queued.size > 0) timer ??= setTimeout(flush, GATHER_MS);
    });
}

/** The catalog changed: every sparkline on screen asks again (one batch). */
export function refreshShown(): void {
  // The 7d column is hidden while no market has history, so no cell asks: the last answered ask again.
  const ids = listeners.size === 0 && noSparklines() ? [...entries.keys()].slice(-BLOCK) : [...listeners.keys()];
  for (const id of ids) {
    const e = entries.get(id);
    if (e) entries.set(id, { ...e, at: 0 });
    want(id);
  }
}

/** Tests: forget everything. */
export function resetSparklines(): void {
  entries.clear();
  drawn = 0;
  queued.clear();
  inFlight.clear();
  waitingOnGrid?.();
  waitingOnGrid = undefined;
  if (timer) clearTimeout(timer);
  timer = undefined;
}
