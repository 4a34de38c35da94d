/**
 * The Data API v2's account lists read whole (issue 25; the portfolio issue builds on it):
 * `/v2/positions`, `/v2/activity`, `/v2/trades`, followed by their opaque cursors until
 * `has_more` is false. v1's offsets stop at 10,000 rows, which a busy account's activity passes,
 * so the service reads account data only here (docs/upstream/clob-data-limits.md).
 *
 * The envelope is `{data: [...], pagination: {limit, has_more, next_cursor}}`
 * (fixtures/polymarket-2026/data-v2/). A page that is not that shape is an upstream fault, not an
 * empty account: it throws rather than returning what came before it as if it were everything.
 */
import type { DataPage } from '../contract/data-ops.ts';
import type { QueryValue, UpstreamClient } from './client.ts';

export type DataV2List = 'positions' | 'activity' | 'trades';

/** The largest page the upstream serves (a bigger `limit` is clamped there). */
export const DATA_V2_MAX_PAGE = 500;

export interface ReadDataV2Options {
  /** Filters sent on every page (the upstream's names: `user`, `status`, `condition`, `type`, …). */
  query: Record<string, QueryValue>;
  /** Stop after this many rows (default 50,000): the answer then says `complete: false`. */
  maxRows?: number;
  pageSize?: number;
  signal?: AbortSignal;
  /** Default 'background': account refreshes yield to what a user waits for. */
  priority?: 'user' | 'background';
}

export interface DataV2Rows {
  rows: Record<string, unknown>[];
  /** Every page was read (false when `maxRows` stopped it). */
  complete: boolean;
  pages: number;
}

/** The page's envelope, checked: what a caller may trust of it. */
export function dataPageOf(body: unknown, path: string): DataPage {
  const b = body as Partial<DataPage> | null;
  const p = b?.pagination;
  if (
    !b ||
    !Array.isArray(b.data) ||
    !p ||
    typeof p.has_more !== 'boolean' ||
    !(p.next_cursor === null || typeof p.next_cursor === 'string')
  )
    throw new Error(`upstream ${path} answered something other than a Data API v2 page`);
  return b as DataPage;
}

export async function readDataV2(client: UpstreamClient, list: DataV2List, opts: ReadDataV2Options): Promise<DataV2Rows> {
  const path = `/v2/${list}`;
  const maxRows = opts.maxRows ?? 50_000;
  const limit = Math.min(opts.pageSize ?? DATA_V2_MAX_PAGE, DATA_V2_MAX_PAGE);
  const rows: Record<string, unknown>[] = [];
  let cursor: string | null = null;
  let pages = 0;
  const seen = new Set<string>();
  for (;;) {
    const body = await client.request<unknown>('data', path, {
      // Every filter goes again with each page: the cursor alone does not carry them.
      query: { ...opts.query, limit, ...(cursor !== null ? { cursor } : {}) },
      group: `GET ${path}`,
      priority: opts.priority ?? 'background',
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    const page = dataPageOf(body, path);
    pages++;
    rows.push(...page.data);
    if (rows.length >= maxRows) return { rows: rows.slice(0, maxRows), complete: false, pages };
    const next = page.pagination.next_cursor;
    if (!page.pagination.has_more || next === null || next === '') return { rows, complete: true, pages };
    // A cursor that comes back again would loop for ever: the upstream is at fault, say so.
    if (seen.has(next)) throw new Error(`upstream ${path} returned the same cursor twice`);
    seen.add(next);
    cursor = next;
  }
}
