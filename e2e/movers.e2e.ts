/**
 * What moved (issue 27): the Chance, 24h change and Spread headers and the sort presets (Biggest
 * moves/up/down, Newest, Ending soon) order the grids as the fake upstream's own catalog sorts, the
 * Events grid shows and sorts by its leader's 24h change, a screen takes a 24h change range, and a
 * fresh cache's Since view says since when it watches and lists today's biggest moves. Every
 * expectation is computed here from the fake upstream's objects (never the service's sort).
 */
import type { Page } from '@playwright/test';
import type { FakeUpstream } from '../src/fake-upstream/index.ts';
import { expect, test } from './support/fixtures.ts';
import { gridShows, hasPrice, pricesOf, showTab } from './support/journeys.ts';

type Json = Record<string, unknown>;

test.use({ catalog: { synthetic: 1200 } });

const label = (m: Json) => String(m['question'] ?? m['slug'] ?? m['id']);
const eventLabel = (e: Json) => String(e['title'] ?? e['slug'] ?? e['id']);
const names = (m: Json): string[] => {
  try {
    return (JSON.parse(String(m['outcomes'] ?? '[]')) as unknown[]).map(String);
  } catch {
    return [];
  }
};
/** Polymarket's chance: the Yes price of a Yes/No market, else the highest-priced outcome. */
function chanceOf(m: Json): number | null {
  const p = pricesOf(m);
  const yes = names(m).findIndex((n) => n.toLowerCase() === 'yes');
  if (yes >= 0 && p[yes] !== undefined) return p[yes]!;
  return p.length ? Math.max(...p) : null;
}
const real = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const change = (m: Json) => real(m['oneDayPriceChange']);
const ts = (v: unknown) => (typeof v === 'string' && Number.isFinite(Date.parse(v)) ? Date.parse(v) : null);

/** Ids by key in a direction, missing keys last, ties by id in the same direction (the service's rule). */
function sortedBy(rows: Json[], key: (r: Json) => number | null, desc: boolean): Json[] {
  const d = desc ? -1 : 1;
  return [...rows].sort((a, b) => {
    const x = key(a);
    const y = key(b);
    if (x === null || y === null) return x === y ? d * (Number(a['id']) - Number(b['id'])) : x === null ? 1 : -1;
    return d * (x - y) || d * (Number(a['id']) - Number(b['id']));
  });
}

/** The fake's open markets as the Markets grid lists them by default (closed=false; placeholders hidden). */
const openMarkets = (fake: FakeUpstream) =>
  fake.catalog
    .marketRecords()
    .map((r) => r.obj as Json)
    .filter((m) => m['closed'] !== true && hasPrice(m));

/** An event's leader's 24h change: its priced markets, open first, then by first price and volume (descending); the first's. */
function leaderChange(fake: FakeUpstream, e: { marketIds: readonly string[] }): number | null {
  const ms = e.marketIds.map((id) => fake.catalog.marketRecord(id)!.obj as Json).filter(hasPrice);
  const vol = (m: Json) => Number(m['volumeNum'] ?? m['volume'] ?? 0) || 0;
  ms.sort(
    (a, b) =>
      Number(a['closed'] === true) - Number(b['closed'] === true) || (pricesOf(b)[0] ?? -1) - (pricesOf(a)[0] ?? -1) || vol(b) - vol(a),
  );
  return ms[0] ? change(ms[0]) : null;
}
/** The 24h change cell: arrow and signed points ("▲+3.2", "▼−1.5", "0.0", "—"). */
function changeText(v: number | null): string {
  if (v === null) return '—';
  const points = Math.round(v * 1000) / 10;
  if (points === 0) return '0.0';
  return points > 0 ? `▲+${points.toFixed(1)}` : `▼\u2212${Math.abs(points).toFixed(1)}`;
}

const header = (page: Page, column: string) => page.locator(`[role="columnheader"][data-column="${column}"]`);
const preset = (page: Page, name: string) => page.getByRole('combobox', { name: 'Sort preset' }).selectOption({ label: name });

test('Chance, 24h change and Spread headers and the presets sort the markets as the catalog does', async ({ app: page, fake }) => {
  await showTab(page, 'Markets');
  const open = openMarkets(fake);
  expect(new Set(open.map(change)).size, 'the catalog has varied moves').toBeGreaterThan(10);

  await header(page, 'chance').locator('button').click();
  await expect(header(page, 'chance')).toHaveAttribute('aria-sort', 'descending');
  await gridShows(page, sortedBy(open, chanceOf, true).map(label));
  await header(page, 'chance').locator('button').click();
  await expect(header(page, 'chance')).toHaveAttribute('aria-sort', 'ascending');
  await gridShows(page, sortedBy(open, chanceOf, false).map(label));

  await header(page, 'oneDayPriceChange').locator('button').click();
  await expect(header(page, 'oneDayPriceChange')).toHaveAttribute('aria-sort', 'descending');
  await gridShows(page, sortedBy(open, change, true).map(label));

  await header(page, 'spread').locator('button').click();
  await expect(header(page, 'spread')).toHaveAttribute('aria-sort', 'ascending');
  await gridShows(page, sortedBy(open, (m) => real(m['spread']), false).map(label));

  await preset(page, 'Biggest moves');
  await gridShows(page, sortedBy(open, (m) => (change(m) === null ? null : Math.abs(change(m)!)), true).map(label));
  await preset(page, 'Biggest down');
  await gridShows(page, sortedBy(open, change, false).map(label));
  await expect(header(page, 'oneDayPriceChange')).toHaveAttribute('aria-sort', 'ascending');
  await preset(page, 'Newest');
  await gridShows(page, sortedBy(open, (m) => ts(m['createdAt']), true).map(label));

  // Ending soon: end dates from now on (to the minute), soonest first; the passed ones are left out.
  const from = Math.floor(Date.now() / 60_000) * 60_000;
  const ending = open.filter((m) => (ts(m['endDate']) ?? -1) >= from);
  expect(ending.length, 'some markets are past their end date').toBeLessThan(open.length);
  await preset(page, 'Ending soon');
  await gridShows(page, sortedBy(ending, (m) => ts(m['endDate']), false).map(label));
  // The count is the service's, placeholders (hidden rows) included.
  const endingAll = fake.catalog
    .marketRecords()
    .map((r) => r.obj as Json)
    .filter((m) => m['closed'] !== true && (ts(m['endDate']) ?? -1) >= from);
  await expect(page.getByTestId('row-count')).toHaveText(`${endingAll.length.toLocaleString('en-US')} markets`);
});

test("the Events grid shows and sorts by its leader's 24h change", async ({ app: page, fake }) => {
  await showTab(page, 'Events');
  const events = fake.catalog.eventRecords().filter((e) => (e.obj as Json)['closed'] !== true);
  const key = new Map(events.map((e) => [String((e.obj as Json)['id']), leaderChange(fake, e)]));
  const rows = events.map((e) => e.obj as Json);
  await header(page, 'oneDayPriceChange').locator('button').click();
  await expect(header(page, 'oneDayPriceChange')).toHaveAttribute('aria-sort', 'descending');
  const top = sortedBy(rows, (e) => key.get(String(e['id'])) ?? null, true);
  await gridShows(page, top.map(eventLabel), 'event-row');
  for (const [i, e] of top.slice(0, 5).entries()) {
    const cell = page.locator(`[data-testid="event-row"][data-index="${i}"] .col-oneDayPriceChange`);
    await expect(cell).toHaveText(changeText(key.get(String(e['id'])) ?? null));
  }
  await preset(page, 'Biggest down');
  await gridShows(page, sortedBy(rows, (e) => key.get(String(e['id'])) ?? null, false).map(eventLabel), 'event-row');
});

test('a screen with a 24h change range lists exactly the markets that moved that much', async ({ app: page, fake }) => {
  await showTab(page, 'Markets');
  const all = fake.catalog
    .marketRecords()
    .map((r) => r.obj as Json)
    .filter((m) => m['closed'] !== true);
  const expected = all.filter((m) => (change(m) ?? -1) >= 0.02 && real(m['spread']) !== null && real(m['spread'])! <= 0.05);
  expect(expected.length, 'the range keeps some markets').toBeGreaterThan(0);
  expect(expected.length, 'and drops some').toBeLessThan(all.length);
  await page.getByRole('button', { name: '+ Screen' }).click();
  const form = page.getByRole('form', { name: 'New screen' });
  await form.getByLabel('Name', { exact: true }).fill('Risers');
  await form.getByLabel('24h change ≥ pts', { exact: true }).fill('2');
  await form.getByLabel('Spread ≤ ¢', { exact: true }).fill('5');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('tab', { name: 'Risers' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('row-count')).toHaveText(`${expected.length} market${expected.length === 1 ? '' : 's'}`);
  await header(page, 'oneDayPriceChange').locator('button').click();
  await gridShows(page, sortedBy(expected.filter(hasPrice), change, true).map(label));
});

test("a fresh cache's Since view says since when it watches and lists today's biggest moves", async ({ app: page, fake, api }) => {
  const feed = await api<{ watchingSince: string | null; total: number }>('/changes?since=0');
  expect(feed.total).toBe(0);
  expect(feed.watchingSince).not.toBeNull();
  await showTab(page, 'Since');
  await expect(page.getByTestId('since-watching')).toContainText('Watching since');
  await expect(page.getByTestId('since-watching')).toContainText('meanwhile, today’s biggest moves');
  const active = fake.catalog
    .marketRecords()
    .map((r) => r.obj as Json)
    .filter((m) => m['closed'] !== true && m['active'] === true);
  const moves = sortedBy(active, (m) => (change(m) === null ? null : Math.abs(change(m)!)), true)
    .slice(0, 10)
    .filter((m) => change(m) !== null && change(m) !== 0);
  await expect(page.getByTestId('since-today-row')).toHaveText(moves.map((m) => new RegExp(literal(label(m)))));
});

const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
