/**
 * Electron mode: the same journeys in the real desktop app (main process, preload, service
 * worker, safeStorage), launched by Playwright's `_electron`. Runs only where an Electron
 * binary exists (ELECTRON_EXEC_PATH, ELECTRON_OVERRIDE_DIST_PATH, or node_modules/electron/dist
 * after `npm start` fetched it) and, on Linux, an X display (xvfb-run); skipped with the
 * reason otherwise.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { _electron, type ElectronApplication, type Page } from 'playwright-core';
import { afterEach, describe, it } from 'vitest';
import { opNames } from '../src/contract/index.ts';
import { loadFixtureCatalog, startFakeUpstream, type FakeUpstream } from '../src/fake-upstream/index.ts';
import { CHROMIUM_ARGS, FIXTURES, ROOT, saveFailureScreenshot, tempDir } from './support/env.ts';
import * as journey from './support/journeys.ts';

/** The Electron executable, or why there is none. */
function electronBinary(): { path: string } | { reason: string } {
  const electronDir = path.join(ROOT, 'node_modules/electron');
  const pathTxt = existsSync(path.join(electronDir, 'path.txt')) ? readFileSync(path.join(electronDir, 'path.txt'), 'utf8').trim() : 'electron';
  const candidates = [
    process.env['ELECTRON_EXEC_PATH'],
    process.env['ELECTRON_OVERRIDE_DIST_PATH'] && path.join(process.env['ELECTRON_OVERRIDE_DIST_PATH'], pathTxt),
    path.join(electronDir, 'dist', pathTxt),
  ].filter((p): p is string => !!p);
  const found = candidates.find((p) => existsSync(p));
  if (!found) return { reason: 'no Electron binary (ELECTRON_EXEC_PATH, ELECTRON_OVERRIDE_DIST_PATH or node_modules/electron/dist; `npm start` downloads it once)' };
  if (process.platform === 'linux' && !process.env['DISPLAY'] && !process.env['WAYLAND_DISPLAY']) {
    return { reason: 'no display for Electron (run the e2e tests under xvfb-run)' };
  }
  return { path: found };
}

const binary = electronBinary();
const CREDS = {
  apiKey: '7c1f0e5a-3b1d-4c8e-9a51-2f6b8d0e4a11',
  secret: Buffer.from('marketdesk-e2e-secret-0123456789').toString('base64url'),
  passphrase: 'e2e-passphrase',
  address: '0x' + 'a1'.repeat(20),
};

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

interface Env {
  fake: FakeUpstream;
  app: ElectronApplication;
  page: Page;
  api: journey.Oracle;
  userData: string;
}

async function launch(fake: FakeUpstream, userData: string, exe: string): Promise<Omit<Env, 'fake' | 'userData'>> {
  const [basePort, clobPort] = [await freePort(), await freePort()];
  const app = await _electron.launch({
    executablePath: exe,
    args: [path.join(ROOT, 'out/main/index.js'), ...CHROMIUM_ARGS],
    cwd: ROOT,
    env: {
      ...process.env,
      MARKETDESK_USER_DATA_DIR: userData,
      MARKETDESK_GAMMA_URL: fake.url,
      MARKETDESK_CLOB_URL: fake.url,
      MARKETDESK_DATA_URL: fake.url,
      MARKETDESK_BASE_PORT: String(basePort),
      MARKETDESK_CLOB_PORT: String(clobPort),
      // Short, so a stopped upstream shows as offline within a second or two.
      MARKETDESK_SYNC_INTERVAL: '1',
    },
  });
  const page = await app.firstWindow();
  page.setDefaultTimeout(120_000);
  await page.waitForSelector('[data-ready="true"]');
  // The first sync has landed.
  await page.waitForSelector('.statusbar:not([data-last-sync=""])');
  return { app, page, api: journey.httpOracle(`http://127.0.0.1:${basePort}`) };
}

describe('Electron mode', () => {
  if ('reason' in binary) console.warn(`Electron e2e skipped: ${binary.reason}`);
  let env: Env | undefined;
  let data: ReturnType<typeof tempDir> | undefined;

  afterEach(async () => {
    await env?.app.close().catch(() => {});
    await env?.fake.close();
    data?.cleanup();
    env = undefined;
  });

  const test = (name: string, body: (env: Env) => Promise<void>) =>
    it(name, async (ctx) => {
      if ('reason' in binary) return ctx.skip(binary.reason);
      data = tempDir('marketdesk-e2e-electron-');
      const fake = await startFakeUpstream({ catalog: await loadFixtureCatalog(FIXTURES), clob: { credentials: CREDS } });
      env = { fake, userData: data.dir, ...(await launch(fake, data.dir, binary.path)) };
      try {
        await body(env);
      } catch (e) {
        await saveFailureScreenshot(env.page, `electron-${name}`);
        throw e;
      }
    });

  test('is locked down: no Node in the page, only the contract on the bridge, no new windows', async ({ page }) => {
    assert.equal(await page.evaluate(() => typeof (globalThis as { require?: unknown }).require), 'undefined');
    assert.equal(await page.evaluate(() => typeof (globalThis as { process?: unknown }).process), 'undefined');
    assert.deepEqual(await page.evaluate(() => [...(window.marketdesk?.ops ?? [])]), [...opNames]);
    const refused = await page.evaluate(() => window.marketdesk!.invoke('no.such' as never, {} as never));
    assert.deepEqual(refused, { ok: false, status: 400, body: { type: 'bad request', error: 'unknown operation' } });
    // about:blank, so the denied window is not handed to the system browser either.
    assert.equal(await page.evaluate(() => window.open('about:blank') === null), true);
  });

  test('browses, sorts, filters and opens details', async ({ page, api }) => {
    await journey.browseAndSort(page, api);
    await journey.filterByTagAndStatus(page, api);
    await journey.openDetail(page, api);
    await journey.eventsGrid(page, api);
  });

  test('searches and switches leaderboards', async ({ page, api }) => {
    await journey.searchAndOpen(page, api, 'bitcoin');
    await journey.leaderboard(page, api);
  });

  test('stores credentials (safeStorage) and lists orders; they survive a restart', async (e) => {
    await journey.ordersWithCredentials(e.page, CREDS, [100, 100, 75]);
    assert.ok(existsSync(path.join(e.userData, 'credentials.bin')));
    assert.ok(!readFileSync(path.join(e.userData, 'credentials.bin')).toString('latin1').includes(CREDS.secret), 'encrypted at rest');
    await e.app.close();
    assert.ok(existsSync(path.join(e.userData, 'catalog.sqlite')), 'the cache is persisted on quit');
    const again = await launch(e.fake, e.userData, (binary as { path: string }).path);
    env = { ...e, ...again };
    // Last tab remembered; credentials handed to the restarted core.
    await again.page.waitForSelector('[role="tab"][aria-selected="true"]:text-is("Orders")');
    await again.page.waitForSelector('.pager >> text=Page 1 · 100 orders');
  });

  test('keeps browsing offline with the banner', async ({ page, api, fake }) => {
    await journey.offline(page, api, () => fake.close());
  });
});
