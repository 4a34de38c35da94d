import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSyntheticCatalog, startFakeUpstream, type FakeUpstream } from '../src/fake-upstream/index.ts';
import { WEB_UI_CSP } from '../src/http/web-ui.ts';
import { startService, type Service } from '../src/http/server.ts';
import type { Market } from '../src/contract/types.ts';
import { rendererCspHeader, rendererCspMeta } from './csp.ts';
import { iconResponse, parseIconUrl, type Invoke } from './icon-protocol.ts';
import { relay } from './relay.ts';

describe('the marketdesk-icon: scheme', () => {
  let fake: FakeUpstream;
  let service: Service;
  let invoke: Invoke;
  let market: Market;

  beforeAll(async () => {
    fake = await startFakeUpstream({ catalog: createSyntheticCatalog({ markets: 20, seed: 9 }), images: 'local' });
    // No HTTP faces: the desktop app may run without them, and icons must still show.
    service = await startService({ http: false, urls: { gamma: fake.url, clob: fake.url, data: fake.url } });
    await service.sync!.syncNow('full');
    invoke = (op, params) => relay(service.dispatch, op, params);
    const listed = await invoke('markets.list', { limit: 1 });
    market = (listed as { ok: true; result: Market[] }).result[0]!;
  });

  afterAll(async () => {
    await service.close();
    await fake.close();
  });

  it('reads kind and id from the URL', () => {
    expect(parseIconUrl('marketdesk-icon://market/123')).toEqual({ kind: 'market', id: '123' });
    expect(parseIconUrl('marketdesk-icon://event/9')).toEqual({ kind: 'event', id: '9' });
    expect(parseIconUrl('https://market/123')).toBeNull();
    expect(parseIconUrl('marketdesk-icon://market/1/2')).toBeNull();
    expect(parseIconUrl('marketdesk-icon://market/')).toBeNull();
  });

  it("answers the core's icon over IPC, with its headers", async () => {
    const res = await iconResponse(`marketdesk-icon://market/${market.id}`, invoke);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/webp');
    expect(res.headers.get('cache-control')).toBe('public, max-age=86400, immutable');
    const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
    expect([meta.format, meta.width]).toEqual(['webp', 64]);
  });

  it("passes the core's 404 on, and shows the placeholder when the core cannot answer", async () => {
    const missing = await iconResponse('marketdesk-icon://market/999999999', invoke);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ type: 'not found error', error: 'id not found' });
    expect((await iconResponse('marketdesk-icon://tag/1', invoke)).status).toBe(404);
    const down = await iconResponse(`marketdesk-icon://market/${market.id}`, () => Promise.resolve({ ok: false, status: 503, body: {} }));
    expect([down.status, down.headers.get('content-type')]).toEqual([200, 'image/svg+xml']);
    const gone = await iconResponse(`marketdesk-icon://market/${market.id}`, () => Promise.reject(new Error('no core')));
    expect([gone.status, gone.headers.get('content-type')]).toEqual([200, 'image/svg+xml']);
  });

  it('the CSPs allow images from exactly the icon sources', () => {
    const imgSrc = (csp: string) =>
      csp
        .split(';')
        .map((d) => d.trim())
        .find((d) => d.startsWith('img-src'));
    expect(imgSrc(rendererCspMeta())).toBe("img-src 'self' marketdesk-icon:");
    expect(imgSrc(rendererCspHeader(false))).toBe("img-src 'self' marketdesk-icon:");
    expect(imgSrc(WEB_UI_CSP)).toBe("img-src 'self'");
  });
});
