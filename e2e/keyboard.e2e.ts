/**
 * The keyboard (issue 27): Alt+N puts the focus in the view's grid, so the arrows work at once;
 * Enter opens the active row's panel with the focus in it, a few Tabs reach the chart's range;
 * Esc closes it and gives the focus back to the row. The tab bar is one Tab stop with the arrows
 * inside; at 1024 px, where the panel overlays the grid, no Tab stop hides under it. Every key is
 * counted and the focus checked after each; the rows expected come from the service's listing.
 */
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './support/fixtures.ts';
import { BY_DAY_VOLUME, gridShows, shownMarkets } from './support/journeys.ts';

type Json = Record<string, unknown>;
const label = (m: Json) => String(m['question'] ?? m['slug'] ?? m['id']);

/** Presses keys one at a time, counting them; `then` checks where the focus is after each. */
function keyCounter(page: Page) {
  let count = 0;
  return {
    get count() {
      return count;
    },
    async press(key: string, then: Locator) {
      await page.keyboard.press(key);
      count++;
      await expect(then, `after key ${count} (${key})`).toBeFocused();
    },
  };
}

const grid = (page: Page, name: string) => page.getByRole('grid', { name, exact: true });
/** The grid's active row (aria-activedescendant) is row `index` of the list. */
async function activeRowIs(g: Locator, index: number): Promise<void> {
  const id = await g.getAttribute('aria-activedescendant');
  expect(id).toBeTruthy();
  await expect(g.locator(`[id="${id}"]`)).toHaveAttribute('data-index', String(index));
}

test("Alt+2, two arrows and Enter open the third market; its chart's range is under 8 keys away; Esc returns to the row", async ({
  app: page,
  api,
}) => {
  const shown = await shownMarkets(api, `closed=false&${BY_DAY_VOLUME}`, 3);
  const third = shown[2]!;
  const full = await api<Json>(`/markets/${third['id']}`);
  const hasEvent = Array.isArray(full['events']) && (full['events'] as unknown[]).length > 0;
  // Start away from the markets, with the focus on the page.
  await page.getByRole('tab', { name: 'Events', exact: true }).click();
  await page.locator('body').focus();

  const keys = keyCounter(page);
  const markets = grid(page, 'Markets');
  await keys.press('Alt+2', markets);
  await gridShows(page, shown.map(label));
  await keys.press('ArrowDown', markets);
  await keys.press('ArrowDown', markets);
  await activeRowIs(markets, 2);
  const panel = page.getByTestId('detail');
  const title = page.getByTestId('detail-title');
  await keys.press('Enter', title);
  await expect(title).toHaveText(label(third));
  // The title row's star and alert are one stop, the event's links another, then the chart.
  await keys.press('Tab', panel.getByRole('toolbar', { name: 'Market actions' }).getByRole('button').first());
  if (hasEvent) await keys.press('Tab', panel.getByRole('toolbar', { name: 'Event' }).getByRole('button').first());
  const ranges = panel.getByRole('group', { name: 'Chart interval' }).getByRole('radio');
  const checked = ranges.and(page.getByRole('radio', { checked: true }));
  await keys.press('Tab', checked);
  expect(keys.count, 'keys from the page to the chart range of the third market').toBeLessThan(8);

  // The range is a radio group: the arrows pick the next range.
  const values = await ranges.evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value));
  const from = await checked.getAttribute('value');
  await page.keyboard.press('ArrowRight');
  const next = values[(values.indexOf(from ?? '') + 1) % values.length];
  await expect(checked).toHaveAttribute('value', next ?? '');
  await expect(checked).toBeFocused();

  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  await expect(markets).toBeFocused();
  await activeRowIs(markets, 2);
  // And the arrows go on from the row.
  await page.keyboard.press('ArrowDown');
  await activeRowIs(markets, 3);
});

test('the tab bar is one Tab stop with the arrows inside; Alt+3 focuses the events grid', async ({ app: page }) => {
  const tabs = page.getByRole('tablist', { name: 'Views' });
  const selected = tabs.getByRole('tab', { selected: true });
  const shownName = await selected.textContent();
  await selected.focus();
  // Only the selected tab is in the Tab order.
  const inOrder = await tabs.getByRole('tab').evaluateAll((els) => els.filter((e) => (e as HTMLElement).tabIndex === 0).length);
  expect(inOrder).toBe(1);
  const names = await tabs.getByRole('tab').allTextContents();
  const at = names.indexOf(shownName ?? '');
  await page.keyboard.press('ArrowRight');
  await expect(tabs.getByRole('tab').nth((at + 1) % names.length)).toBeFocused();
  // Walking does not switch the view; Enter does.
  await expect(selected).toHaveText(shownName ?? '');
  await page.keyboard.press('End');
  await expect(tabs.getByRole('tab').last()).toBeFocused();
  await page.keyboard.press('Home');
  await expect(tabs.getByRole('tab').first()).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Enter');
  await expect(tabs.getByRole('tab').nth(2)).toHaveAttribute('aria-selected', 'true');
  // One Tab leaves the bar (no stop on each tab).
  await page.keyboard.press('Tab');
  await expect(tabs.getByRole('tab').nth(2)).not.toBeFocused();
  expect(await tabs.evaluate((t) => t.contains(document.activeElement))).toBe(false);

  await page.keyboard.press('Alt+3');
  await expect(grid(page, 'Events')).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await activeRowIs(grid(page, 'Events'), 1);
});

test('at 1024 px the overlaid panel hides no Tab stop: Tab from the grid never lands under it', async ({ app: page, api }) => {
  await page.setViewportSize({ width: 1024, height: 700 });
  const shown = await shownMarkets(api, `closed=false&${BY_DAY_VOLUME}`, 1);
  await page.keyboard.press('Alt+2');
  const markets = grid(page, 'Markets');
  await expect(markets).toBeFocused();
  await gridShows(page, shown.map(label));
  await page.keyboard.press('Enter');
  const panel = page.getByTestId('detail');
  await expect(page.getByTestId('detail-title')).toBeFocused();
  await expect(page.getByTestId('detail-title')).toHaveText(label(shown[0]!));
  const box = (await panel.boundingBox())!;
  // The panel overlays the grid here (it does not squeeze it).
  expect(box.x + box.width).toBeGreaterThan((await markets.boundingBox())!.x + (await markets.boundingBox())!.width - 1);

  // Walk the whole Tab order from the header's tabs to the page's end; no stop outside the panel lies mostly under it.
  await page.getByRole('tablist', { name: 'Views' }).getByRole('tab', { selected: true }).focus();
  const seen = new Set<string>();
  for (let i = 0; i < 200; i++) {
    await page.keyboard.press('Tab');
    const stop = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      if (!el || el === document.body) return null;
      const r = el.getBoundingClientRect();
      const inPanel = !!el.closest('[data-testid="detail"]');
      return {
        key: `${el.tagName}:${el.getAttribute('aria-label') ?? el.textContent?.slice(0, 30)}:${r.x},${r.y}`,
        inPanel,
        r: { x: r.x, y: r.y, w: r.width, h: r.height },
      };
    });
    if (!stop) break;
    if (seen.has(stop.key)) break;
    seen.add(stop.key);
    if (stop.inPanel) continue;
    const w = Math.max(0, Math.min(stop.r.x + stop.r.w, box.x + box.width) - Math.max(stop.r.x, box.x));
    const h = Math.max(0, Math.min(stop.r.y + stop.r.h, box.y + box.height) - Math.max(stop.r.y, box.y));
    const share = stop.r.w * stop.r.h > 0 ? (w * h) / (stop.r.w * stop.r.h) : 0;
    expect(share, `Tab stop ${stop.key} is under the panel`).toBeLessThan(0.5);
  }
  expect(seen.size, 'the walk went through the page').toBeGreaterThan(5);
});
