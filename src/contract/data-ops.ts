/**
 * The upstream Data API v2's account reads (issue 25, issue 29): positions, activity, trades and
 * value, forwarded to the DATA host at the same path (routes.ts's `dataRoutes`) through the
 * outbound scheduler and cached briefly, like the CLOB reads of trading-ops.ts.
 *
 * Parameters are the upstream's names (fixtures/polymarket-2026/README.md, src/fake-upstream/data-v2.ts),
 * declared as plain strings and passed on as given: the upstream validates them, and its
 * answers, 4xx included, are passed back with their status and body unchanged. A parameter not
 * declared here is not forwarded (as the CLOB reads). `cursor` is the upstream's opaque
 * `pagination.next_cursor`, passed on as given.
 */
import { op, type DeclsFor } from './define.ts';
import { str } from './params.ts';
import type { dataRoutes } from './routes.ts';

/** The Data API v2 list envelope: snake_case rows and cursor paging (`next_cursor` null on the last page). */
export interface DataPage {
  data: Record<string, unknown>[];
  pagination: { limit: number; offset?: number; has_more: boolean; next_cursor: string | null; [key: string]: unknown };
  [key: string]: unknown;
}

/** `GET /v2/value`: the account's total, or `null` for an account with nothing. */
export interface DataValue {
  data: { proxy_wallet: string; value: number; [key: string]: unknown } | null;
}

/** What every list takes: the account, the page, and up to 20 condition ids (comma-separated; three spellings). */
const list = {
  user: str({ maxLength: 100 }),
  cursor: str({ maxLength: 2000 }),
  limit: str({ maxLength: 10 }),
  condition: str({ maxLength: 2000 }),
  condition_id: str({ maxLength: 2000 }),
  conditionId: str({ maxLength: 2000 }),
};

export const dataOperations = {
  /** Positions, `status` OPEN (the upstream's default), CLOSED, REDEEMABLE, … */
  'dataPositions.list': op<DataPage>()({ ...list, status: str({ maxLength: 20 }) }),
  /** The account's activity (TRADE, …), newest first. */
  'dataActivity.list': op<DataPage>()({ ...list, type: str({ maxLength: 100 }) }),
  /** Trades, newest first; `user` optional upstream. */
  'dataTrades.list': op<DataPage>()(list),
  'dataValue.get': op<DataValue>()({ user: str({ maxLength: 100 }) }),
} satisfies DeclsFor<typeof dataRoutes>;
