/**
 * The markets grid: a catalog view over `markets.list`, with Polymarket's columns
 * (catalog/market-columns.tsx). Placeholder markets (no prices, e.g. "Person A") are hidden
 * as their block arrives, with a note: the service has no filter for them.
 */
import { useState } from 'react';
import type { Screen } from '../../../src/contract/screens-ops.ts';
import { api, call, type Market } from '../api.ts';
import { MARKET_COLUMNS, gridMarket } from '../catalog/market-columns.tsx';
import { isPlaceholder } from '../chance.ts';
import { ScreenTabs, useScreenFreshness } from '../catalog/ScreenTabs.tsx';
import { prepareRows } from '../grid/DataGrid.tsx';
import { CatalogView, type CatalogConfig } from './Catalog.tsx';

export { MARKET_COLUMNS };

const fetchMarkets = async (p: Record<string, unknown>) => {
  const rows = (await api.markets.list(p)).map(gridMarket);
  prepareRows(MARKET_COLUMNS, rows);
  return rows;
};

export const MARKETS: CatalogConfig<Market> = {
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

/** The grid under the saved screens' tabs: a tab adds its screen's parameters to the grid's. */
export function MarketsView() {
  const [screen, setScreen] = useState<Screen | null>(null);
  useScreenFreshness('markets', screen);
  return (
    <div className="screens-view">
      <ScreenTabs kind="markets" selected={screen} onSelect={setScreen} />
      <CatalogView config={MARKETS} {...(screen ? { screen: screen.params } : {})} />
    </div>
  );
}
