/**
 * The upstream WebSocket host setting (`clobWsUrl`, as `--clob-ws-url` under `npm run serve`):
 * validated, kept in settings.json, handed to the core's start options, and a change applies at
 * the core's restart. Under plain Node, the worker running the real core against the fake upstream;
 * the core's `service.status` says which market channel it would open.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSyntheticCatalog, startFakeUpstream } from '../src/fake-upstream/index.ts';
import type { ServiceStatus } from '../src/contract/types.ts';
import { tempDir } from '../src/testing/fixtures.ts';
import { startServiceHost, type ServiceHost } from './service-host.ts';
import { clobWsUrlSetting, DEFAULT_SETTINGS, loadSettings, mergeSettings, saveSettings, settingsInputError } from './settings.ts';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

describe('upstream WebSocket host setting', () => {
  it("is the profile's default when unset, and takes a ws:// or wss:// URL, kept without trailing slashes", () => {
    expect(DEFAULT_SETTINGS.clobWsUrl).toBeUndefined();
    expect(clobWsUrlSetting(DEFAULT_SETTINGS)).toBeUndefined();
    for (const [input, kept] of [
      ['wss://ws-subscriptions-clob.polymarket.com', 'wss://ws-subscriptions-clob.polymarket.com'],
      [' wss://ws.example.test/ ', 'wss://ws.example.test'],
      ['ws://127.0.0.1:7400', 'ws://127.0.0.1:7400'],
      ['WSS://[::1]:8443/prefix//', 'wss://[::1]:8443/prefix'],
    ] as const) {
      expect(settingsInputError({ clobWsUrl: input }), input).toBeUndefined();
      expect(mergeSettings(DEFAULT_SETTINGS, { clobWsUrl: input }).clobWsUrl).toBe(kept);
    }
  });

  it('refuses anything else with a reason, keeping the previous host', () => {
    const base = mergeSettings(DEFAULT_SETTINGS, { clobWsUrl: 'wss://kept.example' });
    for (const bad of [
      'https://ws.example',
      'ws.example',
      'wss://',
      'wss://user:pw@ws.example',
      'wss://ws.example?x=1',
      'wss://ws.example/#f',
      'wss://ws example',
      42,
      null,
    ]) {
      expect(settingsInputError({ clobWsUrl: bad }), String(bad)).toBe(
        'the upstream WebSocket host must be a ws:// or wss:// URL such as wss://ws-subscriptions-clob.polymarket.com, ' +
          'or empty for the default',
      );
      expect(mergeSettings(base, { clobWsUrl: bad }).clobWsUrl).toBe('wss://kept.example');
    }
    // Other fields alone say nothing about it.
    expect(settingsInputError({ basePort: 8000 })).toBeUndefined();
  });

  it("goes back to the profile's default when emptied", () => {
    const base = mergeSettings(DEFAULT_SETTINGS, { clobWsUrl: 'wss://kept.example' });
    expect(settingsInputError({ clobWsUrl: '' })).toBeUndefined();
    expect(mergeSettings(base, { clobWsUrl: '' })).toEqual(DEFAULT_SETTINGS);
    expect(mergeSettings(base, { clobWsUrl: '  ' })).not.toHaveProperty('clobWsUrl');
    expect(mergeSettings(base, { httpEnabled: false }).clobWsUrl).toBe('wss://kept.example');
  });

  it('persists in settings.json, and a hand-edited bad value reads as the default', () => {
    const file = path.join(tmp.dir, 'settings-ws.json');
    saveSettings(file, mergeSettings(DEFAULT_SETTINGS, { clobWsUrl: 'wss://ws.example.test/' }));
    expect(loadSettings(file).clobWsUrl).toBe('wss://ws.example.test');
    writeFileSync(file, JSON.stringify({ ...DEFAULT_SETTINGS, clobWsUrl: 'http://not-a-ws-host' }));
    expect(loadSettings(file)).toEqual(DEFAULT_SETTINGS);
  });

  it('is overridden by MARKETDESK_CLOB_WS_URL when that is a ws(s) URL', () => {
    const set = mergeSettings(DEFAULT_SETTINGS, { clobWsUrl: 'wss://from-settings.example' });
    expect(clobWsUrlSetting(set, 'ws://127.0.0.1:7400/')).toBe('ws://127.0.0.1:7400');
    expect(clobWsUrlSetting(set, 'nonsense')).toBe('wss://from-settings.example');
    expect(clobWsUrlSetting(DEFAULT_SETTINGS, 'nonsense')).toBeUndefined();
  });
});

describe('upstream WebSocket host in the core (worker thread)', () => {
  let host: ServiceHost | undefined;
  let closeFake: (() => Promise<void>) | undefined;
  afterAll(async () => {
    await host?.stop();
    await closeFake?.();
  });

  it("reaches the core's options from settings.json, and a change applies at the restart", async () => {
    const fake = await startFakeUpstream({ catalog: createSyntheticCatalog({ markets: 20, seed: 5 }) });
    closeFake = () => fake.close();
    const dataDir = path.join(tmp.dir, 'core');
    const settingsFile = path.join(tmp.dir, 'settings-core.json');
    host = startServiceHost({
      workerFile:
        `import('tsx/esm/api').then((tsx) => { tsx.register(); ` +
        `return import(${JSON.stringify(new URL('./service-worker.ts', import.meta.url).href)}); })`,
      eval: true,
      // As main/index.ts builds them (workerStart), settings.json read again at every restart.
      start: () => {
        const clobWsUrl = clobWsUrlSetting(loadSettings(settingsFile));
        return {
          dataDir,
          webRoot: path.join(tmp.dir, 'no-web-root'),
          http: false,
          basePort: 0,
          clobPort: 0,
          profile: 'custom',
          urls: { gamma: fake.url, clob: fake.url, data: fake.url },
          ...(clobWsUrl !== undefined ? { clobWsUrl } : {}),
          offline: false,
        };
      },
    });
    // As main's `settings.set` does: validate, merge, save, restart.
    const set = async (patch: object) => {
      expect(settingsInputError(patch)).toBeUndefined();
      saveSettings(settingsFile, mergeSettings(loadSettings(settingsFile), patch));
      await host!.restart();
    };
    const channel = async () => {
      const r = await host!.invoke('service.status', {});
      if (!r.ok) throw new Error(JSON.stringify(r.body));
      return (r.result as ServiceStatus).live.url;
    };

    // Unset: the default for a CLOB URL that is no profile's, the CLOB's own host (the fake serves both).
    const fallback = `${fake.url.replace(/^http/, 'ws').replace(/\/+$/, '')}/ws/market`;
    expect(await channel()).toBe(fallback);
    await set({ clobWsUrl: 'wss://ws.example.test/' });
    expect(loadSettings(settingsFile).clobWsUrl).toBe('wss://ws.example.test');
    expect(await channel()).toBe('wss://ws.example.test/ws/market');
    await set({ clobWsUrl: '' });
    expect(await channel()).toBe(fallback);
  });
});
