/**
 * The renderer's desktop path without Electron: `window.marketdesk` is emulated in the page
 * and wired to the real service through main/relay.ts, the same function the Electron
 * service worker runs for every IPC call (validation, handlers, error bodies). Covers what
 * only the desktop app offers: credentials set and cleared through the contract's IPC-only
 * operations, and the user's orders (filters, cursor paging, the empty state without
 * credentials). Main's own part (safeStorage, sender checks) is in the Electron suite.
 */
import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { OrdersPage } from '../src/contract/index.ts';
import { loadFixtureCatalog, startFakeUpstream, type FakeUpstream } from '../src/fake-upstream/index.ts';
import type { Service } from '../src/service/service.ts';
import { relay } from '../main/relay.ts';
import { installBridge } from './support/bridge.ts';
import { FIXTURES, launchBrowser, openApp, saveFailureScreenshot, startSyncedService, tempDir, type Browser } from './support/env.ts';
import { fillCredentials, showTab } from './support/journeys.ts';

const CREDS = {
  apiKey: '7c1f0e5a-3b1d-4c8e-9a51-2f6b8d0e4a11',
  secret: Buffer.from('marketdesk-e2e-secret-0123456789').toString('base64url'),
  passphrase: 'e2e-passphrase',
  address: '0x' + 'a1'.repeat(20),
};

describe('desktop renderer path (emulated preload, real service)', () => {
  let fake: FakeUpstream;
  let service: Service;
  let browser: Browser;
  const data = tempDir('marketdesk-e2e-bridge-');

  beforeAll(async () => {
    fake = await startFakeUpstream({ catalog: await loadFixtureCatalog(FIXTURES), clob: { credentials: CREDS } });
    service = await startSyncedService(fake, data.dir);
    browser = await launchBrowser();
    const { page } = browser;
    page.setDefaultTimeout(120_000);
    await installBridge(page, service);
    await openApp(page, service.baseUrl!);
  });

  afterAll(async () => {
    await browser?.close();
    await service?.close();
    await fake?.close();
    data.cleanup();
  });

  const orders = async (params: Record<string, string> = {}) => {
    const reply = await relay(service.dispatch, 'orders.list', params);
    assert.ok(reply.ok, JSON.stringify(reply));
    return reply.result as OrdersPage;
  };

  it('runs in desktop mode and gets push events over the bridge', async () => {
    const { page } = browser;
    try {
      await page.waitForSelector('.statusbar >> text=Desktop');
      await service.sync!.syncNow('incremental');
      const at = service.sync!.status().lastSuccessAt!;
      await page.waitForSelector(`.statusbar[data-last-sync="${at}"]`);
    } catch (e) {
      await saveFailureScreenshot(page, 'bridge-push');
      throw e;
    }
  });

  it('leads from the empty orders view to the credentials dialog, then lists, filters and pages orders', async () => {
    const { page } = browser;
    try {
      await showTab(page, 'Orders');
      await page.waitForSelector('[data-testid="orders-no-credentials"]');
      await page.getByRole('button', { name: 'Set API credentials…' }).click();
      await fillCredentials(page, CREDS);

      const first = await orders();
      assert.ok(first.data.length > 0 && first.next_cursor !== '', 'the fake account has more than one page of orders');
      await page.waitForSelector('.view[aria-label="Orders"][data-state="ready"]');
      await page.waitForFunction((n) => document.querySelectorAll('[data-testid="order-row"]').length === n, first.data.length);

      // Cursor paging to the last page and back.
      let cursor = first.next_cursor;
      let pageNo = 1;
      while (cursor !== '') {
        const next = await orders({ next_cursor: cursor });
        await page.getByRole('button', { name: 'Next →' }).click();
        pageNo++;
        await page.waitForSelector(`.pager >> text=Page ${pageNo} · ${next.data.length} orders`);
        cursor = next.next_cursor;
      }
      assert.ok(await page.getByRole('button', { name: 'Next →' }).isDisabled());
      await page.getByRole('button', { name: '← Previous' }).click();
      await page.waitForSelector(`.pager >> text=Page ${pageNo - 1} ·`);

      // Filter by market: back to page 1 of that market's orders.
      const market = first.data[0]!.market;
      const ofMarket = await orders({ market });
      await page.getByLabel('Filter orders by market (condition id)').fill(market);
      await page.waitForSelector(`.pager >> text=Page 1 · ${ofMarket.data.length} orders`);
      const titles = await page.locator('[data-testid="order-row"] td:first-child span').evaluateAll((els) => els.map((e) => e.getAttribute('title')));
      assert.deepEqual([...new Set(titles)], [market]);
      // And by asset.
      const asset = ofMarket.data[0]!.assetId;
      const ofAsset = await orders({ market, asset_id: asset });
      await page.getByLabel('Filter orders by asset (token id)').fill(asset);
      await page.waitForSelector(`.pager >> text=Page 1 · ${ofAsset.data.length} orders`);
      await page.getByLabel('Filter orders by market (condition id)').fill('');
      await page.getByLabel('Filter orders by asset (token id)').fill('');

      // Clearing the credentials brings the empty state back.
      await page.getByRole('button', { name: 'API credentials…' }).click();
      await page.waitForSelector(`[data-testid="credentials-status"] >> text=${CREDS.address}`);
      assert.equal(await page.locator('dialog[open]').getByText(CREDS.secret).count(), 0, 'the secret is never shown');
      await page.getByRole('button', { name: 'Clear credentials' }).click();
      await page.waitForSelector('[data-testid="orders-no-credentials"]');
    } catch (e) {
      await saveFailureScreenshot(page, 'bridge-orders');
      throw e;
    }
  });

  it('shows the service error body for bad credentials, as HTTP would', async () => {
    const { page } = browser;
    try {
      await page.getByRole('button', { name: 'Set API credentials…' }).click();
      const dialog = page.locator('dialog[open]');
      await dialog.getByLabel('API key').fill(CREDS.apiKey);
      await dialog.getByLabel('Secret').fill(CREDS.secret);
      await dialog.getByLabel('Passphrase').fill(CREDS.passphrase);
      await dialog.getByLabel('Wallet address').fill('0x1234');
      await dialog.getByRole('button', { name: 'Save' }).click();
      await dialog.locator('.form-error[role="alert"]').waitFor();
      await page.getByRole('button', { name: 'Cancel' }).click();
      await page.waitForSelector('dialog[open]', { state: 'detached' });
    } catch (e) {
      await saveFailureScreenshot(page, 'bridge-bad-credentials');
      throw e;
    }
  });
});
