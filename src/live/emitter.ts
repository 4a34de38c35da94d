/** A small typed event emitter: a listener that throws is logged and does not stop the others. */
import type { Logger } from '../logger.ts';

export class Emitter<E extends object> {
  private readonly listeners = new Map<keyof E, Set<(v: never) => void>>();

  constructor(private readonly log: Logger) {}

  /** Adds a listener; the returned function removes it. */
  on<K extends keyof E>(name: K, fn: (v: E[K]) => void): () => void {
    let set = this.listeners.get(name);
    if (!set) {
      set = new Set();
      this.listeners.set(name, set);
    }
    set.add(fn as (v: never) => void);
    return () => void set.delete(fn as (v: never) => void);
  }

  has(name: keyof E): boolean {
    return (this.listeners.get(name)?.size ?? 0) > 0;
  }

  emit<K extends keyof E>(name: K, value: E[K]): void {
    const set = this.listeners.get(name);
    if (!set) return;
    for (const fn of set) {
      try {
        (fn as (v: E[K]) => void)(value);
      } catch (e) {
        this.log.warn(`live: a ${String(name)} listener failed: ${(e as Error).stack ?? (e as Error).message}`);
      }
    }
  }
}
