/**
 * The sql.js engine, loaded once per process, and the cache file's lifecycle: open (moving a
 * file that fails to open aside), atomic persistence (temp file, fsync, rename, fsync dir).
 */
import type { Database, SqlJsStatic } from 'sql.js';
import { promises as fsp, constants as fsc } from 'node:fs';
import path from 'node:path';
import { loadSqlJsWithFileAccess, type FileAccess } from './wasm-files.ts';
import { describeFsError, type FsProblem } from './storage-state.ts';
import { tempPath } from './temp-files.ts';

let engine: ReturnType<typeof loadSqlJsWithFileAccess> | undefined;

export async function sqlEngine(): Promise<SqlJsStatic> {
  engine ??= loadSqlJsWithFileAccess();
  return (await engine).SQL;
}

let warned = false;

/**
 * Reads and write-tracking of the engine's database files; undefined if unavailable
 * (wasm-files.ts), which `log` is told once per process, with why.
 */
export async function sqlFileAccess(log?: Logger): Promise<FileAccess | undefined> {
  engine ??= loadSqlJsWithFileAccess();
  const { access, problem } = await engine;
  if (!access && log && !warned) {
    warned = true;
    log.warn(problem ?? 'no file access into sql.js: the cache is persisted with export()');
  }
  return access;
}

export interface Logger {
  info(msg: string): void;
  warn(msg: string): void;
}

export const silentLogger: Logger = { info() {}, warn() {} };

export interface OpenedDatabase {
  db: Database;
  /** Set when an unreadable cache file was moved aside; the database starts empty. */
  movedAside?: string;
  /** Why the file could not be opened; the database starts empty. */
  openError?: string;
  /**
   * The unreadable file could not be moved aside (a read-only data dir) and is still at
   * `file`; a save must move it first, so it is never overwritten unseen.
   */
  keptInPlace?: boolean;
  /** True when the database came from an existing file. */
  fromFile: boolean;
  /** That file's modification time: the state on disk. */
  mtime?: Date;
}

/**
 * Opens `file` if it exists and is a readable SQLite database with the expected schema probe;
 * otherwise moves it to `<file>.corrupt-<time>` (or, when that fails, leaves it in place) and
 * returns an empty database. Never throws because of the file, its content or its directory.
 */
export async function openDatabaseFile(file: string | undefined, probe: (db: Database) => void, log: Logger): Promise<OpenedDatabase> {
  const SQL = await sqlEngine();
  if (!file) return { db: new SQL.Database(), fromFile: false };
  let problem = '';
  let bytes: Buffer | undefined;
  let mtime: Date | undefined;
  try {
    mtime = (await fsp.stat(file)).mtime;
    bytes = await readWhole(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { db: new SQL.Database(), fromFile: false };
    problem = (e as Error).message;
  }
  if (bytes) {
    let db: Database | undefined;
    try {
      // A Node Buffer becomes the database file without a copy (feasibility.md §2).
      db = new SQL.Database(bytes);
      probe(db);
      return { db, fromFile: true, ...(mtime ? { mtime } : {}) };
    } catch (e) {
      try {
        db?.close();
      } catch {
        /* already unusable */
      }
      problem = (e as Error).message;
    }
  }
  const aside = `${file}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  try {
    await fsp.rename(file, aside);
  } catch (e) {
    // Serving nothing beats not starting: the reason shows in /status, and saves stay off
    // the file until it can be moved (CatalogStore.persist).
    const why = (e as Error).message;
    log.warn(`cache file ${file} could not be opened (${problem}) nor moved aside (${why}); serving an empty cache`);
    return { db: new SQL.Database(), openError: problem, keptInPlace: true, fromFile: false };
  }
  log.warn(`cache file ${file} could not be opened (${problem}); moved aside to ${aside}, starting empty`);
  return { db: new SQL.Database(), movedAside: aside, openError: problem, fromFile: false };
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
 * The whole file in one Buffer. fs.readFile refuses files over 2 GiB (a 500k-market cache is
 * 2.2 GiB), so it is read in 256 MiB pieces into one buffer of its size.
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

/** Writes bytes so that `file` is always either the old or the new content, never a torn one. */
export async function writeFileAtomic(file: string, bytes: Uint8Array): Promise<void> {
  const dir = path.dirname(file);
  await fsp.mkdir(dir, { recursive: true });
  const tmp = tempPath(file);
  const fh = await fsp.open(tmp, fsc.O_WRONLY | fsc.O_CREAT | fsc.O_TRUNC, 0o600);
  try {
    try {
      await fh.writeFile(bytes);
      await fh.sync();
    } finally {
      await fh.close();
    }
    await fsp.rename(tmp, file);
  } catch (e) {
    // A partial copy on a full disk would keep it full.
    await fsp.rm(tmp, { force: true }).catch(() => undefined);
    throw e;
  }
  await syncDir(dir);
}

/** fsync a directory so a rename in it survives a crash. */
export async function syncDir(dir: string): Promise<void> {
  try {
    const dh = await fsp.open(dir, fsc.O_RDONLY);
    try {
      await dh.sync();
    } finally {
      await dh.close();
    }
  } catch {
    /* some filesystems refuse fsync on directories; the rename is still atomic */
  }
}
