/**
 * The saved screens, oldest first, kept in `<dataDir>/screens.json` (written whole to a temp file
 * and renamed over, as the watchlist: a crash leaves the old list or the new one). Without a data
 * dir they live in memory only. Changes are applied one at a time.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Screen } from '../contract/screens-ops.ts';
import { silentLogger, type Logger } from './sqlite.ts';
import { readJsonList, writeJsonAtomic } from './json-list-file.ts';

export const SCREENS_FILE = 'screens.json';
/** More would be a script gone wrong, not a trader's tabs. */
export const MAX_SCREENS = 200;

interface FileShape {
  version: 1;
  screens: Screen[];
}

function isScreen(v: unknown): v is Screen {
  const o = v as Screen;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof o.id === 'string' &&
    typeof o.name === 'string' &&
    (o.kind === 'markets' || o.kind === 'events') &&
    typeof o.params === 'object' &&
    o.params !== null &&
    typeof o.createdAt === 'string'
  );
}

export class ScreensFile {
  private screens_: Screen[];
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly file: string | undefined,
    screens: Screen[],
    private readonly now: () => number,
  ) {
    this.screens_ = screens;
  }

  /** Reads the list; a missing file is an empty list, an unreadable one is moved aside (and logged). */
  static async open(opts: { dataDir?: string; log?: Logger; now?: () => number } = {}): Promise<ScreensFile> {
    const log = opts.log ?? silentLogger;
    const now = opts.now ?? Date.now;
    if (opts.dataDir === undefined) return new ScreensFile(undefined, [], now);
    const file = path.join(opts.dataDir, SCREENS_FILE);
    const screens = await readJsonList(file, 'screens', isScreen, 'a screens list', { log, now });
    return new ScreensFile(file, screens, now);
  }

  list(): Screen[] {
    return structuredClone(this.screens_);
  }

  /** Appends a screen with a new id; a full list is a RangeError. */
  add(screen: Omit<Screen, 'id' | 'createdAt'>): Promise<Screen> {
    let added: Screen | undefined;
    return this.change(() => {
      if (this.screens_.length >= MAX_SCREENS) throw new RangeError(`at most ${MAX_SCREENS} screens are kept`);
      added = { id: randomBytes(6).toString('hex'), ...screen, createdAt: new Date(this.now()).toISOString() };
      return [...this.screens_, added];
    }).then(() => structuredClone(added!));
  }

  /** False when there is no such screen (nothing changes). */
  async remove(id: string): Promise<boolean> {
    let found = false;
    await this.change(() => {
      found = this.screens_.some((s) => s.id === id);
      return found ? this.screens_.filter((s) => s.id !== id) : null;
    });
    return found;
  }

  /** Waits for the writes under way. */
  async flush(): Promise<void> {
    await this.queue.catch(() => {});
  }

  /** `next` null: nothing changes. A failed write leaves the list (memory and file) as it was. */
  private change(next: () => Screen[] | null): Promise<void> {
    const run = this.queue.then(async () => {
      const screens = next();
      if (screens === null) return;
      if (this.file !== undefined) await this.write(this.file, screens);
      this.screens_ = screens;
    });
    this.queue = run.catch(() => {});
    return run;
  }

  private async write(file: string, screens: Screen[]): Promise<void> {
    const body: FileShape = { version: 1, screens };
    await writeJsonAtomic(file, body);
  }
}
