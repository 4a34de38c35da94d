import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Market } from '../contract/index.ts';
import { startService, type Service } from './server.ts';
import { DEAD_UPSTREAM, fixtureEvents, fixtureMarkets, fixtureTags } from '../testing/fixtures.ts';
import { ResponseCache, cacheKey } from './response-cache.ts';

describe('cacheKey', () => {
  it('ignores parameter order and single-element arrays', () => {
    expect(cacheKey('markets.list', { limit: '5', order: 'volume' })).toBe(cacheKey('markets.list', { order: 'volume', limit: ['5'] }));
    expect(cacheKey('markets.list', { limit: '5' })).not.toBe(cacheKey('events.list', { limit: '5' }));
    expect(cacheKey('markets.list', { a: 'x&b=y' })).not.toBe(cacheKey('markets.list', { a: 'x', b: 'y' }));
  });

  it('serves an entry only for the version it was stored under', () => {
    const c = new ResponseCache();
    c.set('k', 1, '[1]');
    expect(c.get('k', 1)).toBe('[1]');
    expect(c.get('k', 2)).toBeUndefined();
  });
});

describe('cached catalog answers over HTTP', () => {
  let s: Service;
  beforeAll(async () => {
    s = await startService({ urls: DEAD_UPSTREAM, offline: true, basePort: 0, clobPort: 0 });
    s.store.apply({ tags: fixtureTags(), events: fixtureEvents() });
    s.store.apply({ markets: fixtureMarkets() });
  });
  afterAll(() => s.close());

  const get = async (path: string) => {
    const r = await fetch(s.baseUrl + path);
    return { status: r.status, body: await r.text() };
  };

  it('answers a repeated query identically and follows a catalog change at once', async () => {
    const path = '/markets?limit=3&order=volume&ascending=false';
    const first = await get(path);
    expect((await get(path)).body).toBe(first.body);
    const top = (JSON.parse(first.body) as Market[])[0]!;
    const source = fixtureMarkets().find((m) => m.id === top.id)!;
    s.store.apply({ markets: [{ ...source, question: 'Changed after caching?', updatedAt: '2099-01-01T00:00:00Z' }] });
    const after = JSON.parse((await get(path)).body) as Market[];
    expect(after[0]!.question).toBe('Changed after caching?');
  });

  it('never caches an error as an answer', async () => {
    expect((await get('/markets?limit=0')).status).toBe(400);
    expect((await get('/markets?limit=0')).status).toBe(400);
    expect((await get('/markets/999999999')).status).toBe(404);
  });
});
