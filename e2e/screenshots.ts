/**
 * `npm run screenshots`: PNGs of every view, light and dark, in e2e/screenshots/ (git-ignored),
 * from web mode against the fixture catalog. `-- --out DIR` writes elsewhere; `-- --only NAME`
 * takes one view.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Page } from 'playwright-core';
import { loadFixtureCatalog, startFakeUpstream } from '../src/fake-upstream/index.ts';
import { relay } from '../main/relay.ts';
import { installBridge } from './support/bridge.ts';
import { FIXTURES, gridSettled, launchBrowser, openApp, ROOT, startSyncedService, tempDir } from './support/env.ts';
import { fillCredentials } from './support/journeys.ts';

const { values } = parseArgs({ options: { out: { type: 'string' }, only: { type: 'string' } }, strict: true });
const out = path.resolve(values.out ?? path.join(ROOT, 'e2e/screenshots'));
mkdirSync(out, { recursive: true });

/**
 * `desktop`: the renderer's desktop path (emulated preload); `offline`: after the upstream stops;
 * `narrow`: also at 1024×700 (every shot is taken at 1440×900).
 */
type Shot = { name: string; desktop?: boolean; offline?: boolean; narrow?: boolean; run: (page: Page) => Promise<void> };
const SIZES = { wide: { width: 1440, height: 900 }, narrow: { width: 1024, height: 700 } } as const;

const CREDS = {
  apiKey: '7c1f0e5a-3b1d-4c8e-9a51-2f6b8d0e4a11',
  secret: Buffer.from('marketdesk-screenshot-secret-012').toString('base64url'),
  passphrase: 'screenshots',
  address: `0x${'a1'.repeat(20)}`,
};

const tab = (page: Page, name: string) => page.getByRole('tab', { name, exact: true }).click();

/** Web mode: types credentials into the dialog (the page keeps them in sessionStorage and signs with them). */
async function enterCredentials(page: Page, c: typeof CREDS): Promise<void> {
  await tab(page, 'Orders');
  await page.getByRole('button', { name: 'Set API credentials…' }).click();
  await fillCredentials(page, c);
}

const shots: Shot[] = [
  {
    name: 'markets',
    run: async (page) => {
      await tab(page, 'Markets');
      await gridSettled(page);
    },
  },
  {
    name: 'watchlist',
    run: async (page) => {
      await tab(page, 'Markets');
      await gridSettled(page);
      for (const i of [0, 1, 3]) {
        // The service keeps the watchlist: the second scheme's run finds these starred already.
        const star = page
          .locator('[data-testid="market-row"]')
          .nth(i)
          .getByRole('button', { name: /watchlist/ });
        if ((await star.getAttribute('aria-pressed')) !== 'true') await star.click();
      }
      await tab(page, 'Watchlist');
      await page.locator('[data-testid="watch-market-row"]').nth(2).waitFor();
    },
  },
  {
    name: 'markets-detail',
    narrow: true,
    run: async (page) => {
      await tab(page, 'Markets');
      await gridSettled(page);
      await page.locator('[data-testid="market-row"]').nth(2).click();
      await page.waitForSelector('[data-testid="detail"] [data-testid="detail-title"]');
      // The chart and the book come from the service's cache of the CLOB's answers.
      await page.waitForSelector('[data-testid="detail"] canvas');
      await page.waitForSelector('[data-testid="detail"] [data-testid="book-best-bid"]');
    },
  },
  {
    name: 'events-detail',
    narrow: true,
    run: async (page) => {
      await tab(page, 'Events');
      await gridSettled(page);
      await page.locator('[data-testid="event-row"]').nth(0).click();
      await page.waitForSelector('[data-testid="detail"] [data-testid="detail-title"]');
    },
  },
  {
    name: 'search',
    run: async (page) => {
      await page.keyboard.press('Control+K');
      await page.keyboard.type('bitcoin');
      await page.waitForSelector('.search-view[data-state="ready"][data-query="bitcoin"]');
    },
  },
  {
    name: 'orders',
    desktop: true,
    run: async (page) => {
      await tab(page, 'Orders');
      await page.waitForSelector('.view[aria-label="Orders"][data-state="ready"]');
    },
  },
  {
    name: 'orders-web',
    run: async (page) => {
      await enterCredentials(page, CREDS);
      await page.waitForSelector('.view[aria-label="Orders"][data-state="ready"]');
    },
  },
  {
    name: 'orders-web-rejected',
    run: async (page) => {
      await enterCredentials(page, { ...CREDS, secret: Buffer.from('not-the-secret-of-the-service-01').toString('base64url') });
      await page.waitForSelector('.view[aria-label="Orders"][data-state="credentials-rejected"]');
    },
  },
  {
    name: 'credentials-web',
    run: async (page) => {
      await tab(page, 'Orders');
      await page.getByRole('button', { name: 'Set API credentials…' }).click();
      await page.waitForSelector('dialog[open] >> text=No credentials set.');
    },
  },
  {
    name: 'credentials',
    desktop: true,
    run: async (page) => {
      await tab(page, 'Orders');
      await page.getByRole('button', { name: 'API credentials…' }).click();
      await page.waitForSelector('dialog[open] [data-testid="credentials-status"]');
    },
  },
  {
    name: 'leaderboard',
    run: async (page) => {
      await tab(page, 'Leaderboard');
      await page.waitForSelector('.view[aria-label="Leaderboard"]:not([data-state="loading"])');
    },
  },
  {
    name: 'offline',
    offline: true,
    run: async (page) => {
      await tab(page, 'Markets');
      await page.waitForSelector('[data-testid="offline-banner"]');
      await gridSettled(page);
    },
  },
];

const data = tempDir('marketdesk-shots-');
const fake = await startFakeUpstream({ catalog: await loadFixtureCatalog(FIXTURES), clob: { credentials: CREDS }, images: 'local' });
const service = await startSyncedService(fake, data.dir);
const set = await relay(service.dispatch, 'credentials.set', CREDS);
if (!set.ok) throw new Error(`credentials.set: ${JSON.stringify(set)}`);
let upstreamUp = true;
try {
  for (const shot of [...shots].sort((a, b) => Number(!!a.offline) - Number(!!b.offline))) {
    if (values.only && values.only !== shot.name) continue;
    if (shot.offline && upstreamUp) {
      upstreamUp = false;
      await fake.close();
      await service.sync!.syncNow('incremental').catch(() => {});
    }
    const sizes = shot.narrow ? (['wide', 'narrow'] as const) : (['wide'] as const);
    for (const [scheme, size] of sizes.flatMap((z) => (['light', 'dark'] as const).map((c) => [c, z] as const))) {
      const browser = await launchBrowser({ colorScheme: scheme, ...SIZES[size] });
      try {
        if (shot.desktop) await installBridge(browser.page, service);
        await openApp(browser.page, service.baseUrl!);
        await shot.run(browser.page);
        // Wait for fonts and the icons on screen before the picture.
        await browser.page.evaluate(() => document.fonts.ready);
        await browser.page.waitForFunction(() => [...document.images].every((i) => i.getAttribute('src') && i.complete));
        const file = path.join(out, `${shot.name}${size === 'narrow' ? '-1024' : ''}-${scheme}.png`);
        await browser.page.screenshot({ path: file });
        console.log(path.relative(ROOT, file));
      } finally {
        await browser.close();
      }
    }
  }
} finally {
  await service.close();
  await fake.close();
  data.cleanup();
}
