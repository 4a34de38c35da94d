/**
 * Whether the cache reaches the disk (/status `storage`, kept current by the `storage` push
 * event): a status-bar item when saves fail, and a banner when the data dir is read-only or
 * the cache file could not be read. Without them a full disk shows only in the service's log.
 */
import type { StorageStatus } from '../../../src/contract/types.ts';

const clock = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' });
const stamp = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

function at(iso: string | null | undefined, f = clock): string | undefined {
  const t = iso ? Date.parse(iso) : NaN;
  return Number.isNaN(t) ? undefined : f.format(t);
}

/** The status bar's line about saving, with its tooltip; null when saves are fine. */
export function saveProblem(s: StorageStatus | undefined): { text: string; detail: string } | null {
  if (!s?.file) return null;
  const since = at(s.unsavedSince ?? s.lastSaveError?.at);
  const onDisk = at(s.lastSaveAt, stamp);
  const detail = [
    s.lastSaveError ? `Last save failed at ${at(s.lastSaveError.at, stamp)}: ${s.lastSaveError.reason}.` : '',
    s.nextRetryAt ? `Next attempt at ${at(s.nextRetryAt, stamp)}.` : '',
    onDisk ? `The file on disk holds the state of ${onDisk}.` : 'There is no cache file on disk.',
    s.file,
  ]
    .filter(Boolean)
    .join('\n');
  if (!s.writable) return { text: since && s.unsavedSince ? `Read-only · not saved since ${since}` : 'Read-only cache', detail };
  if (!s.lastSaveError) return null;
  return { text: `Not saved since ${since}: ${s.lastSaveError.reason}${s.nextRetryAt ? ', retrying' : ''}`, detail };
}

/** The banner's sentences; null when the cache is readable and writable. */
export function storageBannerText(s: StorageStatus | undefined): string | null {
  if (!s?.file) return null;
  const parts: string[] = [];
  if (!s.writable) parts.push(`Read-only: ${s.readOnlyReason ?? 'the data dir cannot be written'}. Browsing works; nothing new is saved.`);
  if (s.openError && !s.movedAside) parts.push(`The cache file could not be read (${s.openError}); serving an empty catalog.`);
  return parts.length ? parts.join(' ') : null;
}

export function StorageStatusItem({ storage }: { storage: StorageStatus | undefined }) {
  const p = saveProblem(storage);
  if (!p) return null;
  return (
    <span className="sb-item sb-warn" title={p.detail} data-testid="storage-status">
      {p.text}
    </span>
  );
}

export function StorageBanner({ storage }: { storage: StorageStatus | undefined }) {
  const text = storageBannerText(storage);
  if (!text) return null;
  return (
    <div className="banner" role="alert" data-testid="storage-banner">
      {text}
    </div>
  );
}
