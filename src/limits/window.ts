/**
 * One rolling window: a sliding log of the times of the requests it counted in the last
 * `windowMs`, held in a ring buffer. A log rather than fixed buckets because section 8's windows
 * roll: a fixed window that resets lets twice the limit through around its boundary.
 *
 * Entries are kept oldest first; the clock must not run backwards (callers use a monotonic one).
 * Memory: 8 bytes per counted request, at most `limit` of them, grown on demand.
 */
export class SlidingLog {
  private buf: Float64Array;
  /** Index of the oldest entry. */
  private head = 0;
  private size = 0;

  constructor(
    readonly limit: number,
    readonly windowMs: number,
  ) {
    this.buf = new Float64Array(Math.max(1, Math.min(limit, 64)));
  }

  /** Drops the entries that have left the window at `now`. */
  private prune(now: number): void {
    const edge = now - this.windowMs;
    while (this.size > 0 && this.buf[this.head]! <= edge) {
      this.head = (this.head + 1) % this.buf.length;
      this.size--;
    }
  }

  /** Requests counted in (now − windowMs, now]. */
  used(now: number): number {
    this.prune(now);
    return this.size;
  }

  /** Milliseconds until fewer than `cap` requests are in the window (0: room now). */
  waitMs(now: number, cap: number): number {
    this.prune(now);
    if (this.size < cap) return 0;
    // The entry whose expiry brings the count down to cap − 1.
    const i = (this.head + this.size - cap) % this.buf.length;
    return this.buf[i]! + this.windowMs - now;
  }

  /** Milliseconds until the oldest counted request leaves the window (0 when empty). */
  nextFreeMs(now: number): number {
    this.prune(now);
    return this.size === 0 ? 0 : this.buf[this.head]! + this.windowMs - now;
  }

  /** Counts one request at `now`. The caller has checked for room: the log never holds more than `limit`. */
  add(now: number): void {
    if (this.size === this.buf.length) {
      if (this.buf.length >= this.limit) {
        // Full at the limit: the oldest entry makes way (only reachable if a caller skipped the check).
        this.head = (this.head + 1) % this.buf.length;
        this.size--;
      } else this.grow();
    }
    this.buf[(this.head + this.size) % this.buf.length] = now;
    this.size++;
  }

  /** True when nothing is counted any more (the log can be dropped). */
  empty(now: number): boolean {
    return this.used(now) === 0;
  }

  private grow(): void {
    const next = new Float64Array(Math.min(this.limit, this.buf.length * 2));
    for (let i = 0; i < this.size; i++) next[i] = this.buf[(this.head + i) % this.buf.length]!;
    this.buf = next;
    this.head = 0;
  }
}
