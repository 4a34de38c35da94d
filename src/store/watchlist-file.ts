/**
 * The watchlist, newest first, in `<dataDir>/watchlist.json` (json-list-file.ts: written whole
 * and atomically before a change is kept; in memory only without a data dir).
 */
import { watchItemSchema, type WatchItem, type WatchKind } from '../contract/desk-ops.ts';
import { JsonListFile, type JsonListOpenOptions, type JsonListSpec } from './json-list-file.ts';

export const WATCHLIST_FILE = 'watchlist.json';
/** More would be a script gone wrong, not a trader's list. */
export const MAX_WATCH_ITEMS = 5_000;

const WATCHLIST: JsonListSpec<WatchItem> = { name: WATCHLIST_FILE, key: 'items', item: watchItemSchema, what: 'a watchlist' };

const copies = (items: readonly WatchItem[]): WatchItem[] => items.map((i) => ({ ...i }));

export class WatchlistFile {
  private constructor(private readonly list: JsonListFile<WatchItem>) {}

  static async open(opts: JsonListOpenOptions = {}): Promise<WatchlistFile> {
    return new WatchlistFile(await JsonListFile.open(WATCHLIST, opts));
  }

  items(): WatchItem[] {
    return copies(this.list.items);
  }

  has(kind: WatchKind, id: string): boolean {
    return this.list.items.some((i) => i.kind === kind && i.id === id);
  }

  /** Adds to the front; already there: unchanged (its addedAt kept). */
  add(kind: WatchKind, id: string): Promise<WatchItem[]> {
    return this.change((items) => {
      if (this.has(kind, id)) return null;
      if (items.length >= MAX_WATCH_ITEMS) throw new RangeError(`the watchlist holds at most ${MAX_WATCH_ITEMS} items`);
      return [{ kind, id, addedAt: new Date(this.list.now()).toISOString() }, ...items];
    });
  }

  /** Not there: unchanged. */
  remove(kind: WatchKind, id: string): Promise<WatchItem[]> {
    return this.change((items) => (this.has(kind, id) ? items.filter((i) => !(i.kind === kind && i.id === id)) : null));
  }

  /** Called with the new list after each change that was kept. */
  onChange(fn: (items: WatchItem[]) => void): () => void {
    return this.list.onChange((items) => fn(copies(items)));
  }

  /** Waits for the writes under way. */
  flush(): Promise<void> {
    return this.list.flush();
  }

  /** `next` null: nothing changes. A failed write leaves the list (memory and file) as it was. */
  private async change(next: (items: readonly WatchItem[]) => WatchItem[] | null): Promise<WatchItem[]> {
    return copies(await this.list.update(next));
  }
}
