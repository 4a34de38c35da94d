/**
 * What the service asks of the icon cache: a picture for a source URL, within a wait. The
 * handler (src/service/icon-handlers.ts) depends on this, not on the cache itself.
 */

/** A cached icon: its bytes and content type, keyed (and ETagged) by the source URL's hash. */
export interface IconHit {
  bytes: Uint8Array;
  contentType: string;
  hash: string;
}

export interface IconWait {
  /** The caller went away. */
  signal?: AbortSignal;
  /** Answer 'pending' after this long; the fetch goes on and caches the icon for the next call. */
  waitMs?: number;
}

export interface IconSource {
  /** The icon for this source URL; null when it cannot be had now (failed, offline); 'pending' past `waitMs`. */
  get(url: string, wait?: IconWait): Promise<IconHit | 'pending' | null>;
}

/**
 * How long a request waits for a picture being fetched. A page's image requests share the
 * browser's few connections to the service with its API calls: a slow CDN must not hold them.
 */
export const ICON_WAIT_MS = 3000;

/** Cached icons never change under their URL hash: a day, and the browser need not revalidate. */
export const ICON_CACHE_CONTROL = 'public, max-age=86400, immutable';
