/**
 * Whether the service has no catalog at all and cannot fetch one: empty grids and the offline
 * banner then say so, instead of blaming the filters or promising that browsing works.
 */
import type { Live } from './live.tsx';

export interface NoCatalog {
  /** What the service is doing about it, in a sentence. */
  trying: string;
}

export function noCatalog(live: Pick<Live, 'status' | 'sync' | 'online' | 'connected'>): NoCatalog | null {
  const status = live.status;
  if (!live.connected || live.online || !status || status.counts.markets > 0) return null;
  if (status.offline) {
    return { trying: 'The service was started offline and does not contact the upstream; start it online to download the catalog.' };
  }
  const error = live.sync?.lastError;
  const why = error ? ` (${error})` : '';
  return { trying: `The upstream cannot be reached${why}; the service keeps retrying and fills in the catalog once it connects.` };
}
