/**
 * What fired, newest first, in `<dataDir>/alerts-fired.json` (in memory only without a data
 * dir). Capped at the newest MAX_FIRED: the log is for "what happened lately", and a file read
 * whole at start must stay small. Appends are kept in memory at once and written coalesced.
 */
import path from 'node:path';
import type { FiredAlert, FiredPage } from '../contract/alerts-ops.ts';
import { silentLogger, type Logger } from '../logger.ts';
import { CoalescedWriter } from './coalesced-writer.ts';
import { readJsonList } from '../store/json-list-file.ts';

export const FIRED_FILE = 'alerts-fired.json';
export const MAX_FIRED = 2_000;

function isFired(v: unknown): v is FiredAlert {
  const o = v as FiredAlert;
  return typeof v === 'object' && v !== null && typeof o.id === 'string' && typeof o.ruleId === 'string' && typeof o.at === 'string';
}

export class FiredLog {
  /** Newest first. */
  private fired: FiredAlert[];
  private readonly writer: CoalescedWriter;

  private constructor(
    file: string | undefined,
    fired: FiredAlert[],
    log: Logger,
    private readonly max: number,
  ) {
    this.fired = fired.slice(0, max);
    this.writer = new CoalescedWriter(file, () => ({ version: 1, fired: this.fired }), log);
  }

  static async open(opts: { dataDir?: string; log?: Logger; now?: () => number; max?: number } = {}): Promise<FiredLog> {
    const log = opts.log ?? silentLogger;
    const max = opts.max ?? MAX_FIRED;
    if (opts.dataDir === undefined) return new FiredLog(undefined, [], log, max);
    const file = path.join(opts.dataDir, FIRED_FILE);
    return new FiredLog(file, await readJsonList(file, 'fired', isFired, 'an alerts log', { log, now: opts.now ?? Date.now }), log, max);
  }

  /** Adds firings (oldest first, as they happened); the oldest past the cap are dropped. */
  append(items: readonly FiredAlert[]): void {
    if (items.length === 0) return;
    this.fired = [...[...items].reverse(), ...this.fired].slice(0, this.max);
    this.writer.changed();
  }

  page(limit: number, offset: number): FiredPage {
    return { total: this.fired.length, fired: structuredClone(this.fired.slice(offset, offset + limit)) };
  }

  flush(): Promise<void> {
    return this.writer.flush();
  }
}
