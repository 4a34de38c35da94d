/**
 * A way into sql.js's in-memory database files, for persisting without a long pause.
 *
 * sql.js keeps each database file in Emscripten's in-memory file system. Its build does not
 * export that file system, and export() copies every page in one synchronous call: about 1 s
 * at 500 MB, during which no query runs. SQLite itself reaches the file through the WASI
 * calls the wasm module imports (fd_seek, fd_write, fd_read). This module wraps those imports
 * when the module is instantiated, so that it
 *   - sees every byte range SQLite writes to a database file (the pages that changed), and
 *   - can read a database file in slices, the way SQLite does, between queries.
 *
 * The import names are the build's minified ones (package.json pins sql.js to that build), so
 * they are checked before use: each must be a function of the expected arity, and a probe
 * database written and read back through them must equal sql.js's own export(). Any mismatch
 * (another sql.js build) leaves `access` undefined, with `problem` saying what was expected and
 * found, and the store falls back to export().
 */
import initSqlJs, { type Database, type SqlJsStatic } from 'sql.js';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** The sql.js build whose import names IMPORTS are; package.json pins sql.js to exactly this. */
export const SQLJS_BUILD = '1.16.0';
/** The WASI imports of that build (module `a`), by their minified names. */
const IMPORTS = { open: 'x', seek: 'E', write: 'q', read: 't', close: 'e' } as const;
type ImportKey = keyof typeof IMPORTS;
/** What each one is, and how many arguments it takes (fd_seek's offset is one BigInt). */
const EXPECTED: Record<ImportKey, { is: string; arity: number }> = {
  open: { is: '__syscall_openat', arity: 4 },
  seek: { is: 'fd_seek', arity: 4 },
  write: { is: 'fd_write', arity: 4 },
  read: { is: 'fd_read', arity: 4 },
  close: { is: 'fd_close', arity: 1 },
};
/** Bytes read per fd_read call (a scratch buffer in the wasm heap). */
const SCRATCH = 4 << 20;
const SEEK_SET = 0;
const SEEK_END = 2;

type Fn = (...args: never[]) => number;

/** Byte ranges written to one file while tracked, in units of `unit` bytes. */
export class WriteTracker {
  private units = new Set<number>();
  /** Set when a write's position was unknown: everything must be copied again. */
  private all = false;
  constructor(readonly unit: number) {}

  mark(start: number, length: number): void {
    if (start < 0) {
      this.all = true;
      return;
    }
    const last = Math.floor((start + length - 1) / this.unit);
    for (let u = Math.floor(start / this.unit); u <= last; u++) this.units.add(u);
  }

  /** The units written since the last take (sorted), or 'all'; then starts afresh. */
  take(): number[] | 'all' {
    const out = this.all ? 'all' : [...this.units].sort((a, b) => a - b);
    this.units = new Set();
    this.all = false;
    return out;
  }
}

export interface FileAccess {
  /** Starts recording the writes to `db`'s file; stop() ends it. */
  track(db: Database, unit: number): { tracker: WriteTracker; stop(): void };
  /** The current size of `db`'s file, in bytes. */
  size(db: Database): number;
  /** Reads `into.length` bytes of `db`'s file from `offset`; returns how many there were. */
  read(db: Database, offset: number, into: Uint8Array): number;
}

interface Hooked {
  SQL: SqlJsStatic;
  access: FileAccess | undefined;
  /** Why `access` is undefined. */
  problem?: string;
}

/** The version of the sql.js package that is installed (undefined if it cannot be read). */
export function installedSqlJsVersion(): string | undefined {
  try {
    // Its exports map hides package.json; the wasm file sits in dist/ beside it.
    const wasm = createRequire(import.meta.url).resolve('sql.js/dist/sql-wasm.wasm');
    return (JSON.parse(readFileSync(join(dirname(wasm), '..', 'package.json'), 'utf8')) as { version?: string }).version;
  } catch {
    return undefined;
  }
}

/** The message for a build these names do not fit: what is expected, what is installed, what was found. */
export function buildMismatch(installed: string | undefined, found: string): string {
  return (
    `sql.js build mismatch: src/store/wasm-files.ts expects the WASI import names of sql.js ${SQLJS_BUILD}, ` +
    `but sql.js ${installed ?? '(version unreadable)'} is installed and ${found}. ` +
    `The cache is persisted with export() instead (one long pause per write); pin sql.js to ${SQLJS_BUILD} or update IMPORTS.`
  );
}

/**
 * The file calls in a module's import object, by the pinned build's names; or, for another
 * build, the message saying what was found instead.
 */
export function findWasiImports(
  imports: Record<string, Record<string, unknown> | undefined>,
  installed: string | undefined,
): { fns: Record<ImportKey, Fn> } | { problem: string } {
  const mod = imports['a'];
  if (!mod)
    return {
      problem: buildMismatch(installed, `its wasm imports have no module "a" (found: ${Object.keys(imports).join(', ') || 'none'})`),
    };
  const wrong: string[] = [];
  for (const key of Object.keys(IMPORTS) as ImportKey[]) {
    const name = `a.${IMPORTS[key]} (${EXPECTED[key].is})`;
    const f = mod[IMPORTS[key]];
    if (typeof f !== 'function') wrong.push(`${name} is ${f === undefined ? 'missing' : `a ${typeof f}`}`);
    else if (f.length !== EXPECTED[key].arity) wrong.push(`${name} takes ${f.length} arguments, not ${EXPECTED[key].arity}`);
  }
  if (wrong.length) return { problem: buildMismatch(installed, wrong.join('; ')) };
  return { fns: Object.fromEntries((Object.keys(IMPORTS) as ImportKey[]).map((k) => [k, mod[IMPORTS[k]]])) as Record<ImportKey, Fn> };
}

/** The file name sql.js opened the database under (a property its typings leave out). */
function fileName(db: Database): string {
  const name = (db as unknown as { filename?: unknown }).filename;
  if (typeof name !== 'string') throw new Error('sql.js database without a filename');
  return name;
}

/**
 * Loads sql.js with the file calls wrapped. Resolves with the engine either way; `access` is
 * undefined (and `problem` says why) when the wrapping could not be set up or did not pass its check.
 */
export async function loadSqlJsWithFileAccess(): Promise<Hooked> {
  const installed = installedSqlJsVersion();
  let wasm: Uint8Array;
  try {
    wasm = readFileSync(createRequire(import.meta.url).resolve('sql.js/dist/sql-wasm.wasm'));
  } catch (e) {
    return { SQL: await initSqlJs(), access: undefined, problem: `sql.js's wasm file could not be read: ${(e as Error).message}` };
  }
  const fdPath = new Map<number, string>();
  const position = new Map<number, number>();
  const tracking = new Map<string, Set<WriteTracker>>();
  let memory: WebAssembly.Memory | undefined;
  let real: Record<ImportKey, Fn> | undefined;
  // sql.js initialises once per process: a second call gets the first engine, unwrapped.
  let problem: string | undefined = 'sql.js was initialised before its imports could be wrapped';
  const view = () => new DataView(memory!.buffer);
  const cString = (ptr: number) => {
    const bytes = new Uint8Array(memory!.buffer, ptr);
    return Buffer.from(bytes.subarray(0, bytes.indexOf(0))).toString();
  };

  const SQL = await initSqlJs({
    instantiateWasm(imports: Record<string, Record<string, unknown>>, done: (instance: WebAssembly.Instance) => void) {
      const found = findWasiImports(imports, installed);
      if ('problem' in found) problem = found.problem;
      else {
        problem = undefined;
        real = found.fns;
        const mod = imports['a']!;
        const r = real;
        mod[IMPORTS.open] = (dirfd: number, path: number, flags: number, varargs: number) => {
          const fd = (r.open as (...a: number[]) => number)(dirfd, path, flags, varargs);
          if (fd >= 0 && memory) {
            fdPath.set(fd, cString(path).replace(/^\//, ''));
            position.set(fd, 0);
          }
          return fd;
        };
        mod[IMPORTS.close] = (fd: number) => {
          fdPath.delete(fd);
          position.delete(fd);
          return (r.close as (fd: number) => number)(fd);
        };
        mod[IMPORTS.seek] = (fd: number, offset: bigint, whence: number, out: number) => {
          const rc = (r.seek as (fd: number, o: bigint, w: number, p: number) => number)(fd, offset, whence, out);
          if (rc === 0 && memory) position.set(fd, Number(view().getBigInt64(out, true)));
          return rc;
        };
        mod[IMPORTS.write] = (fd: number, iov: number, iovcnt: number, out: number) => {
          const rc = (r.write as (...a: number[]) => number)(fd, iov, iovcnt, out);
          const path = fdPath.get(fd);
          if (rc === 0 && path !== undefined && memory) {
            const n = view().getUint32(out, true);
            const start = position.get(fd);
            position.set(fd, start === undefined ? -1 : start + n);
            const set = tracking.get(path);
            if (set && n > 0) for (const t of set) t.mark(start ?? -1, n);
          }
          return rc;
        };
        mod[IMPORTS.read] = (fd: number, iov: number, iovcnt: number, out: number) => {
          const rc = (r.read as (...a: number[]) => number)(fd, iov, iovcnt, out);
          const start = position.get(fd);
          if (rc === 0 && start !== undefined && start >= 0 && memory) position.set(fd, start + view().getUint32(out, true));
          return rc;
        };
      }
      void WebAssembly.instantiate(new Uint8Array(wasm), imports as WebAssembly.Imports).then(({ instance }) => {
        memory = Object.values(instance.exports).find((e): e is WebAssembly.Memory => e instanceof WebAssembly.Memory);
        done(instance);
      });
      return {};
    },
  } as Parameters<typeof initSqlJs>[0]);
  if (!real || !memory) return { SQL, access: undefined, problem: problem ?? 'the wasm module exported no memory' };

  const r = real;
  const malloc = (SQL as unknown as { _malloc: (n: number) => number })._malloc;
  let scratch = 0; // SCRATCH bytes, then an iovec (8) and two result slots (8 + 8)
  const fdOf = (db: Database): number => {
    const name = fileName(db);
    for (const [fd, path] of fdPath) if (path === name) return fd;
    throw new Error(`no open file for ${name}`);
  };
  const seek = (fd: number, offset: number, whence: number): number => {
    const out = scratch + SCRATCH + 8;
    const rc = (r.seek as (fd: number, o: bigint, w: number, p: number) => number)(fd, BigInt(offset), whence, out);
    if (rc !== 0) throw new Error(`fd_seek failed (${rc})`);
    const pos = Number(view().getBigInt64(out, true));
    position.set(fd, pos);
    return pos;
  };

  const access: FileAccess = {
    track(db, unit) {
      const path = fileName(db);
      const tracker = new WriteTracker(unit);
      let set = tracking.get(path);
      if (!set) {
        set = new Set();
        tracking.set(path, set);
      }
      set.add(tracker);
      return {
        tracker,
        stop() {
          set.delete(tracker);
          if (set.size === 0) tracking.delete(path);
        },
      };
    },
    size(db) {
      scratch ||= malloc(SCRATCH + 24);
      const fd = fdOf(db);
      const here = position.get(fd) ?? 0;
      const end = seek(fd, 0, SEEK_END);
      seek(fd, Math.max(0, here), SEEK_SET);
      return end;
    },
    read(db, offset, into) {
      scratch ||= malloc(SCRATCH + 24);
      const fd = fdOf(db);
      seek(fd, offset, SEEK_SET);
      const iov = scratch + SCRATCH;
      const nread = scratch + SCRATCH + 16;
      let done = 0;
      while (done < into.length) {
        const want = Math.min(SCRATCH, into.length - done);
        const v = view();
        v.setUint32(iov, scratch, true);
        v.setUint32(iov + 4, want, true);
        const rc = (r.read as (...a: number[]) => number)(fd, iov, 1, nread);
        if (rc !== 0) throw new Error(`fd_read failed (${rc})`);
        const n = view().getUint32(nread, true);
        if (n === 0) break;
        into.set(new Uint8Array(memory!.buffer, scratch, n), done);
        done += n;
        position.set(fd, offset + done);
      }
      return done;
    },
  };
  const failed = selfCheck(SQL, access);
  return failed === undefined ? { SQL, access } : { SQL, access: undefined, problem: buildMismatch(installed, failed) };
}

/**
 * The wrapped calls must see a probe database exactly as SQLite wrote it: every byte read
 * back equals export(), and the writes of an update are seen where they land. Returns what
 * went wrong, or undefined.
 */
function selfCheck(SQL: SqlJsStatic, access: FileAccess): string | undefined {
  let db: Database | undefined;
  try {
    db = new SQL.Database();
    db.exec('PRAGMA journal_mode = MEMORY; CREATE TABLE probe (x); INSERT INTO probe VALUES (zeroblob(20000))');
    const { tracker, stop } = access.track(db, 4096);
    try {
      db.exec("UPDATE probe SET x = 'changed'");
      const seen = tracker.take();
      if (seen === 'all' || seen.length === 0) return "the probe database's writes were not seen through them";
    } finally {
      stop();
    }
    const size = access.size(db);
    const bytes = new Uint8Array(size);
    if (access.read(db, 0, bytes) !== size) return 'the probe database read back short through them';
    const exported = db.export();
    // The backup behind export() bumps the copy's change counter (header bytes 24-27 and 92-99)
    // and schema cookie (40-43).
    for (const [a, b] of [
      [24, 28],
      [40, 44],
      [92, 100],
    ] as const)
      exported.set(bytes.subarray(a, b), a);
    const same = exported.length === size && Buffer.compare(Buffer.from(exported), Buffer.from(bytes)) === 0;
    return same ? undefined : 'the probe database read back through them differs from export()';
  } catch (e) {
    return `the probe database failed through them (${(e as Error).message})`;
  } finally {
    db?.close();
  }
}
