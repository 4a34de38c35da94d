/**
 * Web mode (the renderer over HTTP + SSE) against the real service syncing the fixture
 * catalog from the fake upstream. Each test: its own upstream, data dir, ports and browser
 * context (fixtures.ts); waits on app state; a screenshot and a trace in test-results/ when
 * it fails.
 */
import type { Locator } from '@playwright/test';
import { expect, test } from './support/fixtures.ts';
import * as journey from './support/journeys.ts';

test.describe('web mode (fixture catalog)', () => {
  test('browses markets and sorts by volume both ways', async ({ app, api }) => {
    await journey.browseAndSort(app, api);
  });

  test('filters by tag and status', async ({ app, api }) => {
    await journey.filterByTagAndStatus(app, api);
  });

  test('opens a market detail by mouse and keyboard, and goes to its event', async ({ app, api }) => {
    await journey.openDetail(app, api);
    await journey.eventsGrid(app, api);
  });

  test('searches (Ctrl+K) and opens an event and a tag from the results', async ({ app, api }) => {
    await journey.searchAndOpen(app, api, 'bitcoin');
  });

  test('pages through search results', async ({ app, api }) => {
    await journey.searchPaging(app, api, 'will');
  });

  test('switches leaderboard category, period and order, and pages', async ({ app, api }) => {
    await journey.leaderboard(app, api);
  });

  test('orders: the empty state leads to the credentials dialog, and a service started without credentials refuses any', async ({
    app: page,
  }) => {
    // The whole web-mode orders journey, against a service started with credentials, is web-orders.e2e.ts.
    await journey.showTab(page, 'Orders');
    await expect(
      page.locator('.view[aria-label="Orders"][data-state="no-credentials"]').getByTestId('orders-no-credentials'),
    ).toBeVisible();
    await page.getByRole('button', { name: 'API credentials', exact: true }).click();
    const dialog = page.locator('dialog[open]');
    await expect(dialog).toContainText('--credentials FILE');
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await page.getByRole('button', { name: 'Set API credentials…' }).click();
    await journey.fillCredentials(page, {
      apiKey: '00000000-0000-4000-8000-000000000000',
      secret: Buffer.alloc(32, 9).toString('base64url'),
      passphrase: 'p',
      address: `0x${'0'.repeat(40)}`,
    });
    await expect(page.locator('.view[aria-label="Orders"][data-state="credentials-rejected"]')).toContainText(
      'not the ones the service was started with',
    );
  });

  test('keeps browsing from the cache with the offline banner when the upstream goes away', async ({ app, api, fake, service }) => {
    await journey.offline(app, api, async () => {
      await fake.close();
      await service.sync!.syncNow('incremental').catch(() => {});
    });
  });

  test('says so when the service itself goes away', async ({ app: page, service }) => {
    await expect(page.getByTestId('online-indicator')).toHaveText('Online');
    await service.close();
    await expect(page.getByTestId('service-banner')).toBeVisible();
    await expect(page.getByTestId('online-indicator')).toHaveText('No service');
  });

  test('remembers the tab, sort and filters across a reload', async ({ app: page }) => {
    const width = async (l: Locator) => (await l.boundingBox())?.width ?? Number.NaN;
    await journey.showTab(page, 'Markets');
    const dayVolume = page.locator('[role="columnheader"]', { hasText: '24h vol' });
    // The default sort (24h volume, highest first) flips to lowest first: not the default, so it must be remembered.
    await expect(dayVolume).toHaveAttribute('aria-sort', 'descending');
    await dayVolume.locator('button').click();
    await expect(dayVolume).toHaveAttribute('aria-sort', 'ascending');
    await page.getByLabel('Closed filter').selectOption('any');
    // Widen the 24h volume column (always shown) by dragging its header's edge.
    const eventHeader = page.locator('[role="columnheader"]', { has: page.locator('.th-label:text-is("24h vol")') });
    const before = await width(eventHeader);
    const edge = (await page.getByRole('separator', { name: 'Resize 24h vol' }).boundingBox())!;
    await page.mouse.move(edge.x + edge.width / 2, edge.y + edge.height / 2);
    await page.mouse.down();
    await page.mouse.move(edge.x + edge.width / 2 + 80, edge.y + edge.height / 2, { steps: 4 });
    await page.mouse.up();
    await expect.poll(async () => Math.abs((await width(eventHeader)) - before - 80), 'the column is 80 px wider').toBeLessThanOrEqual(2);
    const widened = await width(eventHeader);
    const cell = page.locator('[data-testid="market-row"][data-index="0"] [role="gridcell"].col-volume24hr');
    await expect.poll(async () => Math.abs((await width(cell)) - widened), 'cells follow the header width').toBeLessThanOrEqual(1);
    await journey.showTab(page, 'Events');
    // Saved a moment after the change (debounced): wait for it to be in storage before reloading.
    await expect
      .poll(() => page.evaluate(() => JSON.parse(localStorage.getItem('marketdesk.ui.v1') ?? '{}') as unknown))
      .toMatchObject({ tab: 'events', markets: { sort: { field: 'volume24hr', desc: false }, filters: { closed: 'any' } } });
    await page.reload();
    await expect(page.locator('[data-ready="true"]')).toBeAttached();
    await expect(page.getByRole('tab', { name: 'Events', exact: true })).toHaveAttribute('aria-selected', 'true');
    await journey.showTab(page, 'Markets');
    await expect(dayVolume).toHaveAttribute('aria-sort', 'ascending');
    await expect(page.getByLabel('Closed filter')).toHaveValue('any');
    await expect
      .poll(async () => Math.abs((await width(eventHeader)) - widened), 'the column width survives the reload')
      .toBeLessThanOrEqual(1);
  });
});
