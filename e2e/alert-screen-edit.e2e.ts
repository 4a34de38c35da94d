/**
 * Typing what the grids print (issue 27): the alert dialog's level names the outcome it watches
 * and takes "63¢"; a screen takes "$1.2k"-style amounts, shows its filters, can be edited in
 * place (same id, new rows) and its delete undone. Expected rows are a brute-force filter of the
 * service's own listing; expected rules and screens are read back from the service.
 */
import { expect, test } from './support/fixtures.ts';
import { BY_DAY_VOLUME, gridCell, gridShows, pricesOf, shownMarkets, showTab, type Oracle } from './support/journeys.ts';

type Json = Record<string, unknown>;
type Screen = { id: string; name: string; params: Record<string, string | string[]> };
const label = (m: Json) => String(m['question'] ?? m['slug'] ?? m['id']);
const volume = (m: Json) => Number(m['volumeNum'] ?? m['volume'] ?? 0) || 0;
const outcomes = (m: Json): string[] => (typeof m['outcomes'] === 'string' ? (JSON.parse(m['outcomes']) as string[]) : []);

async function allListed(api: Oracle): Promise<Json[]> {
  const out: Json[] = [];
  for (let offset = 0; ; offset += 100) {
    const block = await api<Json[]>(`/markets?limit=100&offset=${offset}&closed=false&${BY_DAY_VOLUME}`);
    out.push(...block);
    if (block.length < 100) return out;
  }
}

test('the alert level names its outcome and takes "63¢" as the grids print it', async ({ app: page, api }) => {
  const shown = await shownMarkets(api, `closed=false&${BY_DAY_VOLUME}`, 8);
  const index = shown.findIndex((m) => (pricesOf(m)[0] ?? 1) < 0.85 && outcomes(m).length > 0);
  const market = shown[index]!;
  const outcome = outcomes(market)[0]!;
  const level = Math.round(pricesOf(market)[0]! * 100) + 5;
  await showTab(page, 'Markets');
  await gridShows(page, shown.map(label));
  await gridCell(page, index).click();
  const panel = page.getByTestId('detail');
  await panel.getByRole('button', { name: 'Alert', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'New alert' });
  await expect(dialog.getByText(`${outcome} price level`, { exact: true })).toBeVisible();
  await expect(dialog.getByTestId('alert-level-hint')).toContainText(`${outcome} is now`);
  await expect(dialog.getByTestId('alert-level-hint')).toContainText(`the ${outcome} price crosses`);
  await dialog.getByLabel('Level', { exact: true }).fill(`${level}¢`);
  await dialog.getByRole('button', { name: 'Create alert' }).click();
  await expect(dialog).toHaveCount(0);
  const { rules } = await api<{ rules: Json[] }>('/alerts');
  expect(rules).toHaveLength(1);
  expect(rules[0]).toMatchObject({ kind: 'price_cross', level: level / 100, market: { id: String(market['id']) } });
});

test('a screen takes "$12.3k", shows its filters, is edited in place, and its delete can be undone', async ({ app: page, api }) => {
  await showTab(page, 'Markets');
  const all = await allListed(api);
  const volumes = all.map(volume).sort((a, b) => a - b);
  // Floors as the grids print money ("$12.3k"), read back as the amount they say.
  const typed = (v: number) => `$${(v / 1000).toFixed(1)}k`;
  const amount = (v: number) => Number((v / 1000).toFixed(1)) * 1000;
  const low = volumes[Math.floor(volumes.length / 3)]!;
  const high = volumes[Math.floor((volumes.length * 2) / 3)]!;
  const rowsOver = (floor: number) => all.filter((m) => pricesOf(m).length > 0 && volume(m) >= floor);
  expect(rowsOver(amount(low)).length).toBeGreaterThan(rowsOver(amount(high)).length);
  expect(rowsOver(amount(high)).length).toBeGreaterThan(0);

  await page.getByRole('button', { name: '+ Screen' }).click();
  const form = page.getByRole('form', { name: 'New screen' });
  await form.getByLabel('Name', { exact: true }).fill('Busy');
  await form.getByLabel('Volume ≥', { exact: true }).fill(typed(low));
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('tab', { name: 'Busy' })).toHaveAttribute('aria-selected', 'true');
  await gridShows(page, rowsOver(amount(low)).map(label));
  await expect(page.getByTestId('screen-summary')).toHaveText(`Filters: Volume ≥ ${amount(low)}`);
  const [saved] = (await api<{ screens: Screen[] }>('/screens')).screens;
  expect(saved!.params).toEqual({ md_volume_min: String(amount(low)) });

  // Edit: the form shows what was saved; the same screen (id) gets the new floor and name.
  await page.getByRole('button', { name: 'Edit screen Busy' }).click();
  const edit = page.getByRole('form', { name: 'Edit screen Busy' });
  await expect(edit.getByLabel('Volume ≥', { exact: true })).toHaveValue(String(amount(low)));
  await edit.getByLabel('Name', { exact: true }).fill('Busier');
  await edit.getByLabel('Volume ≥', { exact: true }).fill(typed(high));
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('tab', { name: 'Busier' })).toHaveAttribute('aria-selected', 'true');
  await gridShows(page, rowsOver(amount(high)).map(label));
  await expect(page.getByTestId('screen-summary')).toHaveText(`Filters: Volume ≥ ${amount(high)}`);
  expect((await api<{ screens: Screen[] }>('/screens')).screens).toEqual([
    { ...saved, name: 'Busier', params: { md_volume_min: String(amount(high)) } },
  ]);

  // Delete, then Undo: the tab is back, selected, and the service never lost it.
  await page.getByRole('button', { name: 'Delete screen Busier' }).click();
  await expect(page.getByRole('tab', { name: 'Busier' })).toHaveCount(0);
  await page.getByTestId('screen-undo').getByRole('button', { name: 'Undo' }).click();
  await expect(page.getByRole('tab', { name: 'Busier' })).toHaveAttribute('aria-selected', 'true');
  await gridShows(page, rowsOver(amount(high)).map(label));
  expect((await api<{ screens: Screen[] }>('/screens')).screens.map((s) => s.id)).toEqual([saved!.id]);
  // Not undone: gone from the service once the Undo has passed.
  await page.getByRole('button', { name: 'Delete screen Busier' }).click();
  await expect.poll(async () => (await api<{ screens: Screen[] }>('/screens')).screens, { timeout: 30_000 }).toEqual([]);
  await expect(page.getByTestId('screen-undo')).toHaveCount(0);
});
