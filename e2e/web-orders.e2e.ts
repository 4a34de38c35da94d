/**
 * Orders in web mode: `npm run serve -- --credentials FILE` in its own process against the fake
 * upstream's CLOB account, and the web UI in Chromium signing `GET /data/orders` itself with
 * credentials typed into the dialog (kept in the tab's sessionStorage only). Without
 * credentials the view shows the empty state and sends nothing; the service's credentials list
 * and page the account's orders; other credentials get the service's 401 and say so.
 * Expectations come from the service's own clob face (signed here with src/auth/l2.ts).
 */
import assert from 'node:assert/strict';
import { chmodSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Request } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { l2Headers } from '../src/auth/l2.ts';
import type { OrdersPage } from '../src/contract/index.ts';
import { loadFixtureCatalog, startFakeUpstream, type FakeUpstream } from '../src/fake-upstream/index.ts';
import { FIXTURES, launchBrowser, openApp, saveFailureScreenshot, startServeCli, tempDir, type Browser, type ServeCli } from './support/env.ts';
import { fillCredentials, showTab, type Creds } from './support/journeys.ts';

/** The fake CLOB's account; the service is started with the same file. */
const CREDS: Creds = {
  apiKey: '5d0c1b7e-2f4a-4b8e-9c3d-6a1e0f2b7c58',
  secret: Buffer.from('marketdesk-web-orders-e2e-secret').toString('base64url'),
  passphrase: 'web-orders-passphrase',
  address: '0x' + 'b2'.repeat(20),
};
/** Same key, passphrase and address, another secret: only the signature is wrong. */
const WRONG: Creds = { ...CREDS, secret: Buffer.from('not-the-secret-the-service-holds').toString('base64url') };

const SESSION_KEY = 'marketdesk.l2-credentials';
const ORDERS_VIEW = '.view[aria-label="Orders"]';

describe('web mode: orders signed by the page (serve --credentials FILE)', () => {
  let fake: FakeUpstream;
  let serve: ServeCli;
  let browser: Browser;
  const data = tempDir('marketdesk-e2e-web-orders-');
  /** Every request the page sent for orders, with its headers. */
  const ordersRequests: { url: string; headers: Record<string, string> }[] = [];

  /** The service's own answer on its clob face, signed here with the service's l2.ts. */
  const oracle = async (query = ''): Promise<OrdersPage> => {
    const res = await fetch(`${serve.clobUrl}/data/orders${query}`, { headers: l2Headers(CREDS, { method: 'GET', path: '/data/orders' }) });
    assert.equal(res.status, 200, await res.clone().text());
    return (await res.json()) as OrdersPage;
  };

  const test = (name: string, body: () => Promise<void>) =>
    it(name, async () => {
      try {
        await body();
      } catch (e) {
        await saveFailureScreenshot(browser?.page, `web-orders-${name}`);
        throw e;
      }
    });

  const enterCredentials = (c: Creds) => fillCredentials(browser.page, c);

  beforeAll(async () => {
    fake = await startFakeUpstream({ catalog: await loadFixtureCatalog(FIXTURES), clob: { credentials: CREDS } });
    const file = path.join(data.dir, 'credentials.json');
    writeFileSync(file, JSON.stringify(CREDS));
    chmodSync(file, 0o600);
    serve = await startServeCli([
      '--data-dir', path.join(data.dir, 'data'), '--gamma-url', fake.url, '--clob-url', fake.url, '--data-url', fake.url, '--credentials', file,
    ]);
    browser = await launchBrowser();
    browser.page.setDefaultTimeout(120_000);
    browser.page.on('request', (req: Request) => {
      if (new URL(req.url()).pathname === '/data/orders') ordersRequests.push({ url: req.url(), headers: req.headers() });
    });
    await openApp(browser.page, serve.baseUrl);
  });

  afterAll(async () => {
    await browser?.close();
    const code = await serve?.stop();
    await fake?.close();
    data.cleanup();
    assert.equal(code, 0, `serve exits 0 on SIGTERM:\n${serve?.output().slice(-2000)}`);
  });

  test('without credentials, shows the empty state, sends nothing, and leads to the dialog', async () => {
    const { page } = browser;
    await showTab(page, 'Orders');
    await page.waitForSelector(`${ORDERS_VIEW}[data-state="no-credentials"] [data-testid="orders-no-credentials"]`);
    assert.equal(ordersRequests.length, 0, 'no orders request without credentials');
    await page.getByRole('button', { name: 'Set API credentials…' }).click();
    const dialog = page.locator('dialog[open]');
    await dialog.getByText('No credentials set.').waitFor();
    await dialog.getByText('never sent').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await page.waitForSelector('dialog[open]', { state: 'detached' });
    await page.waitForSelector(`${ORDERS_VIEW}[data-state="no-credentials"]`);
  });

  test('other credentials: the service refuses them and the view says they are not the service\'s, with re-enter and clear', async () => {
    const { page } = browser;
    await page.getByRole('button', { name: 'Set API credentials…' }).click();
    await enterCredentials(WRONG);
    const rejected = page.locator(`${ORDERS_VIEW}[data-state="credentials-rejected"] [data-testid="orders-credentials-rejected"]`);
    await rejected.waitFor();
    await rejected.getByText('These credentials are not the ones the service was started with').waitFor();
    // The page signed the request (the service, not the page, refused it) and never sent the secret.
    assert.ok(ordersRequests.length > 0);
    for (const r of ordersRequests) {
      assert.equal(r.headers['poly_api_key'], WRONG.apiKey);
      assert.equal(r.headers['poly_address'], WRONG.address);
      assert.match(r.headers['poly_signature'] ?? '', /^[A-Za-z0-9_-]{43}=$/);
      assert.ok(!r.url.includes(WRONG.secret) && !Object.values(r.headers).some((v) => v.includes(WRONG.secret)), 'the secret is never sent');
    }
    // Clear: back to the empty state, nothing kept.
    await rejected.getByRole('button', { name: 'Clear credentials' }).click();
    await page.waitForSelector(`${ORDERS_VIEW}[data-state="no-credentials"]`);
    assert.equal(await page.evaluate((k) => sessionStorage.getItem(k), SESSION_KEY), null);
    // Wrong again, then re-entered from the message: the right ones list orders.
    await page.getByRole('button', { name: 'Set API credentials…' }).click();
    await enterCredentials(WRONG);
    await rejected.waitFor();
    await rejected.getByRole('button', { name: 'Re-enter credentials…' }).click();
    await enterCredentials(CREDS);
    await page.waitForSelector(`${ORDERS_VIEW}[data-state="ready"]`);
    await page.getByRole('button', { name: 'API credentials…', exact: true }).click();
    await page.locator('dialog[open]').getByRole('button', { name: 'Clear credentials' }).click();
    await page.waitForSelector('dialog[open]', { state: 'detached' });
    await page.waitForSelector(`${ORDERS_VIEW}[data-state="no-credentials"]`);
  });

  test('the service\'s credentials list the orders, page through them, filter, survive a reload, and clear', async () => {
    const { page } = browser;
    // The service's answers, page by page (275 orders: 100, 100, 75).
    const pages: OrdersPage[] = [await oracle()];
    while (pages[pages.length - 1]!.next_cursor !== '') pages.push(await oracle(`?next_cursor=${encodeURIComponent(pages[pages.length - 1]!.next_cursor)}`));
    assert.ok(pages.length > 1, 'the fake account has more than one page of orders');

    await page.getByRole('button', { name: 'Set API credentials…' }).click();
    await enterCredentials(CREDS);
    await page.waitForSelector(`${ORDERS_VIEW}[data-state="ready"]`);
    await page.waitForSelector(`.toolbar >> text=Account ${CREDS.address.slice(0, 6)}…${CREDS.address.slice(-4)}`);
    // The rows of a page, in the service's order (while the next page loads, the last one stays up).
    const rowsShow = (markets: string[]) =>
      page.waitForFunction((want) => {
        if (document.querySelector('table[aria-label="Live orders"]')?.getAttribute('data-busy') !== 'false') return false;
        const got = [...document.querySelectorAll('[data-testid="order-row"] td:first-child span')].map((e) => e.getAttribute('title'));
        return got.length === want.length && got.every((m, i) => m === want[i]);
      }, markets);
    for (const [i, p] of pages.entries()) {
      if (i > 0) await page.getByRole('button', { name: 'Next →' }).click();
      await page.waitForSelector(`.pager >> text=Page ${i + 1} · ${p.data.length} orders`);
      await rowsShow(p.data.map((o) => o.market));
    }
    assert.ok(await page.getByRole('button', { name: 'Next →' }).isDisabled());
    await page.getByRole('button', { name: '← Previous' }).click();
    await page.waitForSelector(`.pager >> text=Page ${pages.length - 1} · ${pages[pages.length - 2]!.data.length} orders`);

    // A market filter goes back to its first page.
    const market = pages[0]!.data[0]!.market;
    const ofMarket = await oracle(`?market=${encodeURIComponent(market)}`);
    await page.getByLabel('Filter orders by market (condition id)').fill(market);
    await page.waitForSelector(`.pager >> text=Page 1 · ${ofMarket.data.length} orders`);
    await rowsShow(ofMarket.data.map((o) => o.market));
    await page.getByLabel('Filter orders by market (condition id)').fill('');
    await rowsShow(pages[0]!.data.map((o) => o.market));
    await page.waitForSelector(`.pager >> text=Page 1 · ${pages[0]!.data.length} orders`);

    // Kept in this tab's sessionStorage only, never in localStorage.
    const stored = await page.evaluate((k) => ({ session: sessionStorage.getItem(k), local: JSON.stringify({ ...localStorage }) }), SESSION_KEY);
    assert.deepEqual(JSON.parse(stored.session ?? 'null'), CREDS);
    assert.ok(!stored.local.includes(CREDS.secret) && !stored.local.includes(CREDS.passphrase), 'nothing of the credentials in localStorage');
    await page.reload();
    await page.waitForSelector('[data-ready="true"]');
    await page.waitForSelector(`${ORDERS_VIEW}[data-state="ready"]`);
    await page.waitForSelector(`.pager >> text=Page 1 · ${pages[0]!.data.length} orders`);
    await rowsShow(pages[0]!.data.map((o) => o.market));

    // Cleared in the dialog: the empty state again, and the tab holds nothing.
    await page.getByRole('button', { name: 'API credentials…', exact: true }).click();
    await page.waitForSelector(`dialog[open] [data-testid="credentials-status"] >> text=${CREDS.address}`);
    assert.equal(await page.locator('dialog[open] input[name="secret"]').inputValue(), '', 'the secret is never shown back');
    await page.locator('dialog[open]').getByRole('button', { name: 'Clear credentials' }).click();
    await page.waitForSelector(`${ORDERS_VIEW}[data-state="no-credentials"]`);
    assert.equal(await page.evaluate((k) => sessionStorage.getItem(k), SESSION_KEY), null);
    assert.equal(await page.locator('[data-testid="order-row"]').count(), 0);
  });
});
