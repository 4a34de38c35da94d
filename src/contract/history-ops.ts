/**
 * The catalog's memory (issue 16): a market's price and activity history, revisions of markets
 * and events, and the change feed. Their routes are routes.ts's `historyRoutes`; the data is
 * recorded by the store at each sync (store/history-schema.ts).
 */
import { z } from 'zod';
import { op, type DeclsFor } from './define.ts';
import { CHANGE_KINDS, type ChangeKind } from './enums.ts';
import { int, parseIsoDate, str, type ParamDef } from './params.ts';
import type { historyRoutes } from './routes.ts';

export { CHANGE_KINDS, type ChangeKind } from './enums.ts';

export interface ChangeRecord {
  kind: ChangeKind;
  /** ISO 8601: the sync that saw it. */
  at: string;
  market?: { id: string; slug: string | null; question: string | null };
  event?: { id: string; slug: string | null; title: string | null };
  before: unknown;
  after: unknown;
}

export interface HistoryPoint {
  /** Epoch seconds. */
  t: number;
  /** The first outcome's price (Gamma's outcomePrices[0]), 0..1. */
  price: number | null;
  bestBid: number | null;
  bestAsk: number | null;
  lastTradePrice: number | null;
  volume24hr: number | null;
  liquidity: number | null;
}

export interface Revision {
  /** ISO 8601: when the sync saw the edit. */
  at: string;
  /** question/title, description, resolutionSource, endDate, outcomes, tags. */
  field: string;
  before: string | null;
  after: string | null;
}

export interface MarketHistory {
  id: string;
  /** The window asked for (ISO 8601). */
  from: string;
  to: string;
  /** Oldest first: a point where a value moved past a small threshold, or hourly (older: hourly, then daily). */
  points: HistoryPoint[];
}

export interface RevisionsPage {
  id: string;
  total: number;
  /** Newest first. */
  revisions: Revision[];
}

export interface ChangesPage {
  since: string;
  /** Since when the feed has watched the catalog (its first recorded sync); null before any. */
  watchingSince: string | null;
  total: number;
  /** Newest first. */
  changes: ChangeRecord[];
}

/** Year 2001 to 2286 in epoch seconds: a bare number outside it is read as milliseconds. */
const EPOCH_S_MAX = 9_999_999_999;

/** An ISO 8601 date or date-time, or epoch seconds or milliseconds; as epoch seconds. */
export function time(): ParamDef<number> {
  return {
    schema: z.string().transform((v, ctx) => {
      let ms: number | null = null;
      if (/^\d{1,13}$/.test(v)) ms = Number(v) > EPOCH_S_MAX ? Number(v) : Number(v) * 1000;
      else ms = parseIsoDate(v);
      if (ms === null) {
        ctx.addIssue({ code: 'custom', message: 'not a time' });
        return z.NEVER;
      }
      return Math.floor(ms / 1000);
    }),
    rule: 'an ISO 8601 date-time or epoch seconds or milliseconds',
  };
}

/** `kind=price_move,resolved`: a comma-separated list of change kinds. */
function kinds(): ParamDef<ChangeKind[]> {
  const known = new Set<string>(CHANGE_KINDS);
  return {
    schema: z.string().transform((v, ctx) => {
      const list = [...new Set(v.split(',').map((k) => k.trim()))].filter((k) => k !== '');
      const bad = list.find((k) => !known.has(k));
      if (bad !== undefined || list.length === 0) {
        ctx.addIssue({ code: 'custom', message: `unknown kind ${bad ?? '(empty)'}` });
        return z.NEVER;
      }
      return list as ChangeKind[];
    }),
    rule: `a comma-separated list of ${CHANGE_KINDS.join(', ')}`,
  };
}

const pathId = { id: str({ required: true, maxLength: 40 }) };
const page = (max: number) => ({ limit: int({ min: 1, max, default: 50 }), offset: int({ min: 0, max: 1_000_000, default: 0 }) });

export const historyOperations = {
  'markets.history': op<MarketHistory>()({ ...pathId, from: time(), to: time() }),
  'markets.revisions': op<RevisionsPage>()({ ...pathId, ...page(500) }),
  'events.revisions': op<RevisionsPage>()({ ...pathId, ...page(500) }),
  'changes.list': op<ChangesPage>()({ since: time(), kind: kinds(), ...page(1000) }),
} satisfies DeclsFor<typeof historyRoutes>;
