import { describe, expect, it } from 'vitest';
import type { ChangeRecord } from '../../../src/contract/history-ops.ts';
import {
  buildGroups,
  byItem,
  type Context,
  editItems,
  marketIds,
  type MarketRow,
  moverItems,
  newMarketItems,
  ownFirst,
  resolvedItems,
} from './groups.ts';

const at = (min: number) => new Date(Date.UTC(2026, 10, 23, 12, min)).toISOString();
const market = (id: string, kind: ChangeRecord['kind'], min: number, before: unknown = null, after: unknown = null): ChangeRecord => ({
  kind,
  at: at(min),
  market: { id, slug: `m-${id}`, question: `Q${id}?` },
  before,
  after,
});
const event = (id: string, kind: ChangeRecord['kind'], min: number, before: unknown = null, after: unknown = null): ChangeRecord => ({
  kind,
  at: at(min),
  event: { id, slug: `e-${id}`, title: `E${id}` },
  before,
  after,
});

function ctx(rows: MarketRow[] = [], watched: string[] = [], orders: string[] = []): Context {
  const w = new Set(watched);
  return { rows: new Map(rows.map((r) => [r.id, r])), watched: (kind, id) => w.has(`${kind}:${id}`), withOrders: new Set(orders) };
}
const row = (id: string, volume24hr?: number, price?: string, eventId?: string): MarketRow => ({
  id,
  question: `Row ${id}?`,
  volume24hr,
  outcomePrices: price === undefined ? undefined : JSON.stringify([price, String(1 - Number(price))]),
  events: eventId ? [{ id: eventId }] : [],
});
const ids = (items: { id: string }[]) => items.map((i) => i.id);

describe('byItem', () => {
  it('keeps one entry per market or event in the order of its newest record, records newest first', () => {
    const list = byItem([market('1', 'price_move', 9), event('1', 'tags', 8), market('2', 'price_move', 7), market('1', 'price_move', 6)]);
    expect(list.map((l) => l.key)).toEqual(['market:1', 'event:1', 'market:2']);
    expect(list[0]!.records.map((r) => r.at)).toEqual([at(9), at(6)]);
  });
});

describe('new markets', () => {
  it('sorts by 24h volume, markets without a row last, with the current question and first price', () => {
    const items = newMarketItems(
      [market('1', 'new_market', 5), market('2', 'new_market', 4), market('3', 'new_market', 3)],
      ctx([row('1', 10, '0.3'), row('2', 500, '0.72')]),
    );
    expect(ids(items)).toEqual(['2', '1', '3']);
    expect(items[0]).toMatchObject({ title: 'Row 2?', volume24hr: 500, price: 0.72, watched: false, orders: false });
    expect(items[2]).toMatchObject({ title: 'Q3?', volume24hr: undefined, price: undefined });
  });

  it('puts watched markets, markets of watched events and markets with orders first, then by volume', () => {
    const rows = [row('1', 900), row('2', 10, undefined, '77'), row('3', 20), row('4', 30)];
    const items = newMarketItems(
      ['1', '2', '3', '4'].map((id, i) => market(id, 'new_market', 10 - i)),
      ctx(rows, ['event:77', 'market:3'], ['4']),
    );
    expect(ids(items)).toEqual(['4', '3', '2', '1']);
    expect(items.map((i) => [i.watched, i.orders])).toEqual([
      [false, true],
      [true, false],
      [true, false],
      [false, false],
    ]);
  });
});

describe('movers', () => {
  it('measures each market from its oldest before to its newest after, biggest move first, either direction', () => {
    const items = moverItems(
      [
        market('1', 'price_move', 9, 0.4, 0.46),
        market('2', 'price_move', 8, 0.8, 0.3),
        market('1', 'price_move', 7, 0.2, 0.4),
        market('3', 'price_move', 6, 0.5, 0.6),
      ],
      ctx(),
    );
    expect(ids(items)).toEqual(['2', '1', '3']);
    expect(items[1]).toMatchObject({ before: 0.2, after: 0.46, at: at(9) });
  });

  it('lists watched and ordered markets first even when they moved less', () => {
    const items = moverItems([market('1', 'price_move', 9, 0.1, 0.9), market('2', 'price_move', 8, 0.5, 0.56)], ctx([], [], ['2']));
    expect(ids(items)).toEqual(['2', '1']);
  });

  it('leaves out a record without numbers', () => {
    expect(moverItems([market('1', 'price_move', 9, null, 0.5)], ctx())).toEqual([]);
  });
});

describe('resolved', () => {
  it('carries the winning outcome, newest first, own markets first', () => {
    const items = resolvedItems(
      [
        market('1', 'resolved', 9, null, { winner: 'Yes', outcomePrices: ['1', '0'] }),
        market('2', 'resolved', 8, null, { winner: 'Lakers', outcomePrices: ['0', '1'] }),
        market('3', 'resolved', 7, null, {}),
      ],
      ctx([], ['market:3']),
    );
    expect(items.map((i) => [i.id, i.winner])).toEqual([
      ['3', undefined],
      ['1', 'Yes'],
      ['2', 'Lakers'],
    ]);
  });
});

describe('edits', () => {
  it('joins a market’s rule edit and end-date changes into one item, and keeps events apart', () => {
    const items = editItems(
      [
        market('1', 'end_date', 9, '2027-01-01T00:00:00Z', '2027-02-01T00:00:00Z'),
        event('5', 'rule_edit', 8, { description: 'a' }, { description: 'b' }),
        market('1', 'rule_edit', 7, { description: 'a' }, { description: 'b' }),
        market('1', 'end_date', 6, '2026-12-31T00:00:00Z', '2027-01-01T00:00:00Z'),
      ],
      ctx([], ['event:5']),
    );
    expect(items.map((i) => [i.kind, i.id, i.rules])).toEqual([
      ['event', '5', true],
      ['market', '1', true],
    ]);
    expect(items[1]!.endDate).toEqual({ before: '2026-12-31T00:00:00Z', after: '2027-02-01T00:00:00Z' });
    expect(items[0]).toMatchObject({ title: 'E5', watched: true, orders: false });
  });
});

describe('buildGroups and marketIds', () => {
  it('builds every group and asks for each market row once', () => {
    const feed = {
      newMarkets: [market('1', 'new_market', 9)],
      resolved: [market('2', 'resolved', 9, null, { winner: 'No' })],
      moves: [market('1', 'price_move', 9, 0.5, 0.7), market('3', 'price_move', 8, 0.5, 0.4)],
      edits: [event('4', 'rule_edit', 9), market('3', 'rule_edit', 9)],
    };
    expect(marketIds(feed)).toEqual(['1', '2', '3']);
    const g = buildGroups(feed, ctx());
    expect([g.newMarkets, g.resolved, g.movers, g.edits].map(ids)).toEqual([['1'], ['2'], ['1', '3'], ['4', '3']]);
  });
});

describe('ownFirst', () => {
  it('is stable for ties', () => {
    const list = ['a', 'b', 'c', 'd'].map((id, i) => ({ id, watched: i === 2, orders: false }));
    expect(ids(ownFirst(list))).toEqual(['c', 'a', 'b', 'd']);
  });
});
