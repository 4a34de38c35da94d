/**
 * The markets grid: every cached market, sorted and filtered by the service, scrolled in
 * blocks of 100.
 */
import { useCallback, useMemo } from 'react';
import { api, type Market } from '../api.ts';
import { noCatalog } from '../catalog-state.ts';
import { outcomePrices, StatusBadge } from '../components/cells.tsx';
import { FilterBar } from '../components/FilterBar.tsx';
import { fmtDate, fmtMoney } from '../format.ts';
import { DataGrid, prepareRows, type GridColumn } from '../grid/DataGrid.tsx';
import { useBlockList } from '../grid/useBlockList.ts';
import { useLive } from '../live.tsx';
import { useNav } from '../nav.tsx';
import { filterParams, useUi, type CatalogFilters } from '../ui-state.tsx';

export const MARKET_COLUMNS: GridColumn<Market>[] = [
  {
    id: 'question',
    header: 'Market',
    size: 380,
    grow: true,
    sortable: true,
    cell: (m) => m.question ?? m.slug ?? m.id,
    title: (m) => m.question,
  },
  { id: 'event', header: 'Event', size: 220, cell: (m) => m.events?.[0]?.title ?? '—', title: (m) => m.events?.[0]?.title },
  { id: 'outcomes', header: 'Outcomes', size: 210, className: 'outcomes', cell: (m) => outcomePrices(m) },
  {
    id: 'volumeNum',
    header: 'Volume',
    size: 96,
    align: 'right',
    sortable: true,
    descFirst: true,
    cell: (m) => fmtMoney(m.volumeNum ?? m.volume),
  },
  { id: 'volume24hr', header: '24h vol', size: 90, align: 'right', sortable: true, descFirst: true, cell: (m) => fmtMoney(m.volume24hr) },
  {
    id: 'liquidityNum',
    header: 'Liquidity',
    size: 90,
    align: 'right',
    sortable: true,
    descFirst: true,
    cell: (m) => fmtMoney(m.liquidityNum ?? m.liquidity),
  },
  { id: 'endDate', header: 'Ends', size: 104, sortable: true, descFirst: false, cell: (m) => fmtDate(m.endDate) },
  { id: 'status', header: 'Status', size: 84, cell: (m) => <StatusBadge item={m} /> },
];

/** The market fields MARKET_COLUMNS read (besides `events`, of which the first title). */
const GRID_FIELDS = [
  'question',
  'slug',
  'outcomes',
  'outcomePrices',
  'volumeNum',
  'volume',
  'volume24hr',
  'liquidityNum',
  'liquidity',
  'endDate',
  'active',
  'closed',
  'archived',
] as const;

/**
 * A market as the grid keeps it: what its columns show. A block of 100 whole markets is about
 * 280 KB of JSON (descriptions, image links, token ids); kept whole, the 10,000 rows of a long
 * scroll hold tens of MB, and the garbage collector's pauses grow into scroll frames. The
 * copy is made as the block arrives, so the whole objects die young. The detail panel fetches
 * the whole market by id.
 */
function gridMarket(m: Market): Market {
  const out: Market = { id: m.id };
  for (const k of GRID_FIELDS) if (m[k] !== undefined) (out as Record<string, unknown>)[k] = m[k];
  const event = m.events?.[0];
  if (event) out.events = [event.title === undefined ? { id: event.id } : { id: event.id, title: event.title }];
  return out;
}

const fetchMarkets = async (p: Record<string, unknown>) => {
  const rows = (await api.markets.list(p)).map(gridMarket);
  prepareRows(MARKET_COLUMNS, rows);
  return rows;
};

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
  const onActive = useCallback(
    (m: Market) => {
      if (detailOpen) nav.open('market', m.id);
    },
    [detailOpen, nav],
  );

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
  const missing = noCatalog(useLive());
  if (missing) {
    return (
      <div className="empty" data-testid="no-catalog">
        <p className="empty-title">No catalog yet: connect once to download it</p>
        <p className="empty-hint">{missing.trying}</p>
      </div>
    );
  }
  return (
    <div className="empty">
      <p className="empty-title">No {noun} match these filters</p>
      <p className="empty-hint">Change or reset the filters. New {noun} appear as the catalog syncs.</p>
    </div>
  );
}
