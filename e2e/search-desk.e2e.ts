/**
 * What a trader searches for (issue 27): a search hit on a market shows that market, marked, and
 * Enter opens it; the arrows walk the markets inside events; a misspelt word is corrected and
 * said; the grids' quick text filter; the tag list's search, ranked by use without the rarely
 * used tags. Every expectation comes from the service's own answers over the fake upstream's
 * catalog (the recorded fixtures).
 */
import type { Page } from '@playwright/test';
import type { DeskSearchResult, RankedTags } from '../src/contract/index.ts';
import { matchTags } from '../renderer/src/components/tag-match.ts';
import { shownMarkets as listedMarkets } from '../renderer/src/views/search-results.ts';
import { expect, test } from './support/fixtures.ts';
import { BY_DAY_VOLUME, gridShows, type Oracle, shownMarkets, showTab } from './support/journeys.ts';

type Json = Record<string, unknown>;
const question = (m: Json) => String(m['question'] ?? m['slug'] ?? m['id']);
const searchBox = (page: Page) => page.getByLabel('Search markets, events and tags');
const searchReady = (page: Page, term: string) => page.locator(`.search-view[data-state="ready"][data-query="${term}"]`);
const words = (t: string) =>
  t
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);

const desk = (api: Oracle, q: string) => api<DeskSearchResult>(`/desk/search?q=${encodeURIComponent(q)}&limit_per_type=10`);

/** A word of a market question (not of its event's title) whose search puts that market first: matched, in the first event. */
async function marketWord(api: Oracle): Promise<{ q: string; answer: DeskSearchResult }> {
  const events = await api<Json[]>('/events?limit=100&closed=false&order=volume&ascending=false');
  const tried = new Set<string>();
  for (const e of events) {
    const title = new Set(words(String(e['title'] ?? '')));
    for (const m of (e['markets'] as Json[] | undefined) ?? []) {
      for (const w of words(String(m['question'] ?? ''))) {
        if (w.length < 5 || /\d/.test(w) || title.has(w) || tried.has(w)) continue;
        tried.add(w);
        const answer = await desk(api, w);
        const first = answer.events[0];
        if (answer.corrected === undefined && first && listedMarkets(first).markets.some((x) => x.matched)) return { q: w, answer };
        if (tried.size > 60) throw new Error('no question word puts a matched market in the first event');
      }
    }
  }
  throw new Error('no question word found');
}

test('a search hit on a market shows that market marked, first in its event; Enter opens it; the arrows walk the markets', async ({
  app: page,
  api,
}) => {
  const { q, answer } = await marketWord(api);
  const first = answer.events[0]!;
  const listed = listedMarkets(first).markets;
  const matched = listed.filter((x) => x.matched).map((x) => x.market);

  await page.keyboard.press('Control+K');
  await page.keyboard.type(q);
  await expect(searchReady(page, q)).toBeVisible();
  const firstResult = page.locator('li.result').first();
  await expect(firstResult.getByTestId('search-event')).toHaveText(String(first.title ?? first.slug ?? first.id));
  // The matched markets, marked, lead the event's list; the rest follow unmarked.
  const marked = firstResult.locator('[data-testid="search-market"][data-matched="true"]');
  await expect(marked).toHaveCount(matched.length);
  await expect(firstResult.getByTestId('search-market')).toHaveCount(listed.length);
  for (const [i, m] of matched.entries()) await expect(marked.nth(i)).toHaveAttribute('aria-label', `${question(m)} (matches your search)`);
  await expect(marked.first().locator('.match-badge')).toBeVisible();

  // Enter in the box opens the top hit: the first event's first matched market, over the results.
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('detail-title')).toHaveText(question(matched[0]!));
  await expect(page.getByRole('tab', { name: 'Search', exact: true })).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('detail')).toHaveCount(0);

  // The arrows walk the event, then its markets; Enter opens the focused market.
  await searchBox(page).focus();
  await page.keyboard.press('ArrowDown');
  await expect(firstResult.getByTestId('search-event')).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(firstResult.getByTestId('search-market').first()).toBeFocused();
  if (listed.length > 1) {
    await page.keyboard.press('ArrowDown');
    await expect(firstResult.getByTestId('search-market').nth(1)).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('detail-title')).toHaveText(question(listed[1]!.market));
  }
});

test('a misspelt word is corrected from the catalog’s words, and the view says so', async ({ app: page, api }) => {
  const events = await api<Json[]>('/events?limit=50&closed=false&order=volume&ascending=false');
  let found: { typo: string; answer: DeskSearchResult } | undefined;
  for (const e of events) {
    for (const w of words(String(e['title'] ?? '')).filter((x) => x.length >= 6 && /^\p{L}+$/u.test(x))) {
      const typo = w.slice(0, 3) + w.slice(4);
      const answer = await desk(api, typo);
      if (answer.corrected && answer.events.length > 0) {
        found = { typo, answer };
        break;
      }
    }
    if (found) break;
  }
  expect(found, 'a title word with one letter dropped is corrected').toBeDefined();
  const { typo, answer } = found!;
  // As typed it matches nothing: the correction is what finds the events.
  expect((await api<DeskSearchResult>(`/desk/search?q=${typo}&correct=false`)).events).toEqual([]);

  await page.keyboard.press('Control+K');
  await page.keyboard.type(typo);
  await expect(searchReady(page, typo)).toBeVisible();
  await expect(page.getByTestId('search-corrected')).toHaveText(`No match for ${typo}; showing results for ${answer.corrected!.q}.`);
  await expect(page.getByTestId('search-event')).toHaveText(answer.events.map((e) => String(e.title ?? e.slug ?? e.id)));
});

test('the quick text filter narrows the grids through the service; Esc clears it; it is kept', async ({ app: page, api }) => {
  await showTab(page, 'Markets');
  const top = await shownMarkets(api, `closed=false&${BY_DAY_VOLUME}`);
  await gridShows(page, top.map(question));
  // A word of the second market's question: a filter that changes the first rows.
  const word = words(question(top[1]!)).find((w) => w.length >= 5 && !words(question(top[0]!)).includes(w)) ?? words(question(top[1]!))[0]!;
  const filtered = await shownMarkets(api, `closed=false&md_q=${encodeURIComponent(word)}&${BY_DAY_VOLUME}`);
  expect(filtered.length).toBeGreaterThan(0);
  const box = page.getByLabel('Filter markets by text');
  await box.fill(word);
  await gridShows(page, filtered.map(question));
  const { count } = await api<{ count: number }>(`/markets/count?closed=false&md_q=${encodeURIComponent(word)}`);
  await expect(page.getByTestId('row-count')).toHaveText(`${count.toLocaleString('en-US')} ${count === 1 ? 'market' : 'markets'}`);

  // Kept in the UI state, as the other filters are.
  await page.reload();
  await expect(page.getByLabel('Filter markets by text')).toHaveValue(word);
  await gridShows(page, filtered.map(question));

  await page.getByLabel('Filter markets by text').press('Escape');
  await expect(page.getByLabel('Filter markets by text')).toHaveValue('');
  await gridShows(page, top.map(question));

  // The Events grid has its own, over event titles.
  await showTab(page, 'Events');
  const events = await api<Json[]>('/events?limit=5&closed=false&order=volume24hr&ascending=false');
  const titleWord = words(String(events[0]!['title'])).find((w) => w.length >= 5)!;
  const titled = await api<Json[]>(`/events?limit=5&closed=false&md_q=${encodeURIComponent(titleWord)}&${BY_DAY_VOLUME}`);
  await page.getByLabel('Filter events by text').fill(titleWord);
  await gridShows(
    page,
    titled.map((e) => String(e['title'])),
    'event-row',
  );
});

test('the tag list is ranked by open markets, hides the rarely used, and can be searched', async ({ app: page, api }) => {
  await showTab(page, 'Markets');
  const ranked = await api<RankedTags>('/tags/ranked');
  const all = await api<RankedTags>('/tags/ranked?min_open=0');
  const select = page.getByLabel('Tag filter');
  const labelled = ranked.tags.filter((t) => t.label);
  // The options: "All tags", then the ranked tags in order, with their counts.
  await expect(select.locator('option')).toHaveCount(labelled.length + 1);
  await expect(select.locator('option').nth(1)).toHaveAttribute('value', labelled[0]!.id);
  const rare = all.tags.find((t) => t.open_markets < ranked.min_open && t.label);
  expect(rare, 'the catalog has a tag with almost no open markets').toBeDefined();
  await expect(select.locator(`option[value="${rare!.id}"]`)).toHaveCount(0);

  // Searching: a word of a ranked tag's label; Enter picks the most used match.
  const target = labelled.find((t) => t.open_markets < 100) ?? labelled[0]!;
  const part = words(target.label!)[0]!.slice(0, 4);
  const expected = matchTags(labelled, part, '')[0]!;
  await page.getByLabel('Search tags').fill(part);
  await expect(select.locator('option')).toHaveCount(matchTags(labelled, part, '').length + 1);
  await page.getByLabel('Search tags').press('Enter');
  await expect(select).toHaveValue(expected.id);
  const tagged = await shownMarkets(api, `closed=false&tag_id=${expected.id}&${BY_DAY_VOLUME}`);
  await gridShows(page, tagged.map(question));
  // The chosen tag stays listed whatever is searched.
  await page.getByLabel('Search tags').fill('zzzzzz');
  await expect(select.locator(`option[value="${expected.id}"]`)).toHaveCount(1);
  await expect(select).toHaveValue(expected.id);
});
