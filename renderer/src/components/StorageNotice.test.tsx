// @vitest-environment happy-dom
import { act, createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { describe, expect, it } from 'vitest';
import type { StorageStatus } from '../../../src/contract/types.ts';
import { StorageBanner, StorageStatusItem, saveProblem, storageBannerText } from './StorageNotice.tsx';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const healthy: StorageStatus = {
  file: '/data/catalog.sqlite',
  writable: true,
  readOnlyReason: null,
  openError: null,
  movedAside: null,
  lastSaveAt: '2026-03-01T12:00:00.000Z',
  lastSaveError: null,
  unsavedSince: null,
  nextRetryAt: null,
};
const clock = (iso: string) => new Intl.DateTimeFormat(undefined, { timeStyle: 'short' }).format(Date.parse(iso));

function render(el: ReturnType<typeof createElement>): { text: string; testIds: string[]; title: string | null } {
  const host = document.createElement('div');
  const root = createRoot(host);
  act(() => root.render(el));
  const out = {
    text: host.textContent ?? '',
    testIds: [...host.querySelectorAll('[data-testid]')].map((e) => e.getAttribute('data-testid')!),
    title: host.firstElementChild?.getAttribute('title') ?? null,
  };
  act(() => root.unmount());
  return out;
}

describe('storage notices', () => {
  it('say nothing while saves work, or when the cache is memory-only', () => {
    expect(saveProblem(healthy)).toBeNull();
    expect(storageBannerText(healthy)).toBeNull();
    expect(saveProblem({ ...healthy, file: null, writable: true })).toBeNull();
    expect(render(createElement(StorageStatusItem, { storage: healthy })).testIds).toEqual([]);
    expect(render(createElement(StorageBanner, { storage: undefined })).testIds).toEqual([]);
  });

  it('a failed save: the status bar says since when, why, and that it retries', () => {
    const s: StorageStatus = {
      ...healthy,
      lastSaveError: { at: '2026-03-01T12:05:00.000Z', reason: 'disk full (ENOSPC)', code: 'ENOSPC' },
      unsavedSince: '2026-03-01T12:03:00.000Z',
      nextRetryAt: '2026-03-01T12:05:10.000Z',
    };
    const item = render(createElement(StorageStatusItem, { storage: s }));
    expect(item.text).toBe(`Not saved since ${clock(s.unsavedSince!)}: disk full (ENOSPC), retrying`);
    expect(item.testIds).toEqual(['storage-status']);
    expect(item.title).toMatch(
      /Last save failed at .*: disk full \(ENOSPC\)\.\nNext attempt at .*\.\nThe file on disk holds the state of /,
    );
    // A full disk is not a read-only one: no banner.
    expect(storageBannerText(s)).toBeNull();
  });

  it('a read-only data dir: a banner with the reason, and the status bar says so', () => {
    const s: StorageStatus = { ...healthy, writable: false, readOnlyReason: 'read-only file system (EROFS)' };
    const banner = render(createElement(StorageBanner, { storage: s }));
    expect(banner.text).toBe('Read-only: read-only file system (EROFS). Browsing works; nothing new is saved.');
    expect(banner.testIds).toEqual(['storage-banner']);
    expect(saveProblem(s)?.text).toBe('Read-only cache');
    expect(saveProblem({ ...s, unsavedSince: '2026-03-01T12:03:00.000Z' })?.text).toBe(
      `Read-only · not saved since ${clock('2026-03-01T12:03:00.000Z')}`,
    );
  });

  it('an unreadable cache that could not be moved aside: the banner says the catalog is empty and why', () => {
    const s: StorageStatus = {
      ...healthy,
      writable: false,
      readOnlyReason: 'read-only file system (EROFS)',
      openError: 'file is not a database',
      lastSaveAt: null,
    };
    expect(render(createElement(StorageBanner, { storage: s })).text).toBe(
      'Read-only: read-only file system (EROFS). Browsing works; nothing new is saved. ' +
        'The cache file could not be read (file is not a database); serving an empty catalog.',
    );
    // Moved aside: the service starts empty and resyncs, as before; no banner for that.
    expect(storageBannerText({ ...healthy, openError: 'file is not a database', movedAside: '/data/catalog.sqlite.corrupt-x' })).toBeNull();
  });
});
