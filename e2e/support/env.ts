/**
 * e2e plumbing: a fake upstream and the real service (in this process, so a test can drive
 * sync and stop the upstream; or the real `serve` command in its own process), and the web UI
 * opened in a page. The Playwright tests get these through fixtures.ts; the tsx scripts
 * (e2e/screenshots.ts, bench/) call them directly, with launchBrowser for a browser.
 */
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { expect } from '@playwright/test';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import {
  createSyntheticCatalog,
  FIXTURES_DIR,
  type FakeUpstream,
  type FakeUpstreamOptions,
  loadFixtureCatalog,
  startFakeUpstream,
} from '../../src/fake-upstream/index.ts';
import { startService, type Service, type ServiceOptions } from '../../src/http/server.ts';
import { CHROMIUM, CHROMIUM_ARGS, CHROMIUM_CONTEXT } from './chromium.ts';
import { CLI_ENTRY } from '../../src/testing/built-cli.ts';

export { CHROMIUM, CHROMIUM_ARGS } from './chromium.ts';
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const FIXTURES = FIXTURES_DIR;

export function tempDir(prefix: string): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export type Catalog = { fixtures: true } | { synthetic: number };

/** A fake upstream on a free port; `extra` adds e.g. a CLOB account (`clob`). */
export async function startFake(catalog: Catalog, extra: Omit<FakeUpstreamOptions, 'catalog'> = {}): Promise<FakeUpstream> {
  const c = 'fixtures' in catalog ? await loadFixtureCatalog(FIXTURES) : createSyntheticCatalog({ markets: catalog.synthetic, seed: 1 });
  // Pictures from the fake itself (the recorded S3 links are unreachable here), so icons show.
  return startFakeUpstream({ catalog: c, images: 'local', ...extra });
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
 * The `serve` command line, and nothing else: the built `out/main/cli.js serve` in its own Node process, on
 * free ports (`--base-port 0 --clob-port 0`), with `args` appended.
 */
function spawnServeProcess(args: string[]): ChildProcessByStdio<null, Readable, Readable> {
  return spawn(
    process.execPath,
    // Built JavaScript, as `npm run serve` runs it (test:e2e builds out/ first if it is stale).
    [CLI_ENTRY, 'serve', '--base-port', '0', '--clob-port', '0', ...args],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
}

/** `npm run serve` as a user runs it (spawnServeProcess), resolved once it prints its URLs. */
export async function startServeCli(args: string[]): Promise<ServeCli> {
  const child = spawnServeProcess(args);
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

/**
 * For the tsx scripts (screenshots, bench): Chromium with a fresh user-data dir, so
 * localStorage starts empty. The tests get theirs from playwright.config.ts instead.
 */
export async function launchBrowser(opts: { width?: number; height?: number; colorScheme?: 'light' | 'dark' } = {}): Promise<Browser> {
  const profile = tempDir('marketdesk-chromium-');
  const context = await chromium.launchPersistentContext(profile.dir, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    ...CHROMIUM_CONTEXT,
    viewport: { width: opts.width ?? CHROMIUM_CONTEXT.viewport.width, height: opts.height ?? CHROMIUM_CONTEXT.viewport.height },
    colorScheme: opts.colorScheme ?? CHROMIUM_CONTEXT.colorScheme,
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

/** Opens the web UI and waits for the app-ready marker. */
export async function openApp(page: Page, baseUrl: string): Promise<void> {
  await page.goto(`${baseUrl}/app/`);
  await expect(page.locator('[data-ready="true"]')).toBeAttached();
}

/** Waits until the grid has rows (or is settled empty) and no block is loading. */
export async function gridSettled(page: Page): Promise<void> {
  await expect(page.locator('.grid[data-state="ready"][data-busy="false"], .grid[data-state="empty"][data-busy="false"]')).toBeVisible();
}
