/**
 * The markets grid: a catalog view over `markets.list`, with Polymarket's columns
 * (catalog/market-columns.tsx). Placeholder markets (no prices, e.g. "Person A") are hidden
 * as their block arrives, with a note: the service has no filter for them.
 */
import { api, call, type Market } from '../api.ts';
import { MARKET_COLUMNS, gridMarket } from '../catalog/market-columns.tsx';
import { isPlaceholder } from '../../../src/contract/market-rules.ts';
import { prepareRows } from '../grid/DataGrid.tsx';
import type { CatalogConfig } from './Catalog.tsx';
import { ScreenedCatalog } from './ScreenedCatalog.tsx';

export { MARKET_COLUMNS };

const fetchMarkets = async (p: Record<string, unknown>) => {
  const rows = (await api.markets.list(p)).map(gridMarket);
  prepareRows(MARKET_COLUMNS, rows);
  return rows;
};

export const MARKETS: CatalogConfig<Market, 'markets'> = {
  label: 'Markets',
  noun: 'market',
  prefs: 'markets',
  op: 'markets.list',
  countOp: 'markets.count',
  columns: MARKET_COLUMNS,
  fetchRows: fetchMarkets,
  fetchCount: async (p) => (await call('markets.count', p)).count,
  keep: (m) => !isPlaceholder(m),
  withEvent: true,
  rowTestId: 'market-row',
};

/** The grid under the saved market screens' tabs. */
export function MarketsView() {
  return <ScreenedCatalog kind="markets" config={MARKETS} />;
}
