/**
 * The fast binder stores what sql.js's own bind stores (type and value, column by column), is on
 * in the engine the store loads, and leaves what it does not handle (blobs, a wrong count, another
 * engine's statements) to sql.js.
 */
import initSqlJs, { type Database, type SqlValue } from 'sql.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkFastBind, FastBind, fastBind } from './fast-bind.ts';
import { sqlEngine } from '../sqlite.ts';
import { Statements } from '../statements.ts';

const VALUES: SqlValue[] = [
  0,
  42,
  -7,
  2 ** 31 - 1,
  2 ** 31,
  -(2 ** 31),
  -(2 ** 31) - 1,
  1_700_000_000_000,
  Number.MAX_SAFE_INTEGER,
  0.1,
  -1e-300,
  1e300,
  '',
  'plain',
  'Will "Yes" win? — 100% sure… ñ ü 日本語 🎉🚀',
  'a'.repeat(200_000),
  `${'é'.repeat(30_000)}🎉`,
  null,
];

describe('fast-bind', () => {
  let db: Database;
  beforeAll(async () => {
    const SQL = await sqlEngine();
    db = new SQL.Database();
    const cols = VALUES.map((_, i) => `c${i}`);
    db.exec(`CREATE TABLE t (k INTEGER PRIMARY KEY, ${cols.join(', ')}, n INTEGER, r REAL, x TEXT)`);
  });
  /** Each column's type and value. */
  const read = (k: number) =>
    db.exec(`SELECT ${VALUES.map((_, i) => `typeof(c${i}), c${i}`).join(', ')} FROM t WHERE k = ${k}`)[0]!.values[0];

  it('is on in the engine the store loads', () => {
    expect(fastBind()).toBeInstanceOf(FastBind);
  });

  it('stores every value as sql.js does, across its columns and affinities', () => {
    const cols = VALUES.map((_, i) => `c${i}`).join(', ');
    const sql = `INSERT INTO t (k, ${cols}, n, r, x) VALUES (?, ${VALUES.map(() => '?').join(', ')}, ?, ?, ?)`;
    const st = db.prepare(sql);
    // sql.js's own bind, then the fast one, on the same statement.
    st.run([1, ...VALUES, 2.5, 3, 4]);
    expect(fastBind()!.bind(st, [2, ...VALUES, 2.5, 3, 4])).toBe(true);
    st.step();
    st.reset();
    st.free();
    expect(read(2)).toEqual(read(1));
    expect(read(1)).toContain('Will "Yes" win? — 100% sure… ñ ü 日本語 🎉🚀');
    const affinities = (k: number) => db.exec(`SELECT typeof(n), n, typeof(r), r, typeof(x), x FROM t WHERE k = ${k}`)[0]!.values[0];
    expect(affinities(2)).toEqual(affinities(1));
    expect(affinities(2)).toEqual(['real', 2.5, 'real', 3, 'text', '4']);
  });

  it('stores a lone surrogate as one U+FFFD (valid UTF-8), where sql.js would write bytes that are not UTF-8', () => {
    const st = db.prepare('SELECT ?, hex(?)');
    const lone = 'a\ud83db';
    expect(fastBind()!.bind(st, [lone, lone])).toBe(true);
    st.step();
    expect(st.get()).toEqual(['a\ufffdb', '61EFBFBD62']);
    st.free();
  });

  it('binds every parameter anew: what the last run bound does not stay', () => {
    const st = db.prepare('SELECT ?, ?, ?');
    expect(fastBind()!.bind(st, ['long text here', 5, 'x'])).toBe(true);
    st.step();
    expect(st.get()).toEqual(['long text here', 5, 'x']);
    expect(fastBind()!.bind(st, [null, 6])).toBe(true);
    st.step();
    expect(st.get()).toEqual([null, 6, null]);
    st.free();
  });

  it('leaves blobs, too many values and another engine’s statements to sql.js', async () => {
    const st = db.prepare('SELECT ?');
    expect(fastBind()!.bind(st, [new Uint8Array([1, 2])])).toBe(false);
    expect(fastBind()!.bind(st, [1, 2])).toBe(false);
    // Statements falls back to sql.js, which raises SQLite's own error for the count.
    const statements = new Statements(db);
    expect(() => statements.all('SELECT ?', [1, 2])).toThrow();
    expect(statements.all('SELECT ?', [new Uint8Array([7])])).toEqual([[new Uint8Array([7])]]);
    expect(statements.all('SELECT ?, ?', ['a', null])).toEqual([['a', null]]);
    st.free();
    // initSqlJs without the store's loader may give a separate module instance: never bound into the wrong heap.
    const other = await initSqlJs();
    const otherDb = new other.Database();
    const otherSt = otherDb.prepare('SELECT ?');
    if (Object.getPrototypeOf(otherSt) !== Object.getPrototypeOf(db.prepare('SELECT 1'))) {
      expect(fastBind()!.bind(otherSt, [1])).toBe(false);
    }
    otherSt.free();
    otherDb.close();
  });

  it('stays off when the module has no heap exports to bind through, or its statements no handle', async () => {
    const SQL = await sqlEngine();
    const memory = new WebAssembly.Memory({ initial: 1 });
    expect(checkFastBind({ Database: SQL.Database } as unknown as typeof SQL, memory)).toBeUndefined();
    // The exports are there, but a statement of this fake engine has no handle where the pinned build keeps it.
    class FakeDb {
      exec() {}
      prepare() {
        return { run() {}, free() {} };
      }
      close() {}
    }
    expect(checkFastBind({ ...SQL, Database: FakeDb } as unknown as typeof SQL, memory)).toBeUndefined();
  });
});
