/**
 * GET /stream: the push events as Server-Sent Events, from a service syncing the fixture
 * catalog from the fake upstream; then the upstream goes away and `online` flips.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PushEvents, PushName } from '../contract/index.ts';
import { loadFixtureCatalog, startFakeUpstream, type FakeUpstream } from '../fake-upstream/index.ts';
import { startService, type Service } from './server.ts';
import { FIXTURES_DIR, tempDir } from '../testing/fixtures.ts';

interface Received {
  name: PushName;
  payload: PushEvents[PushName];
}

/** Reads an SSE response and lets a test wait for an event matching a predicate. */
function readStream(res: Response) {
  const events: Received[] = [];
  const waiters: { test: (e: Received) => boolean; resolve: (e: Received) => void }[] = [];
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  const pump = (async () => {
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true as const }));
      if (done) return;
      buffer += value;
      for (let cut = buffer.indexOf('\n\n'); cut >= 0; cut = buffer.indexOf('\n\n')) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const name = /^event: (.+)$/m.exec(block)?.[1];
        const data = /^data: (.+)$/m.exec(block)?.[1];
        if (!name || !data) continue;
        const e = { name: name as PushName, payload: JSON.parse(data) as PushEvents[PushName] };
        events.push(e);
        for (const w of [...waiters]) {
          if (w.test(e)) {
            waiters.splice(waiters.indexOf(w), 1);
            w.resolve(e);
          }
        }
      }
    }
  })();
  return {
    events,
    next<K extends PushName>(name: K, test: (p: PushEvents[K]) => boolean = () => true): Promise<PushEvents[K]> {
      const match = (e: Received) => e.name === name && test(e.payload as PushEvents[K]);
      const seen = events.find(match);
      if (seen) return Promise.resolve(seen.payload as PushEvents[K]);
      return new Promise((resolve) => waiters.push({ test: match, resolve: (e) => resolve(e.payload as PushEvents[K]) }));
    },
    async close() {
      await reader.cancel().catch(() => {});
      await pump;
    },
  };
}

describe('GET /stream', () => {
  let fake: FakeUpstream;
  let service: Service;
  const tmp = tempDir();

  beforeAll(async () => {
    fake = await startFakeUpstream({ catalog: await loadFixtureCatalog(FIXTURES_DIR) });
    service = await startService({
      dataDir: tmp.dir,
      basePort: 0,
      clobPort: 0,
      urls: { gamma: fake.url, clob: fake.url, data: fake.url },
      // A dead upstream must show up as offline at once, not after minutes of backoff.
      client: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 5 },
      persistDelayMs: 50,
    });
  });

  afterAll(async () => {
    await service?.close();
    await fake?.close();
    tmp.cleanup();
  });

  it('sends the current state, then sync progress, catalog changes and online/offline', async () => {
    const res = await fetch(`${service.baseUrl}/stream`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const stream = readStream(res);
    try {
      const first = await stream.next('catalog');
      expect(first.version).toBe(service.store.catalogVersion);
      expect(await stream.next('online')).toEqual({ online: true });

      await service.sync!.syncNow('full');
      await stream.next('sync', (s) => s.running && s.phase === 'full');
      const done = await stream.next('sync', (s) => !s.running && s.lastSuccessAt !== null);
      // The sync into an empty cache wrote each market it holds once.
      expect(done.progress.markets).toBe(service.store.reader.counts().markets);
      // Every change is announced, the last one included.
      const last = service.store.catalogVersion;
      expect(last).toBeGreaterThan(first.version);
      await stream.next('catalog', (c) => c.version === last);

      await fake.close();
      await service.sync!.syncNow('incremental').catch(() => {});
      expect(await stream.next('online', (o) => !o.online)).toEqual({ online: false });
      // The cache keeps answering.
      const markets = (await (await fetch(`${service.baseUrl}/markets?limit=5`)).json()) as unknown[];
      expect(markets).toHaveLength(5);
    } finally {
      await stream.close();
    }
  });

  it('gives a stream that joins later the current values at once', async () => {
    const res = await fetch(`${service.baseUrl}/stream`);
    const stream = readStream(res);
    try {
      expect((await stream.next('catalog')).version).toBe(service.store.catalogVersion);
      expect((await stream.next('sync')).running).toBe(false);
    } finally {
      await stream.close();
    }
  });
});
