/**
 * The upstream Data API's `GET /v1/leaderboard` (docs/upstream/clob-data-limits.md §3): a bare array
 * of camelCase entries, `limit` at most 50 and `offset` at most 1000 per request.
 */
import { setMaxListeners } from 'node:events';
import type { BoardKey, LeaderboardEntry } from '../contract/leaderboard-ops.ts';
import type { UpstreamClient } from './client.ts';

export const UPSTREAM_PAGE = 50;
export const UPSTREAM_MAX_OFFSET = 1000;
/** Everything the route can serve: offsets 0..1000 plus a page of 50. */
export const BOARD_DEPTH = UPSTREAM_MAX_OFFSET + UPSTREAM_PAGE;

type Raw = Record<string, unknown>;

const str = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : '');
const num = (v: unknown): number => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : 0;
};

/** One upstream entry as spec 2.5; null without a wallet (nothing to filter or key it by). */
export function normalizeEntry(e: unknown): LeaderboardEntry | null {
  if (!e || typeof e !== 'object') return null;
  const r = e as Raw;
  const proxyWallet = str(r['proxyWallet']);
  if (proxyWallet === '') return null;
  const x = r['xUsername'];
  const badge = r['verifiedBadge'];
  return {
    rank: str(r['rank']),
    proxyWallet,
    userName: str(r['userName']),
    vol: num(r['vol']),
    pnl: num(r['pnl']),
    profileImage: str(r['profileImage']),
    xUsername: typeof x === 'string' ? x : null,
    verifiedBadge: typeof badge === 'boolean' ? badge : null,
  };
}

function fetchPage(client: UpstreamClient, key: BoardKey, offset: number, signal?: AbortSignal): Promise<unknown> {
  return client.request<unknown>('data', '/v1/leaderboard', {
    query: { category: key.category, timePeriod: key.timePeriod, orderBy: key.orderBy, limit: UPSTREAM_PAGE, offset },
    group: 'GET /v1/leaderboard',
    ...(signal ? { signal } : {}),
  });
}

function entries(body: unknown): LeaderboardEntry[] {
  if (!Array.isArray(body)) throw new Error('upstream /v1/leaderboard answered something other than an array');
  return body.map(normalizeEntry).filter((e): e is LeaderboardEntry => e !== null);
}

/**
 * A whole board, up to BOARD_DEPTH entries: the first page alone, then (if it was full) the
 * other 20 at once, bounded by the scheduler's concurrency per host. The board ends at the first short page.
 */
export async function fetchBoard(client: UpstreamClient, key: BoardKey, signal?: AbortSignal): Promise<LeaderboardEntry[]> {
  const first = entries(await fetchPage(client, key, 0, signal));
  if (first.length < UPSTREAM_PAGE) return first;
  const offsets: number[] = [];
  for (let o = UPSTREAM_PAGE; o <= UPSTREAM_MAX_OFFSET; o += UPSTREAM_PAGE) offsets.push(o);
  // One failed page fails the board: the others are called off rather than left to retry.
  const stop = new AbortController();
  const sig = signal ? AbortSignal.any([signal, stop.signal]) : stop.signal;
  // All 20 pages wait on this one signal at once (the scheduler listens per queued request).
  setMaxListeners(offsets.length + 10, sig);
  const pages = await Promise.all(
    offsets.map(async (o) => {
      try {
        return entries(await fetchPage(client, key, o, sig));
      } catch (e) {
        stop.abort(e);
        throw e;
      }
    }),
  );
  const out = [...first];
  const wallets = new Set(first.map((e) => e.proxyWallet.toLowerCase()));
  for (const page of pages) {
    for (const e of page) {
      // A trader who moved between pages while they were read is kept once, at the first rank seen.
      const w = e.proxyWallet.toLowerCase();
      if (wallets.has(w)) continue;
      wallets.add(w);
      out.push(e);
    }
    if (page.length < UPSTREAM_PAGE) break;
  }
  return out;
}
