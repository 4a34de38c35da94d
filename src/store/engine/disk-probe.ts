/**
 * The load-time probe of the disk layer: a database written, closed, reopened and checked
 * through the wrapped file calls on a real temp file, and the stamp that remembers a passed
 * probe so later starts skip it.
 */
import type { Database } from 'sql.js';
import fs from 'node:fs';
import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { IMPORTS } from './sqljs-build.ts';
import { iovLen, iovPtr, writeFdstat, writeStat } from './wasi-abi.ts';
import { DiskLayer, type DiskAccess } from './wasm-disk.ts';

/**
 * Where a passed probe is remembered: keyed by the wasm bytes, the wrapping code (wasm-disk.ts's
 * DiskLayer and wasi-abi.ts's struct writers) and Node's version, the things its outcome depends
 * on (it runs on a temp file, not the cache's disk). It costs start-up 50-150 ms, so it runs once
 * per build and machine boot, not per start.
 */
export function probeStamp(wasm: Uint8Array): string {
  const key = createHash('sha256')
    .update(wasm)
    .update(`${selfCheck}${DiskLayer}${writeStat}${writeFdstat}${iovPtr}${iovLen}${JSON.stringify(IMPORTS)}${process.version}`)
    .digest('hex')
    .slice(0, 24);
  return path.join(os.tmpdir(), `marketdesk-disk-ok-${key}`);
}

/** Whether a probe with these wasm bytes and this code passed before (its stamp exists). */
export function checkedBefore(wasm: Uint8Array): boolean {
  return fs.existsSync(probeStamp(wasm));
}

/** Writes the stamp of a passed probe. */
export function rememberChecked(wasm: Uint8Array): void {
  try {
    fs.writeFileSync(probeStamp(wasm), '');
  } catch {
    // Not remembered: the next start probes again.
  }
}

/**
 * A probe database on a real temp file: written in WAL mode, closed, reopened, read back and
 * checked. Returns what went wrong, or undefined.
 */
export function selfCheck(disk: DiskAccess): string | undefined {
  let dir: string | undefined;
  let db: Database | undefined;
  try {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'marketdesk-disk-probe-'));
    const file = path.join(dir, 'probe.sqlite');
    db = disk.open(file);
    db.exec('PRAGMA locking_mode = EXCLUSIVE; PRAGMA page_size = 16384; PRAGMA journal_mode = WAL');
    db.exec(
      'CREATE TABLE probe (n INTEGER PRIMARY KEY, x); ' +
        'WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 200) INSERT INTO probe SELECT n, randomblob(3000) FROM c',
    );
    db.exec("UPDATE probe SET x = 'changed' WHERE n % 7 = 0");
    const want = db.exec('SELECT count(*), sum(length(x)), sum(n * length(x)) FROM probe')[0]?.values[0]?.join(',');
    db.close();
    db = undefined;
    const header = Buffer.alloc(16);
    const fd = fs.openSync(file, 'r');
    fs.readSync(fd, header, 0, 16, 0);
    fs.closeSync(fd);
    if (header.toString('latin1') !== 'SQLite format 3\0') return 'the probe database on disk has no SQLite header';
    db = disk.open(file);
    db.exec('PRAGMA locking_mode = EXCLUSIVE');
    const got = db.exec('SELECT count(*), sum(length(x)), sum(n * length(x)) FROM probe')[0]?.values[0]?.join(',');
    if (got !== want) return `the probe database read back ${got}, not ${want}`;
    const check = db.exec('PRAGMA integrity_check')[0]?.values[0]?.[0];
    if (check !== 'ok') return `the probe database failed integrity_check: ${String(check)}`;
    const pages = Number(db.exec('PRAGMA page_count')[0]?.values[0]?.[0]);
    db.close();
    db = undefined;
    if (disk.openFiles() !== 0) return `${disk.openFiles()} probe file(s) were left open`;
    const size = fs.statSync(file).size;
    if (size !== pages * 16384) return `the probe file is ${size} bytes, not ${pages} pages of 16 KiB`;
    return undefined;
  } catch (e) {
    return `the probe database failed through them (${(e as Error).message})`;
  } finally {
    try {
      db?.close();
    } catch {
      /* already failing */
    }
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  }
}
