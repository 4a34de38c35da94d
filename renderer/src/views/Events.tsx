/**
 * The events grid; opening an event lists its markets in the detail panel.
 */
import { useCallback, useMemo } from 'react';
import { api, type Event } from '../api.ts';
import { eventLeader, fmtCents, fmtChance, isPlaceholder, type Leader } from '../chance.ts';
import { StatusBadge } from '../components/cells.tsx';
import { FilterBar } from '../components/FilterBar.tsx';
import { fmtDate, fmtInt, fmtMoney } from '../format.ts';
import { DataGrid, prepareRows, type GridColumn } from '../grid/DataGrid.tsx';
import { useBlockList } from '../grid/useBlockList.ts';
import { useNav } from '../nav.tsx';
import { filterParams, useUi, type CatalogFilters } from '../ui-state.tsx';
import { Empty } from './Markets.tsx';

// Two columns read the leader: parse the nested markets once per row object.
const leaders = new WeakMap<Event, Leader | undefined>();
function leaderOf(e: Event): Leader | undefined {
  if (!leaders.has(e)) leaders.set(e, eventLeader(e.markets ?? []));
  return leaders.get(e);
}

export const EVENT_COLUMNS: GridColumn<Event>[] = [
  { id: 'title', header: 'Event', size: 380, grow: true, sortable: true, cell: (e) => e.title ?? e.slug ?? e.id, title: (e) => e.title },
  {
    id: 'tags',
    header: 'Tags',
    size: 220,
    cell: (e) =>
      (e.tags ?? [])
        .map((t) => t.label)
        .filter(Boolean)
        .slice(0, 4)
        .join(' · ') || '—',
    title: (e) => (e.tags ?? []).map((t) => t.label).join(', '),
  },
  {
    id: 'leading',
    header: 'Leading',
    size: 180,
    className: 'ev-leading',
    cell: (e) => leaderOf(e)?.label ?? '—',
    title: (e) => leaderOf(e)?.label,
  },
  {
    id: 'chance',
    header: 'Chance',
    size: 72,
    minSize: 64,
    align: 'right',
    className: 'ev-chance',
    cell: (e) => fmtChance(leaderOf(e)?.price),
    title: (e) => {
      const l = leaderOf(e);
      return l ? `${l.label}: ${fmtChance(l.price)} chance, ${fmtCents(l.price)}` : undefined;
    },
  },
  {
    id: 'markets',
    header: 'Markets',
    size: 76,
    align: 'right',
    className: 'ev-markets',
    // Placeholders ("Person A", no prices) are not markets one can trade yet.
    cell: (e) => fmtInt((e.markets ?? []).filter((m) => !isPlaceholder(m)).length),
  },
  { id: 'volume', header: 'Volume', size: 96, align: 'right', sortable: true, descFirst: true, cell: (e) => fmtMoney(e.volume) },
  {
    id: 'volume24hr',
    header: '24h vol',
    size: 90,
    align: 'right',
    sortable: true,
    descFirst: true,
    cell: (e) => fmtMoney(e['volume24hr']),
  },
  { id: 'liquidity', header: 'Liquidity', size: 90, align: 'right', sortable: true, descFirst: true, cell: (e) => fmtMoney(e.liquidity) },
  { id: 'startDate', header: 'Starts', size: 104, sortable: true, cell: (e) => fmtDate(e.startDate) },
  { id: 'endDate', header: 'Ends', size: 104, sortable: true, cell: (e) => fmtDate(e.endDate) },
  { id: 'status', header: 'Status', size: 84, cell: (e) => <StatusBadge item={e} /> },
];

const fetchEvents = async (p: Record<string, unknown>) => {
  const rows = await api.events.list(p);
  prepareRows(EVENT_COLUMNS, rows);
  return rows;
};

export function EventsView() {
  const { ui, setUi } = useUi();
  const nav = useNav();
  const prefs = ui.events;
  const params = useMemo(
    () => ({ ...filterParams(prefs.filters, false), order: prefs.sort.field, ascending: !prefs.sort.desc }),
    [prefs.filters, prefs.sort],
  );
  const onFilters = useCallback((filters: CatalogFilters) => setUi((s) => ({ ...s, events: { ...s.events, filters } })), [setUi]);
  const list = useBlockList<Event>('events.list', params, fetchEvents);
  const count = useMemo(() => ({ n: list.rows.length, ended: list.ended, noun: 'event' }), [list.rows.length, list.ended]);
  const detailOpen = nav.detail?.kind === 'event';
  const openId = detailOpen ? nav.detail!.id : undefined;
  const onActive = useCallback(
    (e: Event) => {
      if (detailOpen) nav.open('event', e.id);
    },
    [detailOpen, nav],
  );

  return (
    <section className="view" aria-label="Events">
      <FilterBar filters={prefs.filters} withEvent={false} onChange={onFilters} count={count} />
      <DataGrid
        label="Events"
        columns={EVENT_COLUMNS}
        list={list}
        sort={prefs.sort}
        onSort={(sort) => setUi((s) => ({ ...s, events: { ...s.events, sort } }))}
        columnSizing={prefs.columnSizing}
        onColumnSizing={(columnSizing) => setUi((s) => ({ ...s, events: { ...s.events, columnSizing } }))}
        resetKey={JSON.stringify(params)}
        onOpen={(e) => nav.open('event', e.id)}
        onActive={onActive}
        isOpen={(e) => e.id === openId}
        rowTestId="event-row"
        empty={<Empty noun="events" />}
      />
    </section>
  );
}
