/**
 * The Electron service host under plain Node: the worker runs the real core against the fake
 * upstream; IPC answers match HTTP's; a crash restarts the core and says so; stop persists.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFixtureCatalog, startFakeUpstream, type FakeUpstream } from '../src/fake-upstream/index.ts';
import { FIXTURES_DIR, tempDir } from '../src/testing/fixtures.ts';
import type { ServiceState } from '../src/contract/bridge.ts';
import { startServiceHost, type ServiceHost } from './service-host.ts';

describe('service host (worker thread)', () => {
  let fake: FakeUpstream;
  let host: ServiceHost;
  const tmp = tempDir();
  const events: { event: string; payload: unknown }[] = [];
  const waiters: { test: (e: string, p: unknown) => boolean; resolve: () => void }[] = [];
  const waitFor = (test: (e: string, p: unknown) => boolean) =>
    new Promise<void>((resolve) => {
      if (events.some((e) => test(e.event, e.payload))) return resolve();
      waiters.push({ test, resolve });
    });

  beforeAll(async () => {
    fake = await startFakeUpstream({ catalog: await loadFixtureCatalog(FIXTURES_DIR) });
    host = startServiceHost({
      // The .ts source through tsx (a worker's --import does not apply to its entry file on Node 20).
      workerFile:
        `import('tsx/esm/api').then((tsx) => { tsx.register(); ` +
        `return import(${JSON.stringify(new URL('./service-worker.ts', import.meta.url).href)}); })`,
      eval: true,
      restartDelayMs: () => 0,
      start: () => ({
        dataDir: tmp.dir,
        webRoot: path.join(tmp.dir, 'no-web-root'),
        http: true,
        basePort: 0,
        clobPort: 0,
        profile: 'custom',
        urls: { gamma: fake.url, clob: fake.url, data: fake.url },
        offline: false,
        allowCrash: true,
      }),
    });
    host.onEvent((event, payload) => {
      events.push({ event, payload });
      for (const w of [...waiters]) {
        if (w.test(event, payload)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve();
        }
      }
    });
  });

  afterAll(async () => {
    await host?.stop();
    await fake?.close();
    tmp.cleanup();
  });

  it('answers contract operations after the first sync, exactly as HTTP does', async () => {
    await waitFor(
      (e, p) =>
        e === 'sync' &&
        (p as { lastSuccessAt: string | null; running: boolean }).lastSuccessAt !== null &&
        !(p as { running: boolean }).running,
    );
    const reply = await host.invoke('markets.list', { limit: 5, order: 'volumeNum', ascending: false });
    expect(reply.ok).toBe(true);
    const { baseUrl } = host.state();
    const http = await (await fetch(`${baseUrl}/markets?limit=5&order=volumeNum&ascending=false`)).json();
    expect(reply.ok && reply.result).toEqual(http);

    const bad = await host.invoke('markets.list', { limit: 1000 });
    const httpBad = await fetch(`${baseUrl}/markets?limit=1000`);
    expect(bad).toEqual({ ok: false, status: httpBad.status, body: await httpBad.json() });

    expect(await host.invoke('no.such', {})).toMatchObject({ ok: false, status: 400 });
    expect(await host.invoke('markets.list', { limit: { nested: 1 } })).toMatchObject({ ok: false, status: 400 });
    expect(await host.invoke('markets.get', { id: '999999999' })).toEqual({
      ok: false,
      status: 404,
      body: { type: 'not found error', error: 'id not found' },
    });
  });

  it('restarts the core after a crash and tells the window', async () => {
    const before = host.state().restarts;
    // Reach into the worker the way a crash would: an uncaught exception on its thread.
    const crashed = waitFor((e, p) => e === 'service' && (p as ServiceState).state === 'restarting');
    const back = waitFor(
      (e, p) => e === 'service' && (p as ServiceState).state === 'running' && (p as ServiceState).restarts === before + 1,
    );
    host.simulateCrash();
    await crashed;
    await back;
    const reply = await host.invoke('markets.list', { limit: 2 });
    expect(reply).toMatchObject({ ok: true });
    expect(host.state().lastError).toMatch(/crash requested/);
  });

  it('restarts on request (a settings change); calls made meanwhile wait for the new core', async () => {
    const restarted = host.restart();
    const during = host.invoke('markets.list', { limit: 1 });
    await restarted;
    expect(await during).toMatchObject({ ok: true });
    expect(host.state().state).toBe('running');
  });

  it('stops cleanly with the cache persisted, and refuses calls afterwards', async () => {
    // The restarted core syncs again; stop as soon as that sync has written the cache.
    const since = events.map((e) => e.event).lastIndexOf('service');
    await new Promise<void>((resolve) => {
      const done = (e: string, p: unknown) =>
        e === 'sync' && !(p as { running: boolean }).running && (p as { lastSuccessAt: string | null }).lastSuccessAt !== null;
      if (events.slice(since).some((e) => done(e.event, e.payload))) return resolve();
      waiters.push({ test: done, resolve });
    });
    await host.stop();
    expect(host.state().state).toBe('stopped');
    expect(existsSync(path.join(tmp.dir, 'catalog.sqlite'))).toBe(true);
    expect(await host.invoke('markets.list', {})).toMatchObject({ ok: false, status: 503 });
  });
});
