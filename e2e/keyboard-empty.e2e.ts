/**
 * Keyboard search (Alt+4 types into the box, the arrows walk every result, Enter opens one
 * over the results) and the empty-and-offline states (no catalog, no cached leaderboard),
 * which must say what is true rather than blame the filters or show an error code.
 */
import type { Page } from '@playwright/test';
import type { DeskSearchResult } from '../src/contract/index.ts';
import { shownMarkets } from '../renderer/src/views/search-results.ts';
import { startService } from '../src/http/server.ts';
import { DEAD_UPSTREAM } from '../src/testing/fixtures.ts';
import { openApp } from './support/env.ts';
import { expect, test } from './support/fixtures.ts';

type Json = Record<string, unknown>;
const label = (e: Json) => String(e['title'] ?? e['slug'] ?? e['id']);
const marketLabel = (m: Json) => String(m['question'] ?? m['id']);
const searchBox = (page: Page) => page.getByLabel('Search markets, events and tags');

test('Alt+4 (the Search tab) focuses the search box; the arrows walk the results and Enter opens one', async ({ app: page, api }) => {
  const term = 'bitcoin';
  const found = await api<DeskSearchResult>(`/desk/search?q=${term}&limit_per_type=10`);
  // The walk, in screen order: each event, then the markets the view lists under it (search-results.ts), then tags.
  const walk = found.events.flatMap((e) => [label(e as unknown as Json), ...shownMarkets(e).markets.map((m) => marketLabel(m.market))]);
  expect(walk.length, 'enough results to walk').toBeGreaterThanOrEqual(3);

  await page.keyboard.press('Alt+4');
  await expect(searchBox(page)).toBeFocused();
  await page.keyboard.type(term);
  await expect(searchBox(page)).toHaveValue(term);
  await expect(page.locator(`.search-view[data-state="ready"][data-query="${term}"]`)).toBeVisible();

  const results = page.locator('[data-testid="search-event"], [data-testid="search-market"], [data-testid="search-tag"]');
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowDown');
  await expect(results.nth(2)).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await expect(results.nth(1)).toBeFocused();
  await page.keyboard.press('ArrowDown');

  await page.keyboard.press('Enter');
  // The third result opens over the results, not over an unrelated grid.
  await expect(page.getByTestId('detail-title')).toHaveText(walk[2]!);
  await expect(page.getByRole('tab', { name: 'Search', exact: true })).toHaveAttribute('aria-selected', 'true');
});

test('offline with an empty cache says there is no catalog yet, and no cached leaderboard', async ({ page, dataDir }) => {
  const service = await startService({ dataDir, basePort: 0, clobPort: 0, urls: DEAD_UPSTREAM, offline: true });
  try {
    await openApp(page, service.baseUrl!);
    const grid = page.getByTestId('no-catalog');
    await expect(grid).toContainText('No catalog yet: connect once to download it');
    await expect(grid).toContainText('started offline');
    await expect(page.getByText('No markets match these filters')).toBeHidden();
    await expect(page.getByTestId('offline-banner')).toContainText('no catalog cached yet');
    await expect(page.getByTestId('offline-banner')).not.toContainText('keep working');

    await page.getByRole('tab', { name: 'Events', exact: true }).click();
    await expect(page.getByTestId('no-catalog')).toContainText('No catalog yet');

    await page.keyboard.press('Alt+6');
    await expect(page.getByTestId('leaderboard-uncached')).toHaveText('No leaderboard cached yet; it loads when the service is online');
    await expect(page.getByText('internal_error')).toBeHidden();
  } finally {
    await service.close();
  }
});
