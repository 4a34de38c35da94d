/**
 * Persisting in slices while the database keeps changing: the file on disk must be one
 * consistent state (never a mix of before and after a transaction), equal to the database
 * when nothing changes, and a copy that fails leaves the previous file as it was.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Database } from 'sql.js';
import { tempDir } from '../testing/fixtures.ts';
import { persistLive } from './live-persist.ts';
import { sqlEngine, sqlFileAccess } from './sqlite.ts';
import { WriteTracker, type FileAccess } from './wasm-files.ts';

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

async function setup(): Promise<{ db: Database; access: FileAccess; file: string; open: (bytes: Uint8Array) => Database }> {
  const SQL = await sqlEngine();
  const access = await sqlFileAccess();
  // This sql.js build is the one the lockfile pins; the wrapping must work with it.
  expect(access).toBeDefined();
  const db = new SQL.Database();
  db.exec('PRAGMA journal_mode = MEMORY; PRAGMA synchronous = OFF');
  const dir = tempDir();
  cleanups.push(() => db.close(), dir.cleanup);
  return { db, access: access!, file: path.join(dir.dir, 'catalog.sqlite'), open: (b) => new SQL.Database(b) };
}

const rows = (db: Database, sql: string) => db.exec(sql)[0]?.values ?? [];

describe('persistLive', () => {
  it('writes a file equal to the database when nothing changes meanwhile', async () => {
    const { db, access, file } = await setup();
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT); CREATE INDEX t_body ON t (body)');
    db.exec(
      'WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5000) INSERT INTO t SELECT i, hex(randomblob(100)) FROM n',
    );
    const r = await persistLive(access, db, file, 64 * 1024);
    expect(r.passes).toBe(1);
    const onDisk = readFileSync(file);
    const exported = db.export();
    expect(onDisk.length).toBe(exported.length);
    expect(r.bytes).toBe(exported.length);
    // Equal but for what export()'s backup bumps: the change counter (header bytes 24-27 and
    // 92-99) and the schema cookie (40-43).
    for (const [a, b] of [
      [0, 24],
      [28, 40],
      [44, 92],
      [100, exported.length],
    ] as const) {
      expect(Buffer.compare(onDisk.subarray(a, b), Buffer.from(exported.subarray(a, b))), `bytes ${a}..${b}`).toBe(0);
    }
    expect(readdirSync(path.dirname(file))).toEqual(['catalog.sqlite']);
  });

  it('is one consistent state while transactions commit between its slices', async () => {
    const { db, access, file, open } = await setup();
    // Every transaction appends a row and moves the counter: a torn copy breaks the invariant.
    db.exec('CREATE TABLE log (n INTEGER PRIMARY KEY, pad TEXT); CREATE TABLE counter (total INTEGER); INSERT INTO counter VALUES (0)');
    db.exec(
      'WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000) ' +
        'INSERT INTO log SELECT i, hex(randomblob(300)) FROM n',
    );
    db.exec('UPDATE counter SET total = 3000');
    let next = 3001;
    let writing = true;
    const writer = (async () => {
      while (writing) {
        db.exec(
          `BEGIN; INSERT INTO log VALUES (${next}, hex(randomblob(300))); ` +
            `UPDATE log SET pad = 'x' WHERE n = ${1 + (next % 3000)}; UPDATE counter SET total = ${next}; COMMIT`,
        );
        next++;
        await new Promise((r) => setImmediate(r));
      }
    })();
    const r = await persistLive(access, db, file, 16 * 1024);
    writing = false;
    await writer;
    // Writes did land during the copy, and were copied again.
    expect(r.passes).toBeGreaterThan(1);
    const copy = open(readFileSync(file));
    try {
      expect(rows(copy, 'PRAGMA integrity_check')).toEqual([['ok']]);
      const [[total]] = rows(copy, 'SELECT total FROM counter') as [[number]];
      expect(rows(copy, 'SELECT count(*), min(n), max(n) FROM log')).toEqual([[total, 1, total]]);
      expect(total).toBeGreaterThan(3000);
      expect(total).toBeLessThan(next);
    } finally {
      copy.close();
    }
  });

  it('leaves the previous file untouched when the copy fails', async () => {
    const { db, access, file } = await setup();
    db.exec('CREATE TABLE t (x); INSERT INTO t VALUES (zeroblob(300000))');
    writeFileSync(file, 'previous');
    const failing: FileAccess = {
      ...access,
      read: (d, off, into) =>
        off > 0
          ? (() => {
              throw new Error('disk gone');
            })()
          : access.read(d, off, into),
    };
    await expect(persistLive(failing, db, file, 64 * 1024)).rejects.toThrow('disk gone');
    expect(readFileSync(file, 'utf8')).toBe('previous');
    expect(readdirSync(path.dirname(file))).toEqual(['catalog.sqlite']);
  });
});

describe('WriteTracker', () => {
  it('reports the units a write touches, once, in order; an unknown position means all', () => {
    const t = new WriteTracker(4096);
    t.mark(8192, 4096);
    t.mark(100, 10);
    t.mark(4000, 200); // straddles units 0 and 1
    t.mark(8192, 1);
    expect(t.take()).toEqual([0, 1, 2]);
    expect(t.take()).toEqual([]);
    t.mark(-1, 10);
    expect(t.take()).toBe('all');
  });
});
