/**
 * What fired, newest first, in `<dataDir>/alerts-fired.json` (in memory only without a data
 * dir). Capped at the newest MAX_FIRED: the log is for "what happened lately", and a file read
 * whole at start must stay small. Appends are kept in memory at once and written coalesced.
 */
import { firedAlertSchema, type FiredAlert, type FiredPage } from '../contract/alerts-ops.ts';
import { JsonListFile, type JsonListOpenOptions, type JsonListSpec } from '../store/json-list-file.ts';

export const FIRED_FILE = 'alerts-fired.json';
export const MAX_FIRED = 2_000;

const FIRED: JsonListSpec<FiredAlert> = { name: FIRED_FILE, key: 'fired', item: firedAlertSchema, what: 'an alerts log' };

export class FiredLog {
  private constructor(
    /** Newest first; a file from a build with a larger cap may hold more than `max` until the next append. */
    private readonly file: JsonListFile<FiredAlert>,
    private readonly max: number,
  ) {}

  static async open(opts: JsonListOpenOptions & { max?: number } = {}): Promise<FiredLog> {
    return new FiredLog(await JsonListFile.open(FIRED, opts), opts.max ?? MAX_FIRED);
  }

  /** Adds firings (oldest first, as they happened); the oldest past the cap are dropped. */
  append(items: readonly FiredAlert[]): void {
    if (items.length === 0) return;
    this.file.set([...[...items].reverse(), ...this.file.items].slice(0, this.max));
  }

  page(limit: number, offset: number): FiredPage {
    const total = Math.min(this.file.items.length, this.max);
    return { total, fired: structuredClone(this.file.items.slice(offset, Math.min(offset + limit, total))) };
  }

  flush(): Promise<void> {
    return this.file.flush();
  }
}
