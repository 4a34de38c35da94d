import { fmtAgo } from '../format.ts';
import { useNow } from '../hooks/useNow.ts';

/**
 * `verb`: what the age is of. A book is "updated" when fetched; a chart is only "fetched", since
 * its last point can be much older than the fetch (PriceChart says how old).
 */
export function ageText(fetchedAt: string | null, stale: boolean, now = Date.now(), verb: 'updated' | 'fetched' = 'updated'): string {
  if (!fetchedAt) return stale ? 'offline, never fetched' : '';
  const ago = fmtAgo(fetchedAt, now);
  if (!stale) return `${verb} ${ago}`;
  return ago === 'just now' ? 'offline copy from just now' : `offline copy from ${ago}`;
}

export function Age({
  fetchedAt,
  stale,
  testId,
  verb,
}: {
  fetchedAt: string | null;
  stale: boolean;
  testId: string;
  verb?: 'updated' | 'fetched';
}) {
  const now = useNow(30_000);
  const text = ageText(fetchedAt, stale, now, verb);
  if (!text) return null;
  return (
    <span className={`panel-age${stale ? ' stale' : ''}`} data-testid={testId} data-stale={stale}>
      {text}
    </span>
  );
}
