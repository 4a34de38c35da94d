/**
 * The disk layer (wasm-disk.ts) serves SQLite's file calls from a real file, reaching into one
 * sql.js build by its minified import names (sqljs-build.ts): the installed build must be the
 * pinned one, any other is refused with a message saying what was expected, and the calls must
 * behave as files do (checked here against real files, read back without them).
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../testing/fixtures.ts';
import { sqlDisk, sqlEngine } from '../sqlite.ts';
import { probeStamp } from './disk-probe.ts';
import { SQLJS_BUILD, findFileImports, installedSqlJsVersion } from './sqljs-build.ts';
import type { DiskAccess } from './wasm-disk.ts';

const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { dependencies: Record<string, string> };

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

function tmp(): string {
  const t = tempDir();
  cleanups.push(t.cleanup);
  return t.dir;
}

async function disk(): Promise<DiskAccess> {
  const { disk, problem } = await sqlDisk();
  if (!disk) throw new Error(problem);
  cleanups.push(() => disk.setFault(undefined));
  return disk;
}

const value = (db: { exec(sql: string): { values: unknown[][] }[] }, sql: string) => db.exec(sql)[0]?.values[0]?.[0];
const WAL = 'PRAGMA locking_mode = EXCLUSIVE; PRAGMA page_size = 16384; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL';
const FILL =
  'CREATE TABLE t (n INTEGER PRIMARY KEY, x); ' +
  'WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 500) INSERT INTO t SELECT n, randomblob(2000) FROM c';

describe('the sql.js build', () => {
  it('package.json pins exactly the build sqljs-build.ts knows, and that build is installed', () => {
    expect(
      pkg.dependencies['sql.js'],
      `package.json must pin sql.js to exactly ${SQLJS_BUILD} (sqljs-build.ts's IMPORTS are that build's names)`,
    ).toBe(SQLJS_BUILD);
    expect(installedSqlJsVersion(), `node_modules holds another sql.js than the pinned ${SQLJS_BUILD}: run npm ci`).toBe(SQLJS_BUILD);
  });

  it('remembers a passed probe for this build, so later starts skip it', async () => {
    await sqlDisk();
    const wasm = readFileSync(createRequire(import.meta.url).resolve('sql.js/dist/sql-wasm.wasm'));
    expect(existsSync(probeStamp(wasm))).toBe(true);
  });

  it('serves files from disk: the load-time probe passed (no in-memory fallback)', async () => {
    const { disk, problem } = await sqlDisk();
    expect(problem).toBeUndefined();
    // The disk access itself, which opens a file: a database on it answers.
    const db = disk!.open(path.join(tmp(), 'probe.sqlite'));
    try {
      expect(db.exec('SELECT 6 * 7')[0]!.values).toEqual([[42]]);
    } finally {
      db.close();
    }
  });
});

describe('a database on a real file', () => {
  it('is written in place in WAL mode, closed, reopened, and reads back; any SQLite reads the file', async () => {
    const d = await disk();
    const file = path.join(tmp(), 'a.sqlite');
    const db = d.open(file);
    db.exec(WAL);
    expect(value(db, 'PRAGMA journal_mode')).toBe('wal');
    db.exec(FILL);
    const sum = value(db, 'SELECT sum(n * length(x)) FROM t');
    // Committed: in the WAL beside the file, before any close.
    expect(existsSync(`${file}-wal`)).toBe(true);
    db.exec('PRAGMA journal_mode = DELETE');
    db.close();
    expect(readdirSync(path.dirname(file))).toEqual(['a.sqlite']);
    expect(d.openFiles()).toBe(0);

    const again = d.open(file);
    again.exec(WAL);
    expect(value(again, 'SELECT sum(n * length(x)) FROM t')).toBe(sum);
    expect(value(again, 'PRAGMA integrity_check')).toBe('ok');
    again.exec('UPDATE t SET x = zeroblob(10) WHERE n = 1');
    // export() of a file on disk is the file, with the WAL's pages in it.
    const exported = again.export();
    expect(exported.length).toBe(Number(value(again, 'PRAGMA page_count')) * 16384);
    again.close();

    // The bytes on disk, read without the wrapped calls (sql.js's in-memory file system).
    const SQL = await sqlEngine();
    const copy = new SQL.Database(exported);
    expect(value(copy, 'SELECT length(x) FROM t WHERE n = 1')).toBe(10);
    copy.close();
    const bytes = new SQL.Database(readFileSync(file));
    expect(value(bytes, 'SELECT sum(n * length(x)) FROM t WHERE n > 1')).toBe(Number(sum) - 2000);
    expect(value(bytes, 'PRAGMA integrity_check')).toBe('ok');
    bytes.close();
    const native = spawnSync('sqlite3', [file, 'SELECT sum(n * length(x)) FROM t WHERE n > 1; PRAGMA integrity_check'], {
      encoding: 'utf8',
    });
    if (native.status === 0) expect(native.stdout.trim().split('\n')).toEqual([String(Number(sum) - 2000), 'ok']);
  });

  it('leaves databases without a file in memory: nothing is written to disk for them', async () => {
    const d = await disk();
    const dir = tmp();
    const file = path.join(dir, 'b.sqlite');
    const onDisk = d.open(file);
    onDisk.exec(`${WAL}; CREATE TABLE t (x); INSERT INTO t VALUES (1)`);
    const SQL = await sqlEngine();
    const mem = new SQL.Database();
    mem.exec('CREATE TABLE m (x); INSERT INTO m VALUES (2)');
    expect(value(mem, 'SELECT x FROM m')).toBe(2);
    expect(() => mem.exec('SELECT * FROM t')).toThrow(/no such table/);
    mem.close();
    onDisk.close();
    expect(readdirSync(dir)).toEqual(['b.sqlite']);
  });

  it('a full disk (ENOSPC) fails the COMMIT with SQLITE_FULL; the file keeps the state before it', async () => {
    const d = await disk();
    const file = path.join(tmp(), 'c.sqlite');
    const db = d.open(file);
    cleanups.push(() => db.close());
    db.exec(`${WAL}; ${FILL}`);
    d.setFault((op) => (op === 'write' ? 'ENOSPC' : undefined));
    expect(() => db.exec('BEGIN; UPDATE t SET x = zeroblob(3000); COMMIT')).toThrow('database or disk is full');
    expect(d.lastError(file)).toMatchObject({ code: 'ENOSPC', op: 'write' });
    try {
      db.exec('ROLLBACK');
    } catch {
      /* SQLite rolled back already */
    }
    d.setFault(undefined);
    expect(value(db, 'SELECT count(*) FROM t WHERE length(x) = 2000')).toBe(500);
    db.exec('UPDATE t SET x = 1 WHERE n = 1');
    expect(value(db, 'PRAGMA integrity_check')).toBe('ok');
  });

  it('an fsync that fails (EIO) is an I/O error, not a crash', async () => {
    const d = await disk();
    const file = path.join(tmp(), 'd.sqlite');
    const db = d.open(file);
    cleanups.push(() => db.close());
    // FULL: every COMMIT syncs the WAL.
    db.exec(`${WAL}; PRAGMA synchronous = FULL; CREATE TABLE t (x)`);
    d.setFault((op) => (op === 'sync' ? 'EIO' : undefined));
    expect(() => db.exec('INSERT INTO t VALUES (1)')).toThrow(/disk I\/O error/);
    expect(d.lastError(file)).toMatchObject({ code: 'EIO', op: 'sync' });
  });

  it('opened read-only: reads work, writes are refused as SQLITE_READONLY', async () => {
    const d = await disk();
    const file = path.join(tmp(), 'e.sqlite');
    const w = d.open(file);
    w.exec(`${WAL}; CREATE TABLE t (x); INSERT INTO t VALUES (7); PRAGMA journal_mode = DELETE`);
    w.close();
    const before = readFileSync(file);
    const r = d.open(file, { readOnly: true });
    cleanups.push(() => r.close());
    r.exec('PRAGMA locking_mode = EXCLUSIVE');
    expect(value(r, 'SELECT x FROM t')).toBe(7);
    expect(() => r.exec('INSERT INTO t VALUES (8)')).toThrow(/readonly database/);
    expect(readFileSync(file).equals(before)).toBe(true);
  });
});

// Stand-ins with the arities of the pinned build's imports.
const fn = (n: number) => Object.defineProperty(() => 0, 'length', { value: n });
const pinned = (): Record<string, unknown> => ({
  x: fn(4),
  E: fn(4),
  q: fn(4),
  t: fn(4),
  e: fn(1),
  K: fn(1),
  g: fn(2),
  J: fn(2),
  b: fn(3),
  h: fn(1),
  j: fn(2),
  m: fn(2),
  o: fn(3),
  D: fn(3),
  N: fn(2),
  M: fn(2),
  L: fn(4),
  a: fn(4),
});

describe('another build', () => {
  it('the pinned names are found', () => {
    const r = findFileImports({ a: pinned() }, SQLJS_BUILD);
    expect('fns' in r && Object.keys(r.fns).length).toBe(17);
  });

  it('renamed imports are refused, naming the expected build, the installed one and what is off', () => {
    const renamed: Record<string, unknown> = { ...pinned(), F: fn(4) };
    delete renamed['E'];
    const r = findFileImports({ a: renamed }, '1.17.0');
    expect('problem' in r && r.problem).toBe(
      'sql.js build mismatch: src/store/engine/sqljs-build.ts expects the file imports of sql.js 1.16.0, ' +
        'but sql.js 1.17.0 is installed and a.E (fd_seek) is missing. ' +
        'The cache is kept in memory only and not saved; pin sql.js to 1.16.0 or update IMPORTS.',
    );
  });

  it('an import of another arity or kind is refused', () => {
    const r = findFileImports({ a: { ...pinned(), q: fn(1), K: 7 } }, '1.15.0');
    expect('problem' in r && r.problem).toContain(
      'sql.js 1.15.0 is installed and a.q (fd_write) takes 1 arguments, not 4; a.K (fd_sync) is a number.',
    );
  });

  it('a build without the import module is refused', () => {
    const r = findFileImports({ env: { fd_seek: fn(4) } }, undefined);
    expect('problem' in r && r.problem).toContain(
      'sql.js (version unreadable) is installed and its wasm imports have no module "a" (found: env)',
    );
  });
});
