/**
 * Protocol V2 on the market page (issue 25). A `version: "v2"` market, opened from the grid, shows
 * the order book, the chart and the spread of its `positionIds`; a `"v1"` market that also carries
 * `positionIds` (a third of them, as in October 2026), opened from search, shows those of its
 * `clobTokenIds`. The fake upstream's request log then says the CLOB was asked for exactly that
 * kind of id and never for the other. A market with no `version`, or one this build does not
 * know, is listed and found by search, and its page says in one sentence why it has no book and
 * no chart, asking the CLOB nothing. Expected values come from the service's answers and from the
 * fake upstream's own book and history for the id (in process, so they are not in its log).
 */
import type { Locator, Page } from '@playwright/test';
import type { MarketBook, MarketChart } from '../src/contract/desk-ops.ts';
import { jsonList, rankMarkets, tradingIds } from '../src/contract/market-rules.ts';
import type { FakeUpstream } from '../src/fake-upstream/index.ts';
import { CHART_QUERY } from '../src/service/market-page-handlers.ts';
import { expect, test } from './support/fixtures.ts';
import { BY_DAY_VOLUME, gridShows, type Oracle, shownMarkets, showTab } from './support/journeys.ts';

type Json = Record<string, unknown>;
type Level = { price: string; size: string };

const title = (m: Json) => String((typeof m['groupItemTitle'] === 'string' && m['groupItemTitle'].trim()) || m['question'] || m['id']);
const label = (m: Json) => String(m['question'] ?? m['slug'] ?? m['id']);
const ids = (v: unknown): string[] => jsonList(v).map(String);
/** Polymarket's ¢, as the panel prints them (renderer/src/chance.ts fmtCents). */
const cents = (p: number) => {
  const c = Number((p * 100).toFixed(6));
  return `${c < 1 && c > 0 ? c.toFixed(1) : Math.round(c * 10) / 10}¢`;
};
/** The search view's markets under an event (renderer/src/views/Search.tsx MARKETS_SHOWN). */
const MARKETS_SHOWN = 6;
const exactly = (s: string) => new RegExp(`^${s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);

/** The fake upstream's own answer to a CLOB read, asked in process (not over HTTP, so not in its log). */
function fakeClob<T>(fake: FakeUpstream, op: 'book.get' | 'spread.get' | 'pricesHistory.get', query: Record<string, string | number>): T {
  const q = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
  const reply = fake.trading.answer(op, { path: '', q, body: '', headers: {} });
  expect(reply.status, `the fake's ${op} ${q}`).toBe(200);
  return JSON.parse(reply.body) as T;
}

/** The book levels the panel shows for `book` (8 a side, asks highest first, bids highest first), as [¢, shares]. */
function expectedLevels(book: { bids: Level[]; asks: Level[] }): { asks: string[][]; bids: string[][] } {
  const rows = (ls: Level[], bestFirst: (a: number, b: number) => number) =>
    ls
      .map((l) => ({ price: Number(l.price), size: Number(l.size) }))
      .filter((l) => l.size > 0)
      .sort((a, b) => bestFirst(a.price, b.price))
      .slice(0, 8);
  const show = (l: { price: number; size: number }) => [cents(l.price), l.size.toLocaleString('en-US', { maximumFractionDigits: 2 })];
  return {
    asks: rows(book.asks, (a, b) => a - b)
      .reverse()
      .map(show),
    bids: rows(book.bids, (a, b) => b - a).map(show),
  };
}

/** The panel's book rows of one side as [¢, shares]. */
const shownLevels = (panel: Locator, side: 'ask' | 'bid') =>
  panel
    .getByTestId(`book-${side}`)
    .evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td')].slice(0, 2).map((td) => td.textContent ?? '')));

/**
 * The open panel's book for outcome `at` is the fake's own book for `tokenId`, level by level, and
 * its best bid, best ask and spread are the fake's (its `/spread` for that id).
 */
async function bookIsTheFakes(page: Page, fake: FakeUpstream, outcome: string, tokenId: string): Promise<void> {
  const panel = page.getByTestId('detail');
  const book = fakeClob<{ bids: Level[]; asks: Level[] }>(fake, 'book.get', { token_id: tokenId });
  const want = expectedLevels(book);
  expect(want.asks.length, `the fake has a book for ${tokenId}`).toBeGreaterThan(0);
  await panel.getByRole('group', { name: 'Outcome' }).getByText(outcome, { exact: true }).click();
  await expect(panel.getByRole('table', { name: `Order book for ${outcome}` })).toBeVisible();
  await expect.poll(() => shownLevels(panel, 'ask')).toEqual(want.asks);
  await expect.poll(() => shownLevels(panel, 'bid')).toEqual(want.bids);
  const bid = Math.max(...book.bids.map((l) => Number(l.price)));
  const ask = Math.min(...book.asks.map((l) => Number(l.price)));
  const spread = cents(Number(fakeClob<{ spread: string }>(fake, 'spread.get', { token_id: tokenId }).spread));
  expect(spread, "the fake's /spread is its book's best ask minus best bid").toBe(cents(Math.round((ask - bid) * 1e6) / 1e6));
  await expect(panel.getByTestId('book-best-bid')).toHaveText(cents(bid));
  await expect(panel.getByTestId('book-best-ask')).toHaveText(cents(ask));
  await expect(panel.getByTestId('book-spread')).toHaveText(spread);
  await expect(panel.locator('.book-mid')).toHaveText(`Spread ${spread}`);
}

/**
 * The service's 1D chart of market `id` is the fake's history for `tokenIds`, outcome by outcome,
 * and the panel draws it: one line per outcome, as many points as the fake's history has times.
 */
async function chartIsTheFakes(page: Page, api: Oracle, fake: FakeUpstream, id: string, tokenIds: string[]): Promise<void> {
  const chart = await api<MarketChart>(`/markets/${id}/chart?interval=1d`);
  expect(chart.outcomes.map((o) => o.tokenId)).toEqual(tokenIds);
  const times = new Set<number>();
  for (const [i, t] of tokenIds.entries()) {
    const { history } = fakeClob<{ history: { t: number; p: number }[] }>(fake, 'pricesHistory.get', { market: t, ...CHART_QUERY['1d'] });
    expect(history.length, `the fake has a price history for ${t}`).toBeGreaterThan(0);
    expect(chart.outcomes[i]!.history).toEqual(history);
    for (const h of history) times.add(h.t);
  }
  const canvas = page.getByTestId('detail').getByTestId('price-chart-canvas');
  await expect(canvas).toHaveAttribute('data-series', String(tokenIds.length));
  await expect(canvas).toHaveAttribute('data-local', '0');
  await expect(canvas).toHaveAttribute('data-points', String(times.size));
  await expect(canvas.locator('canvas')).toBeVisible();
}

/** Every id the fake's CLOB was asked about (`token_id`, `market`, `asset_id`, `token_ids` query values), with the paths. */
function clobAsks(fake: FakeUpstream): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const e of fake.requests.entries) {
    for (const key of ['token_id', 'market', 'asset_id', 'token_ids']) {
      const v = e.query[key];
      for (const x of v === undefined ? [] : Array.isArray(v) ? v : [v]) {
        for (const id of x.split(',')) {
          if (!out.has(id)) out.set(id, new Set());
          out.get(id)!.add(e.path);
        }
      }
    }
  }
  return out;
}

/** An event found by search on its title, whose search result lists market `m` (within the first MARKETS_SHOWN). */
async function searchable(api: Oracle, m: Json): Promise<Json | undefined> {
  const event = (m['events'] as Json[] | undefined)?.[0];
  if (!event?.['title']) return undefined;
  const found = await api<{ events?: Json[] }>(`/public-search?q=${encodeURIComponent(String(event['title']))}&limit_per_type=10`);
  const hit = found.events?.find((e) => e['id'] === event['id']);
  const shown = hit ? rankMarkets((hit['markets'] ?? []) as unknown as Parameters<typeof rankMarkets>[0]).slice(0, MARKETS_SHOWN) : [];
  return shown.some((x) => x.id === m['id']) ? event : undefined;
}

/** Ctrl+K, the event's title, then the market under it: the market's page opens. */
async function openFromSearch(page: Page, event: Json, m: Json): Promise<void> {
  const term = String(event['title']);
  await page.keyboard.press('Control+K');
  const box = page.locator('[aria-label="Search markets, events and tags"]');
  await expect(box).toBeFocused();
  await box.fill(term);
  await expect(page.locator('.search-view[data-state="ready"]')).toHaveAttribute('data-query', term);
  const result = page.locator('li.result', { has: page.getByTestId('search-event').getByText(term, { exact: true }) }).first();
  await result
    .getByTestId('search-market')
    .filter({ hasText: title(m) })
    .first()
    .click();
  await expect(page.getByTestId('detail-title')).toHaveText(String(m['question']));
}

/** Open, priced, two-outcome markets of the service's listing, busiest first (the grid's order, placeholders left out). */
const listed = (api: Oracle, n: number) => shownMarkets(api, `closed=false&${BY_DAY_VOLUME}`, n);
const twoOutcomes = (m: Json) => jsonList(m['outcomes']).length === 2;

async function screenshot(page: Page, name: string): Promise<void> {
  await test.info().attach(name, { body: await page.screenshot(), contentType: 'image/png' });
}

test('a v2 market shows the book, chart and spread of its positionIds; a v1 market with positionIds those of its clobTokenIds', async ({
  app: page,
  api,
  fake,
}) => {
  const panel = page.getByTestId('detail');

  // The busiest v2 market the grid shows in its first screen: positionIds, and clobTokenIds null.
  const top = await listed(api, 15);
  const at = top.findIndex((m) => m['version'] === 'v2' && twoOutcomes(m));
  expect(at, 'a v2 market among the first 15 rows of the grid').toBeGreaterThanOrEqual(0);
  const v2 = top[at]!;
  const positions = v2['positionIds'] as string[];
  expect(positions).toHaveLength(2);
  expect(v2['clobTokenIds']).toBeNull();
  expect(tradingIds(v2)).toEqual({ ok: true, version: 'v2', ids: positions });
  // What the v2 market was before it became one: CTF token ids the CLOB has no book for.
  const retired = [...fake.catalog.protocolIds.retired].filter(([, m]) => m === v2['id']).map(([t]) => t);
  expect(retired, 'the v2 market had clobTokenIds once').toHaveLength(2);

  // Opened from the grid, as a user does.
  await showTab(page, 'Markets');
  await gridShows(page, top.map(label));
  await page.locator(`[data-testid="market-row"][data-index="${at}"]`).click();
  await expect(page.getByTestId('detail-title')).toHaveText(String(v2['question']));
  const outcomes = ids(v2['outcomes']);
  await bookIsTheFakes(page, fake, outcomes[1]!, positions[1]!);
  await bookIsTheFakes(page, fake, outcomes[0]!, positions[0]!);
  await chartIsTheFakes(page, api, fake, String(v2['id']), positions);
  const book = await api<MarketBook>(`/markets/${String(v2['id'])}/book`);
  expect(book.outcomes.map((o) => o.tokenId)).toEqual(positions);
  // The ids section names the position ids and the version.
  await panel.getByTestId('panel-token-ids').locator('summary').click();
  for (const p of positions) await expect(panel.getByTestId('panel-token-ids').getByText(p, { exact: true })).toBeVisible();
  await expect(panel.getByTestId('panel-token-ids').getByText('v2', { exact: true })).toBeVisible();
  await panel.getByTestId('panel-token-ids').locator('summary').click();
  await panel.locator('.detail-body').evaluate((el) => el.scrollTo(0, 0));
  await screenshot(page, 'v2 market, 1440 light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await screenshot(page, 'v2 market, 1440 dark');
  await page.emulateMedia({ colorScheme: 'light' });

  // A v1 market that also carries positionIds (35% of open v1 markets in 2026), found by search.
  let v1: Json | undefined;
  let event: Json | undefined;
  for (const m of await listed(api, 60)) {
    if (m['version'] !== 'v1' || !Array.isArray(m['positionIds']) || !twoOutcomes(m) || ids(m['clobTokenIds']).length !== 2) continue;
    event = await searchable(api, m);
    if (event) {
      v1 = m;
      break;
    }
  }
  expect(v1, 'a searchable v1 market with positionIds among the busiest 60').toBeDefined();
  const tokens = ids(v1!['clobTokenIds']);
  const unused = v1!['positionIds'] as string[];
  expect(tradingIds(v1!)).toEqual({ ok: true, version: 'v1', ids: tokens });
  await openFromSearch(page, event!, v1!);
  const v1Outcomes = ids(v1!['outcomes']);
  await bookIsTheFakes(page, fake, v1Outcomes[1]!, tokens[1]!);
  await bookIsTheFakes(page, fake, v1Outcomes[0]!, tokens[0]!);
  await chartIsTheFakes(page, api, fake, String(v1!['id']), tokens);

  // The CLOB heard of each market's ids of its own version only: the book and the history of each.
  const asked = clobAsks(fake);
  for (const t of [...positions, ...tokens])
    expect([...(asked.get(t) ?? [])].sort(), `asked about ${t}`).toEqual(['/book', '/prices-history']);
  for (const t of [...retired, ...unused]) expect(asked.has(t), `never asked about ${t}`).toBe(false);
});

/** Markets of one-market open events in the fake's catalog, busiest event first (deterministic). */
function loneMarkets(fake: FakeUpstream): Json[] {
  return fake.catalog
    .eventRecords()
    .filter((e) => !(e.obj as Json)['closed'] && e.marketIds.length === 1)
    .sort((a, b) => Number((b.obj as Json)['volume'] ?? 0) - Number((a.obj as Json)['volume'] ?? 0) || a.num - b.num)
    .map((e) => fake.catalog.marketRecord(e.marketIds[0]!)!.obj as Json)
    .filter((m) => !m['closed'] && twoOutcomes(m) && jsonList(m['outcomePrices']).length === 2);
}

/** The markets the second test changes before the service's first sync: the two busiest one-market events' markets. */
const oddIds = (fake: FakeUpstream) => {
  const [a, b] = loneMarkets(fake);
  if (!a || !b) throw new Error('the catalog has fewer than two open one-market events');
  return { missing: String(a['id']), unknown: String(b['id']) };
};

/** The fake upstream with one market that has no `version` and one whose version this build does not know ("v3"). */
const unversioned = test.extend<{ odd: { missing: string; unknown: string } }>({
  fake: async ({ fake }, use) => {
    const { missing, unknown } = oddIds(fake);
    fake.catalog.updateMarket(missing, { version: undefined });
    fake.catalog.updateMarket(unknown, { version: 'v3' });
    await use(fake);
  },
  odd: async ({ fake }, use) => {
    await use(oddIds(fake));
  },
});

unversioned(
  'a market with no or an unknown version is listed and searchable; its page says why it has no book or chart',
  async ({ app: page, odd, fake, api }) => {
    const panel = page.getByTestId('detail');
    const cases = [
      { id: odd.missing, version: undefined, reason: 'Trading is off for this market: it has no protocol version.' },
      { id: odd.unknown, version: 'v3', reason: 'Trading is off for this market: its protocol version "v3" is unknown.' },
    ];
    const theirIds: string[] = [];
    for (const c of cases) {
      const m = await api<Json>(`/markets/${c.id}`);
      expect(m['version'] ?? undefined).toBe(c.version);
      expect(tradingIds(m)).toEqual({ ok: false, reason: c.reason });
      theirIds.push(...ids(m['clobTokenIds']), ...ids(m['positionIds']));
      // Listed, and asked for its book and chart the service answers why not, asking the CLOB nothing.
      const listing = await api<Json[]>(`/markets?id=${c.id}`);
      expect(listing.map((x) => x['id'])).toEqual([c.id]);
      expect(await api<MarketBook>(`/markets/${c.id}/book`)).toMatchObject({ outcomes: [], tradingOff: c.reason });
      expect(await api<MarketChart>(`/markets/${c.id}/chart?interval=1d`)).toMatchObject({ outcomes: [], tradingOff: c.reason });

      const event = await searchable(api, m);
      expect(event, `search finds market ${c.id} under its event`).toBeDefined();
      await openFromSearch(page, event!, m);
      // Shown: its outcomes with their prices; the book and the chart replaced by the reason.
      const table = panel.locator('table[aria-label="Outcomes"]');
      for (const o of ids(m['outcomes'])) await expect(table.getByText(o, { exact: true }).first()).toBeVisible();
      // The reason is one sentence, the same in both sections (it wraps at the panel's width, as any text).
      for (const testId of ['book-off', 'chart-off']) await expect(panel.getByTestId(testId)).toHaveText(exactly(c.reason));
      expect(c.reason).toMatch(/^[^\n]+\.$/);
      // Nothing to pick: no interval for the chart, no outcome for the book.
      await expect(panel.getByRole('group', { name: 'Chart interval' })).toHaveCount(0);
      await expect(panel.getByRole('group', { name: 'Outcome' })).toHaveCount(0);
      await expect(panel.getByTestId('book-best-bid')).toHaveCount(0);
      await expect(panel.getByTestId('price-chart-canvas')).toHaveCount(0);
      const idsSection = panel.getByTestId('panel-token-ids');
      await idsSection.locator('summary').click();
      await expect(idsSection.locator('dd').first()).toHaveText('—');
      await idsSection.locator('summary').click();
      await panel.locator('.detail-body').evaluate((el) => el.scrollTo(0, 0));
      await screenshot(page, `${c.version ?? 'no'} version market, 1440 light`);
    }

    // A tradable market afterwards: its book arrives, so the log holds what the page asked for.
    let tradable: { market: Json; event: Json; ids: string[] } | undefined;
    for (const m of await listed(api, 40)) {
      const trading = tradingIds(m);
      const event = trading.ok && twoOutcomes(m) ? await searchable(api, m) : undefined;
      if (trading.ok && event) {
        tradable = { market: m, event, ids: trading.ids };
        break;
      }
    }
    expect(tradable, 'a searchable tradable market among the busiest 40').toBeDefined();
    await openFromSearch(page, tradable!.event, tradable!.market);
    await expect(panel.getByTestId('book-best-bid')).toBeVisible();
    const asked = clobAsks(fake);
    for (const t of tradable!.ids) expect(asked.has(t), `asked about ${t}`).toBe(true);
    expect(theirIds.length, 'the odd markets have ids').toBeGreaterThan(0);
    for (const t of theirIds) expect(asked.has(t), `never asked about ${t}`).toBe(false);
  },
);
