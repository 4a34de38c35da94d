/**
 * Saved screens in the Events view (issue 16): a screen made in the Events view's form becomes a
 * tab whose grid shows exactly what the service's own `/events?<the screen's params>` answers (with
 * the grid's default filter and sort), whose CSV export holds the same events, which survives a
 * reload, and which goes away when deleted.
 */
import { parseCsv } from '../src/testing/csv.ts';
import { expect, test } from './support/fixtures.ts';
import { BY_DAY_VOLUME, gridShows, showTab, type Oracle } from './support/journeys.ts';

type Json = Record<string, unknown>;
type Params = Record<string, string | boolean | string[]>;

const title = (e: Json) => String(e['title'] ?? e['slug'] ?? e['id']);
const volume = (e: Json) => Number(e['volume'] ?? 0) || 0;
/** The Events grid's own query: open events, by 24h volume. */
const GRID = `closed=false&${BY_DAY_VOLUME}`;

function query(params: Params): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) for (const one of Array.isArray(v) ? v : [v]) q.append(k, String(one));
  return q.toString();
}

/** Every event a listing query gives, in its order (blocks of 100, as the grid reads them). */
async function allEvents(api: Oracle, q: string): Promise<Json[]> {
  const out: Json[] = [];
  for (let offset = 0; ; offset += 100) {
    const block = await api<Json[]>(`/events?limit=100&offset=${offset}&include_markets=false&${q}`);
    out.push(...block);
    if (block.length < 100) return out;
  }
}

test('an events screen: its tab shows what /events answers for its params, exports them, is kept until deleted', async ({
  app: page,
  api,
  service,
}) => {
  await showTab(page, 'Events');
  const all = await allEvents(api, GRID);
  // A volume floor and a title word that keep some events and drop others, whatever the fixture holds.
  const volumes = all.map(volume).sort((a, b) => a - b);
  const floor = volumes[Math.floor(volumes.length / 3)]!;
  const word = title(all.find((e) => volume(e) >= floor && /[A-Za-z]{4,}/.test(title(e)))!)
    .split(/[^A-Za-z]+/)
    .filter((w) => w.length >= 4)
    .sort((a, b) => b.length - a.length)[0]!;

  await page.getByRole('button', { name: '+ Screen' }).click();
  const form = page.getByRole('form', { name: 'New screen' });
  await expect(form.getByLabel('Chance ≥ %', { exact: true }), 'events have no chance filter').toHaveCount(0);
  await form.getByLabel('Name', { exact: true }).fill('Busy events');
  await form.getByLabel('Volume ≥', { exact: true }).fill(String(floor));
  await form.getByLabel('Text', { exact: true }).fill(word.toUpperCase());
  await form.getByRole('button', { name: 'Save' }).click();

  const tab = page.getByRole('tab', { name: 'Busy events' });
  await expect(tab).toHaveAttribute('aria-selected', 'true');
  const saved = (await api<{ screens: { id: string; name: string; kind: string; params: Params }[] }>('/screens')).screens;
  expect(saved.map((s) => [s.name, s.kind])).toEqual([['Busy events', 'events']]);
  const screen = saved[0]!;
  expect(screen.params).toEqual({ md_volume_min: String(floor), md_q: word.toUpperCase() });

  // The service's own answer for the screen's params is what the tab must show.
  const expected = await allEvents(api, `${query(screen.params)}&${GRID}`);
  expect(expected.length, 'the screen keeps some events').toBeGreaterThan(0);
  expect(expected.length, 'and drops some').toBeLessThan(all.length);
  const shows = async () => {
    await gridShows(page, expected.map(title), 'event-row');
    await expect(page.getByTestId('row-count')).toHaveText(`${expected.length} event${expected.length === 1 ? '' : 's'}`);
  };
  await shows();

  // The export link carries the screen: its CSV holds the same events.
  const href = await page.getByTestId('export-csv').getAttribute('href');
  expect(href).toContain('md_q=');
  const [header, ...rows] = parseCsv(await (await fetch(new URL(href!, service.baseUrl!))).text());
  const idCol = header!.indexOf('id');
  expect(rows.map((r) => r[idCol])).toEqual(expected.map((e) => String(e['id'])));

  // Kept by the service: after a reload the tab is there and shows the same rows.
  await page.reload();
  await showTab(page, 'Events');
  await page.getByRole('tab', { name: 'Busy events' }).click();
  await shows();

  await page.getByRole('button', { name: 'Delete screen Busy events' }).click();
  await expect(page.getByRole('tab', { name: 'Busy events' })).toHaveCount(0);
  await expect(page.getByRole('tab', { name: 'All events' })).toHaveAttribute('aria-selected', 'true');
  // Removed from the service once its Undo has passed.
  await expect(page.getByTestId('screen-undo')).toContainText('Busy events');
  await expect.poll(async () => (await api<{ screens: unknown[] }>('/screens')).screens, { timeout: 30_000 }).toEqual([]);
  await gridShows(page, all.map(title), 'event-row');
});
