/**
 * The temp files a save writes (`catalog.sqlite.tmp-<pid>`), and their removal at start: a
 * process killed mid-save leaves one behind, as big as the cache, and nothing else ever
 * removes it. Only files of processes that are gone are removed, so two services on one data
 * dir never delete each other's copy in flight.
 */
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import type { Logger } from '../logger.ts';

/** Where a save of `file` by this process writes before the rename. */
export function tempPath(file: string): string {
  return `${file}.tmp-${process.pid}`;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Whether `pid` is a running process (EPERM: it is, but someone else's). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes `<file>.tmp-<pid>` (and `-search`) files of dead processes, and this process's own: at open no save
 * of this store has started, so one with our pid is from a dead process whose pid was reused
 * (or a crashed service thread of this process). Returns the names removed; never throws
 * (on a read-only dir nothing can be removed, nor written).
 */
export async function removeStaleTemps(file: string, log: Logger): Promise<string[]> {
  const dir = path.dirname(file);
  // `-search`: a first sync's search index, built beside the cache (search-build.ts).
  const re = new RegExp(`^${escapeRegExp(path.basename(file))}\\.tmp-(\\d+)(?:-search)?$`);
  let names: string[];
  try {
    names = await fsp.readdir(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  let bytes = 0;
  for (const name of names) {
    const pid = Number(re.exec(name)?.[1] ?? NaN);
    if (!Number.isSafeInteger(pid) || (pid !== process.pid && pidAlive(pid))) continue;
    const p = path.join(dir, name);
    try {
      const { size } = await fsp.stat(p);
      await fsp.rm(p, { force: true });
      removed.push(name);
      bytes += size;
    } catch (e) {
      log.warn(`could not remove the stale temp file ${p}: ${(e as Error).message}`);
    }
  }
  if (removed.length > 0) {
    log.info(
      `removed ${removed.length} temp file(s) left by interrupted saves (${(bytes / 2 ** 20).toFixed(1)} MiB): ${removed.join(', ')}`,
    );
  }
  return removed;
}
