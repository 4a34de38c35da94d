/**
 * Saved screens in the Markets view (issue 16): a screen made in the form becomes a tab whose grid
 * shows exactly the rows of a brute-force filter over every listed market (the service's own
 * listing read whole, filtered in the test), survives a reload, and goes away when deleted.
 */
import { expect, test } from './support/fixtures.ts';
import { BY_DAY_VOLUME, gridShows, pricesOf, showTab } from './support/journeys.ts';

type Json = Record<string, unknown>;

const label = (m: Json) => String(m['question'] ?? m['slug'] ?? m['id']);
const volume = (m: Json) => Number(m['volumeNum'] ?? m['volume'] ?? 0) || 0;

/** Every market the grid's default query lists, in its order (blocks of 100). */
async function allListed(api: <T>(path: string) => Promise<T>): Promise<Json[]> {
  const out: Json[] = [];
  for (let offset = 0; ; offset += 100) {
    const block = await api<Json[]>(`/markets?limit=100&offset=${offset}&closed=false&${BY_DAY_VOLUME}`);
    out.push(...block);
    if (block.length < 100) return out;
  }
}

test('a screen tab shows exactly its brute-force rows, and is kept until deleted', async ({ app: page, api }) => {
  await showTab(page, 'Markets');
  const all = await allListed(api);
  // A volume floor that keeps some markets and drops others, whatever the fixture holds.
  const volumes = all.map(volume).sort((a, b) => a - b);
  const floor = volumes[Math.floor(volumes.length / 3)]!;
  const expected = all.filter((m) => {
    const chance = pricesOf(m)[0];
    return chance !== undefined && chance >= 0.1 && chance <= 0.9 && volume(m) >= floor;
  });
  expect(expected.length, 'the screen keeps some markets').toBeGreaterThan(0);
  expect(expected.length, 'and drops some').toBeLessThan(all.length);

  await page.getByRole('button', { name: '+ Screen' }).click();
  const form = page.getByRole('form', { name: 'New screen' });
  await form.getByLabel('Name', { exact: true }).fill('Live coin flips');
  await form.getByLabel('Chance ≥ %', { exact: true }).fill('10');
  await form.getByLabel('Chance ≤ %', { exact: true }).fill('90');
  await form.getByLabel('Volume ≥', { exact: true }).fill(String(floor));
  await form.getByRole('button', { name: 'Save' }).click();

  const tab = page.getByRole('tab', { name: 'Live coin flips' });
  await expect(tab).toHaveAttribute('aria-selected', 'true');
  await gridShows(page, expected.map(label));
  await expect(page.getByTestId('row-count')).toHaveText(`${expected.length} market${expected.length === 1 ? '' : 's'}`);

  // Kept by the service: after a reload the tab is there and shows the same rows.
  const saved = await api<{ screens: { id: string; name: string }[] }>('/screens');
  expect(saved.screens.map((s) => s.name)).toEqual(['Live coin flips']);
  await page.reload();
  await showTab(page, 'Markets');
  await page.getByRole('tab', { name: 'Live coin flips' }).click();
  await gridShows(page, expected.map(label));

  // A bad screen is refused with the service's message and saves nothing.
  await page.getByRole('button', { name: '+ Screen' }).click();
  await form.getByLabel('Name', { exact: true }).fill('Backwards');
  await form.getByLabel('Chance ≥ %', { exact: true }).fill('90');
  await form.getByLabel('Chance ≤ %', { exact: true }).fill('10');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByRole('alert')).toHaveText('md_chance_min must not exceed md_chance_max');
  await form.getByRole('button', { name: 'Cancel' }).click();

  await page.getByRole('button', { name: 'Delete screen Live coin flips' }).click();
  await expect(page.getByRole('tab', { name: 'Live coin flips' })).toHaveCount(0);
  await expect(page.getByRole('tab', { name: 'All markets' })).toHaveAttribute('aria-selected', 'true');
  // Removed from the service once its Undo has passed.
  await expect(page.getByTestId('screen-undo')).toContainText('Live coin flips');
  await expect.poll(async () => (await api<{ screens: unknown[] }>('/screens')).screens, { timeout: 30_000 }).toEqual([]);
});

test('an "on my watchlist" screen follows the stars as they change', async ({ app: page, api }) => {
  await showTab(page, 'Markets');
  const first = (await allListed(api)).filter((m) => pricesOf(m).length > 0).slice(0, 3);
  await gridShows(page, first.map(label));
  await page.getByRole('button', { name: '+ Screen' }).click();
  const form = page.getByRole('form', { name: 'New screen' });
  await form.getByLabel('Name', { exact: true }).fill('Starred');
  await form.getByLabel('On my watchlist').check();
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('tab', { name: 'Starred' })).toHaveAttribute('aria-selected', 'true');
  await gridShows(page, []);

  await page.getByRole('tab', { name: 'All markets' }).click();
  await gridShows(page, first.map(label));
  await page
    .getByRole('button', { name: `Add ${label(first[1]!)} to watchlist` })
    .first()
    .click();
  await expect.poll(async () => (await api<{ items: Json[] }>('/watchlist')).items.length).toBe(1);
  await page.getByRole('tab', { name: 'Starred' }).click();
  await gridShows(page, [label(first[1]!)]);
  await expect(page.getByTestId('row-count')).toHaveText('1 market');

  // Unstarred from the screen's own grid: the row leaves it.
  await page
    .getByRole('button', { name: `Remove ${label(first[1]!)} from watchlist` })
    .first()
    .click();
  await gridShows(page, []);
});
