/** What the fake upstream's routes share: the catalog and the fake APIs' state, built from its options. */
import type { FakeCatalog } from './catalog.ts';
import { FakeClob, parseList } from './clob.ts';
import { FakeLeaderboard } from './data-api.ts';
import type { Limits } from './query.ts';
import type { FakeUpstreamOptions } from './server.ts';
import { FakeTrading } from './trading.ts';

export interface FakeState {
  catalog: FakeCatalog;
  /** The CLOB's order list: present when the fake was given credentials. */
  clob: FakeClob | undefined;
  leaderboard: FakeLeaderboard;
  trading: FakeTrading;
  /** Gamma's silent `limit` clamp and `offset` cap on the listings. */
  paging: Limits;
  /** Serve Gamma's keyset listings; false makes them 404. */
  keyset: boolean;
}

export function createState(opts: FakeUpstreamOptions): FakeState {
  const { catalog } = opts;
  const clob = opts.clob ? new FakeClob(opts.clob, catalog) : undefined;
  // Placed and cancelled orders show in the CLOB's order list when there is one.
  const trading = new FakeTrading({
    ...(clob ? { credentials: opts.clob!.credentials, clob } : {}),
    priceOf: tokenPrices(catalog),
    ...opts.trading,
  });
  return {
    catalog,
    clob,
    leaderboard: new FakeLeaderboard(opts.leaderboard),
    trading,
    paging: { maxLimit: opts.maxLimit ?? 100, maxOffset: opts.maxOffset ?? 2000 },
    keyset: opts.keyset ?? true,
  };
}

/** token id -> its outcome's price in the catalog, built on first use (a book asked of a big catalog). */
function tokenPrices(catalog: FakeCatalog): (token: string) => number | undefined {
  let prices: Map<string, number> | undefined;
  return (token) => {
    if (!prices) {
      prices = new Map();
      for (const rec of catalog.marketRecords()) {
        const m = rec.obj as Record<string, unknown>;
        const tokens = parseList(m['clobTokenIds']);
        const values = parseList(m['outcomePrices']);
        tokens.forEach((t, i) => {
          const p = Number(values[i]);
          if (values[i]?.trim() && Number.isFinite(p)) prices!.set(t, p);
        });
      }
    }
    return prices.get(token);
  };
}
