/**
 * The fake catalog's mutations (mutations.ts): each one changes what `/markets` and `/events`
 * serve and bumps `updatedAt` (so an incremental sync sees it); a bad one is a 400 over
 * `POST /_fake/mutate` and changes nothing after the mutations before it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createSyntheticCatalog } from './catalog.ts';
import { MUTATE_PATH, mutate } from './mutations.ts';
import { startFakeUpstream, type FakeUpstream } from './server.ts';

const servers: FakeUpstream[] = [];
afterEach(async () => {
  while (servers.length) await servers.pop()!.close();
});

const openMarket = (c: ReturnType<typeof createSyntheticCatalog>) => c.marketRecords().find((r) => r.obj.closed !== true)!;

describe('fake upstream mutations', () => {
  it('moves a price, resolves, edits rules and tags, opens a market, each with a newer updatedAt', () => {
    const c = createSyntheticCatalog({ markets: 50, seed: 3 });
    const m = openMarket(c);
    const before = String(m.obj.updatedAt);
    mutate(c, { op: 'price', id: m.id, price: 0.73 });
    expect(c.getMarket(m.id)).toMatchObject({ lastTradePrice: 0.73, bestBid: 0.72, bestAsk: 0.74 });
    expect(JSON.parse(String(c.getMarket(m.id)!.outcomePrices))).toEqual(['0.73', '0.27']);
    expect(String(c.getMarket(m.id)!.updatedAt) > before).toBe(true);
    mutate(c, { op: 'resolve', id: m.id, winner: 1 });
    expect(c.getMarket(m.id)).toMatchObject({ closed: true, umaResolutionStatus: 'resolved', outcomePrices: '["0","1"]' });
    const eventId = m.eventIds[0]!;
    mutate(c, { op: 'rules', kind: 'event', id: eventId, description: 'New rules' });
    expect(c.getEvent(eventId)!.description).toBe('New rules');
    const slug = String(c.tags()[0]!.slug);
    mutate(c, { op: 'tags', id: eventId, tags: [slug] });
    expect(c.getEvent(eventId)!.tags!.map((t) => t.slug)).toEqual([slug]);
    mutate(c, { op: 'openMarket', id: '880001', eventId, question: 'New?' });
    expect(c.getMarket('880001')).toMatchObject({ question: 'New?', closed: false });
    expect(c.getEvent(eventId)!.markets!.some((x) => x.id === '880001')).toBe(true);
  });

  it('answers a bad mutation with a 400 over HTTP, after applying the ones before it', async () => {
    const c = createSyntheticCatalog({ markets: 20, seed: 4 });
    const fake = await startFakeUpstream({ catalog: c });
    servers.push(fake);
    const m = openMarket(c);
    const post = (body: unknown) => fetch(fake.url + MUTATE_PATH, { method: 'POST', body: JSON.stringify(body) });
    const r = await post([
      { op: 'price', id: m.id, price: 0.2 },
      { op: 'price', id: '999999999', price: 0.5 },
    ]);
    expect(r.status).toBe(400);
    expect(await r.json()).toMatchObject({ error: 'unknown market 999999999', applied: [{ op: 'price', id: m.id }] });
    expect(JSON.parse(String(c.getMarket(m.id)!.outcomePrices))[0]).toBe('0.2');
    expect((await post({ op: 'price', id: m.id, price: 2 })).status).toBe(400);
    expect((await fetch(fake.url + MUTATE_PATH, { method: 'POST', body: '{' })).status).toBe(400);
    const ok = await post({ op: 'close', id: m.id });
    expect(ok.status).toBe(200);
    expect(c.getMarket(m.id)!.closed).toBe(true);
  });
});
