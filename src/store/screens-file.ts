/**
 * The saved screens, oldest first, kept in `<dataDir>/screens.json` (json-list-file.ts: written
 * whole and atomically before a change is kept, as the watchlist). Without a data dir they live
 * in memory only. Changes are applied one at a time.
 */
import { randomBytes } from 'node:crypto';
import { screenSchema, type Screen } from '../contract/screens-ops.ts';
import { JsonListFile, type JsonListOpenOptions, type JsonListSpec } from './json-list-file.ts';

export const SCREENS_FILE = 'screens.json';
/** More would be a script gone wrong, not a trader's tabs. */
export const MAX_SCREENS = 200;

const SCREENS: JsonListSpec<Screen> = { name: SCREENS_FILE, key: 'screens', item: screenSchema, what: 'a screens list' };

export class ScreensFile {
  private constructor(private readonly file: JsonListFile<Screen>) {}

  static async open(opts: JsonListOpenOptions = {}): Promise<ScreensFile> {
    return new ScreensFile(await JsonListFile.open(SCREENS, opts));
  }

  list(): Screen[] {
    return this.file.items.map((s) => structuredClone(s));
  }

  /** Appends a screen with a new id; a full list is a RangeError. */
  async add(screen: Omit<Screen, 'id' | 'createdAt'>): Promise<Screen> {
    let added: Screen | undefined;
    await this.file.update((screens) => {
      if (screens.length >= MAX_SCREENS) throw new RangeError(`at most ${MAX_SCREENS} screens are kept`);
      added = { id: randomBytes(6).toString('hex'), ...screen, createdAt: new Date(this.file.now()).toISOString() };
      return [...screens, added];
    });
    return structuredClone(added!);
  }

  /** The screen with a new name and params, in its place; undefined when there is no such screen. */
  async replace(id: string, change: Pick<Screen, 'name' | 'params'>): Promise<Screen | undefined> {
    let changed: Screen | undefined;
    await this.file.update((screens) => {
      const at = screens.findIndex((s) => s.id === id);
      if (at < 0) return null;
      changed = { ...screens[at]!, ...change };
      return screens.map((s, i) => (i === at ? changed! : s));
    });
    return changed === undefined ? undefined : structuredClone(changed);
  }

  /** False when there is no such screen (nothing changes). A failed write changes nothing. */
  async remove(id: string): Promise<boolean> {
    let found = false;
    await this.file.update((screens) => {
      found = screens.some((s) => s.id === id);
      return found ? screens.filter((s) => s.id !== id) : null;
    });
    return found;
  }

  /** Waits for the writes under way. */
  flush(): Promise<void> {
    return this.file.flush();
  }
}
