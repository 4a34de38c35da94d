/**
 * Web mode over a 20,000-market synthetic catalog: the grid pages through the service in
 * blocks of 100 as it scrolls, all the way to the end, with only the visible rows in the DOM.
 */
import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { FakeUpstream } from '../src/fake-upstream/index.ts';
import type { Service } from '../src/service/service.ts';
import { launchBrowser, openApp, saveFailureScreenshot, startFake, startSyncedService, tempDir, type Browser } from './support/env.ts';
import { gridShows, httpOracle } from './support/journeys.ts';

describe('web mode, 20,000 markets', () => {
  let fake: FakeUpstream;
  let service: Service;
  let browser: Browser;
  const data = tempDir('marketdesk-e2e-deep-');

  beforeAll(async () => {
    fake = await startFake({ synthetic: 20_000 });
    // Keep every closed market too (the default horizon prunes those closed over 7 days ago).
    service = await startSyncedService(fake, data.dir, { horizonMs: 36_500 * 86_400_000 });
    browser = await launchBrowser();
    browser.page.setDefaultTimeout(120_000);
    await openApp(browser.page, service.baseUrl!);
  });

  afterAll(async () => {
    await browser?.close();
    await service?.close();
    await fake?.close();
    data.cleanup();
  });

  it('scrolls block by block to the last of every cached market', async () => {
    const { page } = browser;
    try {
      const api = httpOracle(service.baseUrl!);
      const total = service.store.reader.counts().markets;
      assert.ok(total >= 20_000, `synced ${total} markets`);
      await page.getByLabel('Closed filter').selectOption('any');
      const first = await api<{ question: string }[]>('/markets?limit=5&order=volumeNum&ascending=false');
      await gridShows(page, first.map((m) => m.question));

      const grid = page.getByRole('grid', { name: 'Markets' });
      await grid.focus();
      let rows = 0;
      // End moves to the last loaded row; the grid then loads the next block. Until a short block.
      for (;;) {
        await page.keyboard.press('End');
        const state = await page.waitForFunction(
          (before) => {
            const g = document.querySelector('.grid')!;
            const n = Number(g.getAttribute('data-rows'));
            const ended = g.getAttribute('data-ended') === 'true';
            return (n > before || ended) && g.getAttribute('data-busy') === 'false' ? { n, ended } : null;
          },
          rows,
        );
        const { n, ended } = (await state.jsonValue())!;
        rows = n;
        if (ended) break;
      }
      assert.equal(rows, total);

      // The last row is the service's last, and the DOM holds only what is on screen.
      const last = await api<{ question: string }[]>(`/markets?limit=1&offset=${total - 1}&order=volumeNum&ascending=false`);
      await page.keyboard.press('End');
      await page.waitForSelector(`[data-testid="market-row"][data-index="${total - 1}"] [role="gridcell"]:text-is("${last[0]!.question}")`);
      const inDom = await page.locator('[data-testid="market-row"]').count();
      assert.ok(inDom < 100, `${inDom} rows in the DOM`);
      await page.keyboard.press('Enter');
      await page.waitForSelector(`[data-testid="detail-title"]:text-is("${last[0]!.question}")`);

      // And back to the top, where the first block is still the first.
      await page.keyboard.press('Escape');
      await grid.focus();
      await page.keyboard.press('Home');
      await page.waitForSelector(`[data-testid="market-row"][data-index="0"] [role="gridcell"]:text-is("${first[0]!.question}")`);
    } catch (e) {
      await saveFailureScreenshot(page, 'deep-scroll');
      throw e;
    }
  });
});
