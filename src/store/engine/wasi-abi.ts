/**
 * The numbers and memory layouts of the calls SQLite makes through sql.js's Emscripten glue:
 * errno values (WASI numbering), open(2) and fcntl(2) constants (the Linux values), and the
 * structs the shims in wasm-disk.ts write into the wasm heap (struct stat, fdstat, iovec).
 */
import type fs from 'node:fs';

/** Emscripten's errno values (WASI numbering): what SQLite sees when a call fails. */
export const ERRNO: Record<string, number> = {
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
export const errnoOf = (code: string | undefined) => (code && ERRNO[code]) || ERRNO['EIO']!;

/** Emscripten's open(2) flags (the Linux values). */
export const O_ACCMODE = 3;
export const O_CREAT = 0o100;
export const O_EXCL = 0o200;
export const O_TRUNC = 0o1000;
export const SEEK_SET = 0;
export const SEEK_CUR = 1;
export const SEEK_END = 2;
export const F_GETLK = 12;
export const F_UNLCK = 2;
const S_IFREG = 0o100000;

/** Writes `st` at `buf` in the layout of the glue's stat writer (Mc in sql-wasm.js): struct stat of Emscripten. */
export function writeStat(v: DataView, buf: number, st: fs.Stats): void {
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

/** Writes a regular file's fdstat at `buf` (filetype, flags, rights base and inheriting). */
export function writeFdstat(v: DataView, buf: number): void {
  v.setUint8(buf, 4); // a regular file
  v.setUint16(buf + 2, 0, true);
  v.setBigUint64(buf + 8, 0n, true);
  v.setBigUint64(buf + 16, 0n, true);
}

// An iovec is { ptr: u32, len: u32 }; SQLite passes one per call, so no list is built.
export const iovPtr = (v: DataView, iov: number, i: number) => v.getUint32(iov + 8 * i, true);
export const iovLen = (v: DataView, iov: number, i: number) => v.getUint32(iov + 8 * i + 4, true);
