/**
 * The outbound scheduler in front of a fake upstream that enforces section 8 (real time, real
 * HTTP): a full sync over several 10 s windows gets no 429 and keeps the binding window at
 * least 90% used; with random 429s and 500s the sync still ends with the same catalog; user
 * requests go before queued sync requests, and a cancelled queued request never leaves.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_NOW } from '../fake-upstream/index.ts';
import { dumpEvents, dumpMarkets, expectedCache } from '../testing/sync-harness.ts';
import { HORIZON_MS, limitedWorld, measure, type LimitedSync } from '../testing/limited-sync.ts';
import { settle } from '../testing/fake-clock.ts';
import { parseLimitsTable } from './table.ts';

const worlds: LimitedSync[] = [];
afterEach(async () => {
  while (worlds.length) await worlds.pop()!.close();
});

async function world(opts: Parameters<typeof limitedWorld>[0]): Promise<LimitedSync> {
  const w = await limitedWorld(opts);
  worlds.push(w);
  return w;
}

const ids = (xs: { id: string }[]) => xs.map((x) => x.id).sort((a, b) => Number(a) - Number(b));

describe('sync at the upstream limit', () => {
  // ~1,200 listing requests (5 items a page): about three 10 s windows of GET /markets.
  it('completes with zero 429s and uses at least 90% of the binding window', async () => {
    const w = await world({ markets: 5000, seed: 3, pageSize: 5 });
    await w.sync.syncNow('full');
    const r = measure(w, 5);
    expect(r.limited429).toBe(0);
    expect(w.client.stats.throttled).toBe(0);
    // More than two windows' worth of GET /markets: the sync had to wait for the window to roll.
    expect(r.groups.markets.requests).toBeGreaterThan(2 * 300);
    expect(r.binding.name).toBe('markets');
    expect(r.binding.ratio).toBeGreaterThanOrEqual(0.9);
    // Never over a row, by the fake's own count (it would have answered 429).
    expect(r.groups.markets.meanPer10s).toBeLessThanOrEqual(300);
    const want = expectedCache(w.catalog, DEFAULT_NOW - HORIZON_MS);
    expect(ids(dumpMarkets(w.store))).toEqual(ids(want.markets));
    expect(ids(dumpEvents(w.store))).toEqual(ids(want.events));
  });

  it('with 10% 429 (Retry-After) and 5% 500 at random, the sync ends with the same catalog', async () => {
    const clean = await world({ markets: 2000, seed: 4 });
    await clean.sync.syncNow('full');
    const noisy = await world({ markets: 2000, seed: 4 });
    noisy.fake.faults.random({ seed: 9, rate429: 0.1, rate500: 0.05, retryAfter: 1 });
    await noisy.sync.syncNow('full');
    const r = measure(noisy, 100);
    expect(r.faults).toBeGreaterThan(0);
    expect(noisy.fake.faults.fired.some((f) => f.kind === '429')).toBe(true);
    expect(noisy.fake.faults.fired.some((f) => f.kind === '500')).toBe(true);
    expect(r.limited429).toBe(0);
    expect(noisy.scheduler.isOnline('gamma')).toBe(true);
    expect(dumpMarkets(noisy.store)).toEqual(dumpMarkets(clean.store));
    expect(dumpEvents(noisy.store)).toEqual(dumpEvents(clean.store));
    expect(noisy.store.reader.counts()).toEqual(clean.store.reader.counts());
  });
});

describe('priorities and cancellation through the client', () => {
  // GET /markets: 4 a second, so the sync's walk always has a request waiting for it.
  const table = parseLimitsTable({ windows: [{ name: 'markets', limit: 4, seconds: 1, routes: ['GET /markets'] }] });

  it("a user's request is sent before the sync's queued ones", async () => {
    const w = await world({ markets: 400, pageSize: 5, limits: 'off', scheduler: { table, margin: 0 } });
    const admitted: string[] = [];
    // Record the order in which the scheduler lets GET /markets requests go.
    const acquire = w.scheduler.acquire.bind(w.scheduler);
    w.scheduler.acquire = (host, path, opts) =>
      acquire(host, path, opts).then((release) => {
        if (opts.group === 'GET /markets') admitted.push(opts.priority ?? 'user');
        return release;
      });
    const running = w.sync.syncNow('full').catch(() => {});
    while (w.scheduler.status().hosts[0]!.queued.background === 0) await settle();
    const before = admitted.length;
    const mine = await w.client.request<unknown[]>('gamma', '/markets', {
      query: { limit: 1, marker: 'user' },
      group: 'GET /markets',
      priority: 'user',
    });
    expect(mine).toHaveLength(1);
    expect(w.fake.requests.count((e) => e.query['marker'] === 'user')).toBe(1);
    expect(admitted.slice(before)[0]).toBe('user');
    expect(admitted.slice(0, before).every((p) => p === 'background')).toBe(true);
    await w.sync.stop();
    await running;
  });

  it('a cancelled request waiting for its budget is never sent', async () => {
    const w = await world({ markets: 100, limits: 'off', scheduler: { table, margin: 0 } });
    for (let i = 0; i < 4; i++) await w.client.request('gamma', '/markets', { query: { limit: 1 }, group: 'GET /markets' });
    const ac = new AbortController();
    const waiting = w.client.request('gamma', '/markets', { query: { marker: 'cancelled' }, group: 'GET /markets', signal: ac.signal });
    await settle();
    expect(w.scheduler.status().hosts[0]!.queued.user).toBe(1);
    ac.abort(new Error('closed the panel'));
    await expect(waiting).rejects.toThrow('closed the panel');
    expect(w.scheduler.status().hosts[0]!.queued.user).toBe(0);
    // The next request goes when the window has room; the cancelled one never reached the fake.
    await w.client.request('gamma', '/markets', { query: { limit: 1 }, group: 'GET /markets' });
    expect(w.fake.requests.count((e) => e.query['marker'] === 'cancelled')).toBe(0);
    expect(w.fake.requests.count((e) => e.path === '/markets')).toBe(5);
  });
});
