/**
 * Test support: a small tmpfs (a disk that fills up) and a read-only bind mount (root ignores
 * chmod, so only a read-only mount makes a directory unwritable to it). Both need root or
 * CAP_SYS_ADMIN; `mountSkipReason` says why they cannot be used here, for `describe.skipIf`.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

function run(cmd: string, args: string[]): void {
  execFileSync(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'] });
}

function errText(e: unknown): string {
  const stderr = (e as { stderr?: Buffer }).stderr?.toString().trim();
  return stderr || (e as Error).message;
}

/** Null when mounting works here; else why not (checked once, with a 1 MiB tmpfs). */
export const mountSkipReason: string | null = (() => {
  if (process.platform !== 'linux') return `mounting needs Linux (this is ${process.platform})`;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'marketdesk-mount-probe-'));
  try {
    run('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', dir]);
    run('umount', [dir]);
    return null;
  } catch (e) {
    return `cannot mount a tmpfs (needs root or CAP_SYS_ADMIN): ${errText(e)}`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
})();

export interface Mount {
  dir: string;
  /** Unmounts (lazily if busy) and removes the mount point; safe to call twice. */
  cleanup(): void;
}

function unmount(dir: string): void {
  try {
    run('umount', [dir]);
  } catch {
    // Still busy (a child not reaped yet): detach now, the kernel frees it when idle.
    try {
      run('umount', ['-l', dir]);
    } catch {
      /* not mounted */
    }
  }
}

/** A fresh tmpfs of `size` (e.g. "30m"). */
export function mountTmpfs(size: string): Mount {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'marketdesk-tmpfs-'));
  run('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0700`, 'tmpfs', dir]);
  let done = false;
  return {
    dir,
    cleanup() {
      if (done) return;
      done = true;
      unmount(dir);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Makes `dir` read-only in place (a read-only bind mount over itself) until cleanup. */
export function makeReadOnly(dir: string): Mount {
  run('mount', ['--bind', dir, dir]);
  try {
    run('mount', ['-o', 'remount,bind,ro', dir]);
  } catch (e) {
    unmount(dir);
    throw e;
  }
  let done = false;
  return {
    dir,
    cleanup() {
      if (done) return;
      done = true;
      unmount(dir);
    },
  };
}
