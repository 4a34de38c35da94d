import path from 'node:path';
import type { WatchItem, WatchKind } from '../contract/desk-ops.ts';
import { silentLogger, type Logger } from './sqlite.ts';
import { readJsonList, writeJsonAtomic } from './json-list-file.ts';

export const WATCHLIST_FILE = 'watchlist.json';
/** More would be a script gone wrong, not a trader's list. */
export const MAX_WATCH_ITEMS = 5_000;

interface FileShape {
  version: 1;
  items: WatchItem[];
}

function isItem(v: unknown): v is WatchItem {
  const o = v as WatchItem;
  return (
    typeof v === 'object' &&
    v !== null &&
    (o.kind === 'market' || o.kind === 'event') &&
    typeof o.id === 'string' &&
    /^\d{1,15}$/.test(o.id) &&
    typeof o.addedAt === 'string'
  );
}

export class WatchlistFile {
  private items_: WatchItem[];
  private queue: Promise<unknown> = Promise.resolve();
  private readonly listeners = new Set<(items: WatchItem[]) => void>();

  private constructor(
    private readonly file: string | undefined,
    items: WatchItem[],
    private readonly now: () => number,
  ) {
    this.items_ = items;
  }

  /** Reads the list; a missing file is an empty list, an unreadable one is moved aside (and logged). */
  static async open(opts: { dataDir?: string; log?: Logger; now?: () => number } = {}): Promise<WatchlistFile> {
    const log = opts.log ?? silentLogger;
    const now = opts.now ?? Date.now;
    if (opts.dataDir === undefined) return new WatchlistFile(undefined, [], now);
    const file = path.join(opts.dataDir, WATCHLIST_FILE);
    const items = await readJsonList(file, 'items', isItem, 'a watchlist', { log, now });
    return new WatchlistFile(file, items, now);
  }

  items(): WatchItem[] {
    return this.items_.map((i) => ({ ...i }));
  }

  has(kind: WatchKind, id: string): boolean {
    return this.items_.some((i) => i.kind === kind && i.id === id);
  }

  /** Adds to the front; already there: unchanged (its addedAt kept). */
  add(kind: WatchKind, id: string): Promise<WatchItem[]> {
    return this.change(() => {
      if (this.has(kind, id)) return null;
      if (this.items_.length >= MAX_WATCH_ITEMS) throw new RangeError(`the watchlist holds at most ${MAX_WATCH_ITEMS} items`);
      return [{ kind, id, addedAt: new Date(this.now()).toISOString() }, ...this.items_];
    });
  }

  /** Not there: unchanged. */
  remove(kind: WatchKind, id: string): Promise<WatchItem[]> {
    return this.change(() => (this.has(kind, id) ? this.items_.filter((i) => !(i.kind === kind && i.id === id)) : null));
  }

  /** Called with the new list after each change that was kept. */
  onChange(fn: (items: WatchItem[]) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Waits for the writes under way. */
  async flush(): Promise<void> {
    await this.queue.catch(() => {});
  }

  /** `next` null: nothing changes. A failed write leaves the list (memory and file) as it was. */
  private change(next: () => WatchItem[] | null): Promise<WatchItem[]> {
    const run = this.queue.then(async () => {
      const items = next();
      if (items === null) return this.items();
      if (this.file !== undefined) await this.write(this.file, items);
      this.items_ = items;
      for (const fn of this.listeners) fn(this.items());
      return this.items();
    });
    this.queue = run.catch(() => {});
    return run;
  }

  private async write(file: string, items: WatchItem[]): Promise<void> {
    const body: FileShape = { version: 1, items };
    await writeJsonAtomic(file, body);
  }
}
