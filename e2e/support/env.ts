/**
 * e2e plumbing: a fake upstream and the real service (in this process, so a test can drive
 * sync and stop the upstream; or the real `serve` command in its own process), Debian's
 * Chromium through playwright-core with a fresh profile, and waits on app state (never on time).
 */
import { spawn } from 'node:child_process';
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

export interface ServeCli {
  baseUrl: string;
  clobUrl: string;
  /** Everything the process printed so far (stdout and stderr). */
  output(): string;
  /** SIGTERM (the service persists its cache and exits 0); SIGKILL if it has not exited in 30 s. */
  stop(): Promise<number | null>;
}

/**
 * `npm run serve` as a user runs it: `src/cli.ts serve` in its own Node process, on free ports
 * (`--base-port 0 --clob-port 0`), resolved once it prints its URLs.
 */
export async function startServeCli(args: string[]): Promise<ServeCli> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src/cli.ts'), 'serve', '--base-port', '0', '--clob-port', '0', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let onOutput = () => {};
  const read = (d: Buffer) => {
    out += d.toString();
    onOutput();
  };
  child.stdout.on('data', read);
  child.stderr.on('data', read);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const stop = async (): Promise<number | null> => {
    if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
    child.kill('SIGTERM');
    let timer: ReturnType<typeof setTimeout> | undefined;
    const killed = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        child.kill('SIGKILL');
        resolve();
      }, 30_000);
    });
    const code = await Promise.race([exited, killed.then(() => exited)]);
    clearTimeout(timer);
    return code;
  };
  try {
    const urls = await new Promise<{ baseUrl: string; clobUrl: string }>((resolve, reject) => {
      onOutput = () => {
        const base = /^base: (http:\/\/\S+)$/m.exec(out)?.[1];
        const clob = /^clob: (http:\/\/\S+)$/m.exec(out)?.[1];
        if (base && clob && /^web UI: /m.test(out)) resolve({ baseUrl: base, clobUrl: clob });
      };
      void exited.then((code) => reject(new Error(`serve exited (${code}) before printing its URLs:\n${out.slice(-2000)}`)));
    });
    return { ...urls, output: () => out, stop };
  } catch (e) {
    await stop();
    throw e;
  }
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
