/**
 * SQLite inside sql.js, reading and writing a real file in place: the shims of the file calls.
 *
 * sql.js keeps its database files in Emscripten's in-memory file system. SQLite reaches them
 * through the calls the wasm module imports (open, seek, read, write, fsync, fstat, ...).
 * DiskLayer replaces those imports when the module is instantiated (load-sqljs.ts): a database
 * opened right after `bind(realPath)` (sql.js names it `/dbfile_<n>`) and its `-journal`/`-wal`
 * siblings are served by Node's fs on the real files, under fake descriptors; every other file
 * (temp files, databases without a data dir) keeps going to the in-memory file system. SQLite
 * then holds only its page cache in memory, and its own journal makes each COMMIT durable.
 *
 * The import names are the build's minified ones (sqljs-build.ts), the numbers and struct
 * layouts Emscripten's (wasi-abi.ts); the load checks both before use (disk-probe.ts).
 */
import type { Database, SqlJsStatic } from 'sql.js';
import fs from 'node:fs';
import path from 'node:path';
import { IMPORTS, type Fn, type ImportKey } from './sqljs-build.ts';
import {
  ERRNO,
  errnoOf,
  F_GETLK,
  F_UNLCK,
  iovLen,
  iovPtr,
  O_ACCMODE,
  O_CREAT,
  O_EXCL,
  O_TRUNC,
  SEEK_CUR,
  SEEK_END,
  SEEK_SET,
  writeFdstat,
  writeStat,
} from './wasi-abi.ts';

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

interface FakeFile {
  fd: number;
  file: string;
  pos: number;
  /** Created by this open: its directory entry is synced with its first fsync. */
  created: boolean;
}

/** The shims and their bookkeeping: install() wraps a module's imports, access() is the store's side. */
export class DiskLayer {
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

  private statPath(file: string, buf: number): number {
    try {
      writeStat(this.view(), buf, fs.statSync(file));
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
        writeStat(this.view(), buf, fs.fstatSync(f.fd));
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
      writeFdstat(this.view(), buf);
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
