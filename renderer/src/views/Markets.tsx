/**
 * The markets grid: every cached market, sorted and filtered by the service, scrolled in
 * blocks of 100.
 */
import { useCallback, useMemo } from 'react';
import { api, type Market } from '../api.ts';
import { OutcomePrices, StatusBadge } from '../components/cells.tsx';
import { FilterBar } from '../components/FilterBar.tsx';
import { fmtDate, fmtMoney } from '../format.ts';
import { DataGrid, type GridColumn } from '../grid/DataGrid.tsx';
import { useBlockList } from '../grid/useBlockList.ts';
import { useNav } from '../nav.tsx';
import { filterParams, useUi, type CatalogFilters } from '../ui-state.tsx';

export const MARKET_COLUMNS: GridColumn<Market>[] = [
  { id: 'question', header: 'Market', size: 380, grow: true, sortable: true, cell: (m) => m.question ?? m.slug ?? m.id, title: (m) => m.question },
  { id: 'event', header: 'Event', size: 220, cell: (m) => m.events?.[0]?.title ?? '—', title: (m) => m.events?.[0]?.title },
  { id: 'outcomes', header: 'Outcomes', size: 210, cell: (m) => <OutcomePrices market={m} /> },
  { id: 'volumeNum', header: 'Volume', size: 96, align: 'right', sortable: true, descFirst: true, cell: (m) => fmtMoney(m.volumeNum ?? m.volume) },
  { id: 'volume24hr', header: '24h vol', size: 90, align: 'right', sortable: true, descFirst: true, cell: (m) => fmtMoney(m.volume24hr) },
  { id: 'liquidityNum', header: 'Liquidity', size: 90, align: 'right', sortable: true, descFirst: true, cell: (m) => fmtMoney(m.liquidityNum ?? m.liquidity) },
  { id: 'endDate', header: 'Ends', size: 104, sortable: true, descFirst: false, cell: (m) => fmtDate(m.endDate) },
  { id: 'status', header: 'Status', size: 84, cell: (m) => <StatusBadge item={m} /> },
];

const fetchMarkets = (p: Record<string, unknown>) => api.markets.list(p);

export function MarketsView() {
  const { ui, setUi } = useUi();
  const nav = useNav();
  const prefs = ui.markets;
  const params = useMemo(
    () => ({ ...filterParams(prefs.filters, true), order: prefs.sort.field, ascending: !prefs.sort.desc }),
    [prefs.filters, prefs.sort],
  );
  const onFilters = useCallback((filters: CatalogFilters) => setUi((s) => ({ ...s, markets: { ...s.markets, filters } })), [setUi]);
  const list = useBlockList<Market>('markets.list', params, fetchMarkets);
  const count = useMemo(() => ({ n: list.rows.length, ended: list.ended, noun: 'market' }), [list.rows.length, list.ended]);
  const detailOpen = nav.detail?.kind === 'market';
  const openId = detailOpen ? nav.detail!.id : undefined;
  const onActive = useCallback((m: Market) => {
    if (detailOpen) nav.open('market', m.id);
  }, [detailOpen, nav]);

  return (
    <section className="view" aria-label="Markets">
      <FilterBar filters={prefs.filters} withEvent={true} onChange={onFilters} count={count} />
      <DataGrid
        label="Markets"
        columns={MARKET_COLUMNS}
        list={list}
        sort={prefs.sort}
        onSort={(sort) => setUi((s) => ({ ...s, markets: { ...s.markets, sort } }))}
        columnSizing={prefs.columnSizing}
        onColumnSizing={(columnSizing) => setUi((s) => ({ ...s, markets: { ...s.markets, columnSizing } }))}
        resetKey={JSON.stringify(params)}
        onOpen={(m) => nav.open('market', m.id)}
        onActive={onActive}
        isOpen={(m) => m.id === openId}
        rowTestId="market-row"
        empty={<Empty noun="markets" />}
      />
    </section>
  );
}

export function Empty({ noun }: { noun: string }) {
  return (
    <div className="empty">
      <p className="empty-title">No {noun} match these filters</p>
      <p className="empty-hint">Change or reset the filters. New {noun} appear as the catalog syncs.</p>
    </div>
  );
}
