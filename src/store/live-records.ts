/**
 * What the service's live side (src/service/live-*.ts) reads from the cache and writes to it: the
 * fields a market's trading ids are chosen from (contract/market-rules.ts `tradingIds`), by id, by
 * condition id and for events' open markets; live price snapshots and resolutions heard live
 * (history-recorder.ts). Each read is one query per 500 ids on an index.
 */
import type { HistoryRecorder, LivePricePoint } from './history-recorder.ts';
import { placeholders, type Statements } from './statements.ts';

export type { LivePricePoint } from './history-recorder.ts';

/** A cached market's id, condition id and the fields its trading ids come from (as stored: JSON text). */
export interface MarketTradingFields {
  id: string;
  conditionId: string | null;
  closed: boolean;
  version: unknown;
  outcomes: unknown;
  clobTokenIds: unknown;
  positionIds: unknown;
}

const COLS = 'm.id, m."conditionId", m."closed", m."version", m."outcomes", m."clobTokenIds", m."positionIds"';
/** SQLite caps a statement's bound values; longer lists go in chunks. */
const CHUNK = 500;

function row(r: unknown[]): MarketTradingFields {
  return {
    id: String(r[0]),
    conditionId: typeof r[1] === 'string' ? r[1] : null,
    closed: r[2] === 1,
    version: r[3],
    outcomes: r[4],
    clobTokenIds: r[5],
    positionIds: r[6],
  };
}

export class LiveRecords {
  constructor(
    private readonly st: Statements,
    private readonly recorder: HistoryRecorder,
  ) {}

  private chunked<T>(list: readonly T[], sql: (n: number) => string): MarketTradingFields[] {
    const out: MarketTradingFields[] = [];
    for (let i = 0; i < list.length; i += CHUNK) {
      const part = list.slice(i, i + CHUNK) as (string | number)[];
      for (const r of this.st.all(sql(part.length), part)) out.push(row(r));
    }
    return out;
  }

  /** The cached markets among `ids` (decimal ids; others are ignored). */
  tradingFields(ids: readonly string[]): MarketTradingFields[] {
    const nums = [...new Set(ids)].filter((id) => /^\d{1,15}$/.test(id)).map(Number);
    return this.chunked(nums, (n) => `SELECT ${COLS} FROM markets m WHERE m.id IN (${placeholders(n)})`);
  }

  /** The cached markets of these condition ids (any case). */
  byCondition(conditionIds: readonly string[]): MarketTradingFields[] {
    const lc = [...new Set(conditionIds.map((c) => c.toLowerCase()))];
    return this.chunked(lc, (n) => `SELECT ${COLS} FROM markets m WHERE m._condition_lc IN (${placeholders(n)}) ORDER BY m.id`);
  }

  /** Each event's open markets, the most traded first, at most `perEvent` of each. */
  eventMarkets(eventIds: readonly string[], perEvent: number): MarketTradingFields[] {
    const out: MarketTradingFields[] = [];
    for (const id of new Set(eventIds)) {
      if (!/^\d{1,15}$/.test(id)) continue;
      const rows = this.st.all(
        `SELECT ${COLS} FROM market_events me JOIN markets m ON m.id = me.market_id ` +
          'WHERE me.event_id = ? AND m."closed" IS NOT 1 ORDER BY m._volume DESC, m.id LIMIT ?',
        [Number(id), perEvent],
      );
      for (const r of rows) out.push(row(r));
    }
    return out;
  }

  /** Records live prices as snapshots where the snapshot rule takes them, in one transaction; returns the snapshots written. */
  recordPrices(points: readonly LivePricePoint[]): number {
    return this.recorder.recordLive(points);
  }

  /**
   * Reports a resolution heard live as a `resolved` change, unless the cache knew it; `winner` the
   * winning outcome's name, `outcomePrices` Gamma's JSON text of the settled prices. True when written.
   */
  resolved(marketId: number, winner: string | null, outcomePrices: string | null): boolean {
    return this.recorder.resolvedLive(marketId, winner, outcomePrices);
  }
}
