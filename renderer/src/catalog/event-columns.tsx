/**
 * The events grid's columns: the event (star, icon, title), its leader and chance, the number
 * of tradable markets, money and dates. `priority`: the order columns are hidden in when the
 * grid is narrow (lowest first); the event, leader, chance and 24h volume always stay.
 */
import type { Event } from '../api.ts';
import { eventLeader, fmtCents, fmtChance, isPlaceholder, type Leader } from '../chance.ts';
import { StatusBadge } from '../components/cells.tsx';
import { Icon } from '../components/Icon.tsx';
import { fmtDate, fmtDateTime, fmtInt, fmtMoney, fmtMoneyFull, num, STATUS_LABEL, statusOf } from '../format.ts';
import type { GridColumn } from '../grid/DataGrid.tsx';
import { Star } from '../watchlist.tsx';

// Two columns read the leader: parse the nested markets once per row object.
const leaders = new WeakMap<Event, Leader | undefined>();
function leaderOf(e: Event): Leader | undefined {
  if (!leaders.has(e)) leaders.set(e, eventLeader(e.markets ?? []));
  return leaders.get(e);
}

const name = (e: Event) => e.title ?? e.slug ?? e.id;
const tradable = (e: Event) => (e.markets ?? []).filter((m) => !isPlaceholder(m)).length;

/** A money column: compact in the cell, exact in the tooltip, the number when copied. */
function money(value: (e: Event) => unknown) {
  return {
    cell: (e: Event) => fmtMoney(value(e)),
    title: (e: Event) => (num(value(e)) === undefined ? undefined : fmtMoneyFull(value(e))),
    text: (e: Event) => String(num(value(e)) ?? ''),
  };
}

export const EVENT_COLUMNS: GridColumn<Event>[] = [
  {
    id: 'title',
    header: 'Event',
    size: 380,
    minSize: 220,
    grow: true,
    sortable: true,
    className: 'name-cell',
    cell: (e) => (
      <>
        <Star kind="event" id={e.id} label={name(e)} />
        <Icon kind="event" id={e.id} size={18} />
        <span className="name-text">{name(e)}</span>
      </>
    ),
    title: (e) => e.title,
    text: name,
  },
  {
    id: 'tags',
    header: 'Tags',
    size: 200,
    priority: 1,
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
    size: 70,
    minSize: 62,
    align: 'right',
    className: 'ev-chance',
    cell: (e) => fmtChance(leaderOf(e)?.price),
    title: (e) => {
      const l = leaderOf(e);
      return l ? `${l.label}: ${fmtChance(l.price)} chance, ${fmtCents(l.price)}` : undefined;
    },
    text: (e) => String(leaderOf(e)?.price ?? ''),
  },
  // Placeholders ("Person A", no prices) are not markets one can trade yet.
  {
    id: 'markets',
    header: 'Markets',
    size: 76,
    minSize: 64,
    align: 'right',
    priority: 6,
    className: 'ev-markets',
    cell: (e) => fmtInt(tradable(e)),
  },
  {
    id: 'volume',
    header: 'Volume',
    size: 84,
    minSize: 72,
    align: 'right',
    sortable: true,
    descFirst: true,
    priority: 7,
    ...money((e) => e.volume),
  },
  {
    id: 'volume24hr',
    header: '24h vol',
    size: 84,
    minSize: 72,
    align: 'right',
    sortable: true,
    descFirst: true,
    ...money((e) => e['volume24hr']),
  },
  {
    id: 'liquidity',
    header: 'Liquidity',
    size: 90,
    minSize: 72,
    align: 'right',
    sortable: true,
    descFirst: true,
    priority: 3,
    ...money((e) => e.liquidity),
  },
  {
    id: 'startDate',
    header: 'Starts',
    size: 104,
    sortable: true,
    priority: 2,
    cell: (e) => fmtDate(e.startDate),
    title: (e) => fmtDateTime(e.startDate),
  },
  {
    id: 'endDate',
    header: 'Ends',
    size: 104,
    sortable: true,
    priority: 4,
    cell: (e) => fmtDate(e.endDate),
    title: (e) => fmtDateTime(e.endDate),
  },
  { id: 'status', header: 'Status', size: 84, priority: 5, cell: (e) => <StatusBadge item={e} />, text: (e) => STATUS_LABEL[statusOf(e)] },
];
