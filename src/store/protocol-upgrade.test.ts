/**
 * Migration v7 (issue 25): a cache a v6 build wrote opens, upgrades in place (its rows and search
 * kept), and then keeps the 2026 fields (`version`, `positionIds`, fees, `eventMetadata`) with
 * their exact JSON types; and the orders view names an order's outcome by the ids the market
 * trades by (market-rules.ts tradingIds), never by the other field.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { operations, parseParams } from '../contract/index.ts';
import type { GammaEvent, GammaMarket } from '../contract/gamma.ts';
import { fixtureEvents, fixtureMarkets, fixtureTags, tempDir } from '../testing/fixtures.ts';
import { CACHE_FILE, CatalogStore } from './catalog-store.ts';
import { SCHEMA_VERSION } from './schema.ts';
import { sqlEngine } from './sqlite.ts';

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

const V7_MARKET_COLUMNS = [
  'positionIds',
  'comboStatus',
  'rfqEnabled',
  'holdingRewardsEnabled',
  'feesEnabled',
  'feeType',
  'feeSchedule',
  'version',
];
const V7_EVENT_COLUMNS = ['eventMetadata', 'version'];
/** Migration v8's market columns (and its table, wrong_trading_ids: trading-id-index.test.ts tests it). */
const V8_MARKET_COLUMNS = ['makerBaseFee', 'takerBaseFee', 'deployingTimestamp'];
/** Migration v9's move keys (move-keys.test.ts tests them), with the indexes on them (made again at open). */
const V9_COLUMNS = { markets: ['_chance', '_change_size'], events: ['_chance', '_change', '_change_size'] };

function search(store: CatalogStore, q: string): string[] {
  const p = parseParams(operations['search.query'].params, { q });
  if (!p.ok) throw new Error(p.message);
  return store.search.search(p.value).events.map((e) => e.id);
}

describe('migration v7 (the 2026 protocol fields)', () => {
  it('upgrades a v6 cache in place, then keeps the new fields with their types', async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const dir = path.join(t.dir, 'v6');
    const a = await CatalogStore.open({ dataDir: dir, persistDelayMs: 0 });
    a.apply({ tags: fixtureTags(), events: fixtureEvents() });
    a.apply({ markets: fixtureMarkets() });
    const market = fixtureMarkets()[0]!;
    const before = a.reader.getMarket(Number(market.id));
    const found = search(a, 'will');
    await a.persist();
    await a.close();

    // Make it the file a v6 build wrote: the v7, v8 and v9 columns and v8's table gone, user_version 6.
    const file = path.join(dir, CACHE_FILE);
    const SQL = await sqlEngine();
    const db = new SQL.Database(readFileSync(file));
    for (const c of V7_MARKET_COLUMNS) db.exec(`ALTER TABLE markets DROP COLUMN "${c}"`);
    for (const c of V7_EVENT_COLUMNS) db.exec(`ALTER TABLE events DROP COLUMN "${c}"`);
    for (const c of V8_MARKET_COLUMNS) db.exec(`ALTER TABLE markets DROP COLUMN "${c}"`);
    db.exec('DROP TABLE wrong_trading_ids');
    const moveIndexes = db.exec("SELECT name FROM sqlite_master WHERE type = 'index' AND (instr(sql, '_chance') OR instr(sql, '_change'))");
    for (const [name] of moveIndexes[0]?.values ?? []) db.exec(`DROP INDEX "${String(name)}"`);
    for (const [table, cols] of Object.entries(V9_COLUMNS)) for (const c of cols) db.exec(`ALTER TABLE ${table} DROP COLUMN ${c}`);
    db.exec('PRAGMA user_version = 6');
    writeFileSync(file, db.export());
    db.close();

    const b = await CatalogStore.open({ dataDir: dir, persistDelayMs: 0 });
    cleanups.push(() => b.close());
    // Rows keep what a v6 build kept (it had no column for the 2026 fields).
    const newer = [...V7_MARKET_COLUMNS, ...V8_MARKET_COLUMNS];
    const withoutV7 = (m: unknown) => Object.fromEntries(Object.entries(m as object).filter(([k]) => !newer.includes(k)));
    expect(b.reader.getMarket(Number(market.id))).toEqual(withoutV7(before));
    expect(search(b, 'will')).toEqual(found);
    b.search.verify();

    const v2 = {
      ...market,
      events: undefined,
      version: 'v2',
      clobTokenIds: null,
      positionIds: ['895257453734540292493143124621755605615887197499956109032745153687078305792', '7'],
      feeSchedule: { exponent: 1, rate: 0.04, takerOnly: true, rebateRate: 0.25 },
      feesEnabled: true,
      feeType: 'politics_fees',
      comboStatus: 'enabled',
      rfqEnabled: false,
      holdingRewardsEnabled: true,
      makerBaseFee: 1000,
      takerBaseFee: 1000,
      deployingTimestamp: '2025-07-03T20:35:48.270879Z',
    } as unknown as GammaMarket;
    delete (v2 as Record<string, unknown>)['events'];
    b.apply({ markets: [{ ...v2, updatedAt: '2099-01-01T00:00:00Z' }] });
    const got = b.reader.getMarket(Number(market.id)) as Record<string, unknown>;
    for (const k of [
      'version',
      'clobTokenIds',
      'positionIds',
      'feeSchedule',
      'feesEnabled',
      'feeType',
      'comboStatus',
      'rfqEnabled',
      'holdingRewardsEnabled',
      ...V8_MARKET_COLUMNS,
    ])
      expect(got[k], k).toEqual((v2 as Record<string, unknown>)[k]);

    const event = {
      ...fixtureEvents()[0]!,
      version: 'v1',
      eventMetadata: { context_requires_regen: true },
      updatedAt: '2099-01-01T00:00:00Z',
    } as GammaEvent;
    b.apply({ events: [event] });
    const e = b.reader.getEvent(Number(event.id)) as Record<string, unknown> | undefined;
    expect(e?.['version']).toBe('v1');
    expect(e?.['eventMetadata']).toEqual({ context_requires_regen: true });

    await b.persist();
    const after = new SQL.Database(readFileSync(file));
    expect(after.exec('PRAGMA user_version')[0]!.values[0]![0]).toBe(SCHEMA_VERSION);
    after.close();
  });
});

describe('the orders view names outcomes by the trading ids (tradingIds)', () => {
  it('a v2 market by its position ids, a v1 market by its clobTokenIds even with positionIds present', async () => {
    const store = await CatalogStore.open({ persistDelayMs: 0 });
    cleanups.push(() => store.close());
    const base = { ...fixtureMarkets()[0]!, outcomes: '["Up", "Down"]' } as Record<string, unknown>;
    delete base['events'];
    const v2 = {
      ...base,
      id: '880001',
      slug: 'v2',
      conditionId: '0x01aa',
      version: 'v2',
      clobTokenIds: '["11", "12"]',
      positionIds: ['21', '22'],
    };
    const v1 = {
      ...base,
      id: '880002',
      slug: 'v1',
      conditionId: '0x01bb',
      version: 'v1',
      clobTokenIds: '["31", "32"]',
      positionIds: ['41', '42'],
    };
    store.apply({ markets: [v2, v1] as unknown as GammaMarket[] });
    const order = (id: string, market: string, assetId: string) => ({
      id,
      status: 'LIVE',
      market,
      assetId,
      outcome: '',
      makerAddress: '0xabc',
      owner: 'owner',
      price: '0.5',
      originalSize: '10',
      sizeMatched: '0',
      side: 'BUY',
      type: 'GTC',
      associateTrades: [],
      createdAt: '2026-01-01T00:00:00Z',
      updatedAt: '2026-01-01T00:00:00Z',
    });
    const orders = [order('a', '0x01aa', '22'), order('b', '0x01aa', '12'), order('c', '0x01bb', '31'), order('d', '0x01bb', '42')];
    store.side.orders.replace('0xacct', orders, Date.now());
    const named = Object.fromEntries(store.side.orders.joined('0xacct').map((o) => [o.id, o.outcomeName]));
    expect(named).toEqual({ a: 'Down', b: null, c: 'Up', d: null });
  });
});
