/**
 * e2e plumbing: a fake upstream and the real service (in this process, so a test can drive
 * sync and stop the upstream), Debian's Chromium through playwright-core with a fresh
 * profile, and waits on app state (never on time).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { createSyntheticCatalog, loadFixtureCatalog, startFakeUpstream, type FakeUpstream } from '../../src/fake-upstream/index.ts';
import { startService, type Service, type ServiceOptions } from '../../src/service/service.ts';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const FIXTURES = path.join(ROOT, '../shared/fixtures/gamma');
export const CHROMIUM = process.env['MARKETDESK_CHROMIUM'] ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
export const FAILURE_DIR = path.join(ROOT, 'test-results');

export function tempDir(prefix: string): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export type Catalog = { fixtures: true } | { synthetic: number };

export async function startFake(catalog: Catalog): Promise<FakeUpstream> {
  const c = 'fixtures' in catalog ? await loadFixtureCatalog(FIXTURES) : createSyntheticCatalog({ markets: catalog.synthetic, seed: 1 });
  return startFakeUpstream({ catalog: c });
}

/** The service on ephemeral ports with its own data dir, synced once before the UI opens. */
export async function startSyncedService(fake: FakeUpstream, dataDir: string, extra: Partial<ServiceOptions> = {}): Promise<Service> {
  const service = await startService({
    dataDir,
    basePort: 0,
    clobPort: 0,
    urls: { gamma: fake.url, clob: fake.url, data: fake.url },
    // A stopped upstream must read as offline at the next sync, not after minutes of backoff.
    client: { maxRetries: 1, baseDelayMs: 5, maxDelayMs: 20 },
    // The tests trigger syncs themselves; no background loop to race with.
    autoSync: false,
    ...extra,
  });
  await service.sync!.syncNow('full');
  return service;
}

export interface Browser {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

/** Chromium with a fresh user-data dir (so localStorage starts empty). */
export async function launchBrowser(opts: { width?: number; height?: number; colorScheme?: 'light' | 'dark' } = {}): Promise<Browser> {
  const profile = tempDir('marketdesk-chromium-');
  const context = await chromium.launchPersistentContext(profile.dir, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: opts.width ?? 1440, height: opts.height ?? 900 },
    colorScheme: opts.colorScheme ?? 'light',
    locale: 'en-US',
    timezoneId: 'UTC',
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    async close() {
      await context.close();
      profile.cleanup();
    },
  };
}

/** Opens the web UI and waits for the app-ready marker and a settled markets grid. */
export async function openApp(page: Page, baseUrl: string): Promise<void> {
  await page.goto(`${baseUrl}/app/`);
  await page.waitForSelector('[data-ready="true"]');
}

/** Waits until the grid has rows (or is settled empty) and no block is loading. */
export async function gridSettled(page: Page): Promise<void> {
  await page.waitForSelector('.grid[data-state="ready"][data-busy="false"], .grid[data-state="empty"][data-busy="false"]');
}

export async function saveFailureScreenshot(page: Page | undefined, name: string): Promise<void> {
  if (!page || page.isClosed()) return;
  mkdirSync(FAILURE_DIR, { recursive: true });
  await page.screenshot({ path: path.join(FAILURE_DIR, `${name.replace(/[^\w.-]+/g, '_')}.png`) }).catch(() => {});
}
