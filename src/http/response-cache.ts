/**
 * Serialised answers of catalog reads, keyed by operation + normalised parameters and valid
 * for one catalog version: a repeated query costs a map lookup instead of a sql.js query and
 * a JSON.stringify. Any write to the catalog bumps the version, so nothing stale is served.
 */
import { LRUCache } from 'lru-cache';
import type { RawParams } from '../contract/index.ts';

export interface ResponseCacheOptions {
  /**
   * Total characters of cached bodies (default 16 Mi characters: a few hundred pages, and a live
   * heap small enough that V8 does not grow it by hundreds of MB under load).
   */
  maxChars?: number;
  /** Bodies larger than this are not cached (default 2 Mi characters). */
  maxEntryChars?: number;
}

/** The same parameters in any order (and `a=1` vs `a=[1]`) give the same key. */
export function cacheKey(op: string, raw: RawParams): string {
  const parts: string[] = [];
  for (const k of Object.keys(raw).sort()) {
    const v = raw[k];
    if (v === undefined) continue;
    parts.push(`${encodeURIComponent(k)}=${Array.isArray(v) ? v.map(encodeURIComponent).join(',') : encodeURIComponent(v)}`);
  }
  return `${op}?${parts.join('&')}`;
}

export class ResponseCache {
  private readonly lru: LRUCache<string, { version: number; body: string }>;
  private readonly maxEntryChars: number;
  hits = 0;
  misses = 0;

  constructor(opts: ResponseCacheOptions = {}) {
    this.maxEntryChars = opts.maxEntryChars ?? 2 * 1024 * 1024;
    this.lru = new LRUCache({ maxSize: opts.maxChars ?? 16 * 1024 * 1024, sizeCalculation: (v, k) => v.body.length + k.length });
  }

  get(key: string, version: number): string | undefined {
    const hit = this.lru.get(key);
    if (hit && hit.version === version) {
      this.hits++;
      return hit.body;
    }
    this.misses++;
    return undefined;
  }

  set(key: string, version: number, body: string): void {
    if (body.length <= this.maxEntryChars) this.lru.set(key, { version, body });
  }
}
