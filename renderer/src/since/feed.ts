/**
 * Reading the change feed for the Since view: one `changes.list` call per kind the view shows
 * (the route takes one `kind` value; each group gets its own 1,000 newest), then the markets'
 * rows (`markets.list` by repeated `id`, 100 a call) and which of them have open orders
 * (`md_has_orders`, answered from the service's orders cache).
 */
import type { ChangeKind } from '../../../src/contract/enums.ts';
import { call, type Market } from '../api.ts';
import type { FeedRecords } from './groups.ts';

/** The kinds each group reads. */
export const GROUP_KINDS = {
  newMarkets: ['new_market'],
  resolved: ['resolved'],
  moves: ['price_move'],
  edits: ['rule_edit', 'end_date'],
} as const satisfies Record<keyof FeedRecords, readonly ChangeKind[]>;

export const SHOWN_KINDS: readonly ChangeKind[] = Object.values(GROUP_KINDS).flat();

/** The feed's page limit: the newest 1,000 of a kind are grouped. */
export const FEED_LIMIT = 1000;
const ROWS_PER_CALL = 100;

/** `since` in epoch ms as the route's parameter (epoch seconds; it keeps changes at or after that second). */
const sinceParam = (ms: number) => Math.floor(ms / 1000);

/** How many changes of the shown kinds there are since `ms` (for the start rule: one record each is enough). */
export async function shownTotal(ms: number): Promise<number> {
  const pages = await Promise.all(SHOWN_KINDS.map((k) => call('changes.list', { since: sinceParam(ms), kind: [k], limit: 1 })));
  return pages.reduce((n, p) => n + p.total, 0);
}

export interface FeedAnswer {
  feed: FeedRecords;
  /** Some kind had more than FEED_LIMIT changes: only its newest were grouped. */
  truncated: boolean;
  /** When the calls were made (epoch ms). */
  fetchedAt: number;
  /** A sync was running then (last-look.ts seenMark). */
  syncRunning: boolean;
  /** The newest change's time (epoch ms), if any. */
  newestAt: number | undefined;
  /** Since when the service has watched the catalog (its first recorded sync; ISO), null before any. */
  watchingSince: string | null;
}

export async function fetchFeed(ms: number, syncRunning: boolean): Promise<FeedAnswer> {
  const fetchedAt = Date.now();
  const pages = await Promise.all(SHOWN_KINDS.map((k) => call('changes.list', { since: sinceParam(ms), kind: [k], limit: FEED_LIMIT })));
  const byKind = new Map(SHOWN_KINDS.map((k, i) => [k, pages[i]!]));
  const read = (kinds: readonly ChangeKind[]) =>
    // Newest first across the kinds, as the feed orders one kind (ISO times of one format sort as text).
    kinds.flatMap((k) => byKind.get(k)!.changes).sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
  const newest = pages.flatMap((p) => (p.changes[0] ? [Date.parse(p.changes[0].at)] : []));
  return {
    feed: {
      newMarkets: read(GROUP_KINDS.newMarkets),
      resolved: read(GROUP_KINDS.resolved),
      moves: read(GROUP_KINDS.moves),
      edits: read(GROUP_KINDS.edits),
    },
    truncated: pages.some((p) => p.total > p.changes.length),
    fetchedAt,
    syncRunning,
    newestAt: newest.length > 0 ? Math.max(...newest) : undefined,
    // An older service answers without it: treated as unknown.
    watchingSince: pages[0]?.watchingSince ?? null,
  };
}

/** How many of today's biggest moves the Since view shows when its feed has none. */
export const TODAY_MOVES = 10;

/**
 * The catalog's own biggest 24h moves (Gamma's `oneDayPriceChange`, by size) among open markets: what
 * the Since view can say when the feed recorded nothing in its range (a fresh cache watched too briefly).
 */
export function todaysMoves(): Promise<Market[]> {
  return call('markets.list', { active: true, closed: false, order: 'oneDayPriceChangeSize', ascending: false, limit: TODAY_MOVES });
}

/** The rows of `ids` (any order), 100 ids a call; `extra` narrows them (e.g. `md_has_orders`). */
export async function marketRows(ids: readonly string[], extra: { md_has_orders?: boolean } = {}): Promise<Market[]> {
  const calls: Promise<Market[]>[] = [];
  for (let i = 0; i < ids.length; i += ROWS_PER_CALL) {
    calls.push(call('markets.list', { id: ids.slice(i, i + ROWS_PER_CALL).map(Number), limit: ROWS_PER_CALL, ...extra }));
  }
  return (await Promise.all(calls)).flat();
}
