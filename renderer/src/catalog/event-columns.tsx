/**
 * The events grid's columns: the event (star, icon, title), its leader, chance and the leader's
 * 24h change (both sorted by the service: EVENT_ORDER_FIELDS), the number of tradable markets,
 * money and dates. `priority`: the order columns are hidden in when the grid is narrow (lowest
 * first); the event, leader, chance and 24h volume always stay.
 */
import type { EventOrderField } from '../../../src/contract/enums.ts';
import type { Event } from '../api.ts';
import { eventLeader, eventLeaderChange, isPlaceholder, rankMarkets, type Leader } from '../../../src/contract/market-rules.ts';
import { fmtInt } from '../format.ts';
import type { GridColumn } from '../grid/DataGrid.tsx';
import { LiveChange, LiveLeaderChance } from '../stream/LiveCells.tsx';
import { fmtChange } from '../format.ts';
import { dateColumn, moneyColumn, nameColumn, statusColumn } from './column-kit.tsx';

// Two columns read the leader: parse the nested markets once per row object.
const leaders = new WeakMap<Event, Leader | undefined>();
function leaderOf(e: Event): Leader | undefined {
  if (!leaders.has(e)) leaders.set(e, eventLeader(e.markets ?? []));
  return leaders.get(e);
}

const name = (e: Event) => e.title ?? e.slug ?? e.id;
const tradable = (e: Event) => (e.markets ?? []).filter((m) => !isPlaceholder(m)).length;

export const EVENT_COLUMNS: GridColumn<Event, EventOrderField>[] = [
  nameColumn('event', 'title', 'Event', name, (e) => e.title),
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
    // As the CSV export lists them.
    text: (e) => (e.tags ?? []).map((t) => t.label ?? t.slug ?? t.id).join(' | '),
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
    size: 82,
    minSize: 62,
    align: 'right',
    className: 'ev-chance',
    sortable: true,
    descFirst: true,
    // The leading market streams while the row is on screen (stream/LiveCells.tsx).
    cell: (e) => <LiveLeaderChance markets={e.markets ?? []} />,
    text: (e) => leaderOf(e)?.price,
  },
  // The leader's move (market-rules.ts eventLeaderChange: the service sorts by the same rule), live as the markets grid's.
  {
    id: 'oneDayPriceChange',
    header: '24h change',
    size: 114,
    minSize: 72,
    align: 'right',
    className: 'ev-change',
    sortable: true,
    descFirst: true,
    cell: (e) => {
      const top = rankMarkets(e.markets ?? [])[0];
      return top ? <LiveChange m={top} /> : '—';
    },
    text: (e) => fmtChange(eventLeaderChange(e.markets ?? [])),
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
    text: tradable,
  },
  moneyColumn('volume', 'Volume', (e) => e.volume, 7),
  moneyColumn('volume24hr', '24h vol', (e) => e['volume24hr']),
  moneyColumn('liquidity', 'Liquidity', (e) => e.liquidity, 3),
  dateColumn('startDate', 'Starts', (e) => e.startDate, 2),
  dateColumn('endDate', 'Ends', (e) => e.endDate, 4),
  statusColumn<Event>(5),
];
