/**
 * Icons that work offline: the markets grid shows each row's icon from the service's icon cache;
 * with the upstream gone and the service restarted offline on the same data dir, the icons it
 * fetched still load, and a picture it never fetched shows the neutral placeholder. Expected
 * values come from the service's answers and the fake upstream's request log.
 */
import type { Locator, Page } from '@playwright/test';
import { startService, type Service } from '../src/http/server.ts';
import { DEAD_UPSTREAM } from '../src/testing/fixtures.ts';
import { openApp, startFake } from './support/env.ts';
import { expect, test as base } from './support/fixtures.ts';
import { httpOracle, showTab } from './support/journeys.ts';

/** The fixtures' upstream, serving the catalog's pictures itself (the recorded CDN is out of reach). */
const test = base.extend({
  fake: async ({ catalog, clob }, use) => {
    const fake = await startFake(catalog, { images: 'local', ...(clob ? { clob } : {}) });
    await use(fake);
    await fake.close();
  },
});

type Json = Record<string, unknown>;
const ROWS = 5;

function rowIcon(page: Page, rowTestId: string, index: number): Locator {
  return page.locator(`[data-testid="${rowTestId}"][data-index="${index}"] img.md-icon`);
}

/** Waits for the icon to be decoded; returns its id (from its URL) and the content type the page gets for it. */
async function loaded(page: Page, icon: Locator, kind: 'market' | 'event'): Promise<{ id: string; type: string | null }> {
  await expect.poll(() => icon.evaluate((el: HTMLImageElement) => (el.complete ? el.naturalWidth : 0))).toBeGreaterThan(0);
  const src = await icon.getAttribute('src');
  const id = new RegExp(`/icons/${kind}/(\\d+)$`).exec(src ?? '')?.[1];
  expect(id, `icon URL ${src}`).toBeDefined();
  const type = await page.evaluate(async (u) => (await fetch(u)).headers.get('content-type'), src!);
  return { id: id!, type };
}

const picturePath = (item: Json) => {
  const u = item['icon'] || item['image'];
  return typeof u === 'string' && u !== '' ? new URL(u).pathname : undefined;
};

test('icons load in the grid, and offline the cached ones still do while a missing one shows the placeholder', async ({
  app: page,
  api,
  fake,
  service,
  dataDir,
}) => {
  await showTab(page, 'Markets');
  const cached = new Map<string, string | null>();
  for (let i = 0; i < ROWS; i++) {
    const { id, type } = await loaded(page, rowIcon(page, 'market-row', i), 'market');
    // The icon belongs to its row: the row names the market the service has under that id.
    const m = await api<Json>(`/markets/${id}`);
    await expect(page.locator(`[data-testid="market-row"][data-index="${i}"] .name-text`)).toHaveText(
      String(m['question'] ?? m['slug'] ?? id),
    );
    expect(type, `market ${id}`).toBe(picturePath(m) ? 'image/webp' : 'image/svg+xml');
    cached.set(id, type);
  }
  expect([...cached.values()]).toContain('image/webp');

  // The network goes away: the upstream stops, the service restarts offline on the same data dir.
  await fake.close();
  await service.close();
  const fetched = new Set(fake.requests.entries.map((e) => e.path));
  let offline: Service | undefined;
  try {
    offline = await startService({ dataDir, basePort: 0, clobPort: 0, urls: DEAD_UPSTREAM, offline: true });
    const offlineApi = httpOracle(offline.baseUrl!);
    await openApp(page, offline.baseUrl!);
    await showTab(page, 'Markets');
    for (let i = 0; i < ROWS; i++) {
      const { id, type } = await loaded(page, rowIcon(page, 'market-row', i), 'market');
      expect(cached.has(id), `row ${i} shows market ${id} again`).toBe(true);
      expect(type, `market ${id} offline`).toBe(cached.get(id));
    }

    // Events were never shown online: those whose picture the upstream never served get the placeholder.
    await showTab(page, 'Events');
    let placeholders = 0;
    for (let i = 0; i < ROWS; i++) {
      const { id, type } = await loaded(page, rowIcon(page, 'event-row', i), 'event');
      const path = picturePath(await offlineApi<Json>(`/events/${id}`));
      const expected = path !== undefined && fetched.has(path) ? 'image/webp' : 'image/svg+xml';
      expect(type, `event ${id} offline`).toBe(expected);
      if (expected === 'image/svg+xml') placeholders++;
    }
    expect(placeholders, 'an event icon never fetched').toBeGreaterThan(0);
  } finally {
    await offline?.close();
  }
});
