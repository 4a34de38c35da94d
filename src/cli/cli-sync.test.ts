/**
 * `marketdesk sync` on a bad day (issue 12), as users run it (the built CLI in a child process):
 * through random 429s, 500s and dropped connections it completes every run with the catalog of
 * a clean run; `--timeout` ends a sync that cannot finish, keeping what it wrote.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createSyntheticCatalog, startFakeUpstream, type FakeUpstream, type FakeUpstreamOptions } from '../fake-upstream/index.ts';
import { CatalogStore } from '../store/catalog-store.ts';
import { CLI_ENTRY } from '../testing/built-cli.ts';
import { tempDir } from '../testing/fixtures.ts';
import { dumpEvents, dumpMarkets } from '../testing/sync-harness.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

function tmp(): string {
  const t = tempDir();
  cleanups.push(t.cleanup);
  return t.dir;
}

async function fake(opts: Omit<FakeUpstreamOptions, 'catalog'>): Promise<FakeUpstream> {
  const f = await startFakeUpstream({ catalog: createSyntheticCatalog({ markets: 1000, seed: 21 }), ...opts });
  cleanups.push(() => f.close());
  return f;
}

/** Runs `marketdesk sync` into a fresh data dir and waits for it to exit. */
async function sync(f: FakeUpstream, extra: string[] = []) {
  const dir = tmp();
  const args = ['sync', '--data-dir', dir, '--gamma-url', f.url, '--horizon-days', '7300', ...extra];
  const child = spawn(process.execPath, [CLI_ENTRY, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { dir, code, stdout, stderr };
}

async function cache(dir: string) {
  const store = await CatalogStore.open({ dataDir: dir });
  cleanups.push(() => store.close());
  return { markets: dumpMarkets(store), events: dumpEvents(store), counts: store.reader.counts() };
}

describe('marketdesk sync --verbose', () => {
  it("logs the faults it rode out and the first load's step times to stderr; without it, stderr is empty", async () => {
    const f = await fake({});
    f.faults.push({ kind: '500', match: '/markets/keyset' }, 7);
    const r = await sync(f, ['--verbose']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^synced \d+ markets/);
    // The built CLI runs the search index's worker from its own bundle (search-build.ts).
    expect(r.stderr).toMatch(/bulk load: rows \d+\.\d s, sort indexes \d+\.\d s, statistics \d+\.\d s, search index \d+\.\d s more/);
    expect(r.stderr).toMatch(/search index .* \(built on a worker thread beside them\)/);
    expect(r.stderr).toMatch(/warning: sync: a page failed/);
    const quiet = await sync(f);
    expect({ code: quiet.code, stderr: quiet.stderr }).toEqual({ code: 0, stderr: '' });
  });
});

describe('marketdesk sync on a bad day', () => {
  it('completes 3 of 3 runs through random 429s, 500s and drops, with the catalog of a clean run', async () => {
    // Ten items a page (Gamma's silent clamp): many requests from a small catalog.
    const f = await fake({ maxLimit: 10 });
    const clean = await sync(f);
    expect(clean.code).toBe(0);
    const want = await cache(clean.dir);
    expect(want.counts.markets).toBeGreaterThan(0);
    const cleanRequests = f.requests.count();

    f.faults.random({ seed: 5, rate429: 0.15, rate500: 0.05, rateDrop: 0.03, retryAfter: 0.02 });
    for (let run = 1; run <= 3; run++) {
      const r = await sync(f);
      expect({ run, code: r.code, stderr: r.stderr }).toEqual({ run, code: 0, stderr: '' });
      const got = await cache(r.dir);
      expect(got.markets).toEqual(want.markets);
      expect(got.events).toEqual(want.events);
    }
    expect(f.faults.fired.filter((x) => x.kind === '429').length).toBeGreaterThan(cleanRequests / 10);
    expect(f.faults.fired.some((x) => x.kind === '500')).toBe(true);
    expect(f.faults.fired.some((x) => x.kind === 'drop')).toBe(true);
  });

  it('--timeout ends a sync that cannot finish: exit 1, one line, and the cache keeps what was synced', async () => {
    const f = await fake({ maxLimit: 10 });
    // The open-market walk's fifth page never answers.
    const seen: string[] = [];
    f.faults.push({
      kind: 'hang',
      match: (r) => {
        if (r.path !== '/markets/keyset' || r.query.get('closed') !== 'false') return false;
        const c = r.query.get('after_cursor') ?? '';
        if (!seen.includes(c)) seen.push(c);
        return c === seen[4];
      },
    });
    const r = await sync(f, ['--timeout', '2']);
    expect(r.code).toBe(1);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^marketdesk sync failed: no complete sync within --timeout 2 s; the cache keeps the \d+ markets, \d+ events/);
    const kept = await cache(r.dir);
    expect(kept.counts.markets).toBeGreaterThanOrEqual(40);
    expect(lines[0]).toContain(`the cache keeps the ${kept.counts.markets} markets`);
  });
});
