/**
 * The last answer of each market page read (a chart per market and interval, a book per
 * market), in the catalog database so it survives restarts and answers offline. One JSON row
 * per key, replaced whole by each fetch; apart from the catalog tables (no catalog version bump).
 * The table: migrations.ts v5.
 */
import type { Statements } from './statements.ts';

export type PageKind = 'chart' | 'book';

export interface PageEntry<T> {
  value: T;
  /** Epoch ms the upstream answered. */
  fetchedAt: number;
}

export class MarketPageCache {
  constructor(
    private readonly st: Statements,
    private readonly changed: () => void,
  ) {}

  get<T>(kind: PageKind, marketId: number, variant = ''): PageEntry<T> | undefined {
    const row = this.st.first('SELECT fetched_at, body FROM market_page_cache WHERE kind = ? AND market_id = ? AND variant = ?', [
      kind,
      marketId,
      variant,
    ]);
    return row ? { fetchedAt: row[0] as number, value: JSON.parse(row[1] as string) as T } : undefined;
  }

  put(kind: PageKind, marketId: number, variant: string, value: unknown, fetchedAt: number): void {
    this.st.run('INSERT OR REPLACE INTO market_page_cache (kind, market_id, variant, fetched_at, body) VALUES (?, ?, ?, ?, ?)', [
      kind,
      marketId,
      variant,
      fetchedAt,
      JSON.stringify(value),
    ]);
    this.changed();
  }
}
