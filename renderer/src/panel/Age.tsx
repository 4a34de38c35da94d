/**
 * How old a chart's or book's data is: "updated 2 min. ago", or when the service could not reach
 * the upstream, "offline copy from 3 hr. ago". Re-rendered every 30 s so the age stays true.
 */
import { useEffect, useState } from 'react';
import { fmtAgo } from '../format.ts';

export function ageText(fetchedAt: string | null, stale: boolean, now = Date.now()): string {
  if (!fetchedAt) return stale ? 'offline, never fetched' : '';
  const ago = fmtAgo(fetchedAt, now);
  if (!stale) return `updated ${ago}`;
  return ago === 'just now' ? 'offline copy from just now' : `offline copy from ${ago}`;
}

function useNow(ms: number): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(t);
  }, [ms]);
  return now;
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
