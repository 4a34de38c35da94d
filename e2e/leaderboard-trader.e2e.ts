/**
 * The leaderboard a trader can read (issue 27): the board's count (a board deeper than the Data
 * API pages says "1,050+"), the verified badge explained, and a trader opening to their positions
 * and recent activity from the Data API; offline, a trader never fetched says so. The fake
 * upstream's Data API account is one trader of its own board, so every expectation comes from
 * the fake's leaderboard and that account's rows.
 */
import type { Page } from '@playwright/test';
import { FakeLeaderboard } from '../src/fake-upstream/index.ts';
import { installBridge } from './support/bridge.ts';
import { openApp, startFake } from './support/env.ts';
import { expect, test as base } from './support/fixtures.ts';
import { showTab } from './support/journeys.ts';

/** The fake's boards are deterministic: this trader (third on the default board) holds the Data API account. */
const BOARD = new FakeLeaderboard().board('OVERALL', 'DAY', 'PNL');
const TRADER = 2;

const test = base.extend({
  fake: async ({ catalog }, use) => {
    const fake = await startFake(catalog, { dataV2: { user: BOARD[TRADER]!.proxyWallet } });
    await use(fake);
    await fake.close();
  },
});

const ready = (page: Page, params: string) => page.locator(`.view[aria-label="Leaderboard"][data-state="ready"][data-params="${params}"]`);
const count = (n: number, deeper: boolean) =>
  `${n.toLocaleString('en-US')}${deeper ? '+' : ''} ${n === 1 && !deeper ? 'trader' : 'traders'}`;

test('the board shows its count, explains the badge, and a trader opens to their positions and activity', async ({
  app: page,
  fake,
  service,
}) => {
  const board = fake.leaderboard.board('OVERALL', 'DAY', 'PNL');
  expect(board[TRADER]!.proxyWallet.toLowerCase()).toBe(fake.dataV2.user);
  await showTab(page, 'Leaderboard');
  await expect(ready(page, 'OVERALL/DAY/PNL/0')).toBeVisible();

  // Deeper than the 1,050 entries the Data API pages: at least that many.
  expect(board.length).toBeGreaterThan(1050);
  await expect(page.getByTestId('leaderboard-total')).toHaveText(count(1050, true));
  // A short board: its whole count, and the pager's range of it.
  const weather = fake.leaderboard.board('WEATHER', 'DAY', 'PNL');
  expect(weather.length).toBeLessThan(25);
  await page.getByRole('tab', { name: 'Weather' }).click();
  await expect(ready(page, 'WEATHER/DAY/PNL/0')).toBeVisible();
  await expect(page.getByTestId('leaderboard-total')).toHaveText(count(weather.length, false));
  await expect(page.getByTestId('pager-range')).toHaveText(`1–${weather.length} of ${weather.length} traders`);
  await page.getByRole('tab', { name: 'Overall' }).click();
  await expect(ready(page, 'OVERALL/DAY/PNL/0')).toBeVisible();

  // The badge: on the rows the fake marks verified, with its meaning as tooltip and legend.
  const page1 = board.slice(0, 25);
  const verified = page1.filter((e) => e.verifiedBadge === true);
  expect(verified.length, 'some of the first 25 traders are verified').toBeGreaterThan(0);
  const badges = page.getByTestId('leader-row').getByRole('img', { name: 'Verified by Polymarket' });
  await expect(badges).toHaveCount(verified.length);
  await expect(badges.first()).toHaveAttribute('title', /^Verified by Polymarket/);
  await expect(page.getByTestId('leaderboard-legend')).toContainText('Verified by Polymarket');

  // The trader's page: the fake account's positions (largest value first) and activity (newest first).
  const rows = fake.dataV2.rows();
  await page.getByTestId('leader-row').nth(TRADER).click();
  const panel = page.getByTestId('trader-panel');
  await expect(panel).toHaveAttribute('data-wallet', board[TRADER]!.proxyWallet);
  await expect(panel.getByTestId('trader-name')).toContainText(board[TRADER]!.userName);
  const positions = [...rows.positions].sort((a, b) => (b['current_value'] as number) - (a['current_value'] as number)).slice(0, 50);
  expect(positions.length).toBeGreaterThan(0);
  await expect(panel.getByTestId('trader-position-title')).toHaveText(positions.map((p) => String(p['title'])));
  const money = (n: number) =>
    new Intl.NumberFormat('en-US', {
      style: 'currency',
      currency: 'USD',
      ...(Math.abs(n) < 100 ? { minimumFractionDigits: 2 } : { maximumFractionDigits: 0 }),
    }).format(n);
  await expect(panel.getByTestId('trader-position-value')).toHaveText(positions.map((p) => money(p['current_value'] as number)));
  const activity = rows.activity.slice(0, 25);
  await expect(panel.getByTestId('trader-activity-row')).toHaveCount(activity.length);
  const cents = (p: number) => {
    const c = Number((p * 100).toFixed(6));
    return `${c < 1 && c > 0 ? c.toFixed(1) : Math.round(c * 10) / 10}¢`;
  };
  const shares = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 4 });
  await expect(panel.getByTestId('trader-activity-what')).toHaveText(
    activity.map((a) => {
      const verb = a['side'] === 'BUY' ? 'Bought' : 'Sold';
      return `${verb} ${shares(a['size'] as number)} ${a['outcome']} at ${cents(a['price'] as number)}`;
    }),
  );

  // Another trader, with no Data API account on the fake: empty, said so.
  await page.getByTestId('leader-row').nth(0).getByTestId('leader-name').click();
  await expect(panel).toHaveAttribute('data-wallet', board[0]!.proxyWallet);
  await expect(panel.getByTestId('trader-positions')).toContainText('No open positions.');
  // Esc closes the page, and the keyboard is back on the trader's name.
  await page.keyboard.press('Escape');
  await expect(panel).toHaveCount(0);
  await expect(page.getByTestId('leader-row').nth(0).getByTestId('leader-name')).toBeFocused();

  // Offline: a trader never fetched says so; the board stays.
  await fake.close();
  await service.sync!.syncNow('incremental').catch(() => {});
  await expect(page.getByTestId('leaderboard-stale')).toBeVisible();
  await page.getByTestId('leader-row').nth(4).click();
  await expect(panel).toHaveAttribute('data-wallet', board[4]!.proxyWallet);
  await expect(panel.getByTestId('trader-positions')).toContainText('Offline, and the service has not kept a copy of this from earlier.');
  await expect(page.getByTestId('leader-row')).toHaveCount(25);
});

/** The desktop renderer path (the preload emulated, every call through main/relay.ts as IPC). */
const desktop = test.extend({
  app: async ({ service, page }, use) => {
    await installBridge(page, service);
    await openApp(page, service.baseUrl!);
    await use(page);
  },
});

desktop('desktop: the trader page reads the Data API over IPC, as the web UI does', async ({ app: page, fake }) => {
  const board = fake.leaderboard.board('OVERALL', 'DAY', 'PNL');
  await showTab(page, 'Leaderboard');
  await expect(ready(page, 'OVERALL/DAY/PNL/0')).toBeVisible();
  await expect(page.getByTestId('leaderboard-total')).toHaveText(count(1050, true));
  await page.getByTestId('leader-row').nth(TRADER).getByTestId('leader-name').click();
  const panel = page.getByTestId('trader-panel');
  await expect(panel).toHaveAttribute('data-wallet', board[TRADER]!.proxyWallet);
  const titles = [...fake.dataV2.rows().positions]
    .sort((a, b) => (b['current_value'] as number) - (a['current_value'] as number))
    .slice(0, 50)
    .map((p) => String(p['title']));
  await expect(panel.getByTestId('trader-position-title')).toHaveText(titles);
  await expect(panel.getByTestId('trader-activity-row')).toHaveCount(Math.min(25, fake.dataV2.rows().activity.length));
});
