/**
 * Whether the cache reaches the disk: the `storage` part of /status. The store writes in place,
 * so a "save" is a COMMIT: failed ones (a full disk, a read-only data dir) are recorded here
 * (time, reason), probed again with exponential backoff by the store, logged once per distinct
 * reason, and told to listeners (the push hub) as they happen, so the trouble is seen at once
 * and not only in the log.
 */
import type { StorageStatus } from '../contract/types.ts';
import type { Logger } from '../logger.ts';

export type { StorageStatus };

/** Backoff of save retries: from `minMs`, doubling, capped at `maxMs`; reset by a success. */
export interface RetryDelays {
  minMs: number;
  maxMs: number;
}
export const DEFAULT_RETRY: RetryDelays = { minMs: 5_000, maxMs: 300_000 };

/** The wait after `failures` consecutive failed saves: minMs, doubling, capped at maxMs. */
export function backoffMs(failures: number, retry: RetryDelays): number {
  return Math.min(retry.maxMs, retry.minMs * 2 ** Math.min(Math.max(failures - 1, 0), 30));
}

const REASONS: Record<string, string> = {
  ENOSPC: 'disk full',
  EDQUOT: 'disk quota exceeded',
  EROFS: 'read-only file system',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EIO: 'I/O error',
};
/** Codes that mean the data dir cannot be written at all (not just now). */
const READ_ONLY_CODES = new Set(['EROFS', 'EACCES', 'EPERM']);

export interface FsProblem {
  /** For people: "disk full (ENOSPC)". */
  reason: string;
  code: string | null;
  readOnly: boolean;
}

export function describeFsError(e: unknown): FsProblem {
  const code = typeof (e as { code?: unknown })?.code === 'string' ? (e as { code: string }).code : null;
  const known = code ? REASONS[code] : undefined;
  const reason = known ? `${known} (${code})` : e instanceof Error ? e.message : String(e);
  return { reason, code, readOnly: code !== null && READ_ONLY_CODES.has(code) };
}

/** Thrown by close() when the last save failed: the changes since `unsavedSince` are lost. */
export class UnsavedChangesError extends Error {
  constructor(
    message: string,
    readonly reason: string,
    readonly unsavedSince: string | null,
  ) {
    super(message);
    this.name = 'UnsavedChangesError';
  }
}

type Listener = (s: StorageStatus) => void;

export class StorageState {
  readOnlyReason: string | null = null;
  openError: string | null = null;
  movedAside: string | null = null;
  /** When the file on disk was written: this run's last save, else its mtime at start. */
  lastSaveAt: Date | null = null;
  lastSaveError: { at: Date; reason: string; code: string | null } | null = null;
  nextRetryAt: Date | null = null;
  /** Consecutive failed saves (0 after a success). */
  failures = 0;
  /** The first write refused since the last one that reached the file. */
  private changedSince: Date | null = null;
  private loggedReason: string | null = null;
  private readonly listeners = new Set<Listener>();

  constructor(
    readonly file: string | undefined,
    private readonly log: Logger,
    private readonly retry: RetryDelays = DEFAULT_RETRY,
  ) {}

  status(): StorageStatus {
    const unsaved = this.changedSince;
    return {
      file: this.file ?? null,
      writable: this.readOnlyReason === null,
      readOnlyReason: this.readOnlyReason,
      openError: this.openError,
      movedAside: this.movedAside,
      lastSaveAt: this.lastSaveAt?.toISOString() ?? null,
      lastSaveError: this.lastSaveError
        ? { at: this.lastSaveError.at.toISOString(), reason: this.lastSaveError.reason, code: this.lastSaveError.code }
        : null,
      unsavedSince: this.file ? (unsaved?.toISOString() ?? null) : null,
      nextRetryAt: this.nextRetryAt?.toISOString() ?? null,
    };
  }

  onChange(fn: Listener): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private emit(): void {
    const s = this.status();
    for (const fn of this.listeners) {
      try {
        fn(s);
      } catch {
        // A broken listener must not break saving.
      }
    }
  }

  changed(): void {
    this.changedSince ??= new Date();
  }

  /** The delay before the next attempt after `failures` failed ones; announces it. */
  retryIn(): number {
    const ms = backoffMs(this.failures, this.retry);
    this.nextRetryAt = new Date(Date.now() + ms);
    this.emit();
    return ms;
  }

  saveSucceeded(): void {
    this.changedSince = null;
    this.lastSaveAt = new Date();
    if (this.failures > 0) this.log.info(`the cache was saved again after ${this.failures} failed attempt(s)`);
    this.failures = 0;
    this.lastSaveError = null;
    this.loggedReason = null;
    // A save went through, so the data dir is writable (again).
    this.readOnlyReason = null;
    this.emit();
  }

  saveFailed(e: unknown): FsProblem {
    const p = describeFsError(e);
    this.failures++;
    this.lastSaveError = { at: new Date(), reason: p.reason, code: p.code };
    if (p.readOnly) this.readOnlyReason = p.reason;
    // Once per distinct reason, not on every retry of a disk that stays full.
    if (p.reason !== this.loggedReason) {
      this.loggedReason = p.reason;
      this.log.warn(
        `saving the cache to ${this.file} failed: ${p.reason}; retrying with backoff (up to every ${this.retry.maxMs / 1000} s)`,
      );
    }
    this.emit();
    return p;
  }

  /** A COMMIT reached the file. Quiet unless it ends a run of failures (no event per batch). */
  writeSucceeded(): void {
    this.lastSaveAt = new Date();
    this.nextRetryAt = null;
    if (this.failures > 0 || this.changedSince) this.saveSucceeded();
  }

  /** A COMMIT failed: SQLite rolled it back, so its changes are lost (the file is as before it). */
  writeFailed(e: unknown): FsProblem {
    this.changed();
    return this.saveFailed(e);
  }

  /** The one line shutdown prints when the final save failed. */
  unsavedMessage(reason: string): string {
    const since = this.changedSince?.toISOString();
    const onDisk =
      this.openError && !this.movedAside
        ? 'the file on disk is the unreadable one found at start'
        : this.lastSaveAt
          ? `the file on disk holds the state of ${this.lastSaveAt.toISOString()}`
          : 'there is no cache file on disk';
    return `the cache was not saved: ${reason}; changes since ${since ?? 'start'} are lost (${onDisk})`;
  }
}
