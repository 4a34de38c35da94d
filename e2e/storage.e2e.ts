/**
 * The web UI tells when the cache stops reaching the disk, without a reload: a refused write in
 * the status bar, a read-only file system in a banner, both gone once writes go through again.
 * The service runs in this process, so the disk layer's fault hook makes its real file calls
 * fail as a full disk (ENOSPC) or a file system remounted read-only (EROFS) would, without root.
 * (A bind mount made read-only while the service runs would not do: the cache's descriptors are
 * open already, and writes through them still land.)
 */
import path from 'node:path';
import { fixtureMarkets } from '../src/testing/fixtures.ts';
import { CACHE_FILE } from '../src/store/catalog-store.ts';
import { sqlDisk } from '../src/store/sqlite.ts';
import type { Service } from '../src/http/server.ts';
import { expect, test } from './support/fixtures.ts';

test.use({ serviceOptions: { persistRetry: { minMs: 100, maxMs: 400 } } });

function change(service: Service, question: string): void {
  service.store.apply({ markets: [{ ...fixtureMarkets()[0]!, question, updatedAt: new Date().toISOString() }] });
}

/** Makes the writes to `dataDir`'s cache fail with `code` until the returned function is called. */
async function refuseWrites(dataDir: string, code: string): Promise<() => void> {
  const { disk } = await sqlDisk();
  const file = path.join(dataDir, CACHE_FILE);
  disk!.setFault((op, f) => (f.startsWith(file) && op !== 'open' ? code : undefined));
  return () => disk!.setFault(undefined);
}

test.describe('saving the cache', () => {
  test('a refused write shows in the status bar while it is retried, and clears when a write succeeds', async ({
    app: page,
    service,
    dataDir,
  }) => {
    const status = page.getByTestId('storage-status');
    await expect(status).toBeHidden();
    const restore = await refuseWrites(dataDir, 'ENOSPC');
    try {
      expect(() => change(service, 'Changed while the disk is full')).toThrow('database or disk is full');
      await expect(status).toHaveText(/^Not saved since .+: disk full \(ENOSPC\), retrying$/);
      await expect(page.getByTestId('storage-banner')).toBeHidden();
    } finally {
      restore();
    }
    await expect(status).toBeHidden();
  });

  test('a file system that turns read-only shows the banner, which goes once writes go through again', async ({
    app: page,
    service,
    dataDir,
  }) => {
    const banner = page.getByTestId('storage-banner');
    await expect(banner).toBeHidden();
    const restore = await refuseWrites(dataDir, 'EROFS');
    try {
      expect(() => change(service, 'Changed on a read-only disk')).toThrow(/disk I\/O error/);
      await expect(banner).toHaveText('Read-only: read-only file system (EROFS). Browsing works; nothing new is saved.');
      await expect(page.getByTestId('storage-status')).toHaveText(/^Read-only · not saved since /);
    } finally {
      restore();
    }
    await expect(banner).toBeHidden();
    await expect(page.getByTestId('storage-status')).toBeHidden();
  });
});
