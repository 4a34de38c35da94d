/**
 * What is stale, and what is one thing (issue 27): open markets past their end date read
 * "Ended" (grid, panel, event rows) with a note; a chart is labelled with the range it really
 * covers and its last point's age, and says when its last price is not the price above it; the
 * chart has 1H and 6H; one chance rule in the grids' Chance and Outcomes columns and the Events
 * grid (a one-market event reads as its market); the event panel charts its leading markets and
 * lists each market's 24h change and prices in ¢; the empty states say what is really the case.
 * Expected values come from the service's own answers (the fake upstream's catalog, whose CLOB
 * clock is fixed weeks back, so its histories are old) and the models in support/chance-model.ts.
 */
import type { Page } from '@playwright/test';
import { startService } from '../src/http/server.ts';
import { DEAD_UPSTREAM } from '../src/testing/fixtures.ts';
import { centsText, chanceText, leaderOf } from './support/chance-model.ts';
import { openApp } from './support/env.ts';
import { expect, test } from './support/fixtures.ts';
import { BY_DAY_VOLUME, fillCredentials, gridShows, hasPrice, pricesOf, shownMarkets, showTab } from './support/journeys.ts';

type Json = Record<string, unknown>;
type Chart = { outcomes: { name: string; history: { t: number; p: number }[] }[] };

const list = (v: unknown): string[] => (typeof v === 'string' && v ? (JSON.parse(v) as string[]) : Array.isArray(v) ? v.map(String) : []);
const label = (m: Json) => String(m['question'] ?? m['slug'] ?? m['id']);
const title = (m: Json) => String((typeof m['groupItemTitle'] === 'string' && m['groupItemTitle'].trim()) || m['question'] || m['id']);
/** Gamma still calls it open, but its end date has passed (the browser's clock, as the UI reads it). */
const ended = (x: Json, now: number) => !!x['active'] && !x['closed'] && !x['archived'] && Date.parse(String(x['endDate'] ?? '')) < now;
const leader = (m: Json) =>
  leaderOf(
    list(m['outcomes']),
    list(m['outcomePrices']).map((p) => (p.trim() === '' ? undefined : Number(p))),
  );
/** The 24h change cell: arrow and signed points ("▲+3.2", "▼−1.5", "0.0", "—"). */
function change(v: unknown): string {
  if (typeof v !== 'number') return '—';
  const points = Math.round(v * 1000) / 10;
  if (points === 0) return '0.0';
  return points > 0 ? `▲+${points.toFixed(1)}` : `▼\u2212${Math.abs(points).toFixed(1)}`;
}
const row = (page: Page, i: number, id = 'market-row') => page.locator(`[data-testid="${id}"][data-index="${i}"]`);
/** The browser's own medium date and short time, as the chart's label writes a point's time. */
const dateTimeIn = (page: Page, t: number) =>
  page.evaluate((s) => new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(s * 1000), t);

test('ended markets, chart labels and ranges, one chance rule, the event panel', async ({ app: page, api }) => {
  const now = await page.evaluate(() => Date.now());
  // The markets grid's first rows: status and chance by the model, Outcomes by the same rule.
  const shown = await shownMarkets(api, `closed=false&${BY_DAY_VOLUME}`, 8);
  await showTab(page, 'Markets');
  await gridShows(page, shown.map(label));
  for (const [i, m] of shown.entries()) {
    await expect(row(page, i).locator('.col-status')).toHaveText(ended(m, now) ? 'Ended' : 'Open');
    const p = leader(m)?.price;
    await expect(row(page, i).locator('.col-chance')).toHaveText(chanceText(p));
    const first = pricesOf(m)[0];
    const outcomes = row(page, i).locator('.col-outcomes .oc-first');
    if ((await outcomes.count()) > 0) await expect(outcomes).toHaveText(chanceText(first));
  }
  const stale = shown.findIndex((m) => ended(m, now));
  expect(stale, 'an open market past its end date among the first rows (the recorded catalog is old)').toBeGreaterThanOrEqual(0);
  const market = shown[stale]!;
  const id = String(market['id']);

  // Its page: "Ended" with a note; the chart labelled with what it covers.
  await row(page, stale).click();
  const panel = page.getByTestId('detail');
  await expect(panel.getByTestId('detail-title')).toHaveText(label(market));
  await expect(panel.locator('.panel-head .badge, .badge[data-status]').first()).toHaveText('Ended');
  await expect(panel.getByTestId('ended-note')).toContainText('past its end date and awaits resolution');
  await expect(panel.getByTestId('chart-age')).toHaveText(/^fetched /);

  for (const [interval, button] of [
    ['1d', '1D'],
    ['1h', '1H'],
    ['6h', '6H'],
  ] as const) {
    await panel.getByRole('group', { name: 'Chart interval' }).getByRole('radio', { name: button, exact: true }).check();
    const chart = await api<Chart>(`/markets/${id}/chart?interval=${interval}`);
    const ts = chart.outcomes.flatMap((o) => o.history.map((h) => h.t));
    expect(ts.length, `the fake upstream has a ${interval} history`).toBeGreaterThan(0);
    const from = Math.min(...ts);
    const to = Math.max(...ts);
    const range = panel.getByTestId('chart-range');
    await expect(range).toHaveAttribute('data-from', String(from));
    // Live points may continue the line past the upstream's last one.
    expect(Number(await range.getAttribute('data-to'))).toBeGreaterThanOrEqual(to);
    await expect(panel.getByTestId('chart-covers')).toContainText(await dateTimeIn(page, from));
    const drawnTo = Number(await range.getAttribute('data-to'));
    const days = (Date.now() / 1000 - drawnTo) / 86_400;
    const ago = await page.evaluate(
      (ds) => ds.map((d) => new Intl.RelativeTimeFormat(undefined, { numeric: 'auto', style: 'short' }).format(-d, 'day')),
      [Math.floor(days), Math.ceil(days)],
    );
    await expect(panel.getByTestId('chart-last')).toHaveText(new RegExp(`^last point (${ago.join('|')})$`));
    // An hour's allowance for 1D, ten minutes for 1H and 6H: a weeks-old end lags.
    await expect(range).toHaveAttribute('data-lagging', String(days * 86_400 > 600));
    // The line's last Yes price against the price above: a gap of half a cent or more is said, with both.
    const last = Number(await range.getAttribute('data-last-price'));
    const above = (await panel.locator('table[aria-label="Outcomes"] tbody tr').first().locator('td').nth(2).textContent()) ?? '';
    const gap = panel.getByTestId('chart-price-gap');
    if (Math.abs(Number(above.replace('¢', '')) / 100 - last) >= 0.005) {
      await expect(gap).toContainText(centsText(last));
      await expect(gap).toContainText(above);
    }
  }

  // The Events grid: a one-market event reads as its market (Yes's chance), not "No 95%".
  const events = (await api<Json[]>(`/events?limit=20&closed=false&${BY_DAY_VOLUME}`)).slice(0, 20);
  const singleAt = events.findIndex((e) => ((e['markets'] as Json[] | undefined) ?? []).filter(hasPrice).length === 1);
  expect(singleAt, 'a one-market event among the first 20').toBeGreaterThanOrEqual(0);
  const single = events[singleAt]!;
  const only = ((single['markets'] as Json[]) ?? []).filter(hasPrice)[0]!;
  // With the market panel closed, so the grid has the room for its Status column at 1440 px.
  await page.getByRole('button', { name: 'Close detail (Esc)' }).click();
  await expect(page.getByTestId('detail')).toHaveCount(0);
  await showTab(page, 'Events');
  await gridShows(
    page,
    events.map((x) => String(x['title'] ?? x['slug'] ?? x['id'])),
    'event-row',
  );
  const evRow = row(page, singleAt, 'event-row');
  await evRow.scrollIntoViewIfNeeded();
  await expect(evRow.locator('.ev-leading')).toHaveText(leader(only)!.name);
  await expect(evRow.locator('.ev-chance')).toHaveText(chanceText(leader(only)!.price));
  await expect(evRow.locator('.col-status')).toHaveText(ended(single, now) ? 'Ended' : 'Open');

  // A multi-market event's panel: a chart of its leaders, each market's 24h change and prices in ¢.
  const multiAt = events.findIndex((e) => ((e['markets'] as Json[] | undefined) ?? []).filter(hasPrice).length >= 3);
  await row(page, multiAt, 'event-row').click();
  const full = await api<Json>(`/events/${String(events[multiAt]!['id'])}`);
  const ranked = ((full['markets'] as Json[]) ?? [])
    .filter(hasPrice)
    .sort(
      (a, b) =>
        Number(!!a['closed']) - Number(!!b['closed']) ||
        (pricesOf(b)[0] ?? -1) - (pricesOf(a)[0] ?? -1) ||
        Number(b['volumeNum'] ?? 0) - Number(a['volumeNum'] ?? 0),
    );
  const chart = panel.getByTestId('event-chart');
  await expect(chart.getByTestId('price-chart-canvas')).toBeVisible();
  const series = Number(await chart.getByTestId('price-chart-canvas').getAttribute('data-series'));
  expect(series).toBeGreaterThanOrEqual(1);
  expect(series).toBeLessThanOrEqual(4);
  await expect(chart.locator('.u-legend .u-series').nth(1)).toContainText(title(ranked[0]!));
  await expect(chart.getByTestId('chart-range')).toBeVisible();
  const items = panel.locator('[aria-label="Markets of this event"] > li');
  await expect(items).toHaveCount(ranked.length);
  for (const [i, m] of ranked.slice(0, 5).entries()) {
    const item = items.nth(i);
    await expect(item.locator('.em-title')).toHaveText(title(m));
    await expect(item.locator('.pm-chance')).toHaveText(chanceText(leader(m)?.price));
    await expect(item.getByTestId('em-change')).toHaveText(change(m['oneDayPriceChange']));
    const names = list(m['outcomes']);
    const prices = pricesOf(m);
    await expect(item.getByTestId('em-prices')).toHaveText(names.map((n, k) => `${n} ${centsText(prices[k]!)}`).join(''));
  }
});

test('no network and an empty cache: the grid and search say so, not "started offline" or "nothing matches"', async ({ page, dataDir }) => {
  const service = await startService({ dataDir, basePort: 0, clobPort: 0, urls: DEAD_UPSTREAM, autoSync: false });
  try {
    await service.sync!.syncNow('full').catch(() => {});
    await openApp(page, service.baseUrl!);
    const grid = page.getByTestId('no-catalog');
    await expect(grid).toContainText('cannot be reached');
    await expect(grid).not.toContainText('started offline');
    await page.getByLabel('Search markets, events and tags').fill('bitcoin');
    await expect(page.getByTestId('search-no-catalog')).toContainText('no catalog is cached');
    await expect(page.getByText('Nothing matches')).toBeHidden();
  } finally {
    await service.close();
  }
});

test('orders under --offline say the service never asks the CLOB, not only that the credentials are wrong', async ({ page, dataDir }) => {
  const service = await startService({ dataDir, basePort: 0, clobPort: 0, urls: DEAD_UPSTREAM, offline: true });
  try {
    await openApp(page, service.baseUrl!);
    await showTab(page, 'Orders');
    await expect(page.getByTestId('orders-offline')).toContainText('started offline');
    await page.getByRole('button', { name: 'Set API credentials…' }).first().click();
    await fillCredentials(page, {
      apiKey: '7c1f0e5a-3b1d-4c8e-9a51-2f6b8d0e4a11',
      secret: Buffer.from('marketdesk-e2e-offline-secret-01').toString('base64url'),
      passphrase: 'offline',
      address: `0x${'b2'.repeat(20)}`,
    });
    const refused = page.getByTestId('orders-credentials-rejected');
    await expect(refused).toContainText('The service was started offline');
    await expect(refused.getByTestId('orders-offline')).toContainText('never contacts the CLOB');
  } finally {
    await service.close();
  }
});
