import { fmtAgo } from '../format.ts';
import { useNow } from '../hooks/useNow.ts';

export function ageText(fetchedAt: string | null, stale: boolean, now = Date.now()): string {
  if (!fetchedAt) return stale ? 'offline, never fetched' : '';
  const ago = fmtAgo(fetchedAt, now);
  if (!stale) return `updated ${ago}`;
  return ago === 'just now' ? 'offline copy from just now' : `offline copy from ${ago}`;
}

export function Age({ fetchedAt, stale, testId }: { fetchedAt: string | null; stale: boolean; testId: string }) {
  const now = useNow(30_000);
  const text = ageText(fetchedAt, stale, now);
  if (!text) return null;
  return (
    <span className={`panel-age${stale ? ' stale' : ''}`} data-testid={testId} data-stale={stale}>
      {text}
    </span>
  );
}
