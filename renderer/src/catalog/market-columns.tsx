/**
 * The markets grid's columns, as Polymarket's market list reads: the market (star, icon,
 * question), its chance and 24h move, the spread (these three live from the stream while the
 * row is on screen), then money and dates. Every number sorts by the service (MARKET_ORDER_FIELDS:
 * `chance` is the Yes price as the cell shows it; 24h change by its sign; the sort presets add its size).
 * `priority`: the order columns are hidden in when the grid is narrow (lowest first); the
 * market, chance, 24h change and 24h volume always stay.
 */
import type { MarketOrderField } from '../../../src/contract/enums.ts';
import type { Market } from '../api.ts';
import { marketLeader } from '../../../src/contract/market-rules.ts';
import { num } from '../format.ts';
import { LiveChance, LiveChange, LiveOutcomes, LiveSpread } from '../stream/LiveCells.tsx';
import type { GridColumn } from '../grid/DataGrid.tsx';
import { dateColumn, moneyColumn, nameColumn, statusColumn } from './column-kit.tsx';
import { SparkCell } from '../sparkline/Sparkline.tsx';
import { noSparklines, subscribeSummary } from '../sparkline/sparkline-store.ts';

const name = (m: Market) => m.question ?? m.slug ?? m.id;

export const MARKET_COLUMNS: GridColumn<Market, MarketOrderField>[] = [
  nameColumn('market', 'question', 'Market', name, (m) => m.question),
  {
    id: 'chance',
    header: 'Chance',
    size: 82,
    minSize: 62,
    align: 'right',
    sortable: true,
    descFirst: true,
    // Live (stream/LiveCells.tsx): the tooltip is the value's own, with its freshness.
    cell: (m) => <LiveChance m={m} />,
    // Copied as the CSV export writes it (contract/plain-cells.ts): the price, 0..1.
    text: (m) => marketLeader(m)?.price,
  },
  {
    id: 'oneDayPriceChange',
    header: '24h change',
    size: 114,
    minSize: 72,
    align: 'right',
    sortable: true,
    descFirst: true,
    cell: (m) => <LiveChange m={m} />,
    text: (m) => num(m['oneDayPriceChange']),
  },
  // The local price history's last 7 days (issue 16); not copied (a picture), hidden before the spread.
  // Hidden while no market asked for has local history (a fresh cache): an empty column only takes room.
  {
    id: 'spark7d',
    header: '7d',
    size: 76,
    minSize: 72,
    priority: 5.5,
    className: 'spark-cell',
    cell: (m) => <SparkCell id={m.id} />,
    empty: { isEmpty: noSparklines, subscribe: subscribeSummary },
  },
  {
    id: 'spread',
    header: 'Spread',
    size: 80,
    minSize: 62,
    align: 'right',
    sortable: true,
    priority: 6,
    cell: (m) => <LiveSpread m={m} />,
    text: (m) => num(m['spread']),
  },
  {
    id: 'event',
    header: 'Event',
    size: 200,
    priority: 1,
    cell: (m) => m.events?.[0]?.title ?? '—',
    title: (m) => m.events?.[0]?.title,
    text: (m) => m.events?.[0]?.title,
  },
  {
    id: 'outcomes',
    header: 'Outcomes',
    size: 200,
    priority: 2,
    className: 'outcomes',
    cell: (m) => <LiveOutcomes m={m} />,
  },
  moneyColumn('volumeNum', 'Volume', (m) => m.volumeNum ?? m.volume, 7),
  moneyColumn('volume24hr', '24h vol', (m) => m.volume24hr),
  moneyColumn('liquidityNum', 'Liquidity', (m) => m.liquidityNum ?? m.liquidity, 3),
  dateColumn('endDate', 'Ends', (m) => m.endDate, 4),
  statusColumn<Market>(5),
];

/** The market fields MARKET_COLUMNS read (besides `events`, of which the first title). The icon comes from the icon route by id. */
const GRID_FIELDS = [
  'question',
  'slug',
  'outcomes',
  'outcomePrices',
  'oneDayPriceChange',
  'spread',
  'bestBid',
  'bestAsk',
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
export function gridMarket(m: Market): Market {
  const out: Market = { id: m.id };
  for (const k of GRID_FIELDS) if (m[k] !== undefined) (out as Record<string, unknown>)[k] = m[k];
  const event = m.events?.[0];
  if (event) out.events = [event.title === undefined ? { id: event.id } : { id: event.id, title: event.title }];
  return out;
}
