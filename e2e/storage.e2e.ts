/**
 * The web UI tells when the cache stops reaching the disk, without a reload: a failed save in
 * the status bar, a read-only data dir in a banner, both gone once saves work again. A
 * directory where the save's temp file goes makes saves fail without root; the read-only
 * case needs a read-only bind mount (root) and is skipped with the reason without it.
 */
import { mkdirSync, rmdirSync } from 'node:fs';
import path from 'node:path';
import { fixtureMarkets } from '../src/testing/fixtures.ts';
import { makeReadOnly, mountSkipReason } from '../src/testing/mounts.ts';
import { CACHE_FILE } from '../src/store/catalog-store.ts';
import type { Service } from '../src/service/service.ts';
import { expect, test } from './support/fixtures.ts';

test.use({ serviceOptions: { persistDelayMs: 10, persistRetry: { minMs: 100, maxMs: 400 } } });

function change(service: Service, question: string): void {
  service.store.apply({ markets: [{ ...fixtureMarkets()[0]!, question, updatedAt: new Date().toISOString() }] });
}

test.describe('saving the cache', () => {
  test('a failed save shows in the status bar while it retries, and clears when a save succeeds', async ({
    app: page,
    service,
    dataDir,
  }) => {
    const status = page.getByTestId('storage-status');
    await expect(status).toBeHidden();
    // The service runs in this process: its temp file is named with this pid.
    const blocker = path.join(dataDir, `${CACHE_FILE}.tmp-${process.pid}`);
    mkdirSync(blocker);
    try {
      change(service, 'Changed while saves fail');
      await expect(status).toHaveText(/^Not saved since .+: .*EISDIR.*, retrying$/);
      await expect(page.getByTestId('storage-banner')).toBeHidden();
    } finally {
      rmdirSync(blocker);
    }
    await expect(status).toBeHidden();
  });

  test('a data dir that turns read-only shows the banner, which goes once it is writable again', async ({
    app: page,
    service,
    dataDir,
  }) => {
    // A read-only data dir needs a read-only bind mount (root ignores chmod): skipped, with the reason, where mounting is not allowed.
    test.skip(mountSkipReason !== null, mountSkipReason ?? '');
    const banner = page.getByTestId('storage-banner');
    await expect(banner).toBeHidden();
    const ro = makeReadOnly(dataDir);
    try {
      change(service, 'Changed on a read-only disk');
      await expect(banner).toHaveText('Read-only: read-only file system (EROFS). Browsing works; nothing new is saved.');
      await expect(page.getByTestId('storage-status')).toHaveText(/^Read-only · not saved since /);
    } finally {
      ro.cleanup();
    }
    await expect(banner).toBeHidden();
    await expect(page.getByTestId('storage-status')).toBeHidden();
  });
});
