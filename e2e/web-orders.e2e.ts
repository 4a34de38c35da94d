/**
 * Orders in web mode: `npm run serve -- --credentials FILE` in its own process against the fake
 * upstream's CLOB account, and the web UI in Chromium signing `GET /orders/view` itself with
 * credentials typed into the dialog (kept in the tab's sessionStorage only). Without
 * credentials the view shows the empty state and sends nothing; the service's credentials list
 * and page the account's orders; other credentials get the service's 401 and say so.
 * Expectations come from the service's own clob face (signed here with src/auth/l2.ts).
 */
import { chmodSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { openApp, type ServeCli, startServeCli } from './support/env.ts';
import { expect, test as base } from './support/fixtures.ts';
import { type Creds, fillCredentials, type OrdersOracle, orderPages, ordersOracle, pager, showTab } from './support/journeys.ts';

/** The fake CLOB's account; the service is started with the same file. */
const CREDS: Creds = {
  apiKey: '5d0c1b7e-2f4a-4b8e-9c3d-6a1e0f2b7c58',
  secret: Buffer.from('marketdesk-web-orders-e2e-secret').toString('base64url'),
  passphrase: 'web-orders-passphrase',
  address: `0x${'b2'.repeat(20)}`,
};
/** Same key, passphrase and address, another secret: only the signature is wrong. */
const WRONG: Creds = { ...CREDS, secret: Buffer.from('not-the-secret-the-service-holds').toString('base64url') };

const SESSION_KEY = 'marketdesk.l2-credentials';

interface SentRequest {
  url: string;
  headers: Record<string, string>;
}

const test = base.extend<{
  /** `serve --credentials FILE` against the fake upstream; must exit 0 on SIGTERM. */
  serve: ServeCli;
  /** Every request the page sent for orders (`/orders/view`, `/orders/export`), with its headers. */
  ordersRequests: SentRequest[];
  /** The service's own answer on its clob face, signed here with the service's l2.ts. */
  oracle: OrdersOracle;
}>({
  serve: async ({ fake, dataDir }, use) => {
    const file = path.join(dataDir, 'credentials.json');
    writeFileSync(file, JSON.stringify(CREDS));
    chmodSync(file, 0o600);
    const serve = await startServeCli([
      '--data-dir',
      path.join(dataDir, 'data'),
      '--gamma-url',
      fake.url,
      '--clob-url',
      fake.url,
      '--data-url',
      fake.url,
      '--credentials',
      file,
    ]);
    await use(serve);
    const code = await serve.stop();
    expect(code, `serve exits 0 on SIGTERM:\n${serve.output().slice(-2000)}`).toBe(0);
  },
  ordersRequests: async ({ page }, use) => {
    const sent: SentRequest[] = [];
    page.on('request', (req) => {
      // The view's own route (orders joined with their markets); `/orders/export` is signed the same way.
      if (new URL(req.url()).pathname.startsWith('/orders/')) sent.push({ url: req.url(), headers: req.headers() });
    });
    await use(sent);
  },
  oracle: async ({ serve }, use) => {
    await use(ordersOracle(serve.clobUrl, CREDS));
  },
  // This app is the serve command's, not the in-process service's; requests are recorded from the first.
  app: async ({ serve, page, ordersRequests: _ }, use) => {
    await openApp(page, serve.baseUrl);
    await use(page);
  },
});

// The fake upstream's CLOB serves this account's orders.
test.use({ clob: { credentials: CREDS } });

const ordersView = (page: Page, state: string) => page.locator(`.view[aria-label="Orders"][data-state="${state}"]`);

/** The order rows show these markets, in this order, and nothing is loading. */
async function rowsShow(page: Page, markets: string[]): Promise<void> {
  const titles = () => page.getByTestId('order-market').evaluateAll((els) => els.map((e) => e.getAttribute('data-market')));
  await expect.poll(titles).toEqual(markets);
  await expect(page.locator('table[aria-label="Live orders"]')).toHaveAttribute('data-busy', 'false');
}

const sessionCredentials = (page: Page) => page.evaluate((k) => sessionStorage.getItem(k), SESSION_KEY);

test.describe('web mode: orders signed by the page (serve --credentials FILE)', () => {
  test('without credentials, shows the empty state, sends nothing, and leads to the dialog', async ({ app: page, ordersRequests }) => {
    await showTab(page, 'Orders');
    await expect(ordersView(page, 'no-credentials').getByTestId('orders-no-credentials')).toBeVisible();
    expect(ordersRequests, 'no orders request without credentials').toHaveLength(0);
    await page.getByRole('button', { name: 'Set API credentials…' }).click();
    const dialog = page.locator('dialog[open]');
    await expect(dialog.getByText('No credentials set.')).toBeVisible();
    await expect(dialog.getByText('never sent')).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(ordersView(page, 'no-credentials')).toBeVisible();
    expect(ordersRequests, 'no orders request without credentials').toHaveLength(0);
  });

  test("other credentials: the service refuses them and the view says they are not the service's, with re-enter and clear", async ({
    app: page,
    ordersRequests,
  }) => {
    await showTab(page, 'Orders');
    await page.getByRole('button', { name: 'Set API credentials…' }).click();
    await fillCredentials(page, WRONG);
    const rejected = ordersView(page, 'credentials-rejected').getByTestId('orders-credentials-rejected');
    await expect(rejected).toBeVisible();
    await expect(rejected.getByText('These credentials are not the ones the service was started with')).toBeVisible();
    // The page signed the request (the service, not the page, refused it) and never sent the secret.
    expect(ordersRequests.length).toBeGreaterThan(0);
    for (const r of ordersRequests) {
      expect(r.headers['kuest_api_key']).toBe(WRONG.apiKey);
      expect(r.headers['kuest_address']).toBe(WRONG.address);
      expect(r.headers['kuest_signature'] ?? '').toMatch(/^[A-Za-z0-9_-]{43}=$/);
      expect(r.url, 'the secret is never sent').not.toContain(WRONG.secret);
      for (const v of Object.values(r.headers)) expect(v, 'the secret is never sent').not.toContain(WRONG.secret);
    }
    // Clear: back to the empty state, nothing kept.
    await rejected.getByRole('button', { name: 'Clear credentials' }).click();
    await expect(ordersView(page, 'no-credentials')).toBeVisible();
    await expect.poll(() => sessionCredentials(page)).toBeNull();
    // Wrong again, then re-entered from the message: the right ones list orders.
    await page.getByRole('button', { name: 'Set API credentials…' }).click();
    await fillCredentials(page, WRONG);
    await expect(rejected).toBeVisible();
    await rejected.getByRole('button', { name: 'Re-enter credentials…' }).click();
    await fillCredentials(page, CREDS);
    await expect(ordersView(page, 'ready')).toBeVisible();
    await page.getByRole('button', { name: 'API credentials…', exact: true }).click();
    const dialog = page.locator('dialog[open]');
    await dialog.getByRole('button', { name: 'Clear credentials' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(ordersView(page, 'no-credentials')).toBeVisible();
  });

  test("the service's credentials list the orders, page through them, filter, survive a reload, and clear", async ({
    app: page,
    oracle,
  }) => {
    // The service's answers, page by page (275 orders: 100, 100, 75).
    const pages = await orderPages(oracle);
    expect(pages.length, 'the fake account has more than one page of orders').toBeGreaterThan(1);

    await showTab(page, 'Orders');
    await page.getByRole('button', { name: 'Set API credentials…' }).click();
    await fillCredentials(page, CREDS);
    await expect(ordersView(page, 'ready')).toBeVisible();
    await expect(page.locator('.toolbar', { hasText: `Account ${CREDS.address.slice(0, 6)}…${CREDS.address.slice(-4)}` })).toBeVisible();
    // The rows of each page, in the service's order (while the next page loads, the last one stays up).
    const total = pages.reduce((n, p) => n + p.data.length, 0);
    const range = (i: number) => `${i * 100 + 1}–${i * 100 + pages[i]!.data.length} of ${total} orders`;
    for (const [i, p] of pages.entries()) {
      if (i > 0) await page.getByRole('button', { name: 'Next →' }).click();
      await expect(pager(page)).toContainText(range(i));
      await rowsShow(
        page,
        p.data.map((o) => o.market),
      );
    }
    await expect(page.getByRole('button', { name: 'Next →' })).toBeDisabled();
    await page.getByRole('button', { name: '← Previous' }).click();
    await expect(pager(page)).toContainText(range(pages.length - 2));

    // A market filter goes back to its first page.
    const market = pages[0]!.data[0]!.market;
    const ofMarket = await oracle(`?market=${encodeURIComponent(market)}`);
    const marketFilter = page.getByLabel('Filter by market');
    await marketFilter.fill(market);
    await expect(pager(page)).toContainText(`1–${ofMarket.data.length} of ${ofMarket.data.length} orders`);
    await rowsShow(
      page,
      ofMarket.data.map((o) => o.market),
    );
    await marketFilter.fill('');
    await rowsShow(
      page,
      pages[0]!.data.map((o) => o.market),
    );
    await expect(pager(page)).toContainText(range(0));

    // Kept in this tab's sessionStorage only, never in localStorage.
    expect(JSON.parse((await sessionCredentials(page)) ?? 'null')).toEqual(CREDS);
    const local = await page.evaluate(() => JSON.stringify({ ...localStorage }));
    expect(local, 'nothing of the credentials in localStorage').not.toContain(CREDS.secret);
    expect(local, 'nothing of the credentials in localStorage').not.toContain(CREDS.passphrase);
    await page.reload();
    await expect(page.locator('[data-ready="true"]')).toBeAttached();
    await expect(ordersView(page, 'ready')).toBeVisible();
    await expect(pager(page)).toContainText(range(0));
    await rowsShow(
      page,
      pages[0]!.data.map((o) => o.market),
    );

    // Cleared in the dialog: the empty state again, and the tab holds nothing.
    await page.getByRole('button', { name: 'API credentials…', exact: true }).click();
    const dialog = page.locator('dialog[open]');
    await expect(dialog.getByTestId('credentials-status')).toContainText(CREDS.address);
    await expect(dialog.locator('input[name="secret"]'), 'the secret is never shown back').toHaveValue('');
    await dialog.getByRole('button', { name: 'Clear credentials' }).click();
    await expect(ordersView(page, 'no-credentials')).toBeVisible();
    await expect.poll(() => sessionCredentials(page)).toBeNull();
    await expect(page.getByTestId('order-row')).toHaveCount(0);
  });
});
