/**
 * Copied rows paste as numbers in a spreadsheet, the same as the CSV export (issue 27): the
 * clipboard's TSV of three selected markets holds, in every column the export also has, the
 * export's own text for the same markets (plain numbers, ISO dates), read from the service's
 * export route for the grid's filters and sort.
 */
import { parseCsv } from '../src/testing/csv.ts';
import { expect, test } from './support/fixtures.ts';
import { BY_DAY_VOLUME, gridShows, shownMarkets, showTab } from './support/journeys.ts';

type Json = Record<string, unknown>;
const label = (m: Json) => String(m['question'] ?? m['slug'] ?? m['id']);
const EXPORTED_AS: Record<string, string> = {
  Market: 'question',
  Chance: 'chance',
  '24h change': 'one_day_price_change',
  Spread: 'spread',
  Event: 'event',
  Volume: 'volume',
  '24h vol': 'volume_24hr',
  Liquidity: 'liquidity',
  Ends: 'end_date',
};

test('Ctrl+C and "Copy 3 rows" put the export\'s own values on the clipboard: plain numbers, ISO dates', async ({
  app: page,
  api,
  context,
  service,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(service.baseUrl!).origin });
  await showTab(page, 'Markets');
  const query = `closed=false&${BY_DAY_VOLUME}`;
  const shown = await shownMarkets(api, query, 3);
  await gridShows(page, shown.map(label));
  const rows = page.locator('[data-testid="market-row"]');
  await rows.and(page.locator('[data-index="0"]')).click();
  await rows.and(page.locator('[data-index="2"]')).click({ modifiers: ['Shift'] });
  await expect(page.locator('[data-testid="market-row"][aria-selected="true"]')).toHaveCount(3);

  const res = await fetch(`${service.baseUrl}/export/markets?${query}`);
  const [head, ...records] = parseCsv(await res.text());
  const byId = new Map(records.map((r) => [r[0], Object.fromEntries(head!.map((h, i) => [h, r[i] ?? '']))]));
  const expected = shown.map((m) => byId.get(String(m['id']))!);

  const readBack = async () => {
    const [th, ...tr] = (await page.evaluate(() => navigator.clipboard.readText()))
      .replace(/\n$/, '')
      .split('\n')
      .map((l) => l.split('\t'));
    return tr.map((r) => Object.fromEntries(th!.map((h, i) => [h, r[i] ?? ''])));
  };
  const check = async () => {
    const copied = await readBack();
    expect(copied).toHaveLength(3);
    let compared = 0;
    for (const [i, row] of copied.entries())
      for (const [header, column] of Object.entries(EXPORTED_AS)) {
        if (!(header in row)) continue;
        expect(row[header], `row ${i} ${header}`).toBe(expected[i]![column]);
        compared++;
      }
    // The grid at this width shows at least the market, chance, 24h change and volumes.
    expect(compared).toBeGreaterThanOrEqual(3 * 5);
    expect(JSON.stringify(copied)).not.toMatch(/−|\d%|¢|\$\d/);
  };

  await page.evaluate(() => navigator.clipboard.writeText(''));
  await page.keyboard.press('ControlOrMeta+c');
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toMatch(/^Market\t/);
  await check();

  await page.evaluate(() => navigator.clipboard.writeText(''));
  await page.getByRole('button', { name: 'Copy 3 rows' }).click();
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toMatch(/^Market\t/);
  await check();
});
