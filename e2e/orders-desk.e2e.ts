/**
 * Orders a trader can read (issue 13), in web mode against the recorded catalog: each order
 * shows its market's question and outcome name, prices in cents, the total; the filter finds by
 * market name; a header click sorts; a row opens its market; the CSV export and "Copy selected
 * rows" carry the same rows. Every expected value is the service's own `GET /orders/view`
 * (signed here with src/auth/l2.ts), asked with the same filter and sort as the page.
 */
import type { Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { l2Headers } from '../src/auth/l2.ts';
import type { OrderRow, OrdersViewPage } from '../src/contract/orders-ops.ts';
import { installBridge } from './support/bridge.ts';
import { openApp } from './support/env.ts';
import { expect, test } from './support/fixtures.ts';
import { type Creds, fillCredentials, showTab } from './support/journeys.ts';

const CREDS: Creds = {
  apiKey: '1b9e3c47-8a2d-4f6b-9c0e-5d7a2f8b3e61',
  secret: Buffer.from('marketdesk-orders-desk-e2e-secret').toString('base64url'),
  passphrase: 'orders-desk-passphrase',
  address: `0x${'c3'.repeat(20)}`,
};

// The fake CLOB serves this account's orders on the catalog's markets; the service holds the same credentials.
test.use({ clob: { credentials: CREDS }, serviceOptions: { credentials: CREDS } });

type View = (query: string) => Promise<OrdersViewPage>;

function viewOracle(baseUrl: string): View {
  return async (query) => {
    const res = await fetch(`${baseUrl}/orders/view${query}`, {
      headers: l2Headers(CREDS, { method: 'GET', path: '/orders/view' }, { family: 'KUEST' }),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as OrdersViewPage;
  };
}

/** Polymarket's cents: "91¢", "37.5¢" (a tenth of a cent below one cent). */
const cents = (price: string) => {
  const c = Number((Number(price) * 100).toFixed(4));
  return `${c > 0 && c < 1 ? c.toFixed(1) : Math.round(c * 10) / 10}¢`;
};

const rowsOf = (page: Page) => page.getByTestId('order-row');
const ordersReady = (page: Page) => page.locator('.view[aria-label="Orders"][data-state="ready"]');

/** The table shows exactly these rows, in this order, and is not loading. */
async function tableShows(page: Page, rows: OrderRow[]): Promise<void> {
  const ids = () => rowsOf(page).evaluateAll((els) => els.map((e) => e.getAttribute('data-order-id')));
  await expect.poll(ids).toEqual(rows.map((r) => r.id));
  await expect(page.locator('table[aria-label="Live orders"]')).toHaveAttribute('data-busy', 'false');
}

async function openOrders(page: Page): Promise<void> {
  await showTab(page, 'Orders');
  await page.getByRole('button', { name: 'Set API credentials…' }).click();
  await fillCredentials(page, CREDS);
  await expect(ordersReady(page)).toBeVisible();
}

test('orders show market questions, outcomes, cents and the total; filter by name, sort by header, open the market', async ({
  app: page,
  service,
}) => {
  const view = viewOracle(service.baseUrl!);
  const first = await view('?limit=100');
  expect(first.total, 'the fake account has more than a page of orders').toBeGreaterThan(100);
  expect(
    first.data.every((r) => r.question !== null && r.outcome_name !== null),
    'every order is on a cached market',
  ).toBe(true);
  await openOrders(page);

  // Newest first: questions with outcome names, prices in cents, the total and the range.
  await tableShows(page, first.data);
  await expect(page.getByTestId('order-market')).toHaveText(first.data.map((r) => r.question!));
  await expect(page.getByTestId('order-outcome')).toHaveText(first.data.map((r) => r.outcome_name!));
  await expect(page.locator('[data-testid="order-row"] td[data-col="price"]')).toHaveText(first.data.map((r) => cents(r.price)));
  await expect(page.getByTestId('orders-total')).toHaveText(`${first.total} orders`);
  await expect(page.getByTestId('pager-range')).toHaveText(`1–100 of ${first.total} orders`);
  await page.getByRole('button', { name: 'Next →' }).click();
  await tableShows(page, (await view('?limit=100&offset=100')).data);
  await expect(page.getByTestId('pager-range')).toHaveText(`101–200 of ${first.total} orders`);

  // A header click sorts (prices high to low first), a second reverses; the page goes back to the first.
  const priceHeader = page.getByRole('columnheader', { name: 'Price' });
  await priceHeader.getByRole('button').click();
  await expect(priceHeader).toHaveAttribute('aria-sort', 'descending');
  await tableShows(page, (await view('?limit=100&order_by=price&ascending=false')).data);
  await expect(page.getByTestId('pager-range')).toHaveText(`1–100 of ${first.total} orders`);
  await priceHeader.getByRole('button').click();
  await expect(priceHeader).toHaveAttribute('aria-sort', 'ascending');
  await tableShows(page, (await view('?limit=100&order_by=price&ascending=true')).data);
  const marketHeader = page.getByRole('columnheader', { name: 'Market' });
  await marketHeader.getByRole('button').click();
  await expect(marketHeader).toHaveAttribute('aria-sort', 'ascending');
  await tableShows(page, (await view('?limit=100&order_by=market&ascending=true')).data);

  // Typing a market name finds its orders (the service's answer to the same text).
  const trump = await view('?limit=100&q=Trump&order_by=market&ascending=true');
  expect(trump.total, 'some orders are on Trump markets').toBeGreaterThan(0);
  expect(trump.total).toBeLessThan(first.total);
  await page.getByLabel('Filter by market').fill('Trump');
  await tableShows(page, trump.data);
  await expect(page.getByTestId('orders-total')).toHaveText(`${trump.total} orders`);
  for (const q of await page.getByTestId('order-market').allTextContents()) expect(q.toLowerCase()).toContain('trump');
  await page.getByLabel('Filter by market').fill('no market is called this');
  await expect(page.getByTestId('orders-empty')).toContainText('No orders match these filters');
  await page.getByLabel('Filter by market').fill('Trump');
  await tableShows(page, trump.data);

  // A row opens its market in the detail panel.
  await rowsOf(page).nth(1).locator('td[data-col="price"]').click();
  await expect(page.getByTestId('detail-title')).toHaveText(trump.data[1]!.question!);
});

test('Export CSV saves the rows the filter and sort select; Copy selected rows copies the chosen ones', async ({
  app: page,
  service,
  context,
}) => {
  const view = viewOracle(service.baseUrl!);
  await openOrders(page);
  await page.getByLabel('Filter by market').fill('Trump');
  await page.getByRole('columnheader', { name: 'Size' }).getByRole('button').click();
  const expected = await view('?limit=500&q=Trump&order_by=size&ascending=false');
  await tableShows(page, expected.data.slice(0, 100));

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^marketdesk-orders-\d{4}-\d{2}-\d{2}\.csv$/);
  const lines = readFileSync((await file.path())!, 'utf8')
    .trimEnd()
    .split('\r\n');
  expect(lines[0]).toBe(
    'id,created_at,market,question,outcome,side,price_cents,original_size,size_matched,status,asset_id,expiration,' +
      'remaining_size,value,current_price_cents,distance_cents',
  );
  // Fixture questions hold no commas or quotes, so a line splits on commas.
  const records = lines.slice(1).map((l) => l.split(','));
  expect(records.map((r) => r[0])).toEqual(expected.data.map((r) => r.id));
  expect(records.map((r) => [r[3], r[4], `${r[6]}¢`])).toEqual(expected.data.map((r) => [r.question, r.outcome_name, cents(r.price)]));

  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(service.baseUrl!).origin });
  await rowsOf(page).nth(0).getByRole('checkbox').check();
  await rowsOf(page).nth(2).getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Copy selected rows (2)' }).click();
  await expect(page.getByTestId('export-note')).toHaveText('Copied 2 rows');
  const copied = (await page.evaluate(() => navigator.clipboard.readText())).split('\n').map((l) => l.split('\t'));
  expect(copied).toHaveLength(3);
  expect(copied[0]!.slice(0, 3)).toEqual(['Market', 'Outcome', 'Side']);
  const picked = [expected.data[0]!, expected.data[2]!];
  expect(copied.slice(1).map((c) => [c[0], c[1], c[3], c.at(-3)])).toEqual(
    picked.map((r) => [r.question, r.outcome_name, cents(r.price), r.id]),
  );
});

test.describe('leaderboard', () => {
  // The service's clock runs 3 hours behind, so the cached board is 3 hours old when it is shown offline.
  test.use({ serviceOptions: { credentials: CREDS, now: () => Date.now() - 3 * 3_600_000 } });

  const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });
  const signed = (n: number) => {
    const abs = Math.abs(n) < 1 && n !== 0 ? `$${Math.abs(n).toFixed(2)}` : dollars.format(Math.abs(n));
    return `${n > 0 ? '+' : n < 0 ? '-' : ''}${abs}`;
  };

  test('shows profit in whole dollars that tell ranks apart, exports the board, and offline shows its age', async ({
    app: page,
    api,
    fake,
    service,
  }) => {
    const board = 'category=OVERALL&timePeriod=DAY&orderBy=PNL';
    await showTab(page, 'Leaderboard');
    await expect(page.locator('.view[aria-label="Leaderboard"][data-state="ready"][data-params="OVERALL/DAY/PNL/0"]')).toBeVisible();
    const rows = await api<{ pnl: number; proxyWallet: string }[]>(`/v1/leaderboard?${board}&limit=25&offset=0`);
    const pnl = page.getByTestId('leader-pnl');
    await expect(pnl).toHaveText(rows.map((r) => signed(r.pnl)));
    const shown = await pnl.allTextContents();
    for (let i = 1; i < rows.length; i++) {
      if (Math.abs(rows[i]!.pnl - rows[i - 1]!.pnl) >= 1)
        expect(shown[i], `ranks ${i} and ${i + 1} read differently`).not.toBe(shown[i - 1]);
    }
    await expect(pnl.first()).toHaveAttribute('title', /^[+-]?\$[\d.]+[KMB]?$/);

    // The whole board as CSV: the service's own export of the same board, byte for byte.
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const file = readFileSync((await (await download).path())!, 'utf8');
    const expected = await (await fetch(`${service.baseUrl}/export/leaderboard?${board}`)).text();
    expect(file).toBe(expected);
    expect(file.trimEnd().split('\r\n').length).toBeGreaterThan(rows.length);

    // Offline: the cached board stays, with its age.
    await fake.close();
    await service.sync!.syncNow('incremental').catch(() => {});
    await expect(page.getByTestId('leaderboard-stale')).toHaveText('Cached 3 hr. ago · the upstream is unreachable');
    await expect(pnl).toHaveText(rows.map((r) => signed(r.pnl)));
  });
});

/** The desktop renderer path (the preload emulated, every call through main/relay.ts as IPC). */
const desktop = test.extend({
  app: async ({ service, page }, use) => {
    await installBridge(page, service);
    await openApp(page, service.baseUrl!);
    await use(page);
  },
});

desktop('desktop: Export CSV saves the IPC answer, the same file the HTTP route gives', async ({ app: page, service }) => {
  // The core was started with the credentials: no dialog, the orders list at once.
  await showTab(page, 'Orders');
  await expect(ordersReady(page)).toBeVisible();
  await page.getByLabel('Filter by market').fill('ETF');
  const expected = await viewOracle(service.baseUrl!)('?limit=500&q=ETF');
  await tableShows(page, expected.data.slice(0, 100));
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^marketdesk-orders-\d{4}-\d{2}-\d{2}\.csv$/);
  const res = await fetch(`${service.baseUrl}/orders/export?q=ETF`, {
    headers: l2Headers(CREDS, { method: 'GET', path: '/orders/export' }, { family: 'KUEST' }),
  });
  const http = await res.text();
  expect(readFileSync((await file.path())!, 'utf8')).toBe(http);
  expect(http.trimEnd().split('\r\n')).toHaveLength(expected.total + 1);
});
