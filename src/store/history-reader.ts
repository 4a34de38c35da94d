/**
 * Reads a market's snapshots and a market's or event's revisions (history-schema.ts). Both are
 * answered from their tables' keys: (market_id, ts) and (entity, ref_id).
 */
import type { HistoryPoint, Revision } from '../contract/history-ops.ts';
import type { Statements } from './statements.ts';

export type Entity = 'market' | 'event';
export const ENTITY_CODE: Record<Entity, number> = { market: 0, event: 1 };

const price = (v: unknown) => (typeof v === 'number' ? v / 10_000 : null);
const money = (v: unknown) => (typeof v === 'number' ? v : null);

export class HistoryReader {
  constructor(private readonly st: Statements) {}

  /** Whether the cache knows the item (still cached, or remembered by its history). */
  known(entity: Entity, id: number): boolean {
    if (this.st.value(`SELECT 1 FROM ${entity === 'market' ? 'markets' : 'events'} WHERE id = ?`, [id]) !== undefined) return true;
    if (entity === 'market' && this.st.value('SELECT 1 FROM market_history WHERE market_id = ? LIMIT 1', [id]) !== undefined) return true;
    return this.st.value('SELECT 1 FROM revisions WHERE entity = ? AND ref_id = ? LIMIT 1', [ENTITY_CODE[entity], id]) !== undefined;
  }

  /**
   * Snapshots with `from <= t <= to` (epoch seconds), oldest first, after the last one before
   * `from` when there is one: the values in force at `from` (a snapshot is only taken on a change).
   */
  history(marketId: number, from: number, to: number): HistoryPoint[] {
    const cols = 'SELECT ts, price, bid, ask, last, vol24, liq FROM market_history WHERE market_id = ?';
    const before = this.st.all(`${cols} AND ts < ? ORDER BY ts DESC LIMIT 1`, [marketId, from]);
    const inside = this.st.all(`${cols} AND ts >= ? AND ts <= ? ORDER BY ts`, [marketId, from, to]);
    return [...before, ...inside].map(([t, p, b, a, l, v, q]) => ({
      t: t as number,
      price: price(p),
      bestBid: price(b),
      bestAsk: price(a),
      lastTradePrice: price(l),
      volume24hr: money(v),
      liquidity: money(q),
    }));
  }

  /** Newest first. */
  revisions(entity: Entity, id: number, limit: number, offset: number): { total: number; revisions: Revision[] } {
    const code = ENTITY_CODE[entity];
    const total = Number(this.st.value('SELECT count(*) FROM revisions WHERE entity = ? AND ref_id = ?', [code, id]) ?? 0);
    const revisions = this.st
      .all('SELECT at, field, before, after FROM revisions WHERE entity = ? AND ref_id = ? ORDER BY seq DESC LIMIT ? OFFSET ?', [
        code,
        id,
        limit,
        offset,
      ])
      .map(([at, field, before, after]) => ({
        at: new Date((at as number) * 1000).toISOString(),
        field: field as string,
        before: (before as string | null) ?? null,
        after: (after as string | null) ?? null,
      }));
    return { total, revisions };
  }
}
