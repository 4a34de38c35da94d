/**
 * A clock and timers under a test's control: time moves only when the test says, and timers
 * fire in order as it passes them. For the rate limiter and the scheduler, so tests never sleep.
 */
import type { Timers } from '../limits/scheduler.ts';

interface Timer {
  id: number;
  at: number;
  fn: () => void;
}

/** Lets promise callbacks (and what they schedule) run. */
export const settle = (): Promise<void> => new Promise((r) => setImmediate(r));

export class FakeClock {
  private t: number;
  private seq = 0;
  private pending: Timer[] = [];

  constructor(start = 1_000_000) {
    this.t = start;
  }

  readonly now = (): number => this.t;

  readonly timers: Timers = {
    set: (fn, ms) => {
      const timer = { id: ++this.seq, at: this.t + Math.max(0, ms), fn };
      this.pending.push(timer);
      return timer.id;
    },
    clear: (id) => {
      this.pending = this.pending.filter((x) => x.id !== id);
    },
  };

  /** Timers not yet fired. */
  get timerCount(): number {
    return this.pending.length;
  }

  /** Moves time forward by `ms`, firing due timers in time order and settling after each. */
  async advance(ms: number): Promise<void> {
    const end = this.t + ms;
    for (;;) {
      await settle();
      this.pending.sort((a, b) => a.at - b.at || a.id - b.id);
      const next = this.pending[0];
      if (!next || next.at > end) break;
      this.pending.shift();
      this.t = Math.max(this.t, next.at);
      next.fn();
    }
    this.t = end;
    await settle();
  }
}
