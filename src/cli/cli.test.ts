import { chmodSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSyntheticCatalog, loadFixtureCatalog, startFakeUpstream, type FakeUpstream } from '../fake-upstream/index.ts';
import type { Credentials } from '../auth/credentials.ts';
import { l2Headers } from '../auth/l2.ts';
import { CACHE_FILE, CatalogStore } from '../store/catalog-store.ts';
import { FIXTURES_DIR, tempDir } from '../testing/fixtures.ts';
import { startFake } from '../testing/sync-harness.ts';
import { runCli, type CliRun } from '../testing/cli-run.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

type Run = CliRun;

/** The built CLI with a fresh config dir (so no user settings leak in), killed after the test if still running. */
function cli(args: string[], env: NodeJS.ProcessEnv = {}): Run {
  return runCli(args, { cleanup: (fn) => void cleanups.push(fn), env: { XDG_CONFIG_HOME: tmp(), ...env } });
}

function tmp(): string {
  const t = tempDir();
  cleanups.push(t.cleanup);
  return t.dir;
}

async function fake(catalog: Parameters<typeof startFake>[0]): Promise<FakeUpstream> {
  const f = await startFake(catalog);
  cleanups.push(() => f.close());
  return f;
}

const poll = { interval: 50, timeout: 120_000 };

describe('marketdesk CLI', () => {
  it('rejects an unknown flag with the usage line and exit code 2', async () => {
    const run = cli(['serve', '--no-such-flag']);
    const { code } = await run.exited;
    expect(code).toBe(2);
    expect(run.stderr()).toMatch(/no-such-flag/);
    expect(run.stderr()).toMatch(/usage: npm run serve/);
  });

  it('sync exits non-zero with a one-line reason when the upstream is unreachable', async () => {
    const run = cli(['sync', '--data-dir', tmp(), '--gamma-url', 'http://127.0.0.1:9']);
    const { code } = await run.exited;
    expect(code).toBe(1);
    const lines = run.stderr().trim().split('\n');
    expect(lines).toHaveLength(1);
    // Retries as serve does: the host's circuit opens after 5 failed attempts in a row.
    expect(lines[0]).toMatch(/^marketdesk sync failed: .*(failed after \d+ attempts|offline after \d+ failed attempts)/);
  });

  it('sync runs one full sync into the data dir and exits 0', async () => {
    const f = await fake(await loadFixtureCatalog(FIXTURES_DIR));
    const dir = tmp();
    const run = cli(['sync', '--data-dir', dir, '--gamma-url', f.url, '--horizon-days', '7300']);
    const { code } = await run.exited;
    expect(run.stderr()).toBe('');
    expect(code).toBe(0);
    expect(run.stdout()).toMatch(/^synced \d+ markets, \d+ events, \d+ tags from /);
    const store = await CatalogStore.open({ dataDir: dir });
    cleanups.push(() => store.close());
    expect(store.reader.counts().markets).toBe(f.catalog.counts.markets);
  });

  it('serve prints its URLs, serves while syncing, and persists and exits 0 on SIGTERM', async () => {
    const f = await fake(await loadFixtureCatalog(FIXTURES_DIR));
    const dir = tmp();
    const run = cli(['serve', '--data-dir', dir, '--base-port', '0', '--clob-port', '0', '--gamma-url', f.url, '--horizon-days', '7300']);
    await expect.poll(() => /base: (http:\/\/\S+)/.exec(run.stdout()), poll).toBeTruthy();
    const base = /base: (http:\/\/\S+)/.exec(run.stdout())![1]!;
    expect(run.stdout()).toMatch(/clob: http:\/\/127\.0\.0\.1:\d+/);
    expect(run.stdout()).toContain(`web UI: ${base}/app/`);
    const status = async () => ((await (await fetch(`${base}/status`)).json()) as { sync: { lastFullSyncAt: string | null } }).sync;
    await expect.poll(async () => (await status()).lastFullSyncAt, poll).not.toBeNull();
    const res = await fetch(`${base}/markets?limit=5&order=volume`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as unknown[]).length).toBe(5);
    run.child.kill('SIGTERM');
    expect((await run.exited).code).toBe(0);
    const store = await CatalogStore.open({ dataDir: dir });
    cleanups.push(() => store.close());
    expect(store.movedAside).toBeUndefined();
    expect(store.reader.counts().markets).toBe(f.catalog.counts.markets);
  });

  it('serve --offline answers from the cache without contacting any upstream', async () => {
    const run = cli([
      'serve',
      '--offline',
      '--data-dir',
      tmp(),
      '--base-port',
      '0',
      '--clob-port',
      '0',
      '--gamma-url',
      'http://127.0.0.1:9',
    ]);
    await expect.poll(() => /base: (http:\/\/\S+)/.exec(run.stdout()), poll).toBeTruthy();
    const base = /base: (http:\/\/\S+)/.exec(run.stdout())![1]!;
    expect(await (await fetch(`${base}/markets`)).json()).toEqual([]);
    const st = (await (await fetch(`${base}/status`)).json()) as { offline: boolean; sync: { phase: string } };
    expect(st.offline).toBe(true);
    expect(st.sync.phase).toBe('offline');
    run.child.kill('SIGINT');
    expect((await run.exited).code).toBe(0);
  });

  it('kill -9 during a sync leaves a cache that opens, and the next sync completes it', async () => {
    const catalog = createSyntheticCatalog({ markets: 20_000, seed: 4 });
    const f = await fake(catalog);
    const dir = tmp();
    const file = path.join(dir, CACHE_FILE);
    const run = cli(['sync', '--data-dir', dir, '--gamma-url', f.url]);
    // Wait until batches have been committed, then kill the process mid-sync. A first load commits every 60
    // pages (catalog-store.ts bulkLoad) and writes each page as it arrives, one page fetched ahead per walk, so
    // 130 of the 280 pages served means at least one group committed. (The file's size says nothing: a load spills pages
    // into it before its first COMMIT, which the next open rolls back.)
    await expect
      .poll(() => f.requests.entries.filter((r) => r.path.endsWith('/keyset') && r.status === 200).length, poll)
      .toBeGreaterThan(130);
    expect(statSync(file).size).toBeGreaterThan(0);
    run.child.kill('SIGKILL');
    const { signal } = await run.exited;
    expect(signal).toBe('SIGKILL');

    const store = await CatalogStore.open({ dataDir: dir });
    expect(store.movedAside).toBeUndefined();
    // Events come first in a full sync: a kill may land before any market.
    const partial = store.reader.counts().markets + store.reader.counts().events;
    expect(partial).toBeGreaterThan(0);
    expect(store.statements.value('PRAGMA integrity_check')).toBe('ok');
    await store.close();

    const again = cli(['sync', '--data-dir', dir, '--gamma-url', f.url]);
    expect((await again.exited).code).toBe(0);
    const synced = /^synced (\d+) markets, (\d+) events/m.exec(again.stdout());
    expect(synced, again.stdout()).not.toBeNull();
    const done = await CatalogStore.open({ dataDir: dir });
    cleanups.push(() => done.close());
    // The cache holds what the completing sync says it synced, and no less than the killed one left.
    const { markets, events } = done.reader.counts();
    expect({ markets, events }).toEqual({ markets: Number(synced![1]), events: Number(synced![2]) });
    expect(markets + events).toBeGreaterThanOrEqual(partial);
    expect(markets).toBeGreaterThan(0);
  });

  describe('credentials', () => {
    const CREDS: Credentials = {
      apiKey: 'cli-test-key-7d3e9a10-5b2c-4f6e-8a1d-0c9b8a7f6e5d',
      secret: `${Buffer.alloc(32, 5).toString('base64url')}=`,
      passphrase: 'cli-test-passphrase-0f1e2d3c4b5a69788796a5b4c3d2e1f0',
      address: '0x976EA74026E726554dB657fA54763abd0C3a0aa9',
    };
    const secrets = [CREDS.apiKey, CREDS.secret, CREDS.passphrase];
    const credsFile = (mode: number) => {
      const f = path.join(tmp(), 'credentials.json');
      writeFileSync(f, JSON.stringify(CREDS));
      chmodSync(f, mode);
      return f;
    };
    // POLY_* signs as Polymarket's clients do (their dialect: "LTE=" ends the listing); KUEST_* gets the spec's.
    const signedGet = (url: string, family: 'POLY' | 'KUEST' = 'POLY') =>
      fetch(`${url}/data/orders`, { headers: l2Headers(CREDS, { method: 'GET', path: '/data/orders' }, { family }) });

    it.skipIf(process.platform === 'win32')('refuses a credentials file others can read, in one line', async () => {
      const file = credsFile(0o644);
      const run = cli(['serve', '--offline', '--data-dir', tmp(), '--base-port', '0', '--clob-port', '0', '--credentials', file]);
      expect((await run.exited).code).toBe(1);
      expect(run.stderr()).toBe(`marketdesk: credentials file ${file} is readable by other users (mode 0644); run chmod 600 on it\n`);
      for (const v of secrets) expect(run.stderr() + run.stdout()).not.toContain(v);
    });

    it('takes a 0600 file and checks L2 auth on the clob face', async () => {
      const run = cli([
        'serve',
        '--offline',
        '--data-dir',
        tmp(),
        '--base-port',
        '0',
        '--clob-port',
        '0',
        '--credentials',
        credsFile(0o600),
      ]);
      await expect.poll(() => /clob: (http:\/\/\S+)/.exec(run.stdout()), poll).toBeTruthy();
      const clob = /clob: (http:\/\/\S+)/.exec(run.stdout())![1]!;
      expect(await (await signedGet(clob)).json()).toEqual({ data: [], next_cursor: 'LTE=', limit: 100, count: 0 });
      expect(await (await signedGet(clob, 'KUEST')).json()).toEqual({ data: [], next_cursor: '', limit: 100, count: 0 });
      expect((await fetch(`${clob}/data/orders`)).status).toBe(401);
      run.child.kill('SIGTERM');
      expect((await run.exited).code).toBe(0);
    });

    it('takes the MARKETDESK_* variables, fetches the orders, and never prints a secret', async () => {
      const f = await startFakeUpstream({ catalog: createSyntheticCatalog({ markets: 40, seed: 3 }), clob: { credentials: CREDS } });
      cleanups.push(() => f.close());
      const env = {
        MARKETDESK_API_KEY: CREDS.apiKey,
        MARKETDESK_API_SECRET: CREDS.secret,
        MARKETDESK_API_PASSPHRASE: CREDS.passphrase,
        MARKETDESK_ADDRESS: CREDS.address,
      };
      const run = cli(
        [
          'serve',
          '--data-dir',
          tmp(),
          '--base-port',
          '0',
          '--clob-port',
          '0',
          '--gamma-url',
          f.url,
          '--clob-url',
          f.url,
          '--data-url',
          f.url,
        ],
        env,
      );
      await expect.poll(() => /clob: (http:\/\/\S+)/.exec(run.stdout()), poll).toBeTruthy();
      const clob = /clob: (http:\/\/\S+)/.exec(run.stdout())![1]!;
      const page = (await (await signedGet(clob)).json()) as { count: number; next_cursor: string };
      expect(page).toMatchObject({ count: 100, next_cursor: 'MTAw' });
      run.child.kill('SIGTERM');
      expect((await run.exited).code).toBe(0);
      for (const v of secrets) expect(run.stderr() + run.stdout()).not.toContain(v);
    });

    it('names the missing variable of a partial set', async () => {
      const run = cli(['serve', '--offline', '--data-dir', tmp(), '--base-port', '0', '--clob-port', '0'], {
        MARKETDESK_API_KEY: CREDS.apiKey,
      });
      expect((await run.exited).code).toBe(1);
      expect(run.stderr()).toBe(
        'marketdesk: incomplete credentials in the environment: ' +
          'MARKETDESK_API_SECRET, MARKETDESK_API_PASSPHRASE, MARKETDESK_ADDRESS not set\n',
      );
    });
  });
});
