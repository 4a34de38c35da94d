/**
 * The "what moved" sorts through the store: a market's chance and 24h change, and an event's leader's,
 * follow each write (a market written alone moves its event), and a cache from before migration v9 gets
 * them filled. Expected orders come from the test's own rows, sorted here.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { operations, parseParams } from '../contract/index.ts';
import type { GammaEvent, GammaMarket } from '../contract/gamma.ts';
import { CatalogStore } from './catalog-store.ts';
import { MIGRATIONS } from './migrations.ts';
import { migrate } from './schema.ts';
import { sqlEngine } from './sqlite.ts';

const stores: CatalogStore[] = [];
afterEach(async () => {
  while (stores.length) await stores.pop()!.close();
});

let clock = Date.parse('2026-01-01T00:00:00Z');
const stamp = () => {
  clock += 1000;
  return new Date(clock).toISOString();
};

/** A Yes/No market: `yes` its Yes price, listed No first when `noFirst` (the chance is Yes's wherever it is). */
function market(id: number, yes: number, change: number | undefined, noFirst = false): GammaMarket {
  const names = noFirst ? ['No', 'Yes'] : ['Yes', 'No'];
  const prices = noFirst ? [1 - yes, yes] : [yes, 1 - yes];
  return {
    id: String(id),
    question: `Market ${id}?`,
    slug: `market-${id}`,
    active: true,
    closed: false,
    outcomes: JSON.stringify(names),
    outcomePrices: JSON.stringify(prices.map(String)),
    volumeNum: 1000 - id,
    spread: (id % 7) / 100,
    ...(change === undefined ? {} : { oneDayPriceChange: change }),
    updatedAt: stamp(),
  };
}

function list(store: CatalogStore, op: 'markets.list' | 'events.list', raw: Record<string, string>): string[] {
  if (op === 'markets.list') {
    const p = parseParams(operations[op].params, { limit: '100', ...raw });
    if (!p.ok) throw new Error(p.message);
    return store.reader.listMarkets(p.value).map((x) => x.id);
  }
  const p = parseParams(operations[op].params, { limit: '100', ...raw });
  if (!p.ok) throw new Error(p.message);
  return store.reader.listEvents(p.value).map((x) => x.id);
}

/** Ids by key, descending (or ascending), missing keys last, ties by id in the same direction. */
function sortedBy<T extends { id: string }>(rows: T[], key: (r: T) => number | undefined, desc: boolean): string[] {
  const d = desc ? -1 : 1;
  return [...rows]
    .sort((a, b) => {
      const x = key(a);
      const y = key(b);
      if (x === undefined || y === undefined) return x === y ? d * (Number(a.id) - Number(b.id)) : x === undefined ? 1 : -1;
      return d * (x - y) || d * (Number(a.id) - Number(b.id));
    })
    .map((r) => r.id);
}

const markets = [
  market(1, 0.9, 0.05),
  market(2, 0.6, -0.3, true),
  market(3, 0.55, 0.12),
  market(4, 0.01, undefined),
  market(5, 0.7, -0.05),
  market(6, 0.35, 0.2),
];
// Event 10: markets 1, 3 and 4 (leader 1, the highest Yes); 11: market 2 alone; 12: 5 and 6 (leader 5).
const events: GammaEvent[] = [
  {
    id: '10',
    title: 'Ten',
    slug: 'ten',
    active: true,
    closed: false,
    updatedAt: stamp(),
    markets: [markets[2]!, markets[0]!, markets[3]!],
  },
  { id: '11', title: 'Eleven', slug: 'eleven', active: true, closed: false, updatedAt: stamp(), markets: [markets[1]!] },
  { id: '12', title: 'Twelve', slug: 'twelve', active: true, closed: false, updatedAt: stamp(), markets: [markets[4]!, markets[5]!] },
];
const yesOf = (m: GammaMarket) => {
  const names = JSON.parse(String(m.outcomes)) as string[];
  return Number((JSON.parse(String(m.outcomePrices)) as string[])[names.indexOf('Yes')]);
};
const change = (m: GammaMarket) => m.oneDayPriceChange as number | undefined;

describe('move keys', () => {
  it('sort markets by chance (the Yes price), 24h change by sign and by size, and spread', async () => {
    const store = await CatalogStore.open();
    stores.push(store);
    store.apply({ events });
    const rows = markets;
    expect(list(store, 'markets.list', { order: 'chance' })).toEqual(sortedBy(rows, yesOf, true));
    expect(list(store, 'markets.list', { order: 'oneDayPriceChange' })).toEqual(sortedBy(rows, change, true));
    expect(list(store, 'markets.list', { order: 'oneDayPriceChange', ascending: 'true' })).toEqual(sortedBy(rows, change, false));
    const size = (m: GammaMarket) => (change(m) === undefined ? undefined : Math.abs(change(m)!));
    expect(list(store, 'markets.list', { order: 'oneDayPriceChangeSize' })).toEqual(sortedBy(rows, size, true));
    expect(list(store, 'markets.list', { order: 'spread', ascending: 'true' })).toEqual(sortedBy(rows, (m) => m.spread as number, false));
  });

  it("sort events by their leader's chance and 24h change, and follow a market written alone", async () => {
    const store = await CatalogStore.open();
    stores.push(store);
    store.apply({ events });
    // The leader: the highest Yes price of a multi-market event; a one-market event's own (its Yes is the likelier side).
    const leader: Record<string, GammaMarket> = { '10': markets[0]!, '11': markets[1]!, '12': markets[4]! };
    const eventRows = () => events.map((e) => ({ id: String(e.id), m: leader[String(e.id)]! }));
    const chanceOf = (r: { m: GammaMarket }) => yesOf(r.m);
    expect(list(store, 'events.list', { order: 'chance' })).toEqual(sortedBy(eventRows(), chanceOf, true));
    expect(list(store, 'events.list', { order: 'oneDayPriceChange' })).toEqual(sortedBy(eventRows(), (r) => change(r.m), true));
    // Market 6 overtakes 5 in event 12 with a big fall, written from a market listing (no event in the batch).
    const moved = { ...market(6, 0.95, -0.4), events: [{ id: '12' }] } as GammaMarket;
    store.apply({ markets: [moved] });
    leader['12'] = moved;
    expect(list(store, 'events.list', { order: 'oneDayPriceChange', ascending: 'true' })).toEqual(
      sortedBy(eventRows(), (r) => change(r.m), false),
    );
    const size = (r: { m: GammaMarket }) => (change(r.m) === undefined ? undefined : Math.abs(change(r.m)!));
    expect(list(store, 'events.list', { order: 'oneDayPriceChangeSize' })).toEqual(sortedBy(eventRows(), size, true));
    expect(list(store, 'events.list', { order: 'chance' })).toEqual(sortedBy(eventRows(), chanceOf, true));
  });

  it('fills the keys of a cache made before them (migration v9)', async () => {
    const SQL = await sqlEngine();
    const db = new SQL.Database();
    db.exec('BEGIN');
    for (let v = 0; v < 8; v++) db.exec(MIGRATIONS[v]!);
    db.exec('PRAGMA user_version = 8; COMMIT');
    db.exec(`INSERT INTO markets (id, "outcomes", "outcomePrices", "oneDayPriceChange", "closed") VALUES
      (1, '["Yes","No"]', '["0.7","0.3"]', -0.02, 0), (2, '["No","Yes"]', '["0.6","0.4"]', 0.1, 0), (3, 'junk', NULL, NULL, 0)`);
    db.exec(`INSERT INTO events (id) VALUES (20), (21);
      INSERT INTO market_events (market_id, event_id, position) VALUES (1, 20, 0), (2, 20, 1), (3, 21, 0)`);
    migrate(db);
    expect(db.exec('SELECT id, _chance, _change_size FROM markets ORDER BY id')[0]!.values).toEqual([
      [1, 0.7, 0.02],
      [2, 0.4, 0.1],
      [3, null, null],
    ]);
    // Event 20's leader is market 1 (0.7); 21 has no priced market.
    expect(db.exec('SELECT id, _chance, _change, _change_size FROM events ORDER BY id')[0]!.values).toEqual([
      [20, 0.7, -0.02, 0.02],
      [21, null, null, null],
    ]);
    db.close();
  });
});
