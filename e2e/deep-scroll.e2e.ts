/**
 * Web mode over a 20,000-market synthetic catalog: the grid pages through the service in
 * blocks of 100 as it scrolls, all the way to the end, with only the visible rows in the DOM.
 */
import { expect, test } from './support/fixtures.ts';
import { gridCell, gridShows } from './support/journeys.ts';

test.use({
  catalog: { synthetic: 20_000 },
  // Keep every closed market too (the default horizon prunes those closed over 7 days ago).
  serviceOptions: { horizonMs: 36_500 * 86_400_000 },
});

test('web mode, 20,000 markets: scrolls block by block to the last of every cached market', async ({ app: page, api, service }) => {
  const total = service.store.reader.counts().markets;
  expect(total, 'synced markets').toBeGreaterThanOrEqual(20_000);
  await page.getByLabel('Closed filter').selectOption('any');
  const first = await api<{ question: string }[]>('/markets?limit=5&order=volumeNum&ascending=false');
  await gridShows(
    page,
    first.map((m) => m.question),
  );

  const grid = page.getByRole('grid', { name: 'Markets' });
  await grid.focus();
  let rows = Number(await page.locator('.grid').getAttribute('data-rows'));
  // End moves to the last loaded row; the grid then loads the next block. Until it has them all.
  for (;;) {
    await page.keyboard.press('End');
    // Settled with more rows than before, or at the end of the list.
    const settled = page.locator(`.grid:not([data-rows="${rows}"])[data-busy="false"], .grid[data-ended="true"][data-busy="false"]`);
    await expect(settled).toBeVisible();
    rows = Number(await settled.getAttribute('data-rows'));
    if ((await settled.getAttribute('data-ended')) === 'true') break;
  }
  expect(rows).toBe(total);

  // The last row is the service's last, and the DOM holds only what is on screen.
  const last = await api<{ question: string }[]>(`/markets?limit=1&offset=${total - 1}&order=volumeNum&ascending=false`);
  await page.keyboard.press('End');
  await expect(gridCell(page, total - 1)).toHaveText(last[0]!.question);
  expect(await page.getByTestId('market-row').count(), 'rows in the DOM').toBeLessThan(100);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('detail-title')).toHaveText(last[0]!.question);

  // And back to the top, where the first block is still the first.
  await page.keyboard.press('Escape');
  await grid.focus();
  await page.keyboard.press('Home');
  await expect(gridCell(page, 0)).toHaveText(first[0]!.question);
});
