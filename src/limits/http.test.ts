/**
 * The inbound limits on the real HTTP faces (ephemeral ports, a FakeClock): throttled answers
 * (429, Retry-After, RateLimit headers, the spec's bodies), headers on admitted answers, keys
 * per API key on authenticated routes, every route counted (unknown paths too), `--no-limits`,
 * the unlimited IPC path, and `limits.status`.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startService, type Service, type ServiceOptions } from '../service/service.ts';
import { FakeClock } from '../testing/fake-clock.ts';
import { DEAD_UPSTREAM } from '../testing/fixtures.ts';
import type { LimitsStatus } from '../contract/index.ts';
import { DEFAULT_LIMITS, parseLimitsTable } from './table.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function service(opts: Partial<ServiceOptions> = {}): Promise<{ s: Service; clock: FakeClock }> {
  const clock = new FakeClock();
  const s = await startService({
    urls: DEAD_UPSTREAM,
    offline: true,
    basePort: 0,
    clobPort: 0,
    limits: { now: clock.now },
    ...opts,
  });
  cleanups.push(() => s.close());
  return { s, clock };
}

/** `n` sequential requests; the statuses in order. */
async function statuses(url: string, n: number, init?: RequestInit): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const r = await fetch(url, init);
    await r.arrayBuffer();
    out.push(r.status);
  }
  return out;
}

describe('throttled answers', () => {
  it('GET /markets: 300 admitted with RateLimit headers, the 301st is a 429 in the catalog family', async () => {
    const { s } = await service();
    const first = await fetch(`${s.baseUrl}/markets`);
    expect(first.status).toBe(200);
    expect(first.headers.get('ratelimit-policy')).toBe('"catalog";q=4000;w=10, "markets";q=300;w=10, "listings";q=900;w=10');
    expect(first.headers.get('ratelimit')).toBe('"catalog";r=3999;t=10, "markets";r=299;t=10, "listings";r=899;t=10');
    expect(new Set(await statuses(`${s.baseUrl}/markets?limit=5`, 299))).toEqual(new Set([200]));
    const r = await fetch(`${s.baseUrl}/markets`);
    expect(r.status).toBe(429);
    expect(r.headers.get('retry-after')).toBe('10');
    expect(r.headers.get('ratelimit')).toContain('"markets";r=0;t=10');
    expect(await r.json()).toEqual({ type: 'too many requests', error: 'rate limit exceeded' });
    // The refused request took nothing: 3,700 catalog requests are left for other routes.
    expect((await fetch(`${s.baseUrl}/events`)).headers.get('ratelimit')).toContain('"catalog";r=3699;');
  });

  it('the clob face and the leaderboard answer `{error}` only; room returns as the window rolls', async () => {
    const { s, clock } = await service();
    expect(await statuses(`${s.clobUrl}/`, 50)).toEqual(Array(50).fill(200));
    const r = await fetch(`${s.clobUrl}/`);
    expect(r.status).toBe(429);
    expect(await r.json()).toEqual({ error: 'rate limit exceeded' });
    await clock.advance(10_000);
    const ok = await fetch(`${s.clobUrl}/`);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toBe('OK');

    const { s: s2 } = await service({
      limits: {
        now: new FakeClock().now,
        table: parseLimitsTable({ windows: [{ name: 'lb', limit: 1, seconds: 10, routes: ['GET /v1/leaderboard'] }] }),
      },
    });
    await fetch(`${s2.baseUrl}/v1/leaderboard`);
    const lb = await fetch(`${s2.baseUrl}/v1/leaderboard`);
    expect(lb.status).toBe(429);
    expect(await lb.json()).toEqual({ error: 'rate limit exceeded' });
  });

  it("counts every route: unknown paths, HEAD as GET, the service's own extra routes", async () => {
    const table = parseLimitsTable({ windows: [{ name: 'all', limit: 3, seconds: 10, routes: ['class:catalog'] }] });
    const { s } = await service({ limits: { now: new FakeClock().now, table } });
    expect((await fetch(`${s.baseUrl}/nowhere`)).status).toBe(404);
    expect((await fetch(`${s.baseUrl}/markets`, { method: 'HEAD' })).status).toBe(200);
    expect((await fetch(`${s.baseUrl}/limits`)).status).toBe(200);
    const r = await fetch(`${s.baseUrl}/status`);
    expect(r.status).toBe(429);
    expect(await r.json()).toEqual({ type: 'too many requests', error: 'rate limit exceeded' });
  });

  it('keys authenticated routes by API key, the others by address', async () => {
    const table = parseLimitsTable({ windows: [{ name: 'orders', limit: 2, seconds: 10, routes: ['GET /data/orders', 'GET /book'] }] });
    const { s } = await service({ limits: { now: new FakeClock().now, table } });
    const as = (key: string) => ({ headers: { POLY_API_KEY: key } });
    // Unsigned, so 401: refused by auth, but counted first (the limiter runs before anything).
    expect(await statuses(`${s.clobUrl}/data/orders`, 3, as('key-a'))).toEqual([401, 401, 429]);
    expect(await statuses(`${s.clobUrl}/data/orders`, 1, as('key-b'))).toEqual([401]);
    expect(await statuses(`${s.clobUrl}/data/orders`, 3, { headers: { KUEST_API_KEY: 'key-c' } })).toEqual([401, 401, 429]);
    // A public route ignores the header: one window for the address, whatever key is sent.
    expect(await statuses(`${s.clobUrl}/book?token_id=1`, 1, as('key-d'))).toEqual([500]);
    expect(await statuses(`${s.clobUrl}/book?token_id=1`, 2, as('key-e'))).toEqual([500, 429]);
  });
});

describe('off switches', () => {
  it('--no-limits (inbound: false): nothing is refused and no RateLimit headers are sent', async () => {
    const { s } = await service({ limits: { inbound: false } });
    expect(s.limiter).toBeUndefined();
    const all = await statuses(`${s.baseUrl}/markets?limit=1`, 320);
    expect(all.every((x) => x === 200)).toBe(true);
    const r = await fetch(`${s.baseUrl}/markets`);
    expect(r.headers.get('ratelimit')).toBeNull();
    const st = (await (await fetch(`${s.baseUrl}/limits`)).json()) as LimitsStatus;
    expect(st.inbound).toBe(false);
  });

  it('the in-app IPC path (dispatch) is never limited', async () => {
    const { s } = await service();
    expect(await statuses(`${s.baseUrl}/markets`, 301)).toContain(429);
    for (let i = 0; i < 400; i++) await s.dispatch('markets.list', { limit: '1' });
    for (let i = 0; i < 60; i++) expect(await s.dispatch('clob.health', {})).toBe('OK');
  });
});

describe('limits.status', () => {
  it('reports the table in force, the inbound switch and the scheduler per host', async () => {
    const { s } = await service({ offline: false, autoSync: false });
    const st = (await (await fetch(`${s.baseUrl}/limits`)).json()) as LimitsStatus;
    expect(st.inbound).toBe(true);
    expect(st.windows.map((w) => w.name)).toEqual(DEFAULT_LIMITS.windows.map((w) => w.name));
    expect(st.outbound!.margin).toBe(0.05);
    const gamma = st.outbound!.hosts.find((h) => h.host === 'gamma')!;
    expect(gamma).toMatchObject({ online: true, circuit: 'closed', queued: { user: 0, background: 0 }, inFlight: 0 });
    expect(gamma.windows).toEqual([{ name: 'catalog', limit: 4000, budget: 3800, used: 0, remaining: 3800, resetS: 0 }]);
    const clob = st.outbound!.hosts.find((h) => h.host === 'clob')!;
    expect(clob.windows.map((w) => w.name)).toEqual(['trading']);
    expect(await s.dispatch('limits.status', {})).toEqual(st);
  });
});
