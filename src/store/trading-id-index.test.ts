/**
 * The wrong-trading-id index (trading-id-index.ts, migration v8): the writer keeps it equal to
 * what the cached markets name (a "v2" market's clobTokenIds, a "v1" market's positionIds)
 * through upserts, version changes, older copies, removals and prunes, over random markets
 * (fast-check, seeded); a hash hit the market's fields do not confirm is no answer; a cache a v7
 * build wrote migrates and gets the index filled from its rows; and the 2026 fields migration v8
 * added (`makerBaseFee`, `takerBaseFee`, `deployingTimestamp`) are kept and served as received,
 * in Gamma's key order.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { MARKET_FIELD_KINDS } from '../contract/catalog-fields.ts';
import type { GammaMarket } from '../contract/gamma.ts';
import { PACKAGE_ROOT } from '../package-root.ts';
import { dropColumnsAfter } from '../testing/crash-harness.ts';
import { fixtureMarkets, tempDir } from '../testing/fixtures.ts';
import { testSeed } from '../testing/seed.ts';
import { CACHE_FILE, CatalogStore } from './catalog-store.ts';
import { SCHEMA_VERSION } from './schema.ts';
import { sqlEngine } from './sqlite.ts';
import { idHash, wrongIdsOf } from './trading-id-index.ts';

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

const SAMPLE = path.join(
  PACKAGE_ROOT,
  'fixtures/polymarket-2026/gamma/gamma_market_559651_v1_with_positionIds__live_2026-08-16__ChloePike.json',
);
const { events: _events, ...BASE } = fixtureMarkets()[0]!;

/** The fields the rule reads, as the test sets them (undefined: the key is left out). */
interface Ids {
  version?: unknown;
  clobTokenIds?: unknown;
  positionIds?: unknown;
}

let clock = Date.parse('2026-01-01T00:00:00Z');
/** A market with `ids`, newer than any before it (so the writer takes it). */
function market(id: number, ids: Ids, extra: Record<string, unknown> = {}): GammaMarket {
  clock += 1000;
  const m: Record<string, unknown> = {
    ...BASE,
    id: String(id),
    slug: `trading-id-${id}`,
    conditionId: `0x${String(id).padStart(64, '0')}`,
    outcomes: '["Yes", "No"]',
    closed: false,
    updatedAt: new Date(clock).toISOString(),
    ...extra,
  };
  for (const k of ['version', 'clobTokenIds', 'positionIds'] as const) {
    if (ids[k] === undefined) delete m[k];
    else m[k] = ids[k];
  }
  return m as GammaMarket;
}

async function memoryStore(): Promise<CatalogStore> {
  const store = await CatalogStore.open({});
  cleanups.push(() => store.close());
  return store;
}

/** The index's rows, as `h:market` strings. */
const indexRows = (store: CatalogStore): string[] =>
  store
    .sideTables()
    .st.all('SELECT h, market FROM wrong_trading_ids ORDER BY h')
    .map((r) => `${r[0]}:${r[1]}`);

/** What the index should hold for `markets` (id -> served fields), each id named by one market only. */
const expectedRows = (markets: ReadonlyMap<number, Ids>): string[] =>
  [...markets]
    .flatMap(([id, m]) => wrongIdsOf(m).map((t) => ({ h: idHash(t), s: `${idHash(t)}:${id}` })))
    .sort((a, b) => a.h - b.h)
    .map((x) => x.s);

/** Every id `markets` name, and what the store must answer for each. */
function checkLookups(store: CatalogStore, markets: ReadonlyMap<number, Ids>, note = ''): void {
  for (const [id, m] of markets) {
    const wrong = new Set(wrongIdsOf(m));
    for (const field of ['clobTokenIds', 'positionIds'] as const) {
      const list = typeof m[field] === 'string' ? (JSON.parse(m[field] as string) as unknown) : m[field];
      for (const t of Array.isArray(list) ? list : []) {
        if (typeof t !== 'string') continue;
        const got = store.wrongTradingId(t);
        if (wrong.has(t))
          expect(got, `${note} ${t} of market ${id} (${String(m.version)} ${field})`).toMatchObject({ market: String(id), field });
        else expect(got, `${note} ${t} of market ${id} (${String(m.version)} ${field}) is a right id`).toBeUndefined();
      }
    }
  }
}

const CLOB = (n: number) => [`${n}1001`, `${n}1002`];
const POS = (n: number) => [`${n}2001`, `${n}2002`];

describe('the wrong-trading-id index', () => {
  it("names a v2 market's clobTokenIds and a v1 market's positionIds, and nothing else", async () => {
    const store = await memoryStore();
    const cases: [number, Ids][] = [
      [1, { version: 'v2', clobTokenIds: JSON.stringify(CLOB(1)), positionIds: POS(1) }],
      [2, { version: 'v1', clobTokenIds: JSON.stringify(CLOB(2)), positionIds: POS(2) }],
      [3, { version: 'v2', clobTokenIds: null, positionIds: POS(3) }],
      [4, { version: 'v1', clobTokenIds: JSON.stringify(CLOB(4)) }],
      [5, { clobTokenIds: JSON.stringify(CLOB(5)), positionIds: POS(5) }],
      [6, { version: 'v3', clobTokenIds: JSON.stringify(CLOB(6)), positionIds: POS(6) }],
      // Tolerated encodings: clobTokenIds as an array (kept in _extra), positionIds as JSON text.
      [7, { version: 'v2', clobTokenIds: CLOB(7), positionIds: JSON.stringify(POS(7)) }],
      [8, { version: 'v1', clobTokenIds: CLOB(8), positionIds: JSON.stringify(POS(8)) }],
      // An id in both fields is a right id.
      [9, { version: 'v1', clobTokenIds: JSON.stringify(CLOB(9)), positionIds: [CLOB(9)[0]!, POS(9)[1]!] }],
    ];
    store.apply({ markets: cases.map(([id, ids]) => market(id, ids)) });
    const markets = new Map(cases);
    expect(indexRows(store)).toEqual(expectedRows(markets));
    checkLookups(store, markets);
    expect(store.wrongTradingId(CLOB(1)[1]!)).toEqual({
      market: '1',
      version: 'v2',
      field: 'clobTokenIds',
      tradeBy: 'positionIds',
      instead: POS(1)[1],
    });
    expect(store.wrongTradingId(POS(2)[0]!)).toEqual({
      market: '2',
      version: 'v1',
      field: 'positionIds',
      tradeBy: 'clobTokenIds',
      instead: CLOB(2)[0],
    });
    expect(store.wrongTradingId(POS(9)[1]!)).toMatchObject({ market: '9' });
    for (const unknown of ['424242', '', 'abc', '1'.repeat(101)]) expect(store.wrongTradingId(unknown)).toBeUndefined();
  });

  it('a hash hit that the market does not confirm is no answer', async () => {
    const store = await memoryStore();
    store.apply({ markets: [market(1, { version: 'v1', clobTokenIds: JSON.stringify(CLOB(1)), positionIds: POS(1) })] });
    const good = CLOB(1)[0]!;
    // Forge a collision: the good id's key pointing at the market (which trades by it).
    store.sideTables().st.run('INSERT INTO wrong_trading_ids (h, market) VALUES (?, 1)', [idHash(good)]);
    expect(store.wrongTradingId(good)).toBeUndefined();
    // And at a market that does not exist.
    store.sideTables().st.run('UPDATE wrong_trading_ids SET market = 999 WHERE h = ?', [idHash(good)]);
    expect(store.wrongTradingId(good)).toBeUndefined();
    // Keys past 2^32 bind and compare exactly.
    expect(idHash(good)).toBeGreaterThan(2 ** 32);
    expect(store.sideTables().st.value('SELECT typeof(h) FROM wrong_trading_ids WHERE h = ?', [idHash(good)])).toBe('integer');
  });

  it('follows a market that changes version, is written again, is removed or pruned', async () => {
    const store = await memoryStore();
    const markets = new Map<number, Ids>();
    const put = (id: number, ids: Ids, extra?: Record<string, unknown>) => {
      store.apply({ markets: [market(id, ids, extra)] });
      markets.set(id, ids);
    };
    const check = (note: string) => {
      expect(indexRows(store), note).toEqual(expectedRows(markets));
      checkLookups(store, markets, note);
    };
    put(1, { version: 'v1', clobTokenIds: JSON.stringify(CLOB(1)), positionIds: POS(1) });
    put(2, { version: 'v2', clobTokenIds: JSON.stringify(CLOB(2)), positionIds: POS(2) });
    check('start');
    // v1 -> v2: its position ids become right, its CTF token ids wrong.
    put(1, { version: 'v2', clobTokenIds: JSON.stringify(CLOB(1)), positionIds: POS(1) });
    check('v1 -> v2');
    // v2 -> no version: nothing of it is wrong any more.
    put(2, { clobTokenIds: JSON.stringify(CLOB(2)), positionIds: POS(2) });
    check('v2 -> none');
    put(2, { version: 'v1', clobTokenIds: JSON.stringify(CLOB(2)), positionIds: POS(2) });
    check('none -> v1');
    // An older copy is not written, and changes nothing.
    store.apply({ markets: [{ ...market(2, { version: 'v2', clobTokenIds: '[]', positionIds: [] }), updatedAt: '2020-01-01T00:00:00Z' }] });
    check('older copy');
    // Ids change under the same version.
    put(1, { version: 'v2', clobTokenIds: JSON.stringify([CLOB(1)[0], '777']), positionIds: POS(1) });
    check('ids edited');
    expect(store.remove('markets', [1])).toBe(1);
    markets.delete(1);
    check('removed');
    put(
      3,
      { version: 'v2', clobTokenIds: JSON.stringify(CLOB(3)), positionIds: POS(3) },
      { closed: true, closedTime: '2020-01-01 00:00:00+00' },
    );
    check('closed');
    expect(store.prune(Date.parse('2021-01-01T00:00:00Z')).markets).toBe(1);
    markets.delete(3);
    check('pruned');
    expect(store.remove('markets', [2])).toBe(1);
    markets.delete(2);
    expect(indexRows(store)).toEqual([]);
  });

  it('stays exact over random markets of either version (property)', async () => {
    const { seed, replay } = testSeed('trading-id-index property');
    const ids = fc.record(
      {
        version: fc.constantFrom('v1', 'v2', 'v2', undefined, 'v3', null),
        clob: fc.subarray([0, 1, 2, 3]),
        pos: fc.subarray([0, 1, 2, 3]),
        clobAs: fc.constantFrom('text', 'array', 'null', 'absent'),
        posAs: fc.constantFrom('array', 'text', 'absent'),
      },
      { requiredKeys: ['clob', 'pos', 'clobAs', 'posAs'] },
    );
    const op = fc.oneof(
      fc.record({ kind: fc.constant('put' as const), id: fc.integer({ min: 1, max: 8 }), ids, old: fc.boolean() }),
      fc.record({ kind: fc.constant('remove' as const), id: fc.integer({ min: 1, max: 8 }) }),
      fc.record({ kind: fc.constant('close' as const), id: fc.integer({ min: 1, max: 8 }) }),
      fc.record({ kind: fc.constant('prune' as const) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 25 }), async (ops) => {
        const store = await CatalogStore.open({});
        try {
          const markets = new Map<number, Ids>();
          const closed = new Set<number>();
          for (const o of ops) {
            if (o.kind === 'put') {
              // Each market's ids are its own (id and slot): so each id is named by one market only.
              const slot = (k: number) => `${o.id}${k}${'7'.repeat(60)}${k}`;
              const enc = (list: string[], as: string) =>
                as === 'text' ? JSON.stringify(list) : as === 'array' ? list : as === 'null' ? null : undefined;
              const m: Ids = {
                version: o.ids.version,
                clobTokenIds: enc(o.ids.clob.map(slot), o.ids.clobAs),
                positionIds: enc(o.ids.pos.map(slot), o.ids.posAs),
              };
              const g = market(o.id, m);
              if (o.old && markets.has(o.id)) {
                // An older copy: the writer keeps what it has.
                store.apply({ markets: [{ ...g, updatedAt: '2020-01-01T00:00:00Z' }] });
                continue;
              }
              store.apply({ markets: [g] });
              markets.set(o.id, m);
              closed.delete(o.id);
            } else if (o.kind === 'remove') {
              store.remove('markets', [o.id]);
              markets.delete(o.id);
              closed.delete(o.id);
            } else if (o.kind === 'close') {
              const m = markets.get(o.id);
              if (!m) continue;
              store.apply({ markets: [market(o.id, m, { closed: true, closedTime: '2020-01-01 00:00:00+00' })] });
              closed.add(o.id);
            } else {
              store.prune(Date.parse('2021-01-01T00:00:00Z'));
              for (const id of closed) markets.delete(id);
              closed.clear();
            }
            expect(indexRows(store), `${replay} after ${JSON.stringify(o)}`).toEqual(expectedRows(markets));
          }
          checkLookups(store, markets, replay);
        } finally {
          await store.close();
        }
      }),
      { seed, numRuns: 60 },
    );
  });
});

describe('migration v8', () => {
  it('fills the index of a cache a v7 build wrote, and then keeps the new fields', async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const dir = path.join(t.dir, 'v7');
    const sample = JSON.parse(readFileSync(SAMPLE, 'utf8')) as GammaMarket;
    const cases: [number, Ids][] = [
      [11, { version: 'v2', clobTokenIds: JSON.stringify(CLOB(11)), positionIds: POS(11) }],
      [12, { version: 'v1', clobTokenIds: JSON.stringify(CLOB(12)), positionIds: POS(12) }],
      [13, { version: 'v1', clobTokenIds: JSON.stringify(CLOB(13)) }],
      [14, { clobTokenIds: JSON.stringify(CLOB(14)), positionIds: POS(14) }],
    ];
    const markets = new Map<number, Ids>(cases);
    markets.set(Number(sample.id), sample);
    const a = await CatalogStore.open({ dataDir: dir });
    a.apply({ markets: [...cases.map(([id, ids]) => market(id, ids)), sample] });
    await a.close();

    // Make it the file a v7 build wrote: no index, none of the later columns, user_version 7.
    const file = path.join(dir, CACHE_FILE);
    const SQL = await sqlEngine();
    const db = new SQL.Database(readFileSync(file));
    db.exec('DROP TABLE wrong_trading_ids');
    dropColumnsAfter(db, 7, ['markets', 'events']);
    db.exec('PRAGMA user_version = 7');
    expect(db.exec("SELECT count(*) FROM pragma_table_info('markets') WHERE name = 'makerBaseFee'")[0]!.values[0]![0]).toBe(0);
    writeFileSync(file, db.export());
    db.close();

    const b = await CatalogStore.open({ dataDir: dir });
    cleanups.push(() => b.close());
    expect(indexRows(b)).toEqual(expectedRows(markets));
    checkLookups(b, markets, 'after the migration');
    // The live sample is a v1 market with positionIds: they are its wrong ids.
    expect(b.wrongTradingId((sample.positionIds as string[])[0]!)).toMatchObject({ market: sample.id, field: 'positionIds' });
    // A v7 build kept none of the v8 fields; the next copy of the market brings them.
    const before = b.reader.getMarket(Number(sample.id)) as Record<string, unknown>;
    for (const k of ['makerBaseFee', 'takerBaseFee', 'deployingTimestamp']) expect(before).not.toHaveProperty(k);
    b.apply({ markets: [{ ...sample, updatedAt: '2099-01-01T00:00:00Z' }] });
    const after = b.reader.getMarket(Number(sample.id)) as Record<string, unknown>;
    for (const k of ['makerBaseFee', 'takerBaseFee', 'deployingTimestamp'])
      expect(after[k], k).toEqual((sample as Record<string, unknown>)[k]);
    await b.persist();
    const persisted = new SQL.Database(readFileSync(file));
    expect(persisted.exec('PRAGMA user_version')[0]!.values[0]![0]).toBe(SCHEMA_VERSION);
    persisted.close();
  });
});

describe("migration v8's fields", () => {
  it("are kept and served as received, in Gamma's key order (the live sample)", async () => {
    const store = await memoryStore();
    const sample = JSON.parse(readFileSync(SAMPLE, 'utf8')) as Record<string, unknown>;
    store.apply({ markets: [sample as GammaMarket] });
    const got = store.reader.getMarket(Number(sample['id'])) as Record<string, unknown>;
    // Every field the cache keeps comes back as received.
    const kept = Object.keys(MARKET_FIELD_KINDS).filter((k) => k in sample);
    expect(kept).toEqual(expect.arrayContaining(['makerBaseFee', 'takerBaseFee', 'deployingTimestamp']));
    for (const k of kept) expect(got[k], k).toEqual(sample[k]);
    // In the sample's order (positionIds and comboStatus excepted: migration v7 put them last in the list).
    const order = (keys: string[]) => keys.filter((k) => kept.includes(k) && k !== 'positionIds' && k !== 'comboStatus');
    expect(order(Object.keys(got))).toEqual(order(Object.keys(sample)));
    // Values of another JSON type than usual come back as sent too (kept in _extra).
    const odd = { ...sample, id: '559700', slug: 'odd', makerBaseFee: '1000', takerBaseFee: null, deployingTimestamp: 0 };
    store.apply({ markets: [odd as unknown as GammaMarket] });
    const back = store.reader.getMarket(559700) as Record<string, unknown>;
    for (const k of ['makerBaseFee', 'takerBaseFee', 'deployingTimestamp']) expect(back[k], k).toEqual(odd[k as keyof typeof odd]);
  });
});
