/**
 * The watchlist: the starred markets and events, newest first, with the catalog grids'
 * columns, so chance and 24h change are live (the lists refetch when the catalog changes).
 * Read from the service's cache by id; with the upstream offline the service still answers
 * from its cache, and the last answers stay on screen if the service cannot be reached.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import type { WatchKind } from '../../../src/contract/enums.ts';
import { call, type Event, type Market } from '../api.ts';
import { EVENT_COLUMNS } from '../catalog/event-columns.tsx';
import { MARKET_COLUMNS, gridMarket } from '../catalog/market-columns.tsx';
import { DataGrid, ROW_HEIGHT, type GridColumn } from '../grid/DataGrid.tsx';
import { staticList } from '../grid/staticList.ts';
import { useNav } from '../nav.tsx';
import { useWatchlist } from '../watchlist.tsx';

const CHUNK = 100;
// The watchlist keeps its own order (newest first): no column sorts here (the grid gets no sort).
const unsorted = <T,>(cols: GridColumn<T, string>[]): GridColumn<T, never>[] => cols.map((c) => ({ ...c, sortable: false }));
const MARKET_COLS = unsorted(MARKET_COLUMNS);
const EVENT_COLS = unsorted(EVENT_COLUMNS);

/** The rows of `ids` from `op`, in the order of `ids` (the service answers in its own order). */
async function byIds<T extends { id: string }>(op: 'markets.list' | 'events.list', ids: string[]): Promise<T[]> {
  const found = new Map<string, T>();
  for (let i = 0; i < ids.length; i += CHUNK) {
    const rows = (await call(op, { id: ids.slice(i, i + CHUNK).map(Number), limit: CHUNK })) as T[];
    for (const r of rows) found.set(r.id, r);
  }
  return ids.flatMap((id) => (found.has(id) ? [found.get(id)!] : []));
}

function Section<T extends { id: string }>(props: { kind: WatchKind; ids: string[]; columns: GridColumn<T, never>[] }) {
  const { kind, ids } = props;
  const nav = useNav();
  const [sizing, setSizing] = useState<Record<string, number>>({});
  const op = kind === 'market' ? 'markets.list' : 'events.list';
  const q = useQuery({
    queryKey: [op, { id: ids, watchlist: true }],
    queryFn: async () => {
      const rows = await byIds<T>(op, ids);
      return kind === 'market' ? (rows.map((r) => gridMarket(r as unknown as Market)) as unknown as T[]) : rows;
    },
    placeholderData: keepPreviousData,
    enabled: ids.length > 0,
  });
  const list = staticList(q.data, { pending: q.isPending, fetching: q.isFetching, error: q.error, refetch: () => void q.refetch() });
  if (ids.length === 0) return null;
  const missing = q.data ? ids.length - q.data.length : 0;
  const height = (Math.min(Math.max(q.data?.length ?? ids.length, 1), 12) + 1) * ROW_HEIGHT + 4;
  const label = kind === 'market' ? 'Watched markets' : 'Watched events';
  return (
    <section className="watch-section" aria-label={label}>
      <h2>
        {label} · {ids.length}
        {missing > 0 ? <span className="hidden-note"> ({missing} no longer in the catalog)</span> : null}
      </h2>
      <div className="watch-grid" style={{ height, display: 'flex' }}>
        <DataGrid
          label={label}
          columns={props.columns}
          list={list}
          columnSizing={sizing}
          onColumnSizing={setSizing}
          resetKey=""
          rowKey={(r) => r.id}
          onOpen={(r) => nav.open(kind, r.id)}
          isOpen={(r) => nav.detail?.kind === kind && nav.detail.id === r.id}
          rowTestId={`watch-${kind}-row`}
          empty={<p className="muted">None in the catalog.</p>}
        />
      </div>
    </section>
  );
}

export function WatchlistView() {
  const { items } = useWatchlist();
  const markets = useMemo(() => items.filter((i) => i.kind === 'market').map((i) => i.id), [items]);
  const events = useMemo(() => items.filter((i) => i.kind === 'event').map((i) => i.id), [items]);
  return (
    <section className="view watch-view" aria-label="Watchlist">
      {items.length === 0 ? (
        <div className="empty" data-testid="watchlist-empty">
          <p className="empty-title">Your watchlist is empty</p>
          <p className="empty-hint">
            Star a market or event with ☆ in any grid, panel or search result: it shows here with its live chance.
          </p>
        </div>
      ) : null}
      <Section<Market> kind="market" ids={markets} columns={MARKET_COLS} />
      <Section<Event> kind="event" ids={events} columns={EVENT_COLS} />
    </section>
  );
}
