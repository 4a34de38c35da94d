/**
 * Issue 16's memory in the web UI: the grid's "7d" sparklines and the panel's "Rules edited"
 * word diff. The fake upstream's catalog is changed through its admin route, the incremental
 * sync records it, and the UI shows what the service's own answers say: the 7d column is hidden
 * while no market has history, the sparkline of a moved market is drawn from
 * `/markets/sparklines`, an unmoved one draws nothing, and the diff's
 * deleted and inserted words rebuild the before and after of `/markets/{id}/revisions`.
 */
import type { Locator, Page } from '@playwright/test';
import type { RevisionsPage, Sparklines } from '../src/contract/operations.ts';
import type { FakeUpstream } from '../src/fake-upstream/index.ts';
import { MUTATE_PATH, type Mutation } from '../src/fake-upstream/mutations.ts';
import type { Service } from '../src/http/server.ts';
import { sparkPath } from '../renderer/src/sparkline/sparkline-path.ts';
import { expect, test } from './support/fixtures.ts';
import { BY_DAY_VOLUME, gridShows, pricesOf, shownMarkets, showTab } from './support/journeys.ts';

type Json = Record<string, unknown>;
const label = (m: Json) => String(m['question'] ?? m['slug'] ?? m['id']);

async function changeUpstream(fake: FakeUpstream, service: Service, list: Mutation[]): Promise<void> {
  const res = await fetch(`${fake.url}${MUTATE_PATH}`, { method: 'POST', body: JSON.stringify(list) });
  expect(res.ok, await res.text()).toBe(true);
  await service.sync!.syncNow('incremental');
}

const row = (page: Page, i: number) => page.locator(`[data-testid="market-row"][data-index="${i}"]`);
const spark = (r: Locator) => r.getByTestId('sparkline');

async function shoot(page: Page, name: string): Promise<void> {
  for (const [w, h] of [
    [1024, 700],
    [1440, 900],
  ] as const) {
    await page.setViewportSize({ width: w, height: h });
    await page.screenshot({ path: `/tmp/scratch/spark-${name}-${w}.png` });
  }
}

test('the 7d column draws the moved markets from the local history and nothing for the others', async ({
  app: page,
  api,
  fake,
  service,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await showTab(page, 'Markets');
  const top = await shownMarkets(api, `closed=false&${BY_DAY_VOLUME}`, 4);
  await gridShows(page, top.map(label));
  const header7d = page.locator('[role="columnheader"]', { hasText: '7d' });
  // Before any change: the first sync recorded no history, so no market has a line (not a made-up
  // flat one), and the empty 7d column is hidden once the first rows' answers say so.
  await expect(header7d).toHaveCount(0);

  const moved = top.slice(0, 2).map((m) => {
    const p = pricesOf(m)[0]!;
    return { id: String(m['id']), price: Math.round((p > 0.5 ? p - 0.2 : p + 0.2) * 100) / 100 };
  });
  await changeUpstream(
    fake,
    service,
    moved.map((m) => ({ op: 'price', id: m.id, price: m.price })),
  );
  // The row order may change with the new prices: the rows are found by their market again.
  const ids = top.map((m) => String(m['id']));
  const ans = await api<Sparklines>(`/markets/sparklines?${ids.map((id) => `id=${id}`).join('&')}`);
  expect(Object.keys(ans.series).sort()).toEqual(moved.map((m) => m.id).sort());
  const now = await shownMarkets(api, `closed=false&${BY_DAY_VOLUME}`, 4);
  await gridShows(page, now.map(label));
  // The catalog change made the markets last asked for ask again: two now have a line, and the column is back.
  await expect(header7d).toBeVisible();
  for (const [i, m] of now.entries()) {
    const series = ans.series[String(m['id'])];
    const cell = spark(row(page, i));
    // The catalog change made the shown rows ask again (one request for all of them).
    await expect(cell).toHaveAttribute('data-state', series ? 'drawn' : 'none');
    if (series) {
      await expect(cell.locator('polyline')).toHaveAttribute('points', sparkPath(series).points);
      expect(series.at(-1)).toBe(moved.find((x) => x.id === String(m['id']))!.price);
    }
  }
  await shoot(page, 'grid');
});

test('a rules edit shows as "Rules edited" with a word diff matching the revision', async ({ app: page, api, fake, service }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await showTab(page, 'Markets');
  const top = await shownMarkets(api, `closed=false&${BY_DAY_VOLUME}`, 5);
  await gridShows(page, top.map(label));
  const index = top.findIndex((m) => typeof m['description'] === 'string' && (m['description'] as string).split(' ').length > 8);
  expect(index, 'a market with rules among the first rows').toBeGreaterThanOrEqual(0);
  const m = top[index]!;
  const id = String(m['id']);
  const before = m['description'] as string;
  const words = before.split(' ');
  // One word replaced, one removed, a sentence added.
  const after = [...words.slice(0, 2), 'AMENDED', ...words.slice(3, 5), ...words.slice(6), 'A clause added by the e2e test.'].join(' ');
  await changeUpstream(fake, service, [{ op: 'rules', id, description: after }]);

  await row(
    page,
    top.findIndex((x) => String(x['id']) === id),
  ).click();
  const rules = page.getByTestId('panel-rules');
  await expect(rules.getByTestId('rules-edited')).toContainText('Rules edited');
  await expect(rules.getByTestId('rules-diff')).toHaveCount(0);
  await rules.getByRole('button', { name: 'Show changes' }).click();
  const diff = rules.getByTestId('rules-diff');
  await expect(diff).toBeVisible();
  // The diff stands in for the plain text while open.
  await expect(rules.locator('p.detail-text.prewrap')).toHaveCount(1);

  const rev = (await api<RevisionsPage>(`/markets/${id}/revisions`)).revisions.find((r) => r.field === 'description')!;
  expect(rev).toMatchObject({ before, after });
  const parts = await diff.evaluate((el) =>
    [...el.childNodes].map((n) => ({ tag: (n as Element).tagName?.toLowerCase() ?? 'text', text: n.textContent ?? '' })),
  );
  expect(
    parts
      .filter((p) => p.tag !== 'ins')
      .map((p) => p.text)
      .join(''),
  ).toBe(rev.before);
  expect(
    parts
      .filter((p) => p.tag !== 'del')
      .map((p) => p.text)
      .join(''),
  ).toBe(rev.after);
  const ins = parts.filter((p) => p.tag === 'ins').map((p) => p.text.trim());
  const del = parts.filter((p) => p.tag === 'del').map((p) => p.text.trim());
  expect(ins).toContain('AMENDED');
  expect(ins.join(' ')).toContain('A clause added by the e2e test');
  expect(del).toContain(words[2]!.trim());
  expect(del.join(' ')).toContain(words[5]!.trim());
  await diff.scrollIntoViewIfNeeded();
  await shoot(page, 'rules');
  await rules.getByRole('button', { name: 'Hide changes' }).click();
  await expect(diff).toHaveCount(0);
  // The plain text is back: the rules as they are now.
  await expect(rules.locator('p.detail-text.prewrap')).toHaveText(after);
});

test('an event\'s edited description shows as "Rules edited" in the event panel, with its diff', async ({
  app: page,
  api,
  fake,
  service,
}) => {
  const events = await api<Json[]>(`/events?limit=20&closed=false&${BY_DAY_VOLUME}`);
  const e = events.find((x) => typeof x['description'] === 'string' && (x['description'] as string).includes(' '));
  expect(e, 'an event with a description').toBeDefined();
  const id = String(e!['id']);
  const after = `${e!['description'] as string} Edited for the e2e test.`;
  await changeUpstream(fake, service, [{ op: 'rules', kind: 'event', id, description: after }]);
  const rev = (await api<RevisionsPage>(`/events/${id}/revisions`)).revisions.find((r) => r.field === 'description')!;
  expect(rev).toMatchObject({ before: e!['description'], after });

  await showTab(page, 'Events');
  const title = String(e!['title'] ?? e!['slug'] ?? id);
  await page.locator('[data-testid="event-row"]', { hasText: title }).first().click();
  await expect(page.getByTestId('detail-title')).toHaveText(title);
  const edited = page.getByTestId('rules-edited');
  await expect(edited).toContainText('Rules edited');
  await edited.getByRole('button', { name: 'Show changes' }).click();
  const diff = page.getByTestId('rules-diff');
  await expect(diff.locator('ins')).toHaveText([/^\s*Edited for the e2e test\.$/]);
  await expect(diff.locator('del')).toHaveCount(0);
  await expect(diff).toHaveText(after);
});
