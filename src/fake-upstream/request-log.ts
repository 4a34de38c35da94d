/** What the fake upstream served, for assertions such as "the client retried after the 429". */
import type { FaultKind } from './faults.ts';

export interface RequestLogEntry {
  method: string;
  path: string;
  /** Query parameters; repeated keys become arrays. */
  query: Record<string, string | string[]>;
  /** Status sent; 0 while a `hang` fault holds the request. */
  status: number;
  /** Arrival time, ms since epoch. */
  time: number;
  /** Time to the response being handed to the socket (undefined for `hang`). */
  ms?: number;
  fault?: FaultKind;
  /** Refused by the fake's rate limits (429). */
  limited?: true;
}

type Waiter = { pred: (e: RequestLogEntry) => boolean; resolve: (e: RequestLogEntry) => void };

export class RequestLog {
  readonly entries: RequestLogEntry[] = [];
  private waiters: Waiter[] = [];

  /** Keeps the newest `max` entries (a long-running CLI server must not grow without bound). */
  constructor(private readonly max = 200_000) {}

  add(e: RequestLogEntry): void {
    this.entries.push(e);
    if (this.entries.length > this.max) this.entries.splice(0, this.entries.length - this.max);
    if (this.waiters.length === 0) return;
    this.waiters = this.waiters.filter((w) => {
      if (!w.pred(e)) return true;
      w.resolve(e);
      return false;
    });
  }

  count(pred?: (e: RequestLogEntry) => boolean): number {
    return pred ? this.entries.filter(pred).length : this.entries.length;
  }

  clear(): void {
    this.entries.length = 0;
  }

  /** Resolves with the first entry (already logged or future) that satisfies `pred`. */
  waitFor(pred: (e: RequestLogEntry) => boolean, timeoutMs = 10_000): Promise<RequestLogEntry> {
    const hit = this.entries.find(pred);
    if (hit) return Promise.resolve(hit);
    return new Promise((resolve, reject) => {
      const w: Waiter = {
        pred,
        resolve: (e) => {
          clearTimeout(timer);
          resolve(e);
        },
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((x) => x !== w);
        reject(new Error(`no matching request within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiters.push(w);
    });
  }
}
