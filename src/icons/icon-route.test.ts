import { readdirSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSyntheticCatalog, startFakeUpstream, type FakeUpstream } from '../fake-upstream/index.ts';
import { startService, type Service } from '../http/server.ts';
import { DEAD_UPSTREAM, tempDir } from '../testing/fixtures.ts';
import type { Market } from '../contract/types.ts';

/** GET on the service's base face, bytes and headers. */
async function get(service: Service, p: string) {
  const res = await fetch(`${service.baseUrl}${p}`);
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    cache: res.headers.get('cache-control'),
    res,
    bytes: Buffer.from(await res.arrayBuffer()),
  };
}

describe('GET /icons/:kind/:id', () => {
  const dir = tempDir('marketdesk-icon-route-');
  let fake: FakeUpstream;
  let service: Service;
  let markets: Market[];

  beforeAll(async () => {
    fake = await startFakeUpstream({ catalog: createSyntheticCatalog({ markets: 60, seed: 5 }), images: 'local' });
    service = await startService({ dataDir: dir.dir, basePort: 0, clobPort: 0, urls: { gamma: fake.url, clob: fake.url, data: fake.url } });
    await service.sync!.syncNow('full');
    markets = JSON.parse((await get(service, '/markets?limit=40')).bytes.toString()) as Market[];
    expect(markets.length).toBeGreaterThan(4);
  });

  afterAll(async () => {
    await service.close();
    await fake.close();
    dir.cleanup();
  });

  it('answers a cached icon as a small WebP with long cache headers, fetching its picture once', async () => {
    const m = markets[0]!;
    const a = await get(service, `/icons/market/${m.id}`);
    expect(a.status).toBe(200);
    expect(a.type).toBe('image/webp');
    expect(a.cache).toBe('public, max-age=86400, immutable');
    expect(a.res.headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/);
    const meta = await sharp(a.bytes).metadata();
    expect([meta.width, meta.height]).toEqual([64, 64]);
    const b = await get(service, `/icons/market/${m.id}`);
    expect(b.bytes.equals(a.bytes)).toBe(true);
    const name = new URL(m.icon ?? m.image!).pathname;
    expect(fake.requests.entries.filter((e) => e.path === name)).toHaveLength(1);
  });

  it('answers an event icon too', async () => {
    const eventId = markets[1]!.events![0]!.id;
    const e = await get(service, `/icons/event/${eventId}`);
    expect([e.status, e.type]).toEqual([200, 'image/webp']);
  });

  it('is the spec 404 for an unknown kind or id', async () => {
    for (const p of ['/icons/market/999999999', '/icons/event/999999999', '/icons/market/abc', '/icons/tag/1']) {
      const r = await get(service, p);
      expect(r.status, p).toBe(404);
      expect(JSON.parse(r.bytes.toString()), p).toMatchObject({ type: 'not found error' });
    }
  });

  it('restarted offline on the same data dir: cached icons are served, missing ones get the placeholder', async () => {
    const cached = await get(service, `/icons/market/${markets[2]!.id}`);
    expect(cached.type).toBe('image/webp');
    await service.close();
    await fake.close();
    // The fake's log survives close(): it says which pictures were fetched.
    service = await startService({ dataDir: dir.dir, basePort: 0, clobPort: 0, offline: true, urls: DEAD_UPSTREAM });
    const again = await get(service, `/icons/market/${markets[2]!.id}`);
    expect([again.status, again.type]).toEqual([200, 'image/webp']);
    expect(again.bytes.equals(cached.bytes)).toBe(true);
    // A market whose picture no earlier request fetched (markets of one event may share it).
    const fetched = new Set(fake.requests.entries.map((e) => e.path));
    const uncached = markets.find((m) => !fetched.has(new URL(m.icon ?? m.image!).pathname));
    expect(uncached).toBeDefined();
    const missing = await get(service, `/icons/market/${uncached!.id}`);
    expect([missing.status, missing.type, missing.cache]).toEqual([200, 'image/svg+xml', 'max-age=30']);
    expect(missing.bytes.toString()).toContain('<svg');
    expect(readdirSync(path.join(dir.dir, 'icons')).every((f) => /^[0-9a-f]{64}\.webp$/.test(f))).toBe(true);
  });
});
