/**
 * User journeys through the UI, shared by web mode and Electron mode. Every expectation is
 * computed from the service's own HTTP answers (the oracle), and every check is a web-first
 * assertion: it waits for the page to get there, never for a fixed time.
 */
import { expect, type Locator, type Page } from '@playwright/test';
import { l2Headers } from '../../src/auth/l2.ts';
import type { OrdersPage } from '../../src/contract/index.ts';

type Json = Record<string, unknown>;
/** GET a path on the service's base face. */
export type Oracle = <T = unknown>(path: string) => Promise<T>;

export function httpOracle(baseUrl: string): Oracle {
  return async <T>(path: string) => {
    const res = await fetch(`${baseUrl}${path}`);
    if (!res.ok) throw new Error(`${path}: HTTP ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };
}

/** A price as the UI reads one: a number or a non-blank numeric string ("" and null are no price). */
const isPrice = (v: unknown) => (typeof v === 'number' || (typeof v === 'string' && v.trim() !== '')) && Number.isFinite(Number(v));

/** The market's prices (outcomePrices, a JSON-encoded string array) as numbers; [] for a placeholder. */
export function pricesOf(m: Json): number[] {
  const raw = m['outcomePrices'];
  let list: unknown = raw;
  if (typeof raw === 'string') {
    try {
      list = raw === '' ? [] : JSON.parse(raw);
    } catch {
      list = [];
    }
  }
  return Array.isArray(list) ? list.filter(isPrice).map(Number) : [];
}
export const hasPrice = (m: Json) => pricesOf(m).length > 0;

/** The grids' default order: 24h volume, highest first. */
export const BY_DAY_VOLUME = 'order=volume24hr&ascending=false';

/**
 * The markets the grid shows for `query` (filters and order), up to `n`: the service's listing
 * read in the grid's blocks of 100, with the placeholders (no prices) left out as the grid does.
 */
export async function shownMarkets(api: Oracle, query: string, n = 5): Promise<Json[]> {
  const out: Json[] = [];
  for (let offset = 0; out.length < n; offset += 100) {
    const block = await api<Json[]>(`/markets?limit=100&offset=${offset}&${query}`);
    out.push(...block.filter(hasPrice));
    if (block.length < 100) break;
  }
  return out.slice(0, n);
}

const label = (m: Json) => String(m['question'] ?? m['slug'] ?? m['id']);
const eventLabel = (e: Json) => String(e['title'] ?? e['slug'] ?? e['id']);

export async function showTab(page: Page, name: string): Promise<void> {
  const tab = page.getByRole('tab', { name, exact: true }).first();
  await tab.click();
  await expect(tab).toHaveAttribute('aria-selected', 'true');
}

/** The first cell of the grid row at `index` (rows are recycled, so DOM order is not row order). */
export function gridCell(page: Page, index: number, rowTestId = 'market-row'): Locator {
  return page.locator(`[data-testid="${rowTestId}"][data-index="${index}"] [role="gridcell"]`).first();
}

/** Waits until the grid's first rows show exactly `expected` (or the empty state for []) and nothing loads. */
export async function gridShows(page: Page, expected: string[], rowTestId = 'market-row'): Promise<void> {
  if (expected.length === 0) {
    await expect(page.locator('.grid[data-state="empty"][data-busy="false"]')).toBeVisible();
    return;
  }
  for (const [i, text] of expected.slice(0, 5).entries()) await expect(gridCell(page, i, rowTestId)).toHaveText(text);
  await expect(page.locator('.grid')).toHaveAttribute('data-busy', 'false');
}

function header(page: Page, name: string): Locator {
  return page.locator('[role="columnheader"]', { has: page.locator(`.th-label:text-is("${name}")`) });
}

const detailTitle = (page: Page) => page.getByTestId('detail-title');

export async function browseAndSort(page: Page, api: Oracle): Promise<void> {
  await showTab(page, 'Markets');
  // The default: 24h volume, highest first.
  const byDay = await shownMarkets(api, `closed=false&${BY_DAY_VOLUME}`);
  await gridShows(page, byDay.map(label));
  const dayVolume = header(page, '24h vol');
  const volume = header(page, 'Volume');
  await expect(dayVolume).toHaveAttribute('aria-sort', 'descending');
  await expect(volume).toHaveAttribute('aria-sort', 'none');

  // A money column sorts highest first at the first click, then flips.
  const desc = await shownMarkets(api, 'closed=false&order=volumeNum&ascending=false');
  const asc = await shownMarkets(api, 'closed=false&order=volumeNum&ascending=true');
  await volume.locator('button').click();
  await expect(volume).toHaveAttribute('aria-sort', 'descending');
  await expect(dayVolume).toHaveAttribute('aria-sort', 'none');
  await gridShows(page, desc.map(label));

  await volume.locator('button').click();
  await expect(volume).toHaveAttribute('aria-sort', 'ascending');
  await gridShows(page, asc.map(label));

  await volume.locator('button').click();
  await expect(volume).toHaveAttribute('aria-sort', 'descending');
  await gridShows(page, desc.map(label));

  // Another column: first click on a text column sorts ascending.
  const byQuestion = await shownMarkets(api, 'closed=false&order=question&ascending=true');
  await header(page, 'Market').locator('button').click();
  await expect(header(page, 'Market')).toHaveAttribute('aria-sort', 'ascending');
  await gridShows(page, byQuestion.map(label));
  await dayVolume.locator('button').click();
  await expect(dayVolume).toHaveAttribute('aria-sort', 'descending');
  await gridShows(page, byDay.map(label));
}

/**
 * A tag with some, but fewer than 100, open markets (one block: the grid loads them all), at
 * least 3 of them priced; one with placeholders among them when the catalog has such a tag.
 */
async function pickTag(api: Oracle): Promise<{ id: string; label: string; markets: Json[]; priced: Json[] }> {
  const tags = await api<Json[]>('/tags?limit=1000');
  let found: { id: string; label: string; markets: Json[]; priced: Json[] } | undefined;
  for (const t of tags) {
    if (!t['label']) continue;
    const id = String(t['id']);
    const markets = await api<Json[]>(`/markets?limit=100&closed=false&tag_id=${id}&${BY_DAY_VOLUME}`);
    const priced = markets.filter(hasPrice);
    if (priced.length < 3 || markets.length >= 100) continue;
    found ??= { id, label: String(t['label']), markets, priced };
    if (priced.length < markets.length) return { id, label: String(t['label']), markets, priced };
  }
  if (!found) throw new Error('no tag with between 3 and 99 open markets, 3 of them priced, in this catalog');
  return found;
}

export async function filterByTagAndStatus(page: Page, api: Oracle): Promise<void> {
  await showTab(page, 'Markets');
  const tag = await pickTag(api);
  await page.getByLabel('Tag filter').selectOption(tag.id);
  await gridShows(page, tag.priced.map(label));
  // The header counts what the service counts, placeholders included; the note says how many are hidden.
  const { count } = await api<{ count: number }>(`/markets/count?closed=false&tag_id=${tag.id}`);
  expect(count, 'the count route agrees with the listing').toBe(tag.markets.length);
  await expect(page.getByTestId('row-count')).toHaveText(`${count.toLocaleString('en-US')} markets`);
  const hidden = tag.markets.length - tag.priced.length;
  const note = page.getByTestId('grid-placeholders-hidden');
  if (hidden > 0) await expect(note).toHaveText(`${hidden} placeholder ${hidden === 1 ? 'market' : 'markets'} hidden`);
  else await expect(note).toHaveCount(0);
  // Every priced market the service returned is in the grid, nothing more.
  await expect(page.locator('.grid')).toHaveAttribute('data-rows', String(tag.priced.length));

  // Closed: yes (within the tag), then any.
  const closed = await shownMarkets(api, `closed=true&tag_id=${tag.id}&${BY_DAY_VOLUME}`);
  await page.getByLabel('Closed filter').selectOption('yes');
  await gridShows(page, closed.map(label));
  const all = await shownMarkets(api, `tag_id=${tag.id}&${BY_DAY_VOLUME}`);
  await page.getByLabel('Closed filter').selectOption('any');
  await gridShows(page, all.map(label));
  const active = await shownMarkets(api, `active=true&archived=false&tag_id=${tag.id}&${BY_DAY_VOLUME}`);
  await page.getByLabel('Active filter').selectOption('yes');
  await page.getByLabel('Archived filter').selectOption('no');
  await gridShows(page, active.map(label));

  await page.getByRole('button', { name: 'Reset filters' }).click();
  const open = await shownMarkets(api, `closed=false&${BY_DAY_VOLUME}`);
  await gridShows(page, open.map(label));
}

export async function openDetail(page: Page, api: Oracle): Promise<void> {
  await showTab(page, 'Markets');
  const top = await shownMarkets(api, `closed=false&${BY_DAY_VOLUME}`);
  await gridShows(page, top.map(label));
  const detail = page.getByTestId('detail');

  // Mouse: a click opens the detail; Esc closes it.
  await page.locator('[data-testid="market-row"][data-index="1"]').click();
  await expect(detailTitle(page)).toHaveText(label(top[1]!));
  const full = await api<Json>(`/markets/${String(top[1]!['id'])}`);
  const outcomes = JSON.parse(String(full['outcomes'] ?? '[]')) as string[];
  const table = detail.locator('table[aria-label="Outcomes"]');
  for (const o of outcomes) await expect(table.getByText(o, { exact: true }).first()).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(detail).toHaveCount(0);

  // Keyboard: arrows move, Enter opens, the panel follows the arrows, Esc closes.
  const grid = page.getByRole('grid', { name: 'Markets' });
  await grid.focus();
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(detailTitle(page)).toHaveText(label(top[2]!));
  await page.keyboard.press('ArrowDown');
  await expect(detailTitle(page)).toHaveText(label(top[3]!));
  await page.keyboard.press('Escape');
  await expect(detail).toHaveCount(0);

  // From the market to its event, and from the event to its markets in the grid.
  await page.locator('[data-testid="market-row"][data-index="0"]').click();
  await expect(detailTitle(page)).toHaveText(label(top[0]!));
  const event = (top[0]!['events'] as Json[] | undefined)?.[0];
  if (event) {
    await detail.locator('.detail-event button').first().click();
    await expect(detailTitle(page)).toHaveText(eventLabel(event));
    await page.getByRole('button', { name: 'Show in markets grid' }).click();
    await expect(page.getByTestId('event-filter')).toBeVisible();
    const ofEvent = await shownMarkets(api, `event_id=${String(event['id'])}&${BY_DAY_VOLUME}`);
    await gridShows(page, ofEvent.map(label));
    await page.getByRole('button', { name: 'Clear event filter' }).click();
    await page.keyboard.press('Escape');
  }
}

export async function eventsGrid(page: Page, api: Oracle): Promise<void> {
  await showTab(page, 'Events');
  const top = await api<Json[]>(`/events?limit=5&closed=false&${BY_DAY_VOLUME}`);
  await gridShows(page, top.map(eventLabel), 'event-row');
  await page.locator('[data-testid="event-row"][data-index="0"]').click();
  await expect(detailTitle(page)).toHaveText(eventLabel(top[0]!));
  const full = await api<Json>(`/events/${String(top[0]!['id'])}`);
  // Placeholder markets (no prices) are hidden from the panel.
  const priced = (full['markets'] as Json[]).filter((m) => hasPrice(m));
  await expect(page.locator('[aria-label="Markets of this event"] > li > button')).toHaveCount(priced.length);
  await page.keyboard.press('Escape');
}

/** The search view once it shows the service's answer for `term`. */
const searchReady = (page: Page, term: string) => page.locator(`.search-view[data-state="ready"][data-query="${term}"]`);

export async function searchAndOpen(page: Page, api: Oracle, term: string): Promise<void> {
  await page.keyboard.press('Control+K');
  await expect(page.locator('[aria-label="Search markets, events and tags"]')).toBeFocused();
  await page.keyboard.type(term);
  await expect(searchReady(page, term)).toBeVisible();
  const result = await api<{ events: Json[]; tags: Json[] }>(`/public-search?q=${encodeURIComponent(term)}&limit_per_type=10`);
  expect(result.events.length, `the catalog has events matching ${term}`).toBeGreaterThan(0);
  await expect(page.getByTestId('search-event')).toHaveText(result.events.map(eventLabel));

  // An event opens over the results (not over an unrelated grid).
  await page.getByTestId('search-event').first().click();
  await expect(page.getByRole('tab', { name: 'Search', exact: true })).toHaveAttribute('aria-selected', 'true');
  await expect(detailTitle(page)).toHaveText(eventLabel(result.events[0]!));
  await page.keyboard.press('Escape');

  // A tag filters the grids.
  if (result.tags.length > 0) {
    await showTab(page, 'Search');
    const tag = result.tags[0]!;
    await page.getByTestId('search-tag').first().click();
    await expect(page.getByRole('tab', { name: 'Markets', exact: true })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByLabel('Tag filter')).toHaveValue(String(tag['id']));
    const tagged = await shownMarkets(api, `closed=false&tag_id=${String(tag['id'])}&${BY_DAY_VOLUME}`);
    await gridShows(page, tagged.map(label));
    await page.getByRole('button', { name: 'Reset filters' }).click();
  }
}

export async function leaderboard(page: Page, api: Oracle): Promise<void> {
  await showTab(page, 'Leaderboard');
  const check = async (category: string, period: string, order: string, offset: number) => {
    await expect(
      page.locator(`.view[aria-label="Leaderboard"][data-state="ready"][data-params="${category}/${period}/${order}/${offset}"]`),
    ).toBeVisible();
    const rows = await api<Json[]>(`/v1/leaderboard?category=${category}&timePeriod=${period}&orderBy=${order}&limit=25&offset=${offset}`);
    // The wallet is each row's title (the name shown may be a pseudonym).
    const wallets = () =>
      page.locator('[data-testid="leader-row"] .trader-name').evaluateAll((els) => els.map((e) => e.getAttribute('data-wallet')));
    await expect.poll(wallets).toEqual(rows.map((r) => String(r['proxyWallet'])));
  };
  await check('OVERALL', 'DAY', 'PNL', 0);
  await page.getByRole('tab', { name: 'Politics' }).click();
  await check('POLITICS', 'DAY', 'PNL', 0);
  await page.getByRole('radio', { name: 'Week' }).click();
  await check('POLITICS', 'WEEK', 'PNL', 0);
  await page.getByRole('radio', { name: 'Volume' }).click();
  await check('POLITICS', 'WEEK', 'VOL', 0);
  await page.getByRole('button', { name: 'Next →' }).click();
  await check('POLITICS', 'WEEK', 'VOL', 25);
  await page.getByRole('button', { name: '← Previous' }).click();
  await check('POLITICS', 'WEEK', 'VOL', 0);
}

/** The upstream goes away: the banner shows and the cache keeps serving every view. */
export async function offline(page: Page, api: Oracle, goOffline: () => Promise<void>): Promise<void> {
  await showTab(page, 'Markets');
  await goOffline();
  await expect(page.getByTestId('offline-banner')).toBeVisible();
  await expect(page.getByTestId('online-indicator')).toHaveText('Offline');
  // A new sort, answered from the cache: 24h volume (the default, highest first) flips to lowest first.
  const asc = await shownMarkets(api, 'closed=false&order=volume24hr&ascending=true');
  await header(page, '24h vol').locator('button').click();
  await expect(header(page, '24h vol')).toHaveAttribute('aria-sort', 'ascending');
  await gridShows(page, asc.map(label));
  await page.locator('[data-testid="market-row"][data-index="0"]').click();
  await expect(detailTitle(page)).toHaveText(label(asc[0]!));
  await page.keyboard.press('Escape');
  await page.keyboard.press('Control+K');
  await page.keyboard.type('election');
  await expect(searchReady(page, 'election')).toBeVisible();
  await expect(page.getByTestId('offline-banner')).toBeVisible();
}

export interface Creds {
  apiKey: string;
  secret: string;
  passphrase: string;
  address: string;
}

/** Fills the open credentials dialog with `creds`, saves, and waits for it to close. */
export async function fillCredentials(page: Page, creds: Creds): Promise<void> {
  const dialog = page.locator('dialog[open]');
  await dialog.getByLabel('API key').fill(creds.apiKey);
  await dialog.getByLabel('Secret').fill(creds.secret);
  await dialog.getByLabel('Passphrase').fill(creds.passphrase);
  await dialog.getByLabel('Wallet address').fill(creds.address);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toHaveCount(0);
}

/** The service's own `GET /data/orders` (a query string, or '' for the first page). */
export type OrdersOracle = (query?: string) => Promise<OrdersPage>;

/** Asks the service at `url` (either face) for the account's orders, signed with `creds` by the service's l2.ts. */
export function ordersOracle(url: string, creds: Creds): OrdersOracle {
  return async (query = '') => {
    // KUEST_* gets the spec's shapes (camelCase, "" ends the listing), as the UI shows them; POLY_* would get Polymarket's.
    const headers = l2Headers(creds, { method: 'GET', path: '/data/orders' }, { family: 'KUEST' });
    const res = await fetch(`${url}/data/orders${query}`, { headers });
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as OrdersPage;
  };
}

/** Every page of the account's orders, following the service's cursors. */
export async function orderPages(orders: OrdersOracle): Promise<OrdersPage[]> {
  const pages = [await orders()];
  while (pages.at(-1)!.next_cursor !== '') pages.push(await orders(`?next_cursor=${encodeURIComponent(pages.at(-1)!.next_cursor)}`));
  return pages;
}

/** The orders view's pager, e.g. "101–200 of 275 orders". */
export const pager = (page: Page) => page.locator('.view[aria-label="Orders"] .pager');

/**
 * Desktop: the empty orders view leads to the credentials dialog; once set, the orders list and
 * page as the service pages them (asked with the same credentials). Returns those pages.
 */
export async function ordersWithCredentials(page: Page, creds: Creds, orders: OrdersOracle): Promise<OrdersPage[]> {
  await showTab(page, 'Orders');
  await expect(page.getByTestId('orders-no-credentials')).toBeVisible();
  await page.getByRole('button', { name: 'Set API credentials…' }).click();
  await fillCredentials(page, creds);
  const pages = await orderPages(orders);
  expect(pages.length, 'the account has more than one page of orders').toBeGreaterThan(1);
  const total = pages.reduce((n, p) => n + p.data.length, 0);
  for (const [i, p] of pages.entries()) {
    if (i > 0) await page.getByRole('button', { name: 'Next →' }).click();
    await expect(pager(page)).toContainText(`${i * 100 + 1}–${i * 100 + p.data.length} of ${total} orders`);
  }
  await expect(page.getByRole('button', { name: 'Next →' })).toBeDisabled();
  return pages;
}

/** Search results come a page at a time; "More results" appends the next page. */
export async function searchPaging(page: Page, api: Oracle, term: string): Promise<void> {
  const first = await api<{ events: Json[]; pagination: { hasMore: boolean } }>(
    `/public-search?q=${encodeURIComponent(term)}&limit_per_type=10`,
  );
  expect(first.pagination.hasMore, `"${term}" has more than one page of results`).toBe(true);
  const second = await api<{ events: Json[] }>(`/public-search?q=${encodeURIComponent(term)}&limit_per_type=10&page=2`);
  await page.keyboard.press('Control+K');
  await page.keyboard.type(term);
  await expect(searchReady(page, term)).toBeVisible();
  await expect(page.getByTestId('search-event')).toHaveText(first.events.map(eventLabel));
  await page.getByRole('button', { name: 'More results' }).click();
  await expect(page.getByTestId('search-event')).toHaveText([...first.events, ...second.events].map(eventLabel));
}
