/**
 * Web mode (the renderer over HTTP + SSE) against the real service syncing the fixture
 * catalog from the fake upstream. Each test: its own upstream, data dir, ports and browser
 * profile; waits on app state; a screenshot in test-results/ when it fails.
 */
import { afterEach, beforeEach, describe, it } from 'vitest';
import type { FakeUpstream } from '../src/fake-upstream/index.ts';
import type { Service } from '../src/service/service.ts';
import { launchBrowser, openApp, saveFailureScreenshot, startFake, startSyncedService, tempDir, type Browser } from './support/env.ts';
import * as journey from './support/journeys.ts';

interface Env {
  fake: FakeUpstream;
  service: Service;
  browser: Browser;
  api: journey.Oracle;
}

describe('web mode (fixture catalog)', () => {
  let env: Env;
  let data: ReturnType<typeof tempDir>;

  /** A test whose failure leaves a screenshot of the page in test-results/. */
  const test = (name: string, body: () => Promise<void>) =>
    it(name, async () => {
      try {
        await body();
      } catch (e) {
        await saveFailureScreenshot(env?.browser.page, `web-${name}`);
        throw e;
      }
    });

  beforeEach(async () => {
    data = tempDir('marketdesk-e2e-');
    const fake = await startFake({ fixtures: true });
    const service = await startSyncedService(fake, data.dir);
    const browser = await launchBrowser();
    browser.page.setDefaultTimeout(120_000);
    env = { fake, service, browser, api: journey.httpOracle(service.baseUrl!) };
    await openApp(browser.page, service.baseUrl!);
  });

  afterEach(async () => {
    await env?.browser.close();
    await env?.service.close();
    await env?.fake.close();
    data?.cleanup();
  });

  test('browses markets and sorts by volume both ways', async () => {
    await journey.browseAndSort(env.browser.page, env.api);
  });

  test('filters by tag and status', async () => {
    await journey.filterByTagAndStatus(env.browser.page, env.api);
  });

  test('opens a market detail by mouse and keyboard, and goes to its event', async () => {
    await journey.openDetail(env.browser.page, env.api);
    await journey.eventsGrid(env.browser.page, env.api);
  });

  test('searches (Ctrl+K) and opens an event and a tag from the results', async () => {
    await journey.searchAndOpen(env.browser.page, env.api, 'bitcoin');
  });

  test('pages through search results', async () => {
    await journey.searchPaging(env.browser.page, env.api, 'will');
  });

  test('switches leaderboard category, period and order, and pages', async () => {
    await journey.leaderboard(env.browser.page, env.api);
  });

  test('orders: the empty state leads to the credentials dialog, and a service started without credentials refuses any', async () => {
    // The whole web-mode orders journey, against a service started with credentials, is web-orders.e2e.ts.
    const { page } = env.browser;
    await journey.showTab(page, 'Orders');
    await page.waitForSelector('.view[aria-label="Orders"][data-state="no-credentials"] [data-testid="orders-no-credentials"]');
    await page.getByRole('button', { name: 'API credentials', exact: true }).click();
    await page.waitForSelector('dialog[open] >> text=--credentials FILE');
    await page.keyboard.press('Escape');
    await page.waitForSelector('dialog[open]', { state: 'detached' });
    await page.getByRole('button', { name: 'Set API credentials…' }).click();
    const dialog = page.locator('dialog[open]');
    await dialog.getByLabel('API key').fill('00000000-0000-4000-8000-000000000000');
    await dialog.getByLabel('Secret').fill(Buffer.alloc(32, 9).toString('base64url'));
    await dialog.getByLabel('Passphrase').fill('p');
    await dialog.getByLabel('Wallet address').fill('0x' + '0'.repeat(40));
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.waitForSelector('.view[aria-label="Orders"][data-state="credentials-rejected"] >> text=not the ones the service was started with');
  });

  test('keeps browsing from the cache with the offline banner when the upstream goes away', async () => {
    await journey.offline(env.browser.page, env.api, async () => {
      await env.fake.close();
      await env.service.sync!.syncNow('incremental').catch(() => {});
    });
  });

  test('says so when the service itself goes away', async () => {
    const { page } = env.browser;
    await page.waitForSelector('[data-testid="online-indicator"]:text-is("Online")');
    await env.service.close();
    await page.waitForSelector('[data-testid="service-banner"]');
    await page.waitForSelector('[data-testid="online-indicator"]:text-is("No service")');
  });

  test('remembers the tab, sort and filters across a reload', async () => {
    const { page } = env.browser;
    await journey.showTab(page, 'Markets');
    await page.locator('[role="columnheader"] button', { hasText: '24h vol' }).click();
    await page.waitForSelector('[role="columnheader"][aria-sort="descending"] >> text=24h vol');
    await page.getByLabel('Closed filter').selectOption('any');
    // Widen the Event column by dragging its header's edge.
    const eventHeader = page.locator('[role="columnheader"]', { has: page.locator('.th-label:text-is("Event")') });
    const before = (await eventHeader.boundingBox())!.width;
    const edge = (await page.getByRole('separator', { name: 'Resize Event' }).boundingBox())!;
    await page.mouse.move(edge.x + edge.width / 2, edge.y + edge.height / 2);
    await page.mouse.down();
    await page.mouse.move(edge.x + edge.width / 2 + 80, edge.y + edge.height / 2, { steps: 4 });
    await page.mouse.up();
    const widened = (await eventHeader.boundingBox())!.width;
    if (Math.abs(widened - before - 80) > 2) throw new Error(`column width ${before} -> ${widened}`);
    const cell = page.locator('[data-testid="market-row"][data-index="0"] [role="gridcell"]').nth(1);
    if (Math.abs((await cell.boundingBox())!.width - widened) > 1) throw new Error('cells follow the header width');
    await journey.showTab(page, 'Events');
    // Saved a moment after the change (debounced); wait for it to be in storage.
    await page.waitForFunction(() => {
      const s = JSON.parse(localStorage.getItem('marketdesk.ui.v1') ?? '{}') as { tab?: string; markets?: { filters?: { closed?: string } } };
      return s.tab === 'events' && s.markets?.filters?.closed === 'any';
    });
    await page.reload();
    await page.waitForSelector('[data-ready="true"]');
    await page.waitForSelector('[role="tab"][aria-selected="true"]:text-is("Events")');
    await journey.showTab(page, 'Markets');
    await page.waitForSelector('[role="columnheader"][aria-sort="descending"] >> text=24h vol');
    const closed = await page.getByLabel('Closed filter').inputValue();
    if (closed !== 'any') throw new Error(`closed filter after reload: ${closed}`);
    const width = (await eventHeader.boundingBox())!.width;
    if (Math.abs(width - widened) > 1) throw new Error(`column width after reload: ${width}, not ${widened}`);
  });
});
