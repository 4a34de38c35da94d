/**
 * SQLite inside sql.js, reading and writing a real file in place.
 *
 * sql.js keeps its database files in Emscripten's in-memory file system. SQLite reaches them
 * through the calls the wasm module imports (open, seek, read, write, fsync, fstat, ...). This
 * module wraps those imports when the module is instantiated: a database opened right after
 * `bind(realPath)` (sql.js names it `/dbfile_<n>`) and its `-journal`/`-wal` siblings are served
 * by Node's fs on the real files, under fake descriptors; every other file (temp files, databases
 * without a data dir) keeps going to the in-memory file system. SQLite then holds only its page
 * cache in memory, and its own journal makes each COMMIT durable.
 *
 * The import names are the build's minified ones (package.json pins sql.js to that build), so
 * they are checked before use (each a function of the expected arity), and a probe database is
 * written, closed, reopened and checked through them at load. Any mismatch leaves `disk`
 * undefined with `problem` saying what was expected and found.
 */
import initSqlJs, { type Database, type SqlJsStatic } from 'sql.js';
import { installFastBind } from './fast-bind.ts';
import { sqlWasm } from './sql-wasm-module.ts';
import fs from 'node:fs';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

/** The sql.js build whose import names IMPORTS are; package.json pins sql.js to exactly this. */
export const SQLJS_BUILD = '1.16.0';

/** The imports of that build (module `a`), by minified name: what each is and its arity in the glue. */
const IMPORTS = {
  open: ['x', '__syscall_openat', 4],
  seek: ['E', 'fd_seek', 4],
  write: ['q', 'fd_write', 4],
  read: ['t', 'fd_read', 4],
  close: ['e', 'fd_close', 1],
  sync: ['K', 'fd_sync', 1],
  fstat: ['g', '__syscall_fstat64', 2],
  ftruncate: ['J', '__syscall_ftruncate64', 2],
  fcntl: ['b', '__syscall_fcntl64', 3],
  fchown: ['h', '__syscall_fchown32', 1],
  fchmod: ['j', '__syscall_fchmod', 2],
  fdstat: ['m', 'fd_fdstat_get', 2],
  unlink: ['o', '__syscall_unlinkat', 3],
  access: ['D', '__syscall_faccessat', 3],
  stat: ['N', '__syscall_stat64', 2],
  lstat: ['M', '__syscall_lstat64', 2],
  fstatat: ['L', '__syscall_newfstatat', 4],
} as const;
type ImportKey = keyof typeof IMPORTS;
type Fn = (...args: never[]) => unknown;

/** Emscripten's errno values (WASI numbering): what SQLite sees when a call fails. */
const ERRNO: Record<string, number> = {
  EACCES: 2,
  EAGAIN: 6,
  EBADF: 8,
  EDQUOT: 19,
  EEXIST: 20,
  EFBIG: 22,
  EINVAL: 28,
  EIO: 29,
  EISDIR: 31,
  EMFILE: 33,
  ENAMETOOLONG: 37,
  ENFILE: 41,
  ENOENT: 44,
  ENOMEM: 48,
  ENOSPC: 51,
  ENOTDIR: 54,
  EPERM: 63,
  EROFS: 69,
};
const errnoOf = (code: string | undefined) => (code && ERRNO[code]) || ERRNO['EIO']!;

/** Emscripten's open(2) flags (the Linux values). */
const O_ACCMODE = 3;
const O_CREAT = 0o100;
const O_EXCL = 0o200;
const O_TRUNC = 0o1000;
const SEEK_SET = 0;
const SEEK_CUR = 1;
const SEEK_END = 2;
const F_GETLK = 12;
const F_UNLCK = 2;
const S_IFREG = 0o100000;
/** Descriptors from here up are ours (Emscripten's own count up from 3). */
const FIRST_FD = 1_000_000;
/** The siblings SQLite makes beside a database file. */
const SIBLINGS = ['-journal', '-wal', '-shm'];

/** An fs failure seen by the disk layer: what, where, and the errno code. */
export interface DiskError {
  at: Date;
  op: string;
  file: string;
  code: string;
  message: string;
}

/** Test hook: a call on `file` fails with the returned errno code (e.g. 'ENOSPC'). */
export type FaultHook = (op: 'open' | 'write' | 'sync' | 'truncate', file: string) => string | undefined;

export interface DiskAccess {
  /**
   * Opens (creating if missing) the SQLite database at `file` in place. `readOnly` makes a
   * read-write open fail with EROFS, so SQLite opens the file read-only.
   */
  open(file: string, opts?: { readOnly?: boolean }): Database;
  /** The last fs failure on `file` or its siblings (undefined once cleared). */
  lastError(file: string): DiskError | undefined;
  clearError(file: string): void;
  /** Open fake descriptors (the tests check none leak). */
  openFiles(): number;
  setFault(hook: FaultHook | undefined): void;
}

interface Loaded {
  SQL: SqlJsStatic;
  disk: DiskAccess | undefined;
  /** Why `disk` is undefined. */
  problem?: string;
}

interface FakeFile {
  fd: number;
  file: string;
  pos: number;
  /** Created by this open: its directory entry is synced with its first fsync. */
  created: boolean;
}

/** The version of the sql.js package that is installed (undefined if it cannot be read). */
export function installedSqlJsVersion(): string | undefined {
  try {
    // Its exports map hides package.json; the wasm file sits in dist/ beside it.
    const wasm = createRequire(import.meta.url).resolve('sql.js/dist/sql-wasm.wasm');
    return (JSON.parse(fs.readFileSync(path.join(path.dirname(wasm), '..', 'package.json'), 'utf8')) as { version?: string }).version;
  } catch {
    return undefined;
  }
}

/** The message for a build these names do not fit: what is expected, what is installed, what was found. */
export function buildMismatch(installed: string | undefined, found: string): string {
  return (
    `sql.js build mismatch: src/store/wasm-disk.ts expects the file imports of sql.js ${SQLJS_BUILD}, ` +
    `but sql.js ${installed ?? '(version unreadable)'} is installed and ${found}. ` +
    `The cache is kept in memory only and not saved; pin sql.js to ${SQLJS_BUILD} or update IMPORTS.`
  );
}

/** The file calls in a module's import object, by the pinned build's names; or what was found instead. */
export function findFileImports(
  imports: Record<string, Record<string, unknown> | undefined>,
  installed: string | undefined,
): { fns: Record<ImportKey, Fn> } | { problem: string } {
  const mod = imports['a'];
  if (!mod)
    return {
      problem: buildMismatch(installed, `its wasm imports have no module "a" (found: ${Object.keys(imports).join(', ') || 'none'})`),
    };
  const wrong: string[] = [];
  const fns: Partial<Record<ImportKey, Fn>> = {};
  for (const key of Object.keys(IMPORTS) as ImportKey[]) {
    const [min, is, arity] = IMPORTS[key];
    const f = mod[min];
    const name = `a.${min} (${is})`;
    if (typeof f !== 'function') wrong.push(`${name} is ${f === undefined ? 'missing' : `a ${typeof f}`}`);
    else if (f.length !== arity) wrong.push(`${name} takes ${f.length} arguments, not ${arity}`);
    else fns[key] = f as Fn;
  }
  if (wrong.length) return { problem: buildMismatch(installed, wrong.join('; ')) };
  return { fns: fns as Record<ImportKey, Fn> };
}

/** Loads sql.js with the file imports wrapped; `disk` is undefined (and `problem` says why) when that failed. */
export async function loadSqlJsWithDisk(): Promise<Loaded> {
  const installed = installedSqlJsVersion();
  let wasm: Uint8Array;
  let compiled: Promise<WebAssembly.Module>;
  try {
    ({ bytes: wasm, module: compiled } = sqlWasm());
  } catch (e) {
    return { SQL: await initSqlJs(), disk: undefined, problem: `sql.js's wasm file could not be read: ${(e as Error).message}` };
  }
  let memory: WebAssembly.Memory | undefined;
  // sql.js initialises once per process: a second call gets the first engine, unwrapped.
  let problem: string | undefined = 'sql.js was initialised before its imports could be wrapped';
  let layer: DiskLayer | undefined;
  const SQL = await initSqlJs({
    instantiateWasm(imports: Record<string, Record<string, unknown>>, done: (instance: WebAssembly.Instance) => void) {
      const found = findFileImports(imports, installed);
      if ('problem' in found) problem = found.problem;
      else {
        problem = undefined;
        layer = new DiskLayer(found.fns, () => memory!);
        layer.install(imports['a']!);
      }
      void compiled
        .then((module) => WebAssembly.instantiate(module, imports as WebAssembly.Imports))
        .then((instance) => {
          memory = Object.values(instance.exports).find((e): e is WebAssembly.Memory => e instanceof WebAssembly.Memory);
          done(instance);
        });
      return {};
    },
  } as Parameters<typeof initSqlJs>[0]);
  if (memory) installFastBind(SQL, memory);
  if (!layer || !memory) return { SQL, disk: undefined, problem: problem ?? 'the wasm module exported no memory' };
  const disk = layer.access(SQL);
  const failed = checkedBefore(wasm) ? undefined : selfCheck(disk);
  if (failed === undefined) rememberChecked(wasm);
  return failed === undefined ? { SQL, disk } : { SQL, disk: undefined, problem: buildMismatch(installed, failed) };
}

class DiskLayer {
  /** sql.js's in-memory name (`/dbfile_<n>`) → the real file. */
  private readonly names = new Map<string, string>();
  private readonly files = new Map<number, FakeFile>();
  private readonly errors = new Map<string, DiskError>();
  /** The real file the next `/dbfile_<n>` open is for, set by open(). */
  private pending: { file: string; readOnly: boolean; name?: string } | undefined;
  private readonly readOnly = new Set<string>();
  private nextFd = FIRST_FD;
  private fault: FaultHook | undefined;
  private readonly debug = process.env['MARKETDESK_DISK_DEBUG'] === '1';

  constructor(
    private readonly real: Record<ImportKey, Fn>,
    private readonly memory: () => WebAssembly.Memory,
  ) {}

  /** One DataView and one byte view per wasm buffer (a grown memory gets a new buffer): every page read and write uses them. */
  private dataView: DataView | undefined;
  private bytes: Uint8Array | undefined;
  private view(): DataView {
    const buffer = this.memory().buffer;
    if (this.dataView?.buffer !== buffer) this.dataView = new DataView(buffer);
    return this.dataView;
  }
  private heap(): Uint8Array {
    const buffer = this.memory().buffer;
    if (this.bytes?.buffer !== buffer) this.bytes = new Uint8Array(buffer);
    return this.bytes;
  }
  private cString(ptr: number): string {
    const bytes = new Uint8Array(this.memory().buffer, ptr);
    return Buffer.from(bytes.subarray(0, bytes.indexOf(0))).toString();
  }

  /** The real file behind an in-memory path, if it is one of ours. */
  private mapped(dirfd: number, ptr: number): string | undefined {
    let p = this.cString(ptr);
    if (!p.startsWith('/')) {
      if (dirfd !== -100) return undefined;
      p = `/${p}`;
    }
    const direct = this.names.get(p);
    if (direct) return direct;
    for (const s of SIBLINGS) if (p.endsWith(s) && this.names.has(p.slice(0, -s.length))) return this.names.get(p.slice(0, -s.length))! + s;
    return undefined;
  }

  private failed(op: string, file: string, e: unknown): number {
    const code = (e as NodeJS.ErrnoException).code ?? 'EIO';
    const base = this.baseOf(file);
    this.errors.set(base, { at: new Date(), op, file, code, message: (e as Error).message });
    if (this.debug) console.error(`[disk] ${op} ${file}: ${code}`);
    return errnoOf(code);
  }

  private baseOf(file: string): string {
    for (const s of SIBLINGS) if (file.endsWith(s)) return file.slice(0, -s.length);
    return file;
  }

  private inject(op: 'open' | 'write' | 'sync' | 'truncate', file: string): void {
    const code = this.fault?.(op, file);
    if (code) throw Object.assign(new Error(`${code}: injected fault, ${op} '${file}'`), { code });
  }

  private writeStat(buf: number, st: fs.Stats): void {
    // The layout of the glue's stat writer (Mc in sql-wasm.js): struct stat of Emscripten.
    const v = this.view();
    v.setUint32(buf, st.dev >>> 0, true);
    v.setUint32(buf + 4, (st.mode & ~0o170000) | (st.isFile() ? S_IFREG : st.mode & 0o170000), true);
    v.setUint32(buf + 8, st.nlink, true);
    v.setUint32(buf + 12, st.uid, true);
    v.setUint32(buf + 16, st.gid, true);
    v.setUint32(buf + 20, st.rdev >>> 0, true);
    v.setBigInt64(buf + 24, BigInt(st.size), true);
    v.setInt32(buf + 32, 4096, true);
    v.setInt32(buf + 36, st.blocks, true);
    const times = [st.atimeMs, st.mtimeMs, st.ctimeMs];
    times.forEach((ms, i) => {
      v.setBigInt64(buf + 40 + 16 * i, BigInt(Math.floor(ms / 1000)), true);
      v.setUint32(buf + 48 + 16 * i, Math.floor((ms % 1000) * 1e6), true);
    });
    v.setBigInt64(buf + 88, BigInt(st.ino), true);
  }

  private statPath(file: string, buf: number): number {
    try {
      this.writeStat(buf, fs.statSync(file));
      return 0;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      return -(code === 'ENOENT' ? ERRNO['ENOENT']! : this.failed('stat', file, e));
    }
  }

  /** Replaces the file imports in `mod` with ones that serve our files and pass the rest on. */
  install(mod: Record<string, unknown>): void {
    const r = this.real as unknown as Record<ImportKey, (...a: unknown[]) => number>;
    const set = (key: ImportKey, f: (...a: never[]) => number) => {
      mod[IMPORTS[key][0]] = f;
    };
    set('open', (dirfd: number, ptr: number, flags: number, varargs: number) => {
      const p = this.cString(ptr);
      const name = p.startsWith('/') ? p : `/${p}`;
      if (this.pending && !this.pending.name && /^\/dbfile_\d+$/.test(name)) {
        // The database sql.js is opening for open(): from now on this name is the real file.
        this.pending.name = name;
        this.names.set(name, this.pending.file);
        if (this.pending.readOnly) this.readOnly.add(this.pending.file);
        // sql.js unlinks its in-memory file at close: an empty one stands in for it.
        const placeholder = r.open(dirfd, ptr, O_CREAT | 2, varargs);
        if (placeholder >= 0) r.close(placeholder);
      }
      const file = this.mapped(dirfd, ptr);
      if (file === undefined) return r.open(dirfd, ptr, flags, varargs);
      const access = flags & O_ACCMODE;
      const mode = varargs ? this.view().getInt32(varargs, true) & 0o7777 : 0o644;
      try {
        if (access !== 0 && this.readOnly.has(this.baseOf(file)))
          throw Object.assign(new Error(`EROFS: opened read-only, '${file}'`), { code: 'EROFS' });
        if (access !== 0) this.inject('open', file);
        const existed = fs.existsSync(file);
        const nodeFlags =
          (access === 2 ? fs.constants.O_RDWR : access === 1 ? fs.constants.O_WRONLY : fs.constants.O_RDONLY) |
          (flags & O_CREAT ? fs.constants.O_CREAT : 0) |
          (flags & O_EXCL ? fs.constants.O_EXCL : 0) |
          (flags & O_TRUNC ? fs.constants.O_TRUNC : 0);
        const fd = fs.openSync(file, nodeFlags, mode || 0o644);
        const fake = this.nextFd++;
        this.files.set(fake, { fd, file, pos: 0, created: !existed });
        if (this.debug) console.error(`[disk] open ${file} flags ${flags.toString(8)} -> ${fake}`);
        return fake;
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        // A missing file is an answer, not a disk problem.
        return -(code === 'ENOENT' || code === 'EEXIST' ? errnoOf(code) : this.failed('open', file, e));
      }
    });
    set('close', (fd: number) => {
      const f = this.files.get(fd);
      if (!f) return r.close(fd);
      this.files.delete(fd);
      try {
        fs.closeSync(f.fd);
        return 0;
      } catch (e) {
        return this.failed('close', f.file, e);
      }
    });
    set('seek', (fd: number, offset: bigint, whence: number, out: number) => {
      const f = this.files.get(fd);
      if (!f) return r.seek(fd, offset, whence, out);
      let base = 0;
      if (whence === SEEK_CUR) base = f.pos;
      else if (whence === SEEK_END) base = fs.fstatSync(f.fd).size;
      else if (whence !== SEEK_SET) return ERRNO['EINVAL']!;
      const pos = base + Number(offset);
      if (pos < 0) return ERRNO['EINVAL']!;
      f.pos = pos;
      this.view().setBigInt64(out, BigInt(pos), true);
      return 0;
    });
    // An iovec is { ptr: u32, len: u32 }; SQLite passes one per call, so no list is built.
    const iovPtr = (v: DataView, iov: number, i: number) => v.getUint32(iov + 8 * i, true);
    const iovLen = (v: DataView, iov: number, i: number) => v.getUint32(iov + 8 * i + 4, true);
    set('read', (fd: number, iov: number, iovcnt: number, out: number) => {
      const f = this.files.get(fd);
      if (!f) return r.read(fd, iov, iovcnt, out);
      let total = 0;
      try {
        const v = this.view();
        for (let i = 0; i < iovcnt; i++) {
          const ptr = iovPtr(v, iov, i);
          const len = iovLen(v, iov, i);
          // Straight into the wasm heap: no copy.
          const n = fs.readSync(f.fd, this.heap(), ptr, len, f.pos);
          f.pos += n;
          total += n;
          if (n < len) break;
        }
      } catch (e) {
        return this.failed('read', f.file, e);
      }
      this.view().setUint32(out, total, true);
      return 0;
    });
    set('write', (fd: number, iov: number, iovcnt: number, out: number) => {
      const f = this.files.get(fd);
      if (!f) return r.write(fd, iov, iovcnt, out);
      let total = 0;
      try {
        this.inject('write', f.file);
        const v = this.view();
        for (let i = 0; i < iovcnt; i++) {
          const ptr = iovPtr(v, iov, i);
          const len = iovLen(v, iov, i);
          let done = 0;
          while (done < len) {
            const n = fs.writeSync(f.fd, this.heap(), ptr + done, len - done, f.pos);
            f.pos += n;
            done += n;
          }
          total += done;
        }
      } catch (e) {
        return this.failed('write', f.file, e);
      }
      this.view().setUint32(out, total, true);
      return 0;
    });
    set('sync', (fd: number) => {
      const f = this.files.get(fd);
      if (!f) return r.sync(fd);
      try {
        this.inject('sync', f.file);
        fs.fsyncSync(f.fd);
        if (f.created) {
          // A journal or WAL file just made: its directory entry must survive a crash too.
          f.created = false;
          syncDir(path.dirname(f.file));
        }
        return 0;
      } catch (e) {
        return this.failed('sync', f.file, e);
      }
    });
    set('fstat', (fd: number, buf: number) => {
      const f = this.files.get(fd);
      if (!f) return r.fstat(fd, buf);
      try {
        this.writeStat(buf, fs.fstatSync(f.fd));
        return 0;
      } catch (e) {
        return -this.failed('fstat', f.file, e);
      }
    });
    set('ftruncate', (fd: number, length: bigint) => {
      const f = this.files.get(fd);
      if (!f) return r.ftruncate(fd, length);
      try {
        this.inject('truncate', f.file);
        fs.ftruncateSync(f.fd, Number(length));
        return 0;
      } catch (e) {
        return -this.failed('truncate', f.file, e);
      }
    });
    set('fcntl', (fd: number, cmd: number, varargs: number) => {
      if (!this.files.has(fd)) return r.fcntl(fd, cmd, varargs);
      // One process per file (EXCLUSIVE locking mode): every lock is granted, none is held by others.
      if (cmd === F_GETLK) {
        const v = this.view();
        v.setInt16(v.getUint32(varargs, true), F_UNLCK, true);
      }
      return 0;
    });
    set('fchown', (fd: number) => (this.files.has(fd) ? 0 : r.fchown(fd)));
    set('fchmod', (fd: number, mode: number) => (this.files.has(fd) ? 0 : r.fchmod(fd, mode)));
    set('fdstat', (fd: number, buf: number) => {
      if (!this.files.has(fd)) return r.fdstat(fd, buf);
      const v = this.view();
      v.setUint8(buf, 4); // a regular file
      v.setUint16(buf + 2, 0, true);
      v.setBigUint64(buf + 8, 0n, true);
      v.setBigUint64(buf + 16, 0n, true);
      return 0;
    });
    set('unlink', (dirfd: number, ptr: number, flags: number) => {
      const file = this.mapped(dirfd, ptr);
      if (file === undefined) return r.unlink(dirfd, ptr, flags);
      try {
        fs.unlinkSync(file);
        syncDir(path.dirname(file));
        return 0;
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        return -(code === 'ENOENT' ? errnoOf(code) : this.failed('unlink', file, e));
      }
    });
    set('access', (dirfd: number, ptr: number, amode: number) => {
      const file = this.mapped(dirfd, ptr);
      if (file === undefined) return r.access(dirfd, ptr, amode);
      try {
        fs.accessSync(file, (amode & 4 ? fs.constants.R_OK : 0) | (amode & 2 ? fs.constants.W_OK : 0));
        if (amode & 2 && this.readOnly.has(this.baseOf(file))) return -ERRNO['EROFS']!;
        return 0;
      } catch (e) {
        return -errnoOf((e as NodeJS.ErrnoException).code);
      }
    });
    set('stat', (ptr: number, buf: number) => {
      const file = this.mapped(-100, ptr);
      return file === undefined ? r.stat(ptr, buf) : this.statPath(file, buf);
    });
    set('lstat', (ptr: number, buf: number) => {
      const file = this.mapped(-100, ptr);
      return file === undefined ? r.lstat(ptr, buf) : this.statPath(file, buf);
    });
    set('fstatat', (dirfd: number, ptr: number, buf: number, flags: number) => {
      const file = this.mapped(dirfd, ptr);
      return file === undefined ? r.fstatat(dirfd, ptr, buf, flags) : this.statPath(file, buf);
    });
    if (this.debug) this.watchOthers(mod);
  }

  /** Debug: any other import called with one of our descriptors as its first argument is logged. */
  private watchOthers(mod: Record<string, unknown>): void {
    const ours = new Set<string>(Object.values(IMPORTS).map(([min]) => min));
    for (const [k, f] of Object.entries(mod)) {
      if (ours.has(k) || typeof f !== 'function') continue;
      mod[k] = (...args: unknown[]) => {
        if (typeof args[0] === 'number' && this.files.has(args[0])) console.error(`[disk] unhandled import a.${k} on a disk file`, args);
        return (f as (...a: unknown[]) => unknown)(...args);
      };
    }
  }

  access(SQL: SqlJsStatic): DiskAccess {
    return {
      open: (file, opts = {}) => {
        const abs = path.resolve(file);
        this.pending = { file: abs, readOnly: !!opts.readOnly };
        let db: Database;
        try {
          db = new SQL.Database();
        } finally {
          this.pending = undefined;
        }
        const name = `/${(db as unknown as { filename: string }).filename}`;
        if (this.names.get(name) !== abs) {
          db.close();
          throw new Error(`sql.js opened ${name}, not the file bound to ${abs}`);
        }
        // sql.js's export() reads its in-memory file (here an empty stand-in) and reopens without
        // our settings: for a file on disk, the file itself is the export, once the WAL is in it.
        db.export = () => {
          db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
          return new Uint8Array(fs.readFileSync(abs));
        };
        const close = db.close.bind(db);
        db.close = () => {
          try {
            close();
          } finally {
            this.names.delete(name);
            this.readOnly.delete(abs);
          }
        };
        return db;
      },
      lastError: (file) => this.errors.get(path.resolve(file)),
      clearError: (file) => void this.errors.delete(path.resolve(file)),
      openFiles: () => this.files.size,
      setFault: (hook) => {
        this.fault = hook;
      },
    };
  }
}

/** fsync a directory so a file created or removed in it survives a crash (some filesystems refuse: ignored). */
export function syncDir(dir: string): void {
  try {
    const fd = fs.openSync(dir, 'r');
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    /* the entry is still written; only its durability across a power cut is weaker */
  }
}

/**
 * Where a passed probe is remembered: keyed by the wasm bytes, this module's wrapping code and
 * Node's version, the things its outcome depends on (it runs on a temp file, not the cache's
 * disk). It costs start-up 50-150 ms, so it runs once per build and machine boot, not per start.
 */
export function probeStamp(wasm: Uint8Array): string {
  const key = createHash('sha256')
    .update(wasm)
    .update(`${selfCheck}${DiskLayer}${JSON.stringify(IMPORTS)}${process.version}`)
    .digest('hex')
    .slice(0, 24);
  return path.join(os.tmpdir(), `marketdesk-disk-ok-${key}`);
}

function checkedBefore(wasm: Uint8Array): boolean {
  return fs.existsSync(probeStamp(wasm));
}

function rememberChecked(wasm: Uint8Array): void {
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
function selfCheck(disk: DiskAccess): string | undefined {
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
