/**
 * A copied row pastes as the CSV export writes it (one rule, contract/plain-cells.ts): for the
 * recorded catalog's rows and a few awkward ones (a negative move, a tiny spread, a formula-like
 * name, a date that is not ISO), every column both carry holds the same text, numbers are plain
 * (ASCII minus, no unit, no grouping) and equal the field's value, dates are ISO 8601.
 */
import { describe, expect, it } from 'vitest';
import type { Event, Market } from '../../../src/contract/index.ts';
import {
  EVENT_COLUMNS as CSV_EVENT_COLUMNS,
  MARKET_COLUMNS as CSV_MARKET_COLUMNS,
  csvRow,
  eventCells,
  marketCells,
} from '../../../src/service/export-csv.ts';
import { parseCsv } from '../../../src/testing/csv.ts';
import { fixtureEvents, fixtureMarkets } from '../../../src/testing/fixtures.ts';
import { EVENT_COLUMNS } from '../catalog/event-columns.tsx';
import { gridMarket, MARKET_COLUMNS } from '../catalog/market-columns.tsx';
import { toTsv } from './copy.ts';

/** Grid header → the CSV export's column that carries the same value. */
const MARKET_MAP: Record<string, string> = {
  Market: 'question',
  Chance: 'chance',
  '24h change': 'one_day_price_change',
  Spread: 'spread',
  Event: 'event',
  Volume: 'volume',
  '24h vol': 'volume_24hr',
  Liquidity: 'liquidity',
  Ends: 'end_date',
};
const EVENT_MAP: Record<string, string> = {
  Event: 'title',
  Tags: 'tags',
  Leading: 'leading',
  Chance: 'chance',
  Volume: 'volume',
  '24h vol': 'volume_24hr',
  Liquidity: 'liquidity',
  Starts: 'start_date',
  Ends: 'end_date',
};
const NUMBER_COLUMNS = new Set(['chance', 'one_day_price_change', 'spread', 'volume', 'volume_24hr', 'liquidity']);
const DATE_COLUMNS = new Set(['end_date', 'start_date']);

const tsv = (text: string) =>
  text
    .replace(/\n$/, '')
    .split('\n')
    .map((l) => l.split('\t'));

/** Copy and export of the same rows, as {header → cell} records, row by row. */
function both(copied: string, exported: string): { copy: Record<string, string>; csv: Record<string, string> }[] {
  const [th, ...tr] = tsv(copied);
  const [ch, ...cr] = parseCsv(exported);
  expect(tr.length).toBe(cr.length);
  const rec = (h: string[], r: string[]) => Object.fromEntries(h.map((k, i) => [k, r[i] ?? '']));
  return tr.map((r, i) => ({ copy: rec(th!, r), csv: rec(ch!, cr[i]!) }));
}

function check(rows: { copy: Record<string, string>; csv: Record<string, string> }[], map: Record<string, string>) {
  let compared = 0;
  for (const { copy, csv } of rows) {
    for (const [header, column] of Object.entries(map)) {
      if (!(header in copy)) continue;
      // A tab or line break would split the pasted cells: the copy makes it a space.
      expect(copy[header], `${header} = ${column}`).toBe(csv[column]!.replace(/[\t\r\n]+/g, ' '));
      compared++;
      const cell = copy[header]!;
      if (NUMBER_COLUMNS.has(column) && cell !== '') expect(cell, header).toMatch(/^-?\d+(\.\d+)?(e-\d+)?$/);
      if (DATE_COLUMNS.has(column) && cell !== '')
        expect(cell, header).toMatch(/^\d{4}-\d\d-\d\d(T\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:?\d\d)?)?$/);
    }
  }
  return compared;
}

const awkward: Market[] = [
  {
    id: 'x1',
    question: '=HYPERLINK("http://x")\tnow',
    outcomes: '["Yes","No"]',
    outcomePrices: '["0.004","0.996"]',
    oneDayPriceChange: -0.0125,
    spread: 0.001,
    volumeNum: 1234567.89,
    volume24hr: 0,
    liquidityNum: 12.5,
    endDate: 'March 3, 2026 12:00 UTC',
    active: true,
    closed: false,
    events: [{ id: 'e1', title: '-5 degrees' }],
  } as Market,
  { id: 'x2', question: 'No figures at all' } as Market,
];

describe('copied rows paste as the CSV export writes them', () => {
  it('markets: the same text in every column both carry; numbers plain, dates ISO', () => {
    const markets = [...fixtureMarkets().slice(0, 60), ...awkward] as Market[];
    const rows = both(
      toTsv(MARKET_COLUMNS, markets.map(gridMarket)),
      [CSV_MARKET_COLUMNS, ...markets.map(marketCells)].map((r) => csvRow(r as never)).join(''),
    );
    expect(check(rows, MARKET_MAP)).toBeGreaterThan(markets.length * 6);
    // Against the fields themselves, not only the export: the number is the field's, the minus ASCII.
    const x1 = rows.at(-2)!.copy;
    expect(Number(x1['24h change'])).toBe(-0.0125);
    expect(x1['24h change']).toBe('-0.0125');
    expect(Number(x1['Volume'])).toBe(1234567.89);
    expect(Number(x1['Chance'])).toBe(0.004);
    expect(x1['Ends']).toBe(new Date(Date.parse('March 3, 2026 12:00 UTC')).toISOString());
    // A formula is shown, not run; a tab does not split the cell.
    expect(x1['Market']!.startsWith("'=HYPERLINK")).toBe(true);
    expect(x1['Event']).toBe("'-5 degrees");
    const x2 = rows.at(-1)!.copy;
    for (const h of ['Chance', '24h change', 'Spread', 'Volume', 'Event', 'Ends']) expect(x2[h], h).toBe('');
  });

  it('events: the same text in every column both carry', () => {
    const events = fixtureEvents().slice(0, 40) as Event[];
    const rows = both(toTsv(EVENT_COLUMNS, events), [CSV_EVENT_COLUMNS, ...events.map(eventCells)].map((r) => csvRow(r as never)).join(''));
    expect(check(rows, EVENT_MAP)).toBeGreaterThan(events.length * 6);
  });

  it('no unit, grouping or typographic minus in any copied number', () => {
    const [head, ...rows] = tsv(toTsv(MARKET_COLUMNS, (fixtureMarkets() as Market[]).slice(0, 200).map(gridMarket)));
    const numeric = head!.map((h, i) => [h, i] as const).filter(([h]) => NUMBER_COLUMNS.has(MARKET_MAP[h] ?? ''));
    expect(numeric.length).toBe(6);
    for (const r of rows) for (const [h, i] of numeric) expect(r[i], h).toMatch(/^(-?\d+(\.\d+)?(e-\d+)?)?$/);
  });
});
