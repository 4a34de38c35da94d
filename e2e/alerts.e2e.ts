/**
 * Alerts in the web UI (issue 16): a price-cross alert set from the market panel fires exactly
 * once per upward crossing when the fake upstream moves the price (not again while it stays
 * above, nor on the way down), shows in the Alerts view with the service's own title, opens its
 * market, and is deleted. A search's "Alert on new matches" fires for a market opened upstream.
 * The service's refusal shows in the dialog. Expected values come from the service's own answers.
 */
import type { Page } from '@playwright/test';
import type { AlertList, FiredPage } from '../src/contract/operations.ts';
import type { FakeUpstream } from '../src/fake-upstream/index.ts';
import { MUTATE_PATH, type Mutation } from '../src/fake-upstream/mutations.ts';
import type { Service } from '../src/http/server.ts';
import { expect, test } from './support/fixtures.ts';
import { BY_DAY_VOLUME, gridCell, gridShows, pricesOf, shownMarkets, showTab } from './support/journeys.ts';

type Json = Record<string, unknown>;
const label = (m: Json) => String(m['question'] ?? m['slug'] ?? m['id']);

/** Changes the fake catalog through its admin route, then runs the incremental sync the alerts follow. */
async function changeUpstream(fake: FakeUpstream, service: Service, list: Mutation[]): Promise<void> {
  const res = await fetch(`${fake.url}${MUTATE_PATH}`, { method: 'POST', body: JSON.stringify(list) });
  expect(res.ok, await res.text()).toBe(true);
  await service.sync!.syncNow('incremental');
}

/** A write as the page makes it: with the local API token the service put in the page. */
async function postAsPage(page: Page, baseUrl: string, pathAndQuery: string): Promise<{ status: number; body: Json }> {
  const token = await page.locator('meta[name="marketdesk-token"]').getAttribute('content');
  const res = await fetch(`${baseUrl}${pathAndQuery}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-marketdesk-token': token ?? '' },
    body: '{}',
  });
  return { status: res.status, body: (await res.json()) as Json };
}

test('a price-cross alert from the market panel fires once per crossing, opens its market, and is deleted', async ({
  app: page,
  api,
  fake,
  service,
}) => {
  // A priced open market among the grid's first rows, with room above its price.
  const shown = await shownMarkets(api, `closed=false&${BY_DAY_VOLUME}`, 8);
  const index = shown.findIndex((m) => (pricesOf(m)[0] ?? 1) < 0.85);
  expect(index, 'a market priced below 85¢ among the first rows').toBeGreaterThanOrEqual(0);
  const market = shown[index]!;
  const id = String(market['id']);
  const price = pricesOf(market)[0]!;
  const level = Math.round(price * 100) + 5;

  await showTab(page, 'Markets');
  await gridShows(page, shown.map(label));
  await gridCell(page, index).click();
  const panel = page.getByTestId('detail');
  await expect(panel.getByTestId('detail-title')).toHaveText(label(market));
  await panel.getByRole('button', { name: 'Alert', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'New alert' });
  await expect(dialog.getByLabel('Level', { exact: true })).toHaveValue(String(Number((price * 100).toFixed(1))));

  // Refused: the service's own message, inline, and nothing saved.
  const refused = await postAsPage(page, service.baseUrl!, `/alerts?kind=price_cross&market=${id}&level=1.4`);
  expect(refused.status).toBe(400);
  await dialog.getByLabel('Level', { exact: true }).fill('140');
  await dialog.getByRole('button', { name: 'Create alert' }).click();
  await expect(dialog.getByRole('alert')).toHaveText(String(refused.body['error']));
  expect((await api<AlertList>('/alerts')).rules).toEqual([]);

  await dialog.getByLabel('Level', { exact: true }).fill(String(level));
  await dialog.getByText('Up', { exact: true }).click();
  await dialog.getByRole('button', { name: 'Create alert' }).click();
  await expect(dialog).toHaveCount(0);
  const [rule, ...more] = (await api<AlertList>('/alerts')).rules;
  expect(more).toEqual([]);
  expect(rule).toMatchObject({ kind: 'price_cross', level: level / 100, direction: 'up', market: { id } });
  await expect(panel.getByTestId('alert-count')).toHaveText('1');

  // Across the level: one firing. The tab counts it while another view is shown.
  await changeUpstream(fake, service, [{ op: 'price', id, price: (level + 3) / 100 }]);
  await expect.poll(async () => (await api<FiredPage>('/alerts/fired')).total).toBe(1);
  const [fired] = (await api<FiredPage>('/alerts/fired')).fired;
  expect(fired).toMatchObject({ ruleId: rule!.id, kind: 'price_cross', market: { id } });
  await expect(page.getByTestId('alerts-unseen')).toHaveText('1');

  await showTab(page, 'Alerts');
  await expect(page.getByTestId('alerts-unseen')).toHaveCount(0);
  const entries = page.getByTestId('alert-fired');
  await expect(entries).toHaveCount(1);
  await expect(entries.first().getByTestId('alert-fired-title')).toHaveText(fired!.title);
  await expect(page.getByTestId('alert-last-fired')).not.toHaveText('not fired yet');

  // Further up (still above), then back down (an "up" rule ignores that), then up across again:
  // only the second upward crossing fires, so the log ends with exactly two, newest first.
  await changeUpstream(fake, service, [{ op: 'price', id, price: (level + 6) / 100 }]);
  await changeUpstream(fake, service, [{ op: 'price', id, price: (level - 4) / 100 }]);
  expect((await api<FiredPage>('/alerts/fired')).total).toBe(1);
  await changeUpstream(fake, service, [{ op: 'price', id, price: (level + 2) / 100 }]);
  await expect.poll(async () => (await api<FiredPage>('/alerts/fired')).total).toBe(2);
  const log = (await api<FiredPage>('/alerts/fired')).fired;
  expect(log.map((f) => f.ruleId)).toEqual([rule!.id, rule!.id]);
  expect(log[1]!.id).toBe(fired!.id);
  await expect(page.getByTestId('alert-fired-title')).toHaveText(log.map((f) => f.title));

  // The entry opens its market in the side panel.
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('detail')).toHaveCount(0);
  await entries.first().getByRole('button').click();
  await expect(page.getByTestId('detail').getByTestId('detail-title')).toHaveText(label(market));

  await page.getByRole('button', { name: `Delete alert ${rule!.label}` }).click();
  await expect(page.getByTestId('alert-rule')).toHaveCount(0);
  expect((await api<AlertList>('/alerts')).rules).toEqual([]);
  // The log keeps what fired.
  await expect(entries).toHaveCount(2);
});

test('"Alert on new matches" from a search and from a screen tab: each fires for a market opened upstream', async ({
  app: page,
  api,
  fake,
  service,
}) => {
  const [market] = await shownMarkets(api, `closed=false&${BY_DAY_VOLUME}`, 1);
  const events = (market!['events'] as Json[] | undefined) ?? [];
  expect(events.length, 'the market belongs to an event').toBeGreaterThan(0);
  const word = 'Zanzibarian';
  const dialog = page.getByRole('dialog', { name: 'New alert' });

  await page.getByLabel('Search markets, events and tags').fill(word);
  await showTab(page, 'Search');
  await page.getByRole('button', { name: 'Alert on new matches' }).click();
  await expect(dialog).toContainText(`“${word}”`);
  await dialog.getByRole('button', { name: 'Create alert' }).click();
  await expect(dialog).toHaveCount(0);

  // A saved screen on the same text, as its tab in the Markets view.
  const params = encodeURIComponent(JSON.stringify({ md_q: word }));
  const screen = await postAsPage(page, service.baseUrl!, `/screens?name=Zanzibar&kind=markets&params=${params}`);
  expect(screen.status).toBe(200);
  // Screens made elsewhere show on the next load (screens have no push event).
  await page.reload();
  await showTab(page, 'Markets');
  await page.getByRole('tab', { name: 'Zanzibar', exact: true }).click();
  await page.getByRole('button', { name: 'Alert on new matches' }).click();
  await expect(dialog).toContainText('“Zanzibar”');
  await dialog.getByRole('button', { name: 'Create alert' }).click();
  await expect(dialog).toHaveCount(0);
  expect((await api<AlertList>('/alerts')).rules).toMatchObject([
    { kind: 'new_match', q: word },
    { kind: 'new_match', screen: String(screen.body['id']) },
  ]);

  const question = `Will the ${word} referendum pass?`;
  await changeUpstream(fake, service, [
    { op: 'openMarket', id: '990001', eventId: String(events[0]!['id']), question, price: 0.4, like: String(market!['id']) },
  ]);
  // One firing per rule, both for the new market.
  await expect.poll(async () => (await api<FiredPage>('/alerts/fired')).total).toBe(2);
  const { fired } = await api<FiredPage>('/alerts/fired');
  expect(fired.map((f) => f.market?.id)).toEqual(['990001', '990001']);
  await showTab(page, 'Alerts');
  await expect(page.getByTestId('alert-fired-title')).toHaveText(fired.map((f) => f.title));
  await page.getByTestId('alert-fired').first().getByRole('button').click();
  await expect(page.getByTestId('detail').getByTestId('detail-title')).toHaveText(question);
});
