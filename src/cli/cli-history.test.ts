/**
 * `--horizon-days all` as users run it (the built CLI): `sync` reads the open catalog and then
 * the whole closed history; a bad value is refused with the usage line.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createSyntheticCatalog, startFakeUpstream } from '../fake-upstream/index.ts';
import { CatalogStore } from '../store/catalog-store.ts';
import { HISTORY_META_KEY } from '../sync/history-walk.ts';
import { runCli } from '../testing/cli-run.ts';
import { startService } from '../http/server.ts';
import type { ServiceStatus } from '../contract/index.ts';
import { DEAD_UPSTREAM, tempDir } from '../testing/fixtures.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

function tmp(): string {
  const t = tempDir();
  cleanups.push(t.cleanup);
  return t.dir;
}

const cli = (args: string[]) => runCli(args, { cleanup: (fn) => void cleanups.push(fn), env: { XDG_CONFIG_HOME: tmp() } });

describe('--horizon-days all', () => {
  it('sync keeps every market and event the upstream has, closed ones of any age included', async () => {
    const f = await startFakeUpstream({ catalog: createSyntheticCatalog({ markets: 1500, seed: 41 }) });
    cleanups.push(() => f.close());
    const dir = tmp();
    const run = cli(['sync', '--data-dir', dir, '--gamma-url', f.url, '--horizon-days', 'all']);
    const { code } = await run.exited;
    expect(run.stderr()).toBe('');
    expect(code).toBe(0);
    expect(run.stdout()).toMatch(new RegExp(`^synced ${f.catalog.counts.markets} markets, ${f.catalog.counts.events} events`));
    const store = await CatalogStore.open({ dataDir: dir });
    cleanups.push(() => store.close());
    expect(store.reader.counts()).toMatchObject({ markets: f.catalog.counts.markets, events: f.catalog.counts.events });
    expect(JSON.parse(store.getMeta(HISTORY_META_KEY)!)).toMatchObject({ state: 'done' });
  });

  it('an offline service reports the history walk as the cache last saved it', async () => {
    const f = await startFakeUpstream({ catalog: createSyntheticCatalog({ markets: 400, seed: 43 }) });
    cleanups.push(() => f.close());
    const dir = tmp();
    const { code } = await cli(['sync', '--data-dir', dir, '--gamma-url', f.url, '--horizon-days', 'all']).exited;
    expect(code).toBe(0);
    const store = await CatalogStore.open({ dataDir: dir });
    const saved = JSON.parse(store.getMeta(HISTORY_META_KEY)!) as { kinds: { markets: { items: number } } };
    await store.close();
    const service = await startService({ dataDir: dir, offline: true, urls: DEAD_UPSTREAM, basePort: 0, clobPort: 0 });
    cleanups.push(() => service.close());
    const status = (await (await fetch(`${service.baseUrl}/status`)).json()) as ServiceStatus;
    expect(status.sync.phase).toBe('offline');
    expect(status.sync.history).toMatchObject({ state: 'done', markets: saved.kinds.markets.items });
    expect(status.sync.history!.markets).toBeGreaterThan(0);
  });

  it('refuses a horizon that is neither a number of days nor all', async () => {
    const run = cli(['serve', '--horizon-days', 'forever']);
    const { code } = await run.exited;
    expect(code).toBe(2);
    expect(run.stderr()).toMatch(/--horizon-days must be a number of days \(0 to 36500\) or all/);
    expect(run.stderr()).toMatch(/\[--horizon-days N\|all\]/);
  });
});
