/**
 * The horizon setting: validated in settings.json, handed to the core's start options, and a
 * change applies at the core's restart. Under plain Node, the worker running the real core
 * against the fake upstream: 'all' keeps every closed item the fake has, 7 days prunes them.
 */
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSyntheticCatalog, startFakeUpstream } from '../src/fake-upstream/index.ts';
import type { HistoryStatus, ServiceStatus, SyncStatus } from '../src/contract/types.ts';
import { tempDir } from '../src/testing/fixtures.ts';
import { startServiceHost, type ServiceHost } from './service-host.ts';
import { DEFAULT_SETTINGS, horizonSetting, mergeSettings, settingsInputError } from './settings.ts';

describe('horizon setting', () => {
  it('is 7 days by default, takes a whole number of days or all, and refuses anything else', () => {
    expect(horizonSetting(DEFAULT_SETTINGS)).toBe(7);
    expect(horizonSetting(mergeSettings(DEFAULT_SETTINGS, { horizonDays: 'all' }))).toBe('all');
    expect(mergeSettings(DEFAULT_SETTINGS, { horizonDays: 30 }).horizonDays).toBe(30);
    const base = mergeSettings(DEFAULT_SETTINGS, { horizonDays: 30 });
    for (const bad of [-1, 1.5, 36_501, 'ALL', '30', null]) {
      expect(mergeSettings(base, { horizonDays: bad }).horizonDays).toBe(30);
      expect(settingsInputError({ horizonDays: bad })).toMatch(/whole number of days/);
    }
    expect(settingsInputError({ horizonDays: 0 })).toBeUndefined();
    expect(settingsInputError({ horizonDays: 'all' })).toBeUndefined();
  });
});

describe('horizon in the core (worker thread)', () => {
  const tmp = tempDir();
  let host: ServiceHost | undefined;
  let closeFake: (() => Promise<void>) | undefined;
  afterAll(async () => {
    await host?.stop();
    await closeFake?.();
    tmp.cleanup();
  });

  it("'all' keeps every closed item the upstream has; a change to 7 days restarts the core, which prunes them", async () => {
    const catalog = createSyntheticCatalog({ markets: 600, seed: 3 });
    const fake = await startFakeUpstream({ catalog });
    closeFake = () => fake.close();
    let horizonDays: number | 'all' = 'all';
    const syncs: SyncStatus[] = [];
    const waiters: { test: (s: SyncStatus) => boolean; resolve: () => void }[] = [];
    const waitSync = (test: (s: SyncStatus) => boolean) =>
      new Promise<void>((resolve) => (syncs.some(test) ? resolve() : waiters.push({ test, resolve })));
    host = startServiceHost({
      workerFile:
        `import('tsx/esm/api').then((tsx) => { tsx.register(); ` +
        `return import(${JSON.stringify(new URL('./service-worker.ts', import.meta.url).href)}); })`,
      eval: true,
      // As main/index.ts builds them from settings.json (horizonSetting), read again at every restart.
      start: () => ({
        dataDir: tmp.dir,
        webRoot: path.join(tmp.dir, 'no-web-root'),
        http: false,
        basePort: 0,
        clobPort: 0,
        profile: 'custom',
        urls: { gamma: fake.url, clob: fake.url, data: fake.url },
        offline: false,
        horizonDays,
      }),
    });
    host.onEvent((event, payload) => {
      if (event !== 'sync') return;
      const s = payload as SyncStatus;
      syncs.push(s);
      for (const w of [...waiters]) if (w.test(s)) waiters.splice(waiters.indexOf(w), 1) && w.resolve();
    });
    const status = async () => {
      const r = await host!.invoke('service.status', {});
      if (!r.ok) throw new Error(JSON.stringify(r.body));
      return r.result as ServiceStatus;
    };

    await waitSync((s) => s.history?.state === 'done');
    const all = await status();
    expect(all.counts).toMatchObject({ markets: catalog.counts.markets, events: catalog.counts.events });
    const closed = catalog.marketRecords().filter((r) => catalog.getMarket(r.id)!.closed === true).length;
    expect(closed).toBeGreaterThan(0);
    expect(all.sync.history).toMatchObject<Partial<HistoryStatus>>({ state: 'done', markets: closed });

    horizonDays = 7;
    syncs.length = 0;
    await host.restart();
    await waitSync((s) => !s.running && s.lastSuccessAt !== null && s.history?.state === 'off' && s.lastError === null);
    const week = await status();
    // The fake's catalog dates from 2026-11-01: more than 7 days ago, so its closed items go.
    expect(week.counts.markets).toBeLessThan(catalog.counts.markets);
    expect(week.sync.history?.state).toBe('off');
  });
});
