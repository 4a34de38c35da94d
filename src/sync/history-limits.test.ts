/**
 * The history walk goes through the outbound scheduler like the rest of the sync: every page
 * waits for the listing budget at background priority, so a tight window is never exceeded.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createSyntheticCatalog, DEFAULT_NOW, startFakeUpstream } from '../fake-upstream/index.ts';
import { OutboundScheduler } from '../limits/scheduler.ts';
import { parseLimitsTable } from '../limits/table.ts';
import { CatalogStore } from '../store/catalog-store.ts';
import { UpstreamClient } from '../upstream/client.ts';
import { CatalogSync } from './catalog-sync.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

describe('history walk under the budgets', () => {
  it('waits for the listing window at background priority and never exceeds it', async () => {
    const LIMIT = 10;
    const table = parseLimitsTable({ windows: [{ name: 'listings', limit: LIMIT, seconds: 1, routes: ['GET /markets', 'GET /events'] }] });
    const catalog = createSyntheticCatalog({ markets: 800, seed: 31 });
    // 10 items a page: about 30 history pages, three windows' worth.
    const fake = await startFakeUpstream({ catalog, limits: 'off', maxLimit: 10 });
    cleanups.push(() => fake.close());
    const scheduler = new OutboundScheduler({ table, margin: 0.2 });
    cleanups.push(() => scheduler.close());
    const admitted: string[] = [];
    const acquire = scheduler.acquire.bind(scheduler);
    scheduler.acquire = (host, path, opts) => {
      if (opts.query?.['closed'] === true && path.endsWith('/keyset')) admitted.push(opts.priority ?? 'user');
      return acquire(host, path, opts);
    };
    const client = new UpstreamClient({ urls: { gamma: fake.url, clob: fake.url, data: fake.url }, gate: scheduler });
    const store = await CatalogStore.open({});
    cleanups.push(() => store.close());
    const sync = new CatalogSync(store, client, { now: () => DEFAULT_NOW, horizonMs: Infinity });
    cleanups.push(() => sync.stop());

    await sync.syncHistory();
    const history = fake.requests.entries.filter((e) => e.path.endsWith('/keyset') && e.query['closed'] === 'true');
    expect(history.length).toBeGreaterThan(2 * LIMIT);
    expect(admitted).toHaveLength(history.length);
    expect(admitted.every((p) => p === 'background')).toBe(true);
    // At the fake: never more than the window's limit of listing requests in any second.
    const times = history.map((e) => e.time).sort((a, b) => a - b);
    let most = 0;
    for (let i = 0, j = 0; i < times.length; i++) {
      while (times[j]! <= times[i]! - 1000) j++;
      most = Math.max(most, i - j + 1);
    }
    expect(most).toBeLessThanOrEqual(LIMIT);
    expect(fake.requests.count((e) => e.status === 429)).toBe(0);
    expect(sync.status().history?.state).toBe('done');
  });
});
