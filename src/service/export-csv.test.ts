/** The CSV cells of the exports: RFC 4180 quoting and formula-leading text defused. */
import { describe, expect, it } from 'vitest';
import type { Event, Market } from '../contract/index.ts';
import { EVENT_COLUMNS, MARKET_COLUMNS, csvCell, csvRow, eventCells, marketCells } from './export-csv.ts';

describe('csvCell', () => {
  it('leaves plain text and numbers as they are, empty for missing', () => {
    expect(csvCell('Will it rain?')).toBe('Will it rain?');
    expect(csvCell(0.125)).toBe('0.125');
    expect(csvCell(-0.05)).toBe('-0.05');
    expect(csvCell(true)).toBe('true');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell(Number.NaN)).toBe('');
  });

  it('quotes commas, quotes and line breaks, doubling quotes (RFC 4180 2.6, 2.7)', () => {
    expect(csvCell('Yes, no')).toBe('"Yes, no"');
    expect(csvCell('the "big" one')).toBe('"the ""big"" one"');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('cr\rhere')).toBe('"cr\rhere"');
  });

  it.each(['=1+1', '+1', '-2', '@SUM(A1)', '\tx', '=HYPERLINK("http://x","y")'])('prefixes formula-leading text %j with a quote', (v) => {
    const cell = csvCell(v);
    const unquoted = cell.startsWith('"') ? cell.slice(1, -1).replace(/""/g, '"') : cell;
    expect(unquoted).toBe(`'${v}`);
  });

  it('ends each record with CRLF', () => {
    expect(csvRow(['a', 1, null, 'b,c'])).toBe('a,1,,"b,c"\r\n');
  });
});

describe('chance and leader columns (the rules are contract/market-rules.ts, tested there)', () => {
  const m = (id: string, prices: string | null, extra: Partial<Market> = {}): Market =>
    ({ id, question: `Q${id}`, outcomes: '["Yes","No"]', outcomePrices: prices, ...extra }) as Market;
  const marketCell = (x: Market, col: (typeof MARKET_COLUMNS)[number]) => marketCells(x)[MARKET_COLUMNS.indexOf(col)];
  const eventCell = (x: Event, col: (typeof EVENT_COLUMNS)[number]) => eventCells(x)[EVENT_COLUMNS.indexOf(col)];

  it('a market’s chance is its Yes price, else its highest-priced outcome', () => {
    expect(marketCell(m('1', '["0.3","0.7"]'), 'chance')).toBe(0.3);
    expect(marketCell(m('1', '["0.4","0.6"]', { outcomes: '["Lakers","Celtics"]' }), 'chance')).toBe(0.6);
    expect(marketCell(m('1', null), 'chance')).toBeUndefined();
    expect(marketCell(m('1', '["0.4","0.6"]'), 'outcome_prices')).toBe('0.4 | 0.6');
  });

  it('an event’s leader is its highest "Yes" among priced open markets', () => {
    const e = {
      id: '9',
      tags: [],
      markets: [
        m('1', '["0.2","0.8"]', { groupItemTitle: 'Alice' }),
        m('2', '["0.6","0.4"]', { groupItemTitle: 'Bob' }),
        m('3', null, { groupItemTitle: 'Person A' }),
        m('4', '["1","0"]', { groupItemTitle: 'Settled', closed: true }),
      ],
    } as Event;
    expect([eventCell(e, 'leading'), eventCell(e, 'chance')]).toEqual(['Bob', 0.6]);
  });

  it('a one-market event reads as its market: a Yes/No market’s Yes chance, not the likelier No', () => {
    const e = { id: '9', tags: [], markets: [m('1', '["0.3","0.7"]')] } as Event;
    expect([eventCell(e, 'leading'), eventCell(e, 'chance')]).toEqual(['Yes', 0.3]);
  });
});
