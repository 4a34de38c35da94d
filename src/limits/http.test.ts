/**
 * The inbound limits on the real HTTP faces (ephemeral ports, a FakeClock): throttled answers
 * (429, Retry-After, RateLimit headers, the spec's bodies), headers on admitted answers, keys
 * per verified API key on authenticated routes, every route counted (unknown paths too), `--no-limits`,
 * the unlimited IPC path, and `limits.status`.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startService, type Service, type ServiceOptions } from '../http/server.ts';
import { FakeClock } from '../testing/fake-clock.ts';
import { DEAD_UPSTREAM } from '../testing/fixtures.ts';
import type { LimitsStatus } from '../contract/index.ts';
import { DEFAULT_LIMITS, parseLimitsTable } from './table.ts';
import { l2Headers } from '../auth/l2.ts';
import type { Credentials } from '../auth/credentials.ts';

const CREDS: Credentials = {
  apiKey: '3f0b6c2e-91d4-4a7e-b8c5-0d2e6f1a9b47',
  secret: 'wN2-kq8_Zx4Lr7Tb1Yc9Vd3Fe6Gh0Jm5Pa_Qs-Ut8Io=',
  passphrase: 'e4c1f0b7a9d25c6e8f3b1a0d9c7e5f2a4b6d8c0e1f3a5b7c9d2e4f6a8b0c1d3e',
  address: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
};
/** A `GET /data/orders` signed with the configured credentials (one signature serves every page). */
const signed = (): RequestInit => ({ headers: l2Headers(CREDS, { method: 'GET', path: '/data/orders' }) });

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

  it('keys authenticated routes by the verified API key, everything else (unsigned requests too) by address', async () => {
    const table = parseLimitsTable({ windows: [{ name: 'orders', limit: 2, seconds: 10, routes: ['GET /data/orders', 'GET /book'] }] });
    const { s } = await service({ credentials: CREDS, limits: { now: new FakeClock().now, table } });
    const as = (key: string) => ({ headers: { POLY_API_KEY: key } });
    // Unsigned, so 401, and counted against the address whatever key they name.
    expect(await statuses(`${s.clobUrl}/data/orders`, 2, as('key-a'))).toEqual([401, 401]);
    expect(await statuses(`${s.clobUrl}/data/orders`, 1, as('key-b'))).toEqual([429]);
    expect(await statuses(`${s.clobUrl}/data/orders`, 1, { headers: { KUEST_API_KEY: 'key-c' } })).toEqual([429]);
    // A public route shares the address's window.
    expect(await statuses(`${s.clobUrl}/book?token_id=1`, 1, as('key-d'))).toEqual([429]);
    // The signed requests have their own window.
    expect(await statuses(`${s.clobUrl}/data/orders`, 3, signed())).toEqual([200, 200, 429]);
  });
});

describe('limits per verified identity (issue 12)', () => {
  const ordersTable = parseLimitsTable({ windows: [{ name: 'orders', limit: 5, seconds: 10, routes: ['GET /data/orders'] }] });

  it("unsigned requests carrying the user's API key are refused and leave the user's budget alone", async () => {
    const { s } = await service({ credentials: CREDS, limits: { now: new FakeClock().now, table: ordersTable } });
    // No secret needed to send these: the API key alone travels in every request.
    const unsigned = { headers: { POLY_API_KEY: CREDS.apiKey, POLY_ADDRESS: CREDS.address } };
    expect(await statuses(`${s.clobUrl}/data/orders`, 7, unsigned)).toEqual([401, 401, 401, 401, 401, 429, 429]);
    expect(s.limiter!.usage(`key:${CREDS.apiKey}`)[0]!.used).toBe(0);
    expect(await statuses(`${s.clobUrl}/data/orders`, 5, signed())).toEqual([200, 200, 200, 200, 200]);
    expect(s.limiter!.usage(`key:${CREDS.apiKey}`)[0]!.used).toBe(5);
  });

  it('unsigned requests with a new random key each are throttled like any other caller', async () => {
    const { s } = await service({ credentials: CREDS, limits: { now: new FakeClock().now, table: ordersTable } });
    const out: number[] = [];
    for (let i = 0; i < 8; i++) out.push(...(await statuses(`${s.clobUrl}/data/orders`, 1, { headers: { POLY_API_KEY: `random-${i}` } })));
    expect(out).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
    expect(s.limiter!.clients).toBe(1);
  });

  it('a POST is counted once its signed body is read; the signing family names the key, not the other one', async () => {
    const table = parseLimitsTable({ windows: [{ name: 'writes', limit: 2, seconds: 10, routes: ['POST /order'] }] });
    const { s } = await service({ credentials: CREDS, limits: { now: new FakeClock().now, table } });
    const body = JSON.stringify({ order: { salt: 1 }, owner: CREDS.apiKey, orderType: 'GTC' });
    const post = (headers: Record<string, string>) => ({
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', ...headers },
    });
    const good = l2Headers(CREDS, { method: 'POST', path: '/order', body }, { family: 'KUEST' });
    // A complete POLY set naming another key beside a valid KUEST signature.
    const decoy = { ...l2Headers({ ...CREDS, apiKey: 'decoy' }, { method: 'POST', path: '/order', body }), POLY_SIGNATURE: 'x' };
    const wrongBody = l2Headers(CREDS, { method: 'POST', path: '/order', body: '{}' });
    // Offline, so an authenticated write answers 500; what matters is where it was counted.
    expect(await statuses(`${s.clobUrl}/order`, 2, post({ ...good, ...decoy }))).toEqual([500, 500]);
    expect(s.limiter!.usage(`key:${CREDS.apiKey}`)[0]!.used).toBe(2);
    expect(s.limiter!.usage('key:decoy')[0]!.used).toBe(0);
    expect(await statuses(`${s.clobUrl}/order`, 3, post(wrongBody))).toEqual([401, 401, 429]);
    expect(s.limiter!.usage(`key:${CREDS.apiKey}`)[0]!.used).toBe(2);
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
