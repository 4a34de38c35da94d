/**
 * The markets grid as a trader reads it (issue 13): chance and 24h change equal to the
 * service's data, the true count in the header, End reaching the last row, 24h volume as the
 * default sort, no numeric cell cut with the detail panel open at 1440×900 or 1024×700, CSV
 * export equal to the service's listing, and the watchlist kept across a reload. Every
 * expected value comes from the service's own HTTP answers.
 */
import type { Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { expect, test } from './support/fixtures.ts';
import { chanceText } from './support/chance-model.ts';
import { gridCell, gridShows, hasPrice, pricesOf, showTab } from './support/journeys.ts';

type Json = Record<string, unknown>;

test.use({ catalog: { synthetic: 1200 } });

const DEFAULT = 'closed=false&order=volume24hr&ascending=false';
const label = (m: Json) => String(m['question'] ?? m['slug'] ?? m['id']);
/** The one chance rule (support/chance-model.ts). */
const chance = chanceText;
/** The Yes price of a Yes/No market, else the highest-priced outcome. */
function leaderPrice(m: Json): number | undefined {
  const names = JSON.parse(String(m['outcomes'] ?? '[]')) as string[];
  const prices = pricesOf(m);
  const yes = names.findIndex((n) => n.toLowerCase() === 'yes');
  return yes >= 0 && prices[yes] !== undefined ? prices[yes] : prices.length ? Math.max(...prices) : undefined;
}
/** The 24h change cell: arrow and signed points ("▲+3.2", "▼−1.5", "0.0", "—"). */
function change(v: unknown): string {
  if (typeof v !== 'number') return '—';
  const points = Math.round(v * 1000) / 10;
  if (points === 0) return '0.0';
  return points > 0 ? `▲+${points.toFixed(1)}` : `▼\u2212${Math.abs(points).toFixed(1)}`;
}

/** Every row of the service's listing for `query`, in order (pages of 100). */
async function listing(api: <T>(p: string) => Promise<T>, query: string): Promise<Json[]> {
  const out: Json[] = [];
  for (let offset = 0; ; offset += 100) {
    const page = await api<Json[]>(`/markets?limit=100&offset=${offset}&${query}`);
    out.push(...page);
    if (page.length < 100) return out;
  }
}

const row = (page: Page, i: number) => page.locator(`[data-testid="market-row"][data-index="${i}"]`);

test('markets show the service chance, 24h change and count; End reaches the last row', async ({ app: page, api }) => {
  await showTab(page, 'Markets');
  const all = await listing(api, DEFAULT);
  const shown = all.filter(hasPrice);
  // The default sort is 24h volume, highest first.
  await gridShows(page, shown.slice(0, 5).map(label));
  await expect(page.locator('[role="columnheader"][data-column="volume24hr"]')).toHaveAttribute('aria-sort', 'descending');
  for (const [i, m] of shown.slice(0, 10).entries()) {
    await expect(row(page, i).locator('.col-chance')).toHaveText(chance(leaderPrice(m)));
    await expect(row(page, i).locator('.col-oneDayPriceChange')).toHaveText(change(m['oneDayPriceChange']));
  }
  const { count } = await api<{ count: number }>('/markets/count?closed=false');
  expect(count).toBe(all.length);
  await expect(page.getByTestId('row-count')).toHaveText(`${count.toLocaleString('en-US')} markets`);

  await page.getByRole('grid', { name: 'Markets' }).focus();
  await page.keyboard.press('End');
  // The row with the highest index on screen is the service's last priced market.
  const lastShown = async () => {
    const max = await page
      .locator('[data-testid="market-row"]')
      .evaluateAll((rs) => Math.max(...rs.map((r) => Number(r.getAttribute('data-index')))));
    return gridCell(page, max).textContent();
  };
  await expect.poll(lastShown).toBe(label(shown.at(-1)!));
  expect(await page.locator('[data-testid="market-row"]').count(), 'rows in the DOM').toBeLessThan(100);
});

for (const size of [
  { width: 1440, height: 900 },
  { width: 1024, height: 700 },
]) {
  test(`no numeric cell is cut with the panel open at ${size.width}×${size.height}`, async ({ app: page, api }) => {
    await page.setViewportSize(size);
    await showTab(page, 'Markets');
    const first = (await api<Json[]>(`/markets?limit=5&${DEFAULT}`)).filter(hasPrice);
    await gridShows(page, first.map(label));
    await row(page, 0).click();
    await expect(page.getByTestId('detail-title')).toHaveText(label(first[0]!));
    // Wait for the grid to refit to its new width: every shown numeric cell fits its value.
    const cut = () =>
      page
        .locator('[data-testid="market-row"] .grid-cell.num')
        .evaluateAll((cells) => cells.filter((c) => c.scrollWidth > c.clientWidth).map((c) => c.textContent));
    await expect.poll(cut).toEqual([]);
    // The figures a trader reads first are never the ones dropped.
    for (const col of ['chance', 'oneDayPriceChange', 'volume24hr']) {
      await expect(row(page, 0).locator(`.col-${col}`)).toBeVisible();
    }
  });
}

test('Export CSV downloads the service listing for the same filters and sort', async ({ app: page, api }) => {
  await showTab(page, 'Markets');
  await page.getByLabel('Closed filter').selectOption('yes');
  const expected = (await listing(api, 'closed=true&order=volume24hr&ascending=false')).map((m) => String(m['id']));
  await gridShows(page, (await api<Json[]>('/markets?limit=5&closed=true&order=volume24hr&ascending=false')).filter(hasPrice).map(label));
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-csv').click()]);
  const csv = readFileSync((await download.path())!, 'utf8')
    .trim()
    .split(/\r?\n/);
  expect(csv[0]!.startsWith('id,question,')).toBe(true);
  // Ids are digits: the first field of every line, unquoted.
  expect(csv.slice(1).map((l) => l.split(',')[0])).toEqual(expected);
});

test('Copy puts the selected rows on the clipboard as TSV', async ({ app: page, api, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await showTab(page, 'Markets');
  const first = (await api<Json[]>(`/markets?limit=10&${DEFAULT}`)).filter(hasPrice);
  await gridShows(page, first.map(label));
  await row(page, 1).click({ modifiers: ['ControlOrMeta'] });
  await row(page, 3).click({ modifiers: ['Shift'] });
  await expect(page.locator('[data-testid="market-row"][aria-selected="true"]')).toHaveCount(3);
  await page.keyboard.press('ControlOrMeta+c');
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toMatch(/^Market\tChance\t/);
  const lines = (await page.evaluate(() => navigator.clipboard.readText())).trim().split('\n');
  expect(lines.slice(1).map((l) => l.split('\t')[0])).toEqual(first.slice(1, 4).map(label));
  await page.getByRole('button', { name: 'Copy 3 rows' }).click();
});

test('starred markets are kept across a reload and listed in the Watchlist view', async ({ app: page, api }) => {
  await showTab(page, 'Markets');
  const first = (await api<Json[]>(`/markets?limit=5&${DEFAULT}`)).filter(hasPrice);
  await gridShows(page, first.map(label));
  for (const m of first.slice(0, 2))
    await page
      .getByRole('button', { name: `Add ${label(m)} to watchlist` })
      .first()
      .click();
  await expect(page.getByRole('button', { name: `Remove ${label(first[1]!)} from watchlist` }).first()).toBeVisible();
  await expect.poll(async () => (await api<{ items: Json[] }>('/watchlist')).items.length).toBe(2);

  await page.reload();
  await showTab(page, 'Watchlist');
  const rows = page.locator('[data-testid="watch-market-row"]');
  // Newest first.
  await expect(rows.locator('.col-question')).toHaveText([label(first[1]!), label(first[0]!)]);
  await expect(rows.first().locator('.col-chance')).toHaveText(chance(leaderPrice(first[1]!)));
  await page
    .getByRole('button', { name: `Remove ${label(first[1]!)} from watchlist` })
    .first()
    .click();
  await expect(rows.locator('.col-question')).toHaveText([label(first[0]!)]);
  await page
    .getByRole('button', { name: `Remove ${label(first[0]!)} from watchlist` })
    .first()
    .click();
  await expect(page.getByTestId('watchlist-empty')).toContainText('Star a market or event');
});
