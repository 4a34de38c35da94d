/**
 * The renderer's desktop path without Electron: `window.marketdesk` is emulated in the page
 * and wired to the real service through main/relay.ts, the same function the Electron
 * service worker runs for every IPC call (validation, handlers, error bodies). Covers what
 * only the desktop app offers: credentials set and cleared through the contract's IPC-only
 * operations, the user's orders (filters, cursor paging, the empty state without
 * credentials), and the settings dialog's upstream WebSocket host. Main's own part
 * (safeStorage, sender checks) is in the Electron suite.
 */
import { relay } from '../main/relay.ts';
import type { OrdersPage } from '../src/contract/index.ts';
import type { Service } from '../src/http/server.ts';
import { installBridge } from './support/bridge.ts';
import { openApp } from './support/env.ts';
import { test as base, expect } from './support/fixtures.ts';
import { fillCredentials, pager, showTab } from './support/journeys.ts';

const CREDS = {
  apiKey: '7c1f0e5a-3b1d-4c8e-9a51-2f6b8d0e4a11',
  secret: Buffer.from('marketdesk-e2e-secret-0123456789').toString('base64url'),
  passphrase: 'e2e-passphrase',
  address: `0x${'a1'.repeat(20)}`,
};

const test = base.extend({
  // The page gets the emulated preload before the app loads, so it starts in desktop mode.
  app: async ({ service, page }, use) => {
    await installBridge(page, service);
    await openApp(page, service.baseUrl!);
    await use(page);
  },
});

// The fake upstream's CLOB serves this account's orders.
test.use({ clob: { credentials: CREDS } });

/** The service's own answer to the IPC operation the orders view calls. */
async function orders(service: Service, params: Record<string, string> = {}): Promise<OrdersPage> {
  const reply = await relay(service.dispatch, 'orders.list', params);
  expect(reply.ok, JSON.stringify(reply)).toBe(true);
  return (reply as { result: OrdersPage }).result;
}

test.describe('desktop renderer path (emulated preload, real service)', () => {
  test('runs in desktop mode and gets push events over the bridge', async ({ app: page, service }) => {
    const statusbar = page.locator('.statusbar');
    await expect(statusbar).toContainText('Desktop');
    await service.sync!.syncNow('incremental');
    await expect(statusbar).toHaveAttribute('data-last-sync', String(service.sync!.status().lastSuccessAt!));
  });

  test('leads from the empty orders view to the credentials dialog, then lists, filters and pages orders', async ({
    app: page,
    service,
  }) => {
    await showTab(page, 'Orders');
    await expect(page.getByTestId('orders-no-credentials')).toBeVisible();
    await page.getByRole('button', { name: 'Set API credentials…' }).click();
    await fillCredentials(page, CREDS);

    const first = await orders(service);
    expect(first.data.length, 'the fake account has orders').toBeGreaterThan(0);
    expect(first.next_cursor, 'the fake account has more than one page of orders').not.toBe('');
    await expect(page.locator('.view[aria-label="Orders"][data-state="ready"]')).toBeVisible();
    await expect(page.getByTestId('order-row')).toHaveCount(first.data.length);

    // Paging (100 a page, as the service's cursor pages) to the last page and back.
    const all: OrdersPage[] = [first];
    while (all.at(-1)!.next_cursor !== '') all.push(await orders(service, { next_cursor: all.at(-1)!.next_cursor }));
    const total = all.reduce((n, p) => n + p.data.length, 0);
    for (let i = 1; i < all.length; i++) {
      await page.getByRole('button', { name: 'Next →' }).click();
      await expect(pager(page)).toContainText(`${i * 100 + 1}–${i * 100 + all[i]!.data.length} of ${total} orders`);
    }
    await expect(page.getByRole('button', { name: 'Next →' })).toBeDisabled();
    await page.getByRole('button', { name: '← Previous' }).click();
    await expect(pager(page)).toContainText(`${(all.length - 2) * 100 + 1}–${(all.length - 1) * 100} of ${total} orders`);

    // Filter by market (its condition id): back to page 1 of that market's orders, and only that market's.
    const market = first.data[0]!.market;
    const ofMarket = await orders(service, { market });
    const filter = page.getByLabel('Filter by market');
    await filter.fill(market);
    await expect(pager(page)).toContainText(`1–${ofMarket.data.length} of ${ofMarket.data.length} orders`);
    const marketCell = page.getByTestId('order-market');
    await expect(marketCell).toHaveCount(ofMarket.data.length);
    await expect(page.locator(`[data-testid="order-market"]:not([data-market="${market}"])`)).toHaveCount(0);
    // And by asset (its token id).
    const asset = ofMarket.data[0]!.assetId;
    const ofAsset = await orders(service, { asset_id: asset });
    await filter.fill(asset);
    await expect(pager(page)).toContainText(`1–${ofAsset.data.length} of ${ofAsset.data.length} orders`);
    await filter.fill('');

    // Clearing the credentials brings the empty state back.
    await page.getByRole('button', { name: 'API credentials…' }).click();
    const dialog = page.locator('dialog[open]');
    await expect(dialog.getByTestId('credentials-status')).toContainText(CREDS.address);
    await expect(dialog.getByText(CREDS.secret), 'the secret is never shown').toHaveCount(0);
    await dialog.getByRole('button', { name: 'Clear credentials' }).click();
    await expect(page.getByTestId('orders-no-credentials')).toBeVisible();
  });

  test('shows the service error body for bad credentials, as HTTP would', async ({ app: page }) => {
    await showTab(page, 'Orders');
    await page.getByRole('button', { name: 'Set API credentials…' }).click();
    const dialog = page.locator('dialog[open]');
    await dialog.getByLabel('API key').fill(CREDS.apiKey);
    await dialog.getByLabel('Secret').fill(CREDS.secret);
    await dialog.getByLabel('Passphrase').fill(CREDS.passphrase);
    await dialog.getByLabel('Wallet address').fill('0x1234');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog.locator('.form-error[role="alert"]')).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toHaveCount(0);
  });

  test('the settings take the upstream WebSocket host: the one in use shown, a non-ws URL refused before saving', async ({
    app: page,
    service,
  }) => {
    await page.getByRole('button', { name: 'Settings' }).click();
    const dialog = page.getByRole('dialog', { name: 'Settings' });
    const field = dialog.getByRole('textbox', { name: 'Upstream WebSocket host' });
    // Unset: the default, here the fake's CLOB host with ws:// (it serves the channel on that port).
    await expect(field).toHaveValue('');
    expect(service.live.url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/ws\/market$/);
    await expect(dialog).toContainText(`in use now: ${service.live.url}`);

    await field.fill('https://ws.example');
    await expect(field).toHaveAttribute('aria-invalid', 'true');
    await expect(dialog.locator('.form-error')).toContainText('Not a WebSocket host: use a ws:// or wss:// URL');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog, 'nothing is saved').toBeVisible();

    await field.fill('wss://ws.example.test/');
    await expect(field).toHaveAttribute('aria-invalid', 'false');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toBeHidden();
    // Kept as main keeps it (src/contract/ws-host.ts), and read back by the dialog.
    await page.getByRole('button', { name: 'Settings' }).click();
    await expect(field).toHaveValue('wss://ws.example.test');
  });
});
