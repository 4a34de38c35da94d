/**
 * User journeys through the UI, shared by web mode and Electron mode. Every expectation is
 * computed from the service's own HTTP answers (the oracle), and every wait is on page state.
 */
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';

type Json = Record<string, unknown>;
/** GET a path on the service's base face. */
export type Oracle = <T = unknown>(path: string) => Promise<T>;

export function httpOracle(baseUrl: string): Oracle {
  return async <T,>(path: string) => {
    const res = await fetch(`${baseUrl}${path}`);
    if (!res.ok) throw new Error(`${path}: HTTP ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };
}

const label = (m: Json) => String(m['question'] ?? m['slug'] ?? m['id']);
const eventLabel = (e: Json) => String(e['title'] ?? e['slug'] ?? e['id']);

export async function showTab(page: Page, name: string): Promise<void> {
  await page.getByRole('tab', { name, exact: true }).first().click();
  await page.waitForSelector(`[role="tab"][aria-selected="true"]:text-is("${name}")`);
}

/** Waits until the grid's first rows show exactly `expected` (or the empty state for []). */
export async function gridShows(page: Page, expected: string[], rowTestId = 'market-row'): Promise<void> {
  if (expected.length === 0) {
    await page.waitForSelector('.grid[data-state="empty"][data-busy="false"]');
    return;
  }
  const want = expected.slice(0, 5);
  await page.waitForFunction(
    ({ want, rowTestId }) => {
      const grid = document.querySelector('.grid');
      if (!grid || grid.getAttribute('data-busy') !== 'false') return false;
      return want.every((text, i) => {
        const cell = document.querySelector(`[data-testid="${rowTestId}"][data-index="${i}"] [role="gridcell"]`);
        return cell?.textContent === text;
      });
    },
    { want, rowTestId },
  );
}

function header(page: Page, name: string) {
  return page.locator('[role="columnheader"]', { has: page.locator(`.th-label:text-is("${name}")`) });
}

export async function browseAndSort(page: Page, api: Oracle): Promise<void> {
  await showTab(page, 'Markets');
  const desc = await api<Json[]>('/markets?limit=5&closed=false&order=volumeNum&ascending=false');
  const asc = await api<Json[]>('/markets?limit=5&closed=false&order=volumeNum&ascending=true');
  await gridShows(page, desc.map(label));
  assert.equal(await header(page, 'Volume').getAttribute('aria-sort'), 'descending');

  await header(page, 'Volume').locator('button').click();
  await page.waitForSelector('[role="columnheader"][aria-sort="ascending"]');
  await gridShows(page, asc.map(label));

  await header(page, 'Volume').locator('button').click();
  await page.waitForSelector('[role="columnheader"][aria-sort="descending"]');
  await gridShows(page, desc.map(label));

  // Another column: first click on a text column sorts ascending.
  const byQuestion = await api<Json[]>('/markets?limit=5&closed=false&order=question&ascending=true');
  await header(page, 'Market').locator('button').click();
  await gridShows(page, byQuestion.map(label));
  await header(page, 'Volume').locator('button').click();
  await gridShows(page, desc.map(label));
}

/** A tag that has some, but fewer than 100, open markets: the grid shows all of them. */
async function pickTag(api: Oracle): Promise<{ id: string; label: string; markets: Json[] }> {
  const tags = await api<Json[]>('/tags?limit=1000');
  for (const t of tags) {
    if (!t['label']) continue;
    const markets = await api<Json[]>(`/markets?limit=100&closed=false&tag_id=${String(t['id'])}&order=volumeNum&ascending=false`);
    if (markets.length >= 3 && markets.length < 100) return { id: String(t['id']), label: String(t['label']), markets };
  }
  throw new Error('no tag with between 3 and 99 open markets in this catalog');
}

export async function filterByTagAndStatus(page: Page, api: Oracle): Promise<void> {
  await showTab(page, 'Markets');
  const tag = await pickTag(api);
  await page.getByLabel('Tag filter').selectOption(tag.id);
  await gridShows(page, tag.markets.map(label));
  await page.waitForSelector(`[data-testid="row-count"]:text-is("${tag.markets.length} markets")`);
  // Everything the service returned is in the grid, nothing more.
  assert.equal(await page.locator('.grid').getAttribute('data-rows'), String(tag.markets.length));

  // Closed: yes (within the tag), then any.
  const closed = await api<Json[]>(`/markets?limit=100&closed=true&tag_id=${tag.id}&order=volumeNum&ascending=false`);
  await page.getByLabel('Closed filter').selectOption('yes');
  await gridShows(page, closed.map(label));
  const all = await api<Json[]>(`/markets?limit=100&tag_id=${tag.id}&order=volumeNum&ascending=false`);
  await page.getByLabel('Closed filter').selectOption('any');
  await gridShows(page, all.map(label));
  const active = await api<Json[]>(`/markets?limit=100&active=true&archived=false&tag_id=${tag.id}&order=volumeNum&ascending=false`);
  await page.getByLabel('Active filter').selectOption('yes');
  await page.getByLabel('Archived filter').selectOption('no');
  await gridShows(page, active.map(label));

  await page.getByRole('button', { name: 'Reset filters' }).click();
  const open = await api<Json[]>('/markets?limit=5&closed=false&order=volumeNum&ascending=false');
  await gridShows(page, open.map(label));
}

export async function openDetail(page: Page, api: Oracle): Promise<void> {
  await showTab(page, 'Markets');
  const top = await api<Json[]>('/markets?limit=5&closed=false&order=volumeNum&ascending=false');
  await gridShows(page, top.map(label));

  // Mouse: a click opens the detail; Esc closes it.
  await page.locator('[data-testid="market-row"][data-index="1"]').click();
  await page.waitForSelector(`[data-testid="detail-title"]:text-is("${label(top[1]!)}")`);
  const full = await api<Json>(`/markets/${String(top[1]!['id'])}`);
  const outcomes = JSON.parse(String(full['outcomes'] ?? '[]')) as string[];
  for (const o of outcomes) await page.locator('[data-testid="detail"] table[aria-label="Outcomes"]').getByText(o, { exact: true }).first().waitFor();
  await page.keyboard.press('Escape');
  await page.waitForSelector('[data-testid="detail"]', { state: 'detached' });

  // Keyboard: arrows move, Enter opens, the panel follows the arrows, Esc closes.
  const grid = page.getByRole('grid', { name: 'Markets' });
  await grid.focus();
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await page.waitForSelector(`[data-testid="detail-title"]:text-is("${label(top[2]!)}")`);
  await page.keyboard.press('ArrowDown');
  await page.waitForSelector(`[data-testid="detail-title"]:text-is("${label(top[3]!)}")`);
  await page.keyboard.press('Escape');
  await page.waitForSelector('[data-testid="detail"]', { state: 'detached' });

  // From the market to its event, and from the event to its markets in the grid.
  await page.locator('[data-testid="market-row"][data-index="0"]').click();
  const event = (top[0]!['events'] as Json[] | undefined)?.[0];
  if (event) {
    await page.locator('[data-testid="detail"] .detail-event button').first().click();
    await page.waitForSelector(`[data-testid="detail-title"]:text-is("${eventLabel(event)}")`);
    await page.getByRole('button', { name: 'Show in markets grid' }).click();
    await page.waitForSelector('[data-testid="event-filter"]');
    const ofEvent = await api<Json[]>(`/markets?limit=100&event_id=${String(event['id'])}&order=volumeNum&ascending=false`);
    await gridShows(page, ofEvent.map(label));
    await page.getByRole('button', { name: 'Clear event filter' }).click();
    await page.keyboard.press('Escape');
  }
}

export async function eventsGrid(page: Page, api: Oracle): Promise<void> {
  await showTab(page, 'Events');
  const top = await api<Json[]>('/events?limit=5&closed=false&order=volume&ascending=false');
  await gridShows(page, top.map(eventLabel), 'event-row');
  await page.locator('[data-testid="event-row"][data-index="0"]').click();
  await page.waitForSelector(`[data-testid="detail-title"]:text-is("${eventLabel(top[0]!)}")`);
  const full = await api<Json>(`/events/${String(top[0]!['id'])}`);
  const n = (full['markets'] as unknown[]).length;
  await page.waitForFunction((n) => document.querySelectorAll('[aria-label="Markets of this event"] > li > button').length === n, n);
  await page.keyboard.press('Escape');
}

export async function searchAndOpen(page: Page, api: Oracle, term: string): Promise<void> {
  await page.keyboard.press('Control+K');
  await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'Search markets, events and tags');
  await page.keyboard.type(term);
  await page.waitForSelector(`.search-view[data-state="ready"][data-query="${term}"]`);
  const result = await api<{ events: Json[]; tags: Json[] }>(`/public-search?q=${encodeURIComponent(term)}&limit_per_type=10`);
  assert.ok(result.events.length > 0, `the catalog has events matching ${term}`);
  await page.waitForSelector(`[data-testid="search-event"]:text-is("${eventLabel(result.events[0]!)}")`);
  const shown = await page.locator('[data-testid="search-event"]').allTextContents();
  assert.deepEqual(shown.slice(0, result.events.length), result.events.map(eventLabel).slice(0, shown.length));

  // An event opens in the events view.
  await page.locator('[data-testid="search-event"]').first().click();
  await page.waitForSelector('[role="tab"][aria-selected="true"]:text-is("Events")');
  await page.waitForSelector(`[data-testid="detail-title"]:text-is("${eventLabel(result.events[0]!)}")`);
  await page.keyboard.press('Escape');

  // A tag filters the grids.
  if (result.tags.length > 0) {
    await showTab(page, 'Search');
    const tag = result.tags[0]!;
    await page.locator('[data-testid="search-tag"]').first().click();
    await page.waitForSelector('[role="tab"][aria-selected="true"]:text-is("Markets")');
    assert.equal(await page.getByLabel('Tag filter').inputValue(), String(tag['id']));
    const tagged = await api<Json[]>(`/markets?limit=5&closed=false&tag_id=${String(tag['id'])}&order=volumeNum&ascending=false`);
    await gridShows(page, tagged.map(label));
    await page.getByRole('button', { name: 'Reset filters' }).click();
  }
}

export async function leaderboard(page: Page, api: Oracle): Promise<void> {
  await showTab(page, 'Leaderboard');
  const first = (q: string) => api<Json[]>(`/v1/leaderboard?${q}`);
  const check = async (category: string, period: string, order: string, offset: number) => {
    await page.waitForSelector(`.view[aria-label="Leaderboard"][data-state="ready"][data-params="${category}/${period}/${order}/${offset}"]`);
    const rows = await first(`category=${category}&timePeriod=${period}&orderBy=${order}&limit=25&offset=${offset}`);
    const wallets = await page.locator('[data-testid="leader-row"] .trader-name').evaluateAll((els) => els.map((e) => e.getAttribute('title')));
    assert.deepEqual(wallets, rows.map((r) => String(r['proxyWallet'])));
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
  await page.waitForSelector('[data-testid="offline-banner"]');
  await page.waitForSelector('[data-testid="online-indicator"]:text-is("Offline")');
  const asc = await api<Json[]>('/markets?limit=5&closed=false&order=volumeNum&ascending=true');
  await header(page, 'Volume').locator('button').click();
  await gridShows(page, asc.map(label));
  await page.locator('[data-testid="market-row"][data-index="0"]').click();
  await page.waitForSelector(`[data-testid="detail-title"]:text-is("${label(asc[0]!)}")`);
  await page.keyboard.press('Escape');
  await page.keyboard.press('Control+K');
  await page.keyboard.type('election');
  await page.waitForSelector('.search-view[data-state="ready"][data-query="election"]');
  await page.waitForSelector('[data-testid="offline-banner"]');
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
  await page.waitForSelector('dialog[open]', { state: 'detached' });
}

/** Desktop: the empty orders view leads to the credentials dialog; once set, orders list and page. */
export async function ordersWithCredentials(page: Page, creds: Creds, pageSizes: number[]): Promise<void> {
  await showTab(page, 'Orders');
  await page.waitForSelector('[data-testid="orders-no-credentials"]');
  await page.getByRole('button', { name: 'Set API credentials…' }).click();
  await fillCredentials(page, creds);
  for (const [i, n] of pageSizes.entries()) {
    if (i > 0) await page.getByRole('button', { name: 'Next →' }).click();
    await page.waitForSelector(`.pager >> text=Page ${i + 1} · ${n} orders`);
  }
  assert.ok(await page.getByRole('button', { name: 'Next →' }).isDisabled());
}

/** Search results come a page at a time; "More results" appends the next page. */
export async function searchPaging(page: Page, api: Oracle, term: string): Promise<void> {
  const first = await api<{ events: Json[]; pagination: { hasMore: boolean } }>(`/public-search?q=${encodeURIComponent(term)}&limit_per_type=10`);
  assert.ok(first.pagination.hasMore, `"${term}" has more than one page of results`);
  const second = await api<{ events: Json[] }>(`/public-search?q=${encodeURIComponent(term)}&limit_per_type=10&page=2`);
  await page.keyboard.press('Control+K');
  await page.keyboard.type(term);
  await page.waitForSelector(`.search-view[data-state="ready"][data-query="${term}"]`);
  await page.getByRole('button', { name: 'More results' }).click();
  const want = [...first.events, ...second.events].map(eventLabel);
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid="search-event"]').length === n, want.length);
  assert.deepEqual(await page.locator('[data-testid="search-event"]').allTextContents(), want);
}
