/**
 * Web mode over a 20,000-market synthetic catalog: the grid has the service's count from the
 * start and loads blocks of 100 wherever it is, so End jumps straight to the last row; the
 * placeholder markets (no prices) of each loaded block are hidden, and only the visible rows
 * are in the DOM. Expected values come from the service's own answers.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures.ts';
import { BY_DAY_VOLUME, gridCell, gridShows, hasPrice, type Oracle, shownMarkets } from './support/journeys.ts';

type Json = Record<string, unknown>;

test.use({
  catalog: { synthetic: 20_000 },
  // Keep every closed market too (the default horizon prunes those closed over 7 days ago).
  serviceOptions: { horizonMs: 36_500 * 86_400_000 },
});

const label = (m: Json) => String(m['question'] ?? m['slug'] ?? m['id']);
const TAIL = 10;

/** The last `n` priced markets of the listing of `total` rows, read block by block from its end; and the last block's placeholders. */
async function tailOf(api: Oracle, total: number, n: number): Promise<{ tail: Json[]; lastBlockHidden: number }> {
  const out: Json[] = [];
  let lastBlockHidden = -1;
  for (let offset = Math.floor((total - 1) / 100) * 100; offset >= 0 && out.length < n; offset -= 100) {
    const block = await api<Json[]>(`/markets?limit=100&offset=${offset}&${BY_DAY_VOLUME}`);
    const priced = block.filter(hasPrice);
    if (lastBlockHidden < 0) lastBlockHidden = block.length - priced.length;
    out.unshift(...priced);
  }
  return { tail: out.slice(-n), lastBlockHidden };
}

/** In one read: the grid's rows (`data-rows`), the hidden placeholders (the note; 0 without it), and the last `k` rows' names. */
const gridEnd = (page: Page, k: number) =>
  page.evaluate((k) => {
    const rows = Number(document.querySelector('.grid')?.getAttribute('data-rows'));
    const note = document.querySelector('[data-testid="grid-placeholders-hidden"]')?.textContent ?? '0';
    const hidden = Number(note.split(' ')[0]!.replaceAll(',', ''));
    const names = Array.from(
      { length: k },
      (_, i) => document.querySelector(`[data-testid="market-row"][data-index="${rows - k + i}"] .name-text`)?.textContent ?? null,
    );
    return { rows, hidden, names };
  }, k);

test('web mode, 20,000 markets: End jumps straight to the last of every cached market, placeholders hidden', async ({
  app: page,
  api,
  service,
}) => {
  const total = service.store.reader.counts().markets;
  expect(total, 'synced markets').toBeGreaterThanOrEqual(20_000);
  await page.getByLabel('Closed filter').selectOption('any');
  const first = await shownMarkets(api, BY_DAY_VOLUME);
  await gridShows(page, first.map(label));

  // The header shows the service's count (every cached market, placeholders included) from the start.
  const { count } = await api<{ count: number }>('/markets/count');
  expect(count, 'the count route counts every cached market').toBe(total);
  await expect(page.getByTestId('row-count')).toHaveText(`${total.toLocaleString('en-US')} markets`);
  const grid = page.locator('.grid');
  await expect(grid).toHaveAttribute('data-ended', 'true');
  // data-rows is every row the grid shows, loaded or not: the count less the placeholders hidden from the loaded blocks.
  const atTop = await gridEnd(page, 0);
  expect(atTop.rows + atTop.hidden, 'rows shown and placeholders hidden').toBe(total);

  // End: the last row at once, the service's last priced market, with the priced ones before it above.
  const { tail, lastBlockHidden } = await tailOf(api, total, TAIL);
  expect(lastBlockHidden, 'the catalog ends with placeholder markets among the priced ones').toBeGreaterThan(0);
  const gridFocus = page.getByRole('grid', { name: 'Markets' });
  await gridFocus.focus();
  await page.keyboard.press('End');
  await expect.poll(async () => (await gridEnd(page, TAIL)).names).toEqual(tail.map(label));
  const atEnd = await gridEnd(page, TAIL);
  expect(atEnd.rows + atEnd.hidden, 'rows shown and placeholders hidden').toBe(total);
  expect(atEnd.hidden, 'the placeholders of the last block are hidden').toBeGreaterThanOrEqual(lastBlockHidden);
  await expect(gridCell(page, atEnd.rows - 1)).toHaveText(label(tail.at(-1)!));
  expect(await page.getByTestId('market-row').count(), 'rows in the DOM').toBeLessThan(100);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('detail-title')).toHaveText(label(tail.at(-1)!));

  // And back to the top, where the first block is still the first.
  await page.keyboard.press('Escape');
  await gridFocus.focus();
  await page.keyboard.press('Home');
  await expect(gridCell(page, 0)).toHaveText(label(first[0]!));
});
