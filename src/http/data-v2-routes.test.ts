/**
 * The Data API v2 account reads (`/v2/positions`, `/v2/activity`, `/v2/trades`, `/v2/value`) on
 * the base face through real HTTP, against the fake Data API: each answers exactly as the fake
 * does (body and status), cursor paging walks the same pages, each call reaches the upstream
 * once (then the short cache), an upstream 400 passes back unchanged, and offline they answer
 * as the other forwarded reads do.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSyntheticCatalog, startFakeUpstream, type FakeUpstream } from '../fake-upstream/index.ts';
import { startService, type Service } from './server.ts';

const USER = '0x5c0ffee000000000000000000000000000d15ea5';

let up: FakeUpstream;
let s: Service;
beforeAll(async () => {
  up = await startFakeUpstream({ catalog: createSyntheticCatalog({ markets: 300, seed: 9 }), dataV2: { user: USER, positions: 7 } });
  s = await startService({
    urls: { gamma: up.url, clob: up.url, data: up.url },
    basePort: 0,
    clobPort: 0,
    client: { baseDelayMs: 1, maxDelayMs: 5, maxRetries: 0 },
  });
});
afterAll(async () => {
  await s?.close();
  await up?.close();
});

async function get(base: string, pathAndQuery: string): Promise<{ status: number; body: unknown; text: string }> {
  const res = await fetch(`${base}${pathAndQuery}`);
  const text = await res.text();
  return { status: res.status, text, body: JSON.parse(text) };
}

const hits = (path: string) => up.requests.count((e) => e.path === path);

describe('Data API v2 reads on the base face', () => {
  const cases = [
    `/v2/positions?user=${USER}`,
    `/v2/positions?user=${USER}&status=CLOSED`,
    `/v2/activity?user=${USER}&limit=3`,
    `/v2/trades?user=${USER}&limit=4`,
    '/v2/trades?limit=2',
    `/v2/value?user=${USER}`,
    '/v2/value?user=0x0000000000000000000000000000000000000001',
  ];

  it.each(cases)('%s answers exactly what the fake does, reaching it once', async (q) => {
    const path = q.split('?')[0]!;
    const direct = await get(up.url, q);
    expect(direct.status).toBe(200);
    const before = hits(path);
    const via = await get(s.baseUrl!, q);
    expect(via.status).toBe(direct.status);
    expect(via.body).toEqual(direct.body);
    expect(hits(path) - before).toBe(1);
    // Again at once: the short cache answers, the upstream is not asked again.
    const again = await get(s.baseUrl!, q);
    expect(again.body).toEqual(direct.body);
    expect(hits(path) - before).toBe(1);
  });

  it('is not served on the clob face', async () => {
    const res = await fetch(`${s.clobUrl}/v2/positions?user=${USER}`);
    expect(res.status).toBe(404);
    await res.body?.cancel();
  });

  it.each(['positions', 'activity', 'trades'])('cursor paging of /v2/%s walks the same pages', async (kind) => {
    const walk = async (base: string) => {
      const pages: unknown[] = [];
      let cursor: string | null = null;
      do {
        const q = `/v2/${kind}?user=${USER}&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
        const r = await get(base, q);
        expect(r.status).toBe(200);
        pages.push(r.body);
        cursor = (r.body as { pagination: { next_cursor: string | null } }).pagination.next_cursor;
      } while (cursor !== null && pages.length < 20);
      return pages;
    };
    const direct = await walk(up.url);
    expect(direct.length).toBeGreaterThan(2);
    const before = hits(`/v2/${kind}`);
    const via = await walk(s.baseUrl!);
    expect(via).toEqual(direct);
    // Every page is a new key (no earlier test asked limit=2 with a user), so one upstream read each.
    expect(hits(`/v2/${kind}`) - before).toBe(direct.length);
  });

  it.each([[`/v2/positions?user=${USER}&limit=abc`], [`/v2/activity?user=${USER}&cursor=not-a-cursor`], ['/v2/positions'], ['/v2/value']])(
    '%s: the upstream 400 passes back with its body',
    async (q) => {
      const direct = await get(up.url, q);
      expect(direct.status).toBe(400);
      const via = await get(s.baseUrl!, q);
      expect(via.status).toBe(400);
      expect(via.body).toEqual(direct.body);
    },
  );

  it('a parameter marketdesk does not declare is not forwarded', async () => {
    const q = `/v2/trades?user=${USER}&limit=5&nonsense=1`;
    const before = up.requests.entries.length;
    const via = await get(s.baseUrl!, q);
    expect(via.status).toBe(200);
    const sent = up.requests.entries.slice(before).find((e) => e.path === '/v2/trades');
    expect(sent).toBeDefined();
    expect(Object.keys(sent!.query).sort()).toEqual(['limit', 'user']);
    expect(via.body).toEqual((await get(up.url, `/v2/trades?user=${USER}&limit=5`)).body);
  });
});

describe('Data API v2 reads offline', () => {
  it('answers 500 internal_error with nothing cached, and never asks the upstream', async () => {
    const off = await startService({
      urls: { gamma: up.url, clob: up.url, data: up.url },
      basePort: 0,
      clobPort: 0,
      offline: true,
    });
    try {
      const before = hits('/v2/positions');
      const r = await get(off.baseUrl!, `/v2/positions?user=${USER}`);
      expect(r.status).toBe(500);
      expect(r.body).toEqual({ error: 'internal_error' });
      expect(hits('/v2/positions')).toBe(before);
    } finally {
      await off.close();
    }
  });
});
