/**
 * Persisting the cache without stopping queries.
 *
 * The database file is copied to a temp file in slices, read between queries through
 * wasm-files.ts. SQLite may commit while the copy runs, so the pages it writes meanwhile are
 * copied again, pass after pass, until a pass finds nothing new: then every page on disk is
 * newer than its last change, and the copy is one consistent state of the database (writes
 * happen in whole synchronous transactions, never across a slice). Then the usual atomic
 * finish: fsync, rename over the old file, fsync the directory.
 *
 * No pause is longer than one slice (4 MiB by default, a few ms), where export() would take
 * the whole file (about 1 s at 500 MB), and no second copy of the file is held in memory.
 */
import type { Database } from 'sql.js';
import { promises as fsp, constants as fsc, writeSync } from 'node:fs';
import path from 'node:path';
import { syncDir } from './sqlite.ts';
import { tempPath } from './temp-files.ts';
import type { FileAccess } from './wasm-files.ts';
import { loopTurns } from '../limits/fair-turns.ts';

export interface PersistStats {
  /** From start to the rename. */
  totalMs: number;
  /** Main-thread time spent reading the file (the time queries had to wait, in all). */
  busyMs: number;
  /** The longest single stretch of that: the longest a query could have waited. */
  longestMs: number;
  bytes: number;
  /** Copy passes: the first over the whole file, then over pages changed meanwhile. */
  passes: number;
}

/** SQLite pages are 4 KiB here; a unit of copying never splits one. */
const UNIT = 4096;
const SLICE = 4 << 20;
/** After this many passes the next is read and written in one go, if it is small enough. */
const SETTLE_PASSES = 6;
const SETTLE_BYTES = 16 << 20;
/** A copy that cannot settle (a bulk load writing flat out) gives up and is retried later. */
const MAX_PASSES = 60;

export class PersistBusyError extends Error {}

/** Contiguous runs of sorted units, as [first, count], none longer than maxUnits. */
function runs(units: readonly number[], maxUnits: number): [number, number][] {
  const out: [number, number][] = [];
  for (const u of units) {
    const last = out[out.length - 1];
    if (last && last[0] + last[1] === u && last[1] < maxUnits) last[1]++;
    else out.push([u, 1]);
  }
  return out;
}

export async function persistLive(access: FileAccess, db: Database, file: string, slice = SLICE): Promise<PersistStats> {
  const t0 = performance.now();
  let busy = 0;
  let longest = 0;
  const timed = <T>(fn: () => T): T => {
    const s = performance.now();
    try {
      return fn();
    } finally {
      const d = performance.now() - s;
      busy += d;
      longest = Math.max(longest, d);
    }
  };

  const dir = path.dirname(file);
  await fsp.mkdir(dir, { recursive: true });
  const tmp = tempPath(file);
  const fh = await fsp.open(tmp, fsc.O_RDWR | fsc.O_CREAT | fsc.O_TRUNC, 0o600);
  const { tracker, stop } = access.track(db, UNIT);
  let size = 0;
  let passes = 1;
  try {
    // Pass 1: the whole file, a slice at a time.
    const buf = Buffer.allocUnsafe(slice);
    for (let off = 0; ; off += slice) {
      // One slice per turn (fair-turns.ts): under load a save shares the loop with the requests.
      await loopTurns.turn(db);
      const n = timed(() => {
        size = access.size(db);
        return off < size ? access.read(db, off, buf.subarray(0, Math.min(slice, size - off))) : 0;
      });
      if (n === 0) break;
      await fh.write(buf, 0, n, off);
    }
    // Then what SQLite wrote meanwhile, until a pass finds nothing new.
    for (;;) {
      const settle = passes >= SETTLE_PASSES;
      let units = timed(() => {
        const t = tracker.take();
        size = access.size(db);
        return t === 'all' ? Array.from({ length: Math.ceil(size / UNIT) }, (_, i) => i) : t.filter((u) => u * UNIT < size);
      });
      if (units.length === 0) break;
      passes++;
      if (passes > MAX_PASSES) throw new PersistBusyError(`the database kept changing through ${MAX_PASSES} copy passes`);
      if (settle && units.length * UNIT <= SETTLE_BYTES) {
        // Read and write in one go: nothing can change in between, so this pass is the last.
        timed(() => {
          const data = Buffer.allocUnsafe(units.length * UNIT);
          for (const [first, count] of runs(units, Infinity)) {
            const n = access.read(db, first * UNIT, data.subarray(0, count * UNIT));
            writeSync(fh.fd, data, 0, n, first * UNIT);
          }
        });
        break;
      }
      // A slice of runs at a time, with the writes to disk in between.
      while (units.length) {
        const take = units.slice(0, slice / UNIT);
        units = units.slice(take.length);
        await loopTurns.turn(db);
        const pieces = timed(() =>
          runs(take, slice / UNIT).map(([first, count]) => {
            const data = Buffer.allocUnsafe(count * UNIT);
            return { off: first * UNIT, data: data.subarray(0, access.read(db, first * UNIT, data)) };
          }),
        );
        for (const p of pieces) await fh.write(p.data, 0, p.data.length, p.off);
      }
    }
    await fh.truncate(size);
    await fh.sync();
  } catch (e) {
    stop();
    await fh.close().catch(() => undefined);
    // A partial copy left on a full disk would keep it full.
    await fsp.rm(tmp, { force: true }).catch(() => undefined);
    throw e;
  }
  stop();
  try {
    await fh.close();
    await fsp.rename(tmp, file);
  } catch (e) {
    await fsp.rm(tmp, { force: true }).catch(() => undefined);
    throw e;
  }
  await syncDir(dir);
  return { totalMs: performance.now() - t0, busyMs: busy, longestMs: longest, bytes: size, passes };
}
