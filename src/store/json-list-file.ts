/**
 * The small JSON lists kept beside the cache (the watchlist, the saved screens, the alert rules
 * and the alerts' log), each a file `{ "version": 1, "<key>": [...] }` in the data dir, or in
 * memory only without a data dir.
 *
 * Read whole at open: a missing file is an empty list; one that is not JSON or has no such list
 * is moved aside (and logged) and the list starts empty; an entry its item schema refuses is left
 * out (the rest load). Written whole to a temp file and renamed over, so a crash leaves the old
 * list or the new one. Two ways to change a list, one per owner:
 *   - `update`: written first, kept after, one change at a time; a failed write rejects and
 *     changes nothing (the watchlist and the screens, whose callers hear of a failure);
 *   - `set` and `changed`: kept at once, written behind and coalesced (changes made while a write
 *     is under way go out in one more write, not one each); a failed write is logged, memory
 *     stays right and the next change writes again (the alerts' files, changed after each sync).
 * Both queue on one chain, so the file's writes never overtake each other.
 */
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import { silentLogger, type Logger } from '../logger.ts';
import { removeStaleTemps, tempPath } from './temp-files.ts';

/** One kind of list file. */
export interface JsonListSpec<T> {
  /** The file's name in the data dir. */
  name: string;
  /** The list's key in the file. */
  key: string;
  /** What an entry must be: validation only (an entry it accepts is kept as the file has it). */
  item: z.ZodType<T>;
  /** The file as the log names it, e.g. "a watchlist". */
  what: string;
}

export interface JsonListOpenOptions {
  /** Without one the list lives in memory only. */
  dataDir?: string;
  log?: Logger;
  /** The clock: it stamps the name an unreadable file is moved aside to, and the owner's entries. */
  now?: () => number;
}

export class JsonListFile<T> {
  private items_: T[];
  /** The writes and `update`s, in order; never rejects. */
  private queue: Promise<unknown> = Promise.resolve();
  /** A write-behind is queued and has not started: later changes ride on it. */
  private owed = false;
  private readonly listeners = new Set<(items: readonly T[]) => void>();

  private constructor(
    /** Undefined: in memory only. */
    readonly file: string | undefined,
    private readonly key: string,
    items: T[],
    private readonly log: Logger,
    /** The clock the owner stamps its entries with. */
    readonly now: () => number,
  ) {
    this.items_ = items;
  }

  static async open<T>(spec: JsonListSpec<T>, opts: JsonListOpenOptions = {}): Promise<JsonListFile<T>> {
    const log = opts.log ?? silentLogger;
    const now = opts.now ?? Date.now;
    if (opts.dataDir === undefined) return new JsonListFile<T>(undefined, spec.key, [], log, now);
    const file = path.join(opts.dataDir, spec.name);
    return new JsonListFile(file, spec.key, await readList(file, spec, log, now), log, now);
  }

  /** The list as kept: its live entries (change one in place only with `changed()` after). */
  get items(): readonly T[] {
    return this.items_;
  }

  /**
   * Replaces the list with what `next` makes of it (null: nothing changes), once the file holds
   * it. Changes run one at a time; a failed write rejects and leaves the list (memory and file).
   */
  update(next: (items: readonly T[]) => T[] | null): Promise<readonly T[]> {
    const run = this.queue.then(async () => {
      const items = next(this.items_);
      if (items === null) return this.items_;
      if (this.file !== undefined) await writeJsonAtomic(this.file, this.body(items));
      this.items_ = items;
      this.emit();
      return items;
    });
    this.queue = run.catch(() => {});
    return run;
  }

  /** Replaces the list at once; the file follows (written behind). */
  set(items: T[]): void {
    this.items_ = items;
    this.emit();
    this.changed();
  }

  /** Entries changed in place: the file follows (written behind). */
  changed(): void {
    const file = this.file;
    if (file === undefined || this.owed) return;
    this.owed = true;
    this.queue = this.queue.then(async () => {
      this.owed = false;
      try {
        // The list as it is when the write starts, so it is the latest.
        await writeJsonAtomic(file, this.body(this.items_));
      } catch (e) {
        this.log.warn(`could not write ${file}: ${(e as Error).message}`);
      }
    });
  }

  /** Called with the list after each change kept (`update`, `set`). */
  onChange(fn: (items: readonly T[]) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Waits until the writes under way and owed are done. */
  async flush(): Promise<void> {
    for (let q = this.queue; ; q = this.queue) {
      await q;
      if (q === this.queue) return;
    }
  }

  private body(items: readonly T[]): Record<string, unknown> {
    return { version: 1, [this.key]: items };
  }

  private emit(): void {
    for (const fn of this.listeners) fn(this.items_);
  }
}

async function readList<T>(file: string, spec: JsonListSpec<T>, log: Logger, now: () => number): Promise<T[]> {
  await removeStaleTemps(file, log);
  let text: string | undefined;
  try {
    text = await fsp.readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') log.warn(`could not read ${file}: ${(e as Error).message}`);
  }
  if (text === undefined) return [];
  try {
    const list = (JSON.parse(text) as Record<string, unknown>)[spec.key];
    if (!Array.isArray(list)) throw new Error(`no ${spec.key} list`);
    return list.filter((v): v is T => spec.item.safeParse(v).success);
  } catch (e) {
    const aside = `${file}.unreadable-${now()}`;
    log.warn(`${file} is not ${spec.what} (${(e as Error).message}); moved to ${aside}`);
    await fsp.rename(file, aside).catch(() => {});
    return [];
  }
}

/** Writes `body` as the whole file, atomically; a failure leaves the old file and no temp. */
async function writeJsonAtomic(file: string, body: unknown): Promise<void> {
  const tmp = tempPath(file);
  try {
    await fsp.mkdir(path.dirname(file), { recursive: true });
    await fsp.writeFile(tmp, `${JSON.stringify(body, null, 2)}\n`);
    await fsp.rename(tmp, file);
  } catch (e) {
    await fsp.rm(tmp, { force: true }).catch(() => {});
    throw e;
  }
}
