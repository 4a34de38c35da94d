/**
 * "Since you last looked" (issue 16): the fake upstream's catalog is changed between syncs (price
 * moves, a resolution, a rule edit, new markets), and the Since tab groups exactly what the
 * service's own `/changes` answer lists, the user's watched markets first; one click opens a
 * market; the last look moves on leaving the view; a start after a long time away opens on it.
 */
import type { Page } from '@playwright/test';
import type { ChangeRecord, ChangesPage } from '../src/contract/history-ops.ts';
import { MUTATE_PATH, type Mutation } from '../src/fake-upstream/index.ts';
import { expect, test } from './support/fixtures.ts';
import { BY_DAY_VOLUME, pricesOf, showTab } from './support/journeys.ts';

type Json = Record<string, unknown>;
const eventOf = (m: Json) => String((m['events'] as Json[] | undefined)?.[0]?.['id'] ?? '');
const round2 = (n: number) => Math.round(n * 100) / 100;

/** The distinct market ids of some kinds, in feed order (newest first). */
function idsOf(feed: ChangeRecord[], kinds: string[]): string[] {
  return [...new Set(feed.filter((c) => kinds.includes(c.kind) && c.market).map((c) => c.market!.id))];
}

/** Waits until a group lists exactly `ids`, in that order. */
async function groupShows(page: Page, group: string, ids: string[]): Promise<void> {
  const section = page.getByTestId(`since-group-${group}`);
  await expect(section.getByTestId('since-count')).toHaveText(String(ids.length));
  const rows = section.getByTestId('since-row');
  await expect(rows).toHaveCount(ids.length);
  for (const [i, id] of ids.entries()) await expect(rows.nth(i)).toHaveAttribute('data-id', id);
}

test('the Since tab groups the changes of a sync, watched markets first, and opens a market in one click', async ({
  app: page,
  api,
  fake,
  service,
}) => {
  // Open two-outcome markets of distinct events, priced away from the edges.
  const listed = await api<Json[]>(`/markets?closed=false&limit=100&${BY_DAY_VOLUME}`);
  const events = new Set<string>();
  const picked = listed.filter((m) => {
    const p = pricesOf(m);
    if (p.length !== 2 || p[0]! < 0.15 || p[0]! > 0.85 || !eventOf(m) || events.has(eventOf(m))) return false;
    events.add(eventOf(m));
    return true;
  });
  expect(picked.length, 'six markets of distinct events').toBeGreaterThanOrEqual(6);
  const [big, small, resolved, edited, host1, host2] = picked as [Json, Json, Json, Json, Json, Json];
  const price = (m: Json) => pricesOf(m)[0]!;
  const changes: Mutation[] = [
    { op: 'price', id: String(big['id']), price: round2(price(big) > 0.5 ? price(big) - 0.3 : price(big) + 0.3) },
    { op: 'price', id: String(small['id']), price: round2(price(small) > 0.5 ? price(small) - 0.1 : price(small) + 0.1) },
    { op: 'resolve', id: String(resolved['id']), winner: 1 },
    { op: 'rules', id: String(edited['id']), description: 'The rules, edited.' },
    { op: 'openMarket', id: '990001', eventId: eventOf(host1), question: 'A new market, the first?' },
    { op: 'openMarket', id: '990002', eventId: eventOf(host2), question: 'A new market, the second?' },
  ];
  const res = await fetch(fake.url + MUTATE_PATH, { method: 'POST', body: JSON.stringify(changes) });
  expect(res.status, await res.clone().text()).toBe(200);
  await service.sync!.syncNow('incremental');

  // The expectations: the service's own feed (the first sync records nothing) and rows; ties keep the feed's order.
  const feed = (await api<ChangesPage>('/changes?since=0&limit=1000')).changes;
  const news = idsOf(feed, ['new_market']);
  expect([...news].sort()).toEqual(['990001', '990002']);
  const rows = await api<Json[]>(`/markets?${news.map((id) => `id=${id}`).join('&')}`);
  const volume = (id: string) => Number(rows.find((r) => r['id'] === id)?.['volume24hr'] ?? -1);
  const byVolume = [...news].sort((a, b) => volume(b) - volume(a));
  const moves = new Map(feed.filter((c) => c.kind === 'price_move').map((c) => [c.market!.id, Number(c.after) - Number(c.before)]));
  const bySize = [...moves.keys()].sort((a, b) => Math.abs(moves.get(b)!) - Math.abs(moves.get(a)!));
  expect(bySize).toContain(String(big['id']));
  expect(bySize.indexOf(String(big['id']))).toBeLessThan(bySize.indexOf(String(small['id'])));
  const winner = (feed.find((c) => c.kind === 'resolved')?.after as { winner?: string } | undefined)?.winner;
  expect(winner).toBe(JSON.parse(String(resolved['outcomes']))[1]);

  await showTab(page, 'Since');
  await groupShows(page, 'new', byVolume);
  await groupShows(page, 'resolved', idsOf(feed, ['resolved']));
  await expect(page.getByTestId('since-group-resolved').getByTestId('since-winner')).toHaveText(winner!);
  await groupShows(page, 'movers', bySize);
  await groupShows(page, 'edits', idsOf(feed, ['rule_edit', 'end_date']));
  await expect(page.getByTestId('since-group-edits').getByTestId('since-rules')).toBeVisible();

  // One click opens a market in the side panel; starring the smallest mover puts it first, marked.
  const smallRow = page.locator(`[data-testid="since-group-movers"] [data-id="${String(small['id'])}"]`);
  await smallRow.click();
  await expect(page.getByTestId('detail-title')).toHaveText(String(small['question']));
  await page
    .getByTestId('detail')
    .getByRole('button', { name: /^Add .* to watchlist$/ })
    .click();
  await groupShows(page, 'movers', [String(small['id']), ...bySize.filter((id) => id !== String(small['id']))]);
  await expect(smallRow.getByTestId('since-watched')).toBeVisible();

  // Leaving the view moves the last look: back on it, nothing is new; "24 h" still lists the moves.
  await showTab(page, 'Markets');
  await showTab(page, 'Since');
  await expect(page.getByTestId('since-empty')).toContainText('Nothing changed since');
  await page.getByRole('radio', { name: '24 h' }).check();
  await groupShows(page, 'movers', [String(small['id']), ...bySize.filter((id) => id !== String(small['id']))]);

  // A start after five hours away, saved on another tab, opens on Since with the changes since then.
  const away = { tab: 'markets', since: { lastLook: Date.now() - 5 * 3_600_000, seen: null, range: 'last' } };
  await page.addInitScript((state) => localStorage.setItem('marketdesk.ui.v1', state), JSON.stringify(away));
  await page.reload();
  await expect(page.getByRole('tab', { name: 'Since', exact: true })).toHaveAttribute('aria-selected', 'true');
  await groupShows(page, 'new', byVolume);
});
