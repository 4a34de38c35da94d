/**
 * Whether the service has no catalog at all and cannot fetch one: empty grids and the offline
 * banner then say so, instead of blaming the filters or promising that browsing works.
 */
import type { ServiceStatus } from './api.ts';
import type { Live } from './live.tsx';

export interface NoCatalog {
  /** What the service is doing about it, in a sentence. */
  trying: string;
}

/** The service was started with `--offline` (it has no sync engine): not merely cut off from the upstream now. */
export function startedOffline(status: Pick<ServiceStatus, 'sync'> | undefined): boolean {
  return status?.sync.phase === 'offline';
}

export function noCatalog(live: Pick<Live, 'status' | 'sync' | 'online' | 'connected'>): NoCatalog | null {
  const status = live.status;
  if (!live.connected || live.online || !status || status.counts.markets > 0) return null;
  // `offline` is also true when the upstream cannot be reached; only the absent sync engine means `--offline`.
  if (startedOffline(status)) {
    return {
      trying:
        'The service was started offline (--offline), so it never contacts the upstream. ' +
        'Restart it without --offline to download the catalog.',
    };
  }
  const error = live.sync?.lastError;
  const why = error ? ` (${error})` : '';
  return {
    trying:
      `The upstream cannot be reached${why}, and the cache is empty. Check this computer's network connection; ` +
      'the service keeps retrying and fills in the catalog once it connects.',
  };
}
