/**
 * The sql.js engine, loaded once per process with its file calls served from disk
 * (engine/), and the cache file's lifecycle: open in place (moving a file that fails to
 * open aside, refusing one from a newer schema), journal and page cache settings.
 */
import type { Database, SqlJsStatic } from 'sql.js';
import fs, { promises as fsp, constants as fsc } from 'node:fs';
import path from 'node:path';
import { loadSqlJsWithDisk } from './engine/load-sqljs.ts';
import { syncDir, type DiskAccess } from './engine/wasm-disk.ts';
import { pidAlive, tempPath } from './temp-files.ts';
import { describeFsError, type FsProblem } from './storage-state.ts';
import { SCHEMA_VERSION } from './schema.ts';
import type { Logger } from '../logger.ts';

let engine: ReturnType<typeof loadSqlJsWithDisk> | undefined;

export async function sqlEngine(): Promise<SqlJsStatic> {
  engine ??= loadSqlJsWithDisk();
  return (await engine).SQL;
}

let warned = false;

/** The engine's disk access; undefined if unavailable (engine/load-sqljs.ts), which `log` is told once per process, with why. */
export async function sqlDisk(log?: Logger): Promise<{ disk: DiskAccess | undefined; problem?: string }> {
  engine ??= loadSqlJsWithDisk();
  const { disk, problem } = await engine;
  if (!disk && log && !warned) {
    warned = true;
    log.warn(problem ?? 'no disk access from sql.js: the cache is kept in memory only');
  }
  return problem === undefined ? { disk } : { disk, problem };
}

/** The cache file was written by a newer marketdesk: refused, and left as it is. */
export class NewerCacheError extends Error {
  constructor(
    readonly file: string,
    readonly version: number,
  ) {
    super(
      `the cache ${file} was written by a newer marketdesk (cache schema version ${version}; this build knows up to ` +
        `${SCHEMA_VERSION}). It is left untouched: run the newer marketdesk, or use another --data-dir.`,
    );
    this.name = 'NewerCacheError';
  }
}

/**
 * `<file>.lock` holds the pid of the process that has the cache open. The file is written in
 * place and SQLite's locks are not shared between processes here (engine/wasm-disk.ts), so a second
 * process on the same file would corrupt it: it is refused instead. A lock of a process that is
 * gone (a crash, a kill), or of this very process (a restarted worker thread), is taken over.
 * Returns the release; where the lock cannot be written (a read-only dir), nothing is written anyway.
 */
export function lockCache(file: string): () => void {
  const lock = `${file}.lock`;
  const mine = String(process.pid);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lock, mine, { flag: 'wx' });
      return () => {
        try {
          if (fs.readFileSync(lock, 'utf8') === mine) fs.rmSync(lock);
        } catch {
          /* gone already */
        }
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') return () => undefined;
    }
    const holder = Number(fs.readFileSync(lock, 'utf8').trim());
    if (Number.isSafeInteger(holder) && holder > 0 && holder !== process.pid && pidAlive(holder))
      throw new Error(
        `the cache ${file} is in use by process ${holder} (another marketdesk serve or sync on the same data dir); ` +
          `stop it first, or remove ${lock} if no such process is running marketdesk`,
      );
    fs.rmSync(lock, { force: true });
  }
  return () => undefined;
}

export interface OpenedDatabase {
  db: Database;
  /** True when `db` reads and writes the file in place; false when it lives in memory (not saved). */
  onDisk: boolean;
  /** 'wal' (the normal case), 'truncate' (WAL refused), or 'memory' (not on disk). */
  journal: 'wal' | 'truncate' | 'memory';
  /** Set when an unreadable cache file was moved aside; the database starts empty. */
  movedAside?: string;
  /** Why the file could not be opened; the database starts empty. */
  openError?: string;
  /** Why nothing can be written to the file (read-only dir, build mismatch); undefined when it can. */
  notSaved?: string;
  /** True when the database came from an existing file. */
  fromFile: boolean;
  /** That file's modification time: the state on disk. */
  mtime?: Date;
}

/** Header bytes 60-63: `PRAGMA user_version`, readable without SQLite (so a newer file is not even opened). */
export function headerUserVersion(file: string): number | undefined {
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, 'r');
    const h = Buffer.alloc(100);
    if (fs.readSync(fd, h, 0, 100, 0) < 100 || h.toString('latin1', 0, 16) !== 'SQLite format 3\0') return undefined;
    return h.readUInt32BE(60);
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** Journal, sync and cache settings of a database on disk; returns the journal mode it got. */
export function configureDisk(db: Database, cacheKiB: number, readOnly: boolean): 'wal' | 'truncate' {
  // One process owns the file, so WAL needs no shared-memory index (SQLite keeps it on the heap).
  // EXCLUSIVE must come before the first read.
  db.exec('PRAGMA locking_mode = EXCLUSIVE');
  let mode = '';
  try {
    mode = String(db.exec('PRAGMA journal_mode = WAL')[0]?.values[0]?.[0] ?? '');
  } catch {
    // A full disk cannot take the switch (it writes the header through a journal): serve as the file is.
  }
  let journal: 'wal' | 'truncate' = 'wal';
  if (mode !== 'wal' && !readOnly) {
    journal = 'truncate';
    db.exec('PRAGMA journal_mode = TRUNCATE');
  }
  // WAL + NORMAL: a commit is in the OS's hands at COMMIT (survives a killed process); fsync at
  // checkpoints, so a power cut can lose the last commits but never corrupts. A rollback journal needs FULL.
  db.exec(
    `PRAGMA synchronous = ${journal === 'wal' ? 'NORMAL' : 'FULL'}; PRAGMA temp_store = MEMORY; ` +
      `PRAGMA cache_size = ${-cacheKiB}; PRAGMA journal_size_limit = ${64 << 20}`,
  );
  return journal;
}

/** Settings of a database kept in memory only (no data dir, or no disk access). */
function configureMemory(db: Database, cacheKiB: number): void {
  db.exec(`PRAGMA journal_mode = MEMORY; PRAGMA synchronous = OFF; PRAGMA temp_store = MEMORY; PRAGMA cache_size = ${-cacheKiB}`);
}

export interface OpenCacheOptions {
  /** SQLite's page cache, in KiB. */
  cacheKiB: number;
  /** Set when the data dir cannot be written: the file is opened read-only. */
  readOnly: FsProblem | null;
  /** A fresh, empty database gets this page size (it can only be set before the first table). */
  pageSize: number;
  log: Logger;
}

/**
 * Opens `file` in place if it exists and passes `probe`; creates it if missing. A file that
 * fails is moved (with its journal) to `<file>.corrupt-<time>` and a new one is started; when it
 * cannot be moved, or the file cannot be served from disk at all, the cache is kept in memory
 * and `notSaved` says why. A file from a newer schema throws NewerCacheError and is not opened.
 */
export async function openCacheFile(
  file: string | undefined,
  probe: (db: Database) => void,
  opts: OpenCacheOptions,
): Promise<OpenedDatabase> {
  const SQL = await sqlEngine();
  const memory = (extra: Partial<OpenedDatabase> = {}, bytes?: Uint8Array): OpenedDatabase => {
    const db = new SQL.Database(bytes);
    configureMemory(db, opts.cacheKiB);
    return { db, onDisk: false, journal: 'memory', fromFile: !!bytes, ...extra };
  };
  if (!file) return memory();
  const version = headerUserVersion(file);
  if (version !== undefined && version > SCHEMA_VERSION) throw new NewerCacheError(file, version);
  const mtime = await fsp.stat(file).then(
    (s) => s.mtime,
    () => undefined,
  );
  const exists = mtime !== undefined;
  const { disk, problem } = await sqlDisk(opts.log);
  if (!disk) {
    // Another sql.js build: serve a copy of the file from memory, and never write it.
    const bytes = exists ? await readWhole(file).catch(() => undefined) : undefined;
    const copy = bytes ? tryMemory(() => memory({ notSaved: problem! }, bytes), probe) : undefined;
    return { ...(copy ?? memory({ notSaved: problem! })), ...(mtime ? { mtime } : {}) };
  }
  if (opts.readOnly && !exists) return memory({ notSaved: opts.readOnly.reason });
  let db: Database | undefined;
  let openProblem: string;
  try {
    db = disk.open(file, { readOnly: !!opts.readOnly });
    db.exec('PRAGMA locking_mode = EXCLUSIVE');
    probe(db);
    const empty = Number(db.exec('PRAGMA page_count')[0]?.values[0]?.[0] ?? 0) === 0;
    if (empty) db.exec(`PRAGMA page_size = ${opts.pageSize}`);
    const journal = configureDisk(db, opts.cacheKiB, !!opts.readOnly);
    return {
      db,
      onDisk: true,
      journal,
      fromFile: exists && !empty,
      ...(mtime ? { mtime } : {}),
      ...(opts.readOnly ? { notSaved: opts.readOnly.reason } : {}),
    };
  } catch (e) {
    openProblem = (e as Error).message;
    try {
      db?.close();
    } catch {
      /* already unusable */
    }
    // Locked is not broken: this process has the file open already (SQLite tracks its own locks).
    if (/database is locked/i.test(openProblem)) throw new Error(`the cache ${file} is already open in this process`);
  }
  if (!exists) {
    // Nothing to move aside: the file cannot be created (the reason is in the message).
    opts.log.warn(`cache file ${file} could not be created (${openProblem}); keeping the cache in memory only`);
    return memory({ openError: openProblem, notSaved: openProblem });
  }
  if (opts.readOnly) {
    // A read-only dir: the file (say, with a journal left by a crash) is served from a copy in memory.
    const bytes = await readWhole(file).catch(() => undefined);
    const copy = bytes ? tryMemory(() => memory({ notSaved: opts.readOnly!.reason }, bytes), probe) : undefined;
    if (copy) return { ...copy, ...(mtime ? { mtime } : {}) };
    opts.log.warn(`cache file ${file} could not be opened (${openProblem}) nor moved aside (read-only); serving an empty cache`);
    return memory({ openError: openProblem, notSaved: opts.readOnly.reason });
  }
  const aside = `${file}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  try {
    await fsp.rename(file, aside);
    // Its journal belongs to it: left beside a new file, SQLite would replay it there.
    for (const s of ['-wal', '-journal'])
      await fsp.rename(file + s, aside + s).catch((e: NodeJS.ErrnoException) => {
        if (e.code !== 'ENOENT') throw e;
      });
  } catch (e) {
    // Serving nothing beats not starting: the reason shows in /status, and the file is not touched.
    const why = (e as Error).message;
    opts.log.warn(`cache file ${file} could not be opened (${openProblem}) nor moved aside (${why}); serving an empty cache`);
    return memory({ openError: openProblem, notSaved: `the unreadable cache file could not be moved aside: ${why}` });
  }
  opts.log.warn(`cache file ${file} could not be opened (${openProblem}); moved aside to ${aside}, starting empty`);
  const fresh = disk.open(file);
  fresh.exec(`PRAGMA locking_mode = EXCLUSIVE; PRAGMA page_size = ${opts.pageSize}`);
  const journal = configureDisk(fresh, opts.cacheKiB, false);
  return { db: fresh, onDisk: true, journal, movedAside: aside, openError: openProblem, fromFile: false };
}

function tryMemory(open: () => OpenedDatabase, probe: (db: Database) => void): OpenedDatabase | undefined {
  let o: OpenedDatabase | undefined;
  try {
    o = open();
    probe(o.db);
    return o;
  } catch {
    o?.db.close();
    return undefined;
  }
}

/**
 * Why `dir` cannot be written (for example "read-only file system (EROFS)"), or null. Asks
 * the kernel (access(2) answers EROFS even for root); creates `dir` if missing.
 */
export async function unwritableReason(dir: string): Promise<FsProblem | null> {
  try {
    await fsp.mkdir(dir, { recursive: true });
  } catch (e) {
    // A recursive mkdir under a read-only mount fails with ENOENT; the closest existing
    // ancestor tells the real reason. Either way, a data dir that cannot be made is unwritable.
    let up = path.dirname(dir);
    while (
      up !== path.dirname(up) &&
      !(await fsp.stat(up).then(
        () => true,
        () => false,
      ))
    )
      up = path.dirname(up);
    const why = await fsp.access(up, fsc.W_OK).then(() => null, describeFsError);
    return why?.readOnly ? why : { ...describeFsError(e), readOnly: true };
  }
  try {
    await fsp.access(dir, fsc.W_OK);
    return null;
  } catch (e) {
    const p = describeFsError(e);
    return p.readOnly ? p : null;
  }
}

/**
 * The whole file in one Buffer (the in-memory fallback, and tools that read a cache whole).
 * fs.readFile refuses files over 2 GiB, so it is read in 256 MiB pieces into one buffer.
 */
export async function readWhole(file: string): Promise<Buffer> {
  const fh = await fsp.open(file, fsc.O_RDONLY);
  try {
    const { size } = await fh.stat();
    const out = Buffer.allocUnsafe(size);
    let done = 0;
    while (done < size) {
      const { bytesRead } = await fh.read(out, done, Math.min(256 << 20, size - done), done);
      if (bytesRead === 0) break;
      done += bytesRead;
    }
    return done === size ? out : out.subarray(0, done);
  } finally {
    await fh.close();
  }
}

/**
 * Writes bytes so that `file` is always either the old or the new content, never a torn one
 * (temp file, fsync, rename, fsync dir). The store writes in place now; the export() baseline
 * of `npm run bench -- --only persist` still uses this.
 */
export async function writeFileAtomic(file: string, bytes: Uint8Array): Promise<void> {
  const dir = path.dirname(file);
  await fsp.mkdir(dir, { recursive: true });
  const tmp = tempPath(file);
  try {
    await fsp.writeFile(tmp, bytes, { mode: 0o600, flush: true });
    await fsp.rename(tmp, file);
  } catch (e) {
    // A partial copy on a full disk would keep it full.
    await fsp.rm(tmp, { force: true }).catch(() => undefined);
    throw e;
  }
  syncDir(dir);
}
