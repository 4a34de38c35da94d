/**
 * Writes over HTTP (issue 16): the watchlist's POST and DELETE (and every later contract write)
 * need the local API token in X-Marketdesk-Token, a loopback Host and no foreign Origin; each
 * refusal changes nothing and counts nothing. Reads stay open; the web UI's page carries the
 * token only to this machine; the token is read over IPC, never HTTP. Real faces on ephemeral
 * ports, raw HTTP so every header (Host included) is exactly what is sent.
 */
import http from 'node:http';
import { writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { ROUTES, isLocalWrite, opNames } from '../contract/index.ts';
import { startService, type Service, type ServiceOptions } from './server.ts';
import { FakeClock } from '../testing/fake-clock.ts';
import { DEAD_UPSTREAM, fixtureEvents, fixtureMarkets, fixtureTags, tempDir } from '../testing/fixtures.ts';
import { API_TOKEN_HEADER } from '../contract/local-api-ops.ts';

const MARKETS = fixtureMarkets();
const M = MARKETS[0]!.id;
const MISSING = { type: 'unauthorized', error: 'missing X-Marketdesk-Token header: a write needs the local API token' };
const WRONG = { type: 'unauthorized', error: 'wrong X-Marketdesk-Token header' };
const PAGE = '<!doctype html><html><head><title>marketdesk</title></head><body></body></html>';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

function dir(): string {
  const d = tempDir();
  cleanups.push(d.cleanup);
  return d.dir;
}

async function service(opts: Partial<ServiceOptions> = {}): Promise<Service> {
  const webRoot = dir();
  writeFileSync(`${webRoot}/index.html`, PAGE);
  const s = await startService({
    urls: DEAD_UPSTREAM,
    offline: true,
    basePort: 0,
    clobPort: 0,
    webRoot,
    dataDir: dir(),
    persistDelayMs: 0,
    limits: { now: new FakeClock().now },
    ...opts,
  });
  cleanups.push(() => s.close());
  s.store.apply({ tags: fixtureTags(), events: fixtureEvents() });
  s.store.apply({ markets: MARKETS });
  return s;
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One request to the base face over 127.0.0.1 with exactly these headers (Host defaults to the face's). */
function raw(s: Service, path: string, init: { method?: string; headers?: Record<string, string> } = {}): Promise<Answer> {
  const port = new URL(s.baseUrl!).port;
  const headers = { host: `127.0.0.1:${port}`, ...init.headers };
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, method: init.method ?? 'GET', headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const json = (a: Answer): unknown => JSON.parse(a.body);
const token = (s: Service) => ({ 'x-marketdesk-token': s.apiToken.token });
const JSON_TYPE = { 'content-type': 'application/json' };
const add = (s: Service, headers: Record<string, string>) => raw(s, `/watchlist?kind=market&id=${M}`, { method: 'POST', headers });
const remove = (s: Service, headers: Record<string, string>) => raw(s, `/watchlist/market/${M}`, { method: 'DELETE', headers });
const listed = async (s: Service) => (json(await raw(s, '/watchlist')) as { items: { id: string }[] }).items.map((i) => i.id);

describe('which operations are writes', () => {
  it('guards every base-face operation that is not a GET, and nothing with its own auth or on the clob face', () => {
    const writes = opNames.filter((n) => isLocalWrite(ROUTES[n]));
    expect(writes).toEqual(expect.arrayContaining(['watchlist.add', 'watchlist.remove']));
    for (const n of writes) expect(ROUTES[n].method, n).not.toBe('GET');
    for (const n of ['watchlist.list', 'markets.list', 'order.place', 'order.cancel', 'books.post', 'credentials.set'] as const) {
      expect(isLocalWrite(ROUTES[n]), n).toBe(false);
    }
  });
});

describe('a write over HTTP', () => {
  it('without the token is refused (401), changes nothing and counts nothing', async () => {
    const s = await service();
    const a = await add(s, JSON_TYPE);
    expect([a.status, json(a)]).toEqual([401, MISSING]);
    expect(await s.dispatch('watchlist.list', {})).toEqual({ items: [] });
    await s.dispatch('watchlist.add', { kind: 'market', id: M });
    const d = await remove(s, {});
    expect([d.status, json(d)]).toEqual([401, MISSING]);
    // Refused before the rate limiter: nothing was counted for anyone.
    expect(s.limiter!.clients).toBe(0);
    expect(await listed(s)).toEqual([M]);
  });

  it('with a wrong token is refused (401) and changes nothing', async () => {
    const s = await service();
    const wrongs = ['x', `${s.apiToken.token.slice(1)}A`, s.apiToken.token.slice(0, 42), `${s.apiToken.token}A`];
    for (const wrong of wrongs) {
      const a = await add(s, { ...JSON_TYPE, 'x-marketdesk-token': wrong });
      expect([wrong, a.status, json(a)]).toEqual([wrong, 401, WRONG]);
    }
    expect(await listed(s)).toEqual([]);
  });

  it('with the token is done, from a script (no Origin) or the web UI (its own Origin), under each loopback name', async () => {
    const s = await service();
    const port = new URL(s.baseUrl!).port;
    expect((await add(s, { ...JSON_TYPE, ...token(s) })).status).toBe(200);
    expect(await listed(s)).toEqual([M]);
    const ui = { host: `localhost:${port}`, origin: `http://localhost:${port}`, 'sec-fetch-site': 'same-origin' };
    expect((await remove(s, { ...ui, ...token(s) })).status).toBe(200);
    expect(await listed(s)).toEqual([]);
    for (const host of [`[::1]:${port}`, 'localhost', `127.0.0.2:${port}`]) {
      expect((await add(s, { host, ...JSON_TYPE, ...token(s) })).status, host).toBe(200);
      expect((await remove(s, { host, ...token(s) })).status, host).toBe(200);
    }
  });

  it('from a page of another site is refused (403) even with the token', async () => {
    const s = await service();
    for (const origin of ['https://evil.example', 'http://localhost:5173', 'null']) {
      const a = await add(s, { ...JSON_TYPE, ...token(s), origin });
      expect([origin, a.status, (json(a) as { type: string }).type]).toEqual([origin, 403, 'forbidden']);
    }
    expect(await listed(s)).toEqual([]);
  });

  it('from an --allow-origin page needs the token too', async () => {
    const s = await service({ allowedOrigins: ['http://localhost:5173'] });
    const from = { ...JSON_TYPE, origin: 'http://localhost:5173' };
    expect((await add(s, from)).status).toBe(401);
    expect(await listed(s)).toEqual([]);
    expect((await add(s, { ...from, ...token(s) })).status).toBe(200);
    expect(await listed(s)).toEqual([M]);
  });

  it('naming another host is refused (403): DNS rebinding, and a LAN address of a face on every interface', async () => {
    const s = await service();
    const port = new URL(s.baseUrl!).port;
    const rebound = await add(s, { host: `evil.example:${port}`, ...JSON_TYPE, ...token(s) });
    expect(rebound.status).toBe(403);
    // Bound to 0.0.0.0, reads answer any IP address in Host; writes still take loopback names only.
    const wide = await service({ host: '0.0.0.0' });
    const widePort = new URL(wide.baseUrl!).port;
    const lan = { host: `192.168.1.20:${widePort}` };
    expect((await raw(wide, '/watchlist', { headers: lan })).status).toBe(200);
    const a = await add(wide, { ...lan, ...JSON_TYPE, ...token(wide) });
    expect([a.status, json(a)]).toEqual([
      403,
      { type: 'forbidden', error: 'host not allowed: a write must name localhost, 127.0.0.1 or [::1] in Host' },
    ]);
    expect(await listed(wide)).toEqual([]);
    // ... and the page served to that name does not carry the token.
    const page = await raw(wide, '/app/', { headers: lan });
    expect(page.status).toBe(200);
    expect(page.body).not.toContain(wide.apiToken.token);
  });
});

describe('reads and the token itself', () => {
  it('reads need no token', async () => {
    const s = await service();
    for (const path of ['/markets', `/markets/${M}`, '/events', '/tags', '/watchlist', '/status']) {
      expect([path, (await raw(s, path)).status]).toEqual([path, 200]);
    }
  });

  it("the web UI's page carries the token in a meta tag, uncached", async () => {
    const s = await service();
    const port = new URL(s.baseUrl!).port;
    for (const [path, host] of [
      ['/app/', `localhost:${port}`],
      ['/app/index.html', `127.0.0.1:${port}`],
    ] as const) {
      const page = await raw(s, path, { headers: { host } });
      expect(page.status).toBe(200);
      expect(page.body).toContain(`<meta name="marketdesk-token" content="${s.apiToken.token}">`);
      expect(page.headers['cache-control']).toBe('no-store');
      expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    }
  });

  it('is read over IPC (the desktop settings), never over HTTP', async () => {
    const s = await service();
    expect(await s.dispatch('apiToken.get', {})).toEqual({ token: s.apiToken.token, header: API_TOKEN_HEADER, file: s.apiToken.file });
    const a = await raw(s, '/api-token');
    expect(a.status).toBe(404);
    expect(a.body).not.toContain(s.apiToken.token);
  });
});
