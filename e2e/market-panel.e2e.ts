/**
 * The market page in the side panel: a price chart with one line per outcome, the order book
 * whose best bid and ask are the service's, the rules before the folded token ids; readable at
 * 1024×700 (the panel overlays the grid; no value cut; event market names keep their width);
 * the chart still shows, aged, once the upstream is gone; a star keeps a market on the
 * watchlist across a reload. Expected values come from the service's own answers.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures.ts';
import { hasPrice, type Oracle, pricesOf, showTab } from './support/journeys.ts';

type Json = Record<string, unknown>;
type Book = { outcomes: { name: string; book: { bids: { price: string }[]; asks: { price: string }[] } | null }[] };
type Chart = { outcomes: { name: string; history: unknown[] }[] };

// Charts are refetched on every read, so a stopped upstream shows as an offline copy without waiting a minute.
test.use({ serviceOptions: { tradingTtlMs: { history: 1 } } });

const list = (v: unknown): string[] => (typeof v === 'string' && v ? (JSON.parse(v) as string[]) : []);
const title = (m: Json) => String((typeof m['groupItemTitle'] === 'string' && m['groupItemTitle'].trim()) || m['question'] || m['id']);
/** Polymarket's ¢, as the panel prints them. */
const cents = (p: number) => {
  const c = p * 100;
  return `${c < 1 && c > 0 ? c.toFixed(1) : Math.round(c * 10) / 10}¢`;
};
const best = (levels: { price: string }[], pick: (...n: number[]) => number) => pick(...levels.map((l) => Number(l.price)));
const exactly = (s: string) => new RegExp(`^${s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);

/** An event among the busiest that search finds by its title, with 2+ priced markets; its leader is the market. */
async function pickEvent(api: Oracle): Promise<{ event: Json; market: Json; names: string[] }> {
  const events = await api<Json[]>('/events?limit=40&closed=false&order=volume&ascending=false');
  for (const e of events) {
    const priced = ((e['markets'] as Json[] | undefined) ?? []).filter(hasPrice);
    const market = [...priced].sort((a, b) => (pricesOf(b)[0] ?? 0) - (pricesOf(a)[0] ?? 0))[0];
    if (priced.length < 2 || !market || list(market['clobTokenIds']).length < 2) continue;
    const found = await api<{ events: Json[] }>(`/public-search?q=${encodeURIComponent(String(e['title']))}&limit_per_type=10`);
    if (found.events.some((x) => x['id'] === e['id'])) return { event: e, market, names: priced.map(title) };
  }
  throw new Error('no searchable multi-market event among the first 40');
}

async function openEvent(page: Page, eventTitle: string): Promise<void> {
  await page.keyboard.press('Control+K');
  await page.keyboard.type(eventTitle);
  await expect(page.locator(`.search-view[data-state="ready"]`)).toBeVisible();
  await page
    .getByTestId('search-event')
    .filter({ hasText: exactly(eventTitle) })
    .first()
    .click();
  await expect(page.getByTestId('detail-title')).toHaveText(eventTitle);
}

/** Every value cell in the panel shows its whole text (no ellipsis, no clipping). */
async function cutValues(page: Page): Promise<string[]> {
  return page
    .locator('[data-testid="detail"]')
    .evaluate((el) =>
      [...el.querySelectorAll<HTMLElement>('td, dd, .pm-chance, .em-vol, .em-title, .detail-title')]
        .filter((c) => c.scrollWidth > c.clientWidth)
        .map((c) => `${c.className || c.tagName}: "${c.textContent}" ${c.scrollWidth} > ${c.clientWidth}`),
    );
}

test('the market panel: chart, book, rules, readable at 1024×700, offline copy, watchlist star', async ({
  app: page,
  api,
  fake,
  service,
}) => {
  const cspErrors: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) cspErrors.push(m.text());
  });
  await page.setViewportSize({ width: 1024, height: 700 });
  const { event, market, names } = await pickEvent(api);
  const eventTitle = String(event['title']);
  const id = String(market['id']);
  await openEvent(page, eventTitle);

  // The event panel overlays the grid (which keeps its width); market names keep a readable width.
  const panel = page.getByTestId('detail');
  const items = page.locator('[aria-label="Markets of this event"] .em-title');
  await expect(items).toHaveCount(names.length);
  const widths = await items.evaluateAll((els) => els.map((e) => e.getBoundingClientRect().width));
  expect(Math.min(...widths), 'narrowest market name').toBeGreaterThan(100);
  expect(await cutValues(page)).toEqual([]);
  const [main, view] = await Promise.all([page.locator('#view').boundingBox(), page.locator('#view > .view').first().boundingBox()]);
  expect(view!.width, 'the grid keeps the full width under the panel').toBeCloseTo(main!.width, 0);

  // The market: one chart line per outcome, from the service's chart.
  await page
    .locator('[aria-label="Markets of this event"] button.event-market')
    .filter({ hasText: title(market) })
    .first()
    .click();
  await expect(page.getByTestId('detail-title')).toHaveText(String(market['question']));
  const chart = await api<Chart>(`/markets/${id}/chart?interval=1d`);
  expect(
    chart.outcomes.some((o) => o.history.length > 0),
    'the fake upstream has a price history',
  ).toBe(true);
  const canvas = panel.locator('.u-wrap canvas');
  await expect(canvas).toBeVisible();
  await expect(panel.getByTestId('price-chart-canvas')).toHaveAttribute('data-series', String(chart.outcomes.length));
  await expect(panel.locator('.u-legend .u-series')).toHaveCount(chart.outcomes.length + 1);
  await expect(panel.getByTestId('chart-age')).toHaveText(/^fetched /);

  // The book's best bid and ask for the first outcome are the service's (it refreshes: compare until they agree).
  await expect(async () => {
    const outcome = (await api<Book>(`/markets/${id}/book`)).outcomes[0]!;
    expect(outcome.book, 'the fake upstream has a book').not.toBeNull();
    const bid = cents(best(outcome.book!.bids, Math.max));
    const ask = cents(best(outcome.book!.asks, Math.min));
    expect(await panel.getByTestId('book-best-bid').textContent()).toBe(bid);
    expect(await panel.getByTestId('book-best-ask').textContent()).toBe(ask);
  }).toPass();
  await expect(panel.getByTestId('book-bid').first()).toBeVisible();
  await expect(panel.getByTestId('book-ask').first()).toBeVisible();

  // Rules first; the token ids come last, folded away.
  const order = await panel.evaluate((el) => {
    const rules = el.querySelector('[data-testid="panel-rules"]');
    const ids = el.querySelector('[data-testid="panel-token-ids"]');
    return rules && ids ? rules.compareDocumentPosition(ids) & Node.DOCUMENT_POSITION_FOLLOWING : 0;
  });
  expect(order, 'rules before token ids').toBeTruthy();
  await expect(panel.getByTestId('panel-token-ids')).not.toHaveAttribute('open');
  await expect(panel.getByText(list(market['clobTokenIds'])[0]!, { exact: true })).toBeHidden();
  expect(await cutValues(page)).toEqual([]);

  // A star adds the market to the service's watchlist, and it is still starred after a reload.
  const star = panel.getByRole('button', { name: `Add ${String(market['question'])} to watchlist` });
  await star.click();
  await expect(panel.getByRole('button', { name: `Remove ${String(market['question'])} from watchlist` })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expect
    .poll(async () => (await api<{ items: Json[] }>('/watchlist')).items.map((i) => `${String(i['kind'])}:${String(i['id'])}`))
    .toContain(`market:${id}`);
  await page.reload();
  await expect(page.locator('[data-ready="true"]')).toBeAttached();
  const stored = await page.evaluate(() => localStorage.getItem('marketdesk.watchlist'));
  expect(JSON.parse(stored ?? '{}').items).toContainEqual(expect.objectContaining({ kind: 'market', id }));
  await openEvent(page, eventTitle);
  await page
    .locator('[aria-label="Markets of this event"] button.event-market')
    .filter({ hasText: title(market) })
    .first()
    .click();
  await expect(panel.getByRole('button', { name: `Remove ${String(market['question'])} from watchlist` })).toHaveAttribute(
    'aria-pressed',
    'true',
  );

  // The upstream goes away: the chart stays, as an offline copy with its age.
  await expect(canvas).toBeVisible();
  await fake.close();
  await service.sync!.syncNow('incremental').catch(() => {});
  await expect(page.getByTestId('online-indicator')).toHaveText('Offline');
  await expect(panel.getByTestId('chart-age')).toHaveText(/^offline copy from /);
  await expect(canvas).toBeVisible();
  await expect(panel.getByTestId('book-age')).toHaveText(/^offline copy from /);

  // At 1440 the panel sits beside the grid instead.
  await page.setViewportSize({ width: 1440, height: 900 });
  await expect(async () => {
    const [grid, side] = await Promise.all([page.locator('#view > .view').first().boundingBox(), panel.boundingBox()]);
    expect(grid!.x + grid!.width).toBeLessThanOrEqual(side!.x + 1);
  }).toPass();
  // Alt+1 is the Watchlist tab now.
  await page.keyboard.press('Alt+1');
  await expect(page.getByRole('tab', { name: 'Watchlist', exact: true })).toHaveAttribute('aria-selected', 'true');
  expect(cspErrors).toEqual([]);
});

test('another market opens at the top of the panel, not where the last one was scrolled to', async ({ app: page, api }) => {
  await page.setViewportSize({ width: 1440, height: 700 });
  await showTab(page, 'Markets');
  const shown = (await api<Json[]>('/markets?limit=10&closed=false&order=volume24hr&ascending=false')).filter(hasPrice);
  const row = (i: number) => page.locator(`[data-testid="market-row"][data-index="${i}"]`);
  await row(0).click();
  await expect(page.getByTestId('detail-title')).toHaveText(String(shown[0]!['question']));
  const body = page.getByTestId('detail-body');
  // Scrolled to the figures at the end of the first market's page.
  await expect.poll(() => body.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true);
  await body.evaluate((el) => el.scrollTo(0, el.scrollHeight));
  await expect.poll(() => body.evaluate((el) => el.scrollTop)).toBeGreaterThan(0);
  await row(1).click();
  await expect(page.getByTestId('detail-title')).toHaveText(String(shown[1]!['question']));
  await expect.poll(() => body.evaluate((el) => el.scrollTop)).toBe(0);
});
