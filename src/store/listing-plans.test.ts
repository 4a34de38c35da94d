/**
 * The listing queries' plans and answers (markets and events): `active=true&closed=false` sorted
 * reads a (closed, active, key) index in order, the default id order walks the (id, status) index, and every page
 * equals the listing's definition (filters, then the sort with NULLs last and ties by id) on a
 * fixture full of ties and NULLs.
 */
import initSqlJs, { type Database } from 'sql.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { operations, parseParams } from '../contract/index.ts';
import { CatalogReader } from './catalog-reader.ts';
import { ensureIndexes, migrate } from './schema.ts';
import { Statements } from './statements.ts';

/** Deterministic: the fixture is the same on every run. */
function rng(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

const FLAGS = [0, 1, 1, 1, null] as const;
const MONEY = [null, 0, 1.5, 1.5, 2.5, 10, 10, 300] as const;
const TIMES = [null, 1_700_000_000_000, 1_700_000_000_000, 1_750_000_000_000, 1_800_000_000_000] as const;
/** Signed moves, ties included (24h change). */
const CHANGES = [null, -0.2, -0.05, -0.05, 0, 0.05, 0.3] as const;
const WORDS = [null, 'Alpha?', 'Beta?', 'Beta?', 'gamma?'] as const;

/** Sort columns of each entity, by `order` name, with their text key (question, title) and slug. */
const SORT_COL = {
  markets: {
    volume: '_volume',
    volume24hr: '"volume24hr"',
    volume1wk: '"volume1wk"',
    liquidity: '_liquidity',
    startDate: '_start_ts',
    endDate: '_end_ts',
    createdAt: '_created_ts',
    updatedAt: '_updated_ts',
    closedTime: '_closed_ts',
    question: '"question"',
    slug: '"slug"',
    chance: '_chance',
    oneDayPriceChange: '"oneDayPriceChange"',
    oneDayPriceChangeSize: '_change_size',
    spread: '"spread"',
    id: 'id',
  },
  events: {
    volume: '"volume"',
    volume24hr: '"volume24hr"',
    volume1wk: '"volume1wk"',
    liquidity: '"liquidity"',
    startDate: '_start_ts',
    endDate: '_end_ts',
    createdAt: '_created_ts',
    updatedAt: '_updated_ts',
    closedTime: '_closed_ts',
    title: '"title"',
    slug: '_slug_lc',
    chance: '_chance',
    oneDayPriceChange: '_change',
    oneDayPriceChangeSize: '_change_size',
    id: 'id',
  },
} as const;
type Entity = keyof typeof SORT_COL;

async function fixture(): Promise<Database> {
  const SQL = await initSqlJs();
  const db = new SQL.Database();
  migrate(db);
  ensureIndexes(db);
  const r = rng(7);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)]!;
  for (const table of ['markets', 'events'] as const) {
    const cols = Object.entries(SORT_COL[table]).filter(([k]) => k !== 'id');
    const ins = db.prepare(
      `INSERT INTO ${table} (id, "active", "closed", "archived", ${cols.map(([, c]) => c).join(', ')}) ` +
        `VALUES (?, ?, ?, ?${', ?'.repeat(cols.length)})`,
    );
    // Ids out of insertion order, so an id tie-break cannot pass by accident of rowid order.
    for (let i = 0; i < 300; i++) {
      const id = ((i * 37) % 300) + 1;
      const value = ([k]: [string, string]) =>
        k === 'slug'
          ? `s-${id % 50}`
          : k === 'question' || k === 'title'
            ? pick(WORDS)
            : k.endsWith('At') || k.endsWith('Date') || k === 'closedTime'
              ? pick(TIMES)
              : k === 'oneDayPriceChange'
                ? pick(CHANGES)
                : pick(MONEY);
      ins.run([id, pick(FLAGS), pick(FLAGS), pick(FLAGS), ...cols.map(value)]);
    }
    ins.free();
  }
  return db;
}

type Raw = Record<string, string>;
const marketParams = (raw: Raw) => {
  const p = parseParams(operations['markets.list'].params, raw);
  if (!p.ok) throw new Error(p.message);
  return p.value;
};
const eventParams = (raw: Raw) => {
  const p = parseParams(operations['events.list'].params, raw);
  if (!p.ok) throw new Error(p.message);
  return p.value;
};
/** The listing's definition, written plainly: every match in order, NULLs last, ties by id in the same direction. */
function expected(db: Database, table: Entity, raw: Raw): number[] {
  const col = SORT_COL[table] as Record<string, string>;
  const where = (['active', 'closed', 'archived'] as const)
    .filter((k) => raw[k] !== undefined)
    .map((k) => `"${k}" = ${raw[k] === 'true' ? 1 : 0}`);
  const dir = raw['ascending'] === 'true' ? 'ASC' : 'DESC';
  const order = raw['order'] ? raw['order'].split(',').map((f) => `(${col[f]} IS NULL), ${col[f]} ${dir}`) : [];
  const sql =
    `SELECT id FROM ${table}${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ` +
    `ORDER BY ${[...order, `id ${raw['order'] ? dir : 'ASC'}`].join(', ')}`;
  return (db.exec(sql)[0]?.values ?? []).map((v) => Number(v[0]));
}

const FILTERS: Raw[] = [
  {},
  { closed: 'false' },
  { closed: 'true' },
  { active: 'true' },
  { active: 'false' },
  { active: 'false', archived: 'false' },
  { active: 'true', closed: 'false' },
  { active: 'false', closed: 'false' },
  { active: 'true', closed: 'false', archived: 'false' },
  { archived: 'false' },
];
const orders = (table: Entity): Raw[] => [
  {},
  ...Object.keys(SORT_COL[table]).flatMap((order) => [
    { order, ascending: 'true' },
    { order, ascending: 'false' },
  ]),
  { order: 'volume,endDate', ascending: 'false' },
];

describe.each(['markets', 'events'] as const)('%s listing plans', (table) => {
  const alias = table === 'markets' ? 'm' : 'e';
  let db: Database;
  let reader: CatalogReader;
  let st: Statements;
  beforeAll(async () => {
    db = await fixture();
    st = new Statements(db);
    reader = new CatalogReader(st, () => ({}));
  });

  const list = (raw: Raw): number[] =>
    (table === 'markets' ? reader.listMarkets(marketParams(raw)) : reader.listEvents(eventParams(raw))).map((x) => Number(x.id));

  /** The plan of the page-id query the reader runs for these parameters (`last`: its last one, after any id-order hops). */
  const planOf = (raw: Raw, last = false): string => {
    const seen: [string, unknown[]][] = [];
    st.trace = (sql, bind) => {
      // The page's ids: one SELECT, or a closed-split page's arms in one UNION ALL.
      if (sql.startsWith(`SELECT ${alias}.id FROM ${table} ${alias}`) || sql.includes(' UNION ALL ')) seen.push([sql, bind]);
    };
    list({ limit: '20', ...raw });
    st.trace = undefined;
    expect(seen.length).toBeGreaterThan(0);
    const [sql, bind] = last ? seen.at(-1)! : seen[0]!;
    return db
      .exec(`EXPLAIN QUERY PLAN ${sql}`, bind as never)[0]!
      .values.map((r) => String(r[3]))
      .join(' | ');
  };

  it('every page equals the listing definition, for each filter and sort, ties and NULLs included', () => {
    let pages = 0;
    for (const f of FILTERS) {
      for (const o of orders(table)) {
        const raw = { ...f, ...o };
        const all = expected(db, table, raw);
        for (let offset = 0; offset <= all.length + 7; offset += 7) {
          expect(list({ limit: '7', offset: String(offset), ...raw }), `${JSON.stringify(raw)} offset ${offset}`).toEqual(
            all.slice(offset, offset + 7),
          );
          pages++;
        }
      }
    }
    expect(pages).toBeGreaterThan(1000);
  });

  it("counts a tag's members on the (id, status) index, never reading whole rows, and counts right", () => {
    const [link, own] = table === 'markets' ? ['market_tags', 'market_id'] : ['event_tags', 'event_id'];
    db.exec(`INSERT OR IGNORE INTO ${link} (tag_id, ${own}) SELECT 7, id FROM ${table} WHERE id % 3 = 0`);
    const count = (raw: Raw): number =>
      table === 'markets' ? reader.countMarkets(marketParams(raw)) : reader.countEvents(eventParams(raw));
    const seen: [string, unknown[]][] = [];
    st.trace = (sql, bind) => {
      if (sql.startsWith('SELECT count(*)')) seen.push([sql, bind]);
    };
    for (const f of [{}, { closed: 'false' }, { active: 'true', closed: 'false' }] as Raw[]) {
      seen.length = 0;
      const n = count({ ...f, tag_id: '7' });
      const where = Object.entries(f).map(([k, v]) => ` AND "${k}" = ${v === 'true' ? 1 : 0}`);
      const direct = db.exec(`SELECT count(*) FROM ${table} WHERE id % 3 = 0${where.join('')}`)[0]!.values[0]![0];
      expect(n, JSON.stringify(f)).toBe(direct);
      const [sql, bind] = seen.at(-1)!;
      const plan = db
        .exec(`EXPLAIN QUERY PLAN ${sql}`, bind as never)[0]!
        .values.map((r) => String(r[3]))
        .join(' | ');
      expect(plan, JSON.stringify(f)).toMatch(new RegExp(`COVERING INDEX ${table}_id_status`));
    }
    st.trace = undefined;
  });

  it('pages a collected tag as slices of one sorted id list, read once, and follows the next write', () => {
    const [link, own] = table === 'markets' ? ['market_tags', 'market_id'] : ['event_tags', 'event_id'];
    db.exec(`INSERT OR IGNORE INTO ${link} (tag_id, ${own}) SELECT 9, id FROM ${table} WHERE id % 4 = 0`);
    const member = (id: number) => id % 4 === 0;
    let reads = 0;
    st.trace = (sql) => {
      if (sql.startsWith(`SELECT ${alias}.id FROM ${table} ${alias}`) && sql.includes(`FROM ${link} WHERE tag_id = ?`)) reads++;
    };
    const pagesOf = (raw: Raw) => {
      const out: number[] = [];
      for (let offset = 0; ; offset += 6) {
        const page = list({ ...raw, tag_id: '9', limit: '6', offset: String(offset) });
        out.push(...page);
        if (page.length < 6) return out;
      }
    };
    const cases: Raw[] = [
      { order: 'volume24hr', ascending: 'false', closed: 'false' },
      { order: 'endDate', ascending: 'true', active: 'true' },
      { order: 'liquidity', ascending: 'true' },
      {},
    ];
    for (const raw of cases) {
      reads = 0;
      expect(pagesOf(raw), JSON.stringify(raw)).toEqual(expected(db, table, raw).filter(member));
      // Once, or twice for an ascending sort (its non-NULL keys, then its NULLs).
      expect(reads, JSON.stringify(raw)).toBeLessThanOrEqual(raw['ascending'] === 'true' ? 2 : 1);
      expect(reads, JSON.stringify(raw)).toBeGreaterThan(0);
    }
    // A write empties the memo: the next pages follow the new order.
    const top = expected(db, table, cases[0]!).filter(member).at(-1)!;
    db.exec(`UPDATE ${table} SET "volume24hr" = 1e12 WHERE id = ${top}`);
    expect(pagesOf(cases[0]!)[0]).toBe(top);
    expect(pagesOf(cases[0]!)).toEqual(expected(db, table, cases[0]!).filter(member));
    db.exec(`DELETE FROM ${link} WHERE tag_id = 9`);
    st.trace = undefined;
  });

  for (const stats of ['no statistics', 'after ANALYZE'] as const) {
    describe(stats, () => {
      beforeAll(() => {
        if (stats === 'after ANALYZE') db.exec('ANALYZE');
      });

      it('reads active=true&closed=false sorted from a (closed, active, key) index, with no sort step', () => {
        for (const [order, ascending] of [
          ['volume24hr', 'false'],
          ['volume', 'false'],
          ['liquidity', 'false'],
          ['endDate', 'true'],
          ['startDate', 'false'],
          ['createdAt', 'false'],
          ['chance', 'false'],
          ['oneDayPriceChange', 'false'],
          ['oneDayPriceChange', 'true'],
          ['oneDayPriceChangeSize', 'false'],
          ...(table === 'markets' ? ([['spread', 'true']] as const) : []),
        ] as const) {
          const plan = planOf({ active: 'true', closed: 'false', order, ascending, offset: '60000' });
          expect(plan, order).toMatch(
            new RegExp(`SEARCH ${alias} USING COVERING INDEX ${table}_closed_active_\\w+ \\(closed=\\? AND active=\\?`),
          );
          expect(plan, order).not.toMatch(/TEMP B-TREE/);
        }
      });

      it('reads closed=false by every other sort from a (closed, key, status) index, sorting only ties by id', () => {
        const keys: Record<Entity, string[]> = {
          markets: ['volume1wk', 'slug', 'updatedAt', 'closedTime', 'question'],
          events: ['title'],
        };
        // The moves' sorts have a (closed, active, key) index too (above): closed= alone reads their status index.
        const moves: Record<Entity, string[]> = {
          markets: ['chance', 'oneDayPriceChange', 'oneDayPriceChangeSize', 'spread'],
          events: ['chance', 'oneDayPriceChange', 'oneDayPriceChangeSize'],
        };
        const cases = [
          ...keys[table].flatMap((order) => [{ closed: 'false' }, { active: 'true', closed: 'false' }].map((f) => [order, f] as const)),
          ...moves[table].flatMap((order) => [{ closed: 'false' }, { closed: 'true' }].map((f) => [order, f] as const)),
        ];
        for (const [order, f] of cases) {
          {
            const plan = planOf({ ...f, order, ascending: 'false', offset: '8000' });
            expect(plan, `${order} ${JSON.stringify(f)}`).toMatch(
              new RegExp(`SEARCH ${alias} USING COVERING INDEX ${table}_status_\\w+ \\(closed=\\?\\)`),
            );
            expect(plan, order).not.toMatch(/TEMP B-TREE FOR ORDER BY/);
          }
        }
      });

      it('reads active= or archived= without closed, sorted, as a merge of closed arms, each from a (closed, ...) index', () => {
        const cases: [Raw, string][] = [
          [{ active: 'false', order: 'volume24hr', ascending: 'false' }, `${table}_closed_active_volume24hr`],
          [{ active: 'true', order: 'endDate', ascending: 'true' }, `${table}_closed_active_end`],
          [{ active: 'false', order: table === 'markets' ? 'question' : 'title', ascending: 'false' }, `${table}_status_`],
          [{ archived: 'false', order: 'liquidity', ascending: 'false' }, `${table}_status_liquidity`],
          [{ active: 'true', archived: 'false', order: 'volume', ascending: 'false' }, `${table}_status_volume`],
        ];
        for (const [raw, index] of cases) {
          const plan = planOf({ ...raw, offset: '5000' });
          expect(plan, JSON.stringify(raw)).toMatch(/MERGE \(UNION ALL\)/);
          const reads = plan.split(' | ').filter((step) => /^(SEARCH|SCAN) /.test(step));
          expect(reads, JSON.stringify(raw)).toHaveLength(3);
          for (const step of reads) expect(step, JSON.stringify(raw)).toMatch(new RegExp(`^SEARCH ${alias} USING COVERING INDEX ${index}`));
        }
      });

      it('sorts ascending with closed= on the (closed, key, status) index, never a range of the key alone', () => {
        for (const order of ['volume24hr', 'liquidity', 'endDate']) {
          for (const closed of ['true', 'false']) {
            const plan = planOf({ closed, order, ascending: 'true' });
            expect(plan, `${order} closed=${closed}`).toMatch(new RegExp(`COVERING INDEX ${table}_status_\\w+ \\(closed=\\?\\)`));
          }
        }
      });

      it('keeps archived=false with them on the (closed, key, active, archived) index, which holds all three', () => {
        const plan = planOf({ active: 'true', closed: 'false', archived: 'false', order: 'volume24hr', ascending: 'false' });
        expect(plan).toMatch(new RegExp(`COVERING INDEX ${table}_status_volume24hr \\(closed=\\?\\)`));
      });

      it('walks the (id, status) index in id order, with or without status filters, at any offset', () => {
        const filters: Raw[] = [{}, { closed: 'false' }, { active: 'true', closed: 'false' }, { archived: 'false' }];
        for (const f of filters) {
          for (const o of [{}, { order: 'id', ascending: 'false' }] as Raw[]) {
            const plan = planOf({ ...f, ...o, offset: '20' });
            expect(plan, JSON.stringify({ ...f, ...o })).toBe(`SCAN ${alias} USING COVERING INDEX ${table}_id_status`);
            // A deep page starts at its checkpoint: a seek into the same index, not a scan from the start.
            reader.idMarkStep = 16;
            try {
              const deep = planOf({ ...f, ...o, offset: '20' }, true);
              const op = o.order ? '<' : '>';
              expect(deep, JSON.stringify({ ...f, ...o })).toBe(`SEARCH ${alias} USING COVERING INDEX ${table}_id_status (id${op}?)`);
            } finally {
              reader.idMarkStep = 1024;
            }
          }
        }
      });

      it('pages deep in id order from checkpoints with other filters too, as the plain walk pages them', () => {
        const [link, own] = table === 'markets' ? ['market_tags', 'market_id'] : ['event_tags', 'event_id'];
        db.exec(`INSERT OR IGNORE INTO ${link} (tag_id, ${own}) SELECT 11, id FROM ${table} WHERE id % 4 = 1`);
        const money = table === 'markets' ? ['volume_num_min', 'liquidity_num_max'] : ['volume_min', 'liquidity_max'];
        const filters: Raw[] = [
          { tag_id: '11' },
          { tag_id: '11', closed: 'false' },
          { exclude_tag_id: '11' },
          { [money[0]!]: '1.5' },
          { [money[1]!]: '10', active: 'true' },
          { end_date_min: '2024-01-01' },
          // Repeated keys, as a query string gives them.
          { id: Array.from({ length: 60 }, (_, i) => String(i * 4 + 2)) as unknown as string },
        ];
        const pages = (raw: Raw, step: number) => {
          reader.idMarkStep = step;
          const out: number[][] = [];
          for (let offset = 0; offset <= 300; offset += 5) out.push(list({ limit: '5', offset: String(offset), ...raw }));
          return out;
        };
        try {
          for (const f of filters) {
            for (const o of [{}, { order: 'id', ascending: 'false' }] as Raw[]) {
              const plain = pages({ ...f, ...o }, 1e9);
              expect(plain.flat().length, JSON.stringify(f)).toBeGreaterThan(0);
              for (const step of [1, 3, 16])
                expect(pages({ ...f, ...o }, step), `step ${step} ${JSON.stringify({ ...f, ...o })}`).toEqual(plain);
            }
          }
        } finally {
          reader.idMarkStep = 1024;
          db.exec(`DELETE FROM ${link} WHERE tag_id = 11`);
        }
      });

      it('pages deep in id order from checkpoints, every page equal to the definition, and a write moves them', () => {
        const idOrders: Raw[] = [{}, { order: 'id', ascending: 'true' }, { order: 'id', ascending: 'false' }];
        try {
          for (const step of [1, 2, 5, 64]) {
            reader.idMarkStep = step;
            for (const f of FILTERS) {
              for (const o of idOrders) {
                const raw = { ...f, ...o };
                const all = expected(db, table, raw);
                for (let offset = 0; offset <= all.length + 3; offset += 3) {
                  expect(
                    list({ limit: '4', offset: String(offset), ...raw }),
                    `step ${step} ${JSON.stringify(raw)} offset ${offset}`,
                  ).toEqual(all.slice(offset, offset + 4));
                }
              }
            }
          }
          // The checkpoints are the listing's as it is now: a row added before them shifts every deep page.
          reader.idMarkStep = 5;
          const before = list({ limit: '5', offset: '50' });
          db.exec(`INSERT INTO ${table} (id, "active", "closed", "archived") VALUES (0, 1, 0, 0)`);
          try {
            const after = list({ limit: '5', offset: '50' });
            expect(after).toEqual(expected(db, table, {}).slice(50, 55));
            // The new row 0 moved every row one place on: the old page's first four follow a new first.
            expect(after[0]).not.toBe(before[0]);
            expect(after.slice(1)).toEqual(before.slice(0, 4));
          } finally {
            db.exec(`DELETE FROM ${table} WHERE id = 0`);
          }
        } finally {
          reader.idMarkStep = 1024;
        }
      });
    });
  }
});
