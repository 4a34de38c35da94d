/**
 * What a web page elsewhere can do with the loopback faces (issue 12): a rebinding `Host`,
 * cross-site POSTs and no-cors GETs are refused with 403 before they count anywhere; non-JSON
 * bodies get 415; the web UI (same origin), scripts (no Origin, no Sec-Fetch-*) and
 * `--allow-origin` origins keep working. Real faces on ephemeral ports; raw HTTP so every
 * header (Host included) is exactly what a browser would send.
 */
import http from 'node:http';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { Credentials } from '../auth/credentials.ts';
import { l2Headers } from '../auth/l2.ts';
import { startService, type Service, type ServiceOptions } from './server.ts';
import { FakeClock } from '../testing/fake-clock.ts';
import { DEAD_UPSTREAM } from '../testing/fixtures.ts';

const CREDS: Credentials = {
  apiKey: '3f0b6c2e-91d4-4a7e-b8c5-0d2e6f1a9b47',
  secret: 'wN2-kq8_Zx4Lr7Tb1Yc9Vd3Fe6Gh0Jm5Pa_Qs-Ut8Io=',
  passphrase: 'e4c1f0b7a9d25c6e8f3b1a0d9c7e5f2a4b6d8c0e1f3a5b7c9d2e4f6a8b0c1d3e',
  address: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
};
const HOST_REFUSED_BASE = { type: 'forbidden', error: 'host not allowed' };
const CROSS_SITE_BASE = { type: 'forbidden', error: 'cross-site request refused' };
const CROSS_SITE_CLOB = { error: 'cross-site request refused' };
/** What Chromium sends for `<img src>` or `fetch(url, {mode: 'no-cors'})` from another site. */
const NO_CORS = { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'image' };

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function service(opts: Partial<ServiceOptions> = {}): Promise<Service> {
  const s = await startService({
    urls: DEAD_UPSTREAM,
    offline: true,
    basePort: 0,
    clobPort: 0,
    credentials: CREDS,
    limits: { now: new FakeClock().now },
    ...opts,
  });
  cleanups.push(() => s.close());
  return s;
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One request with exactly these headers (Host included); the stream routes are read to the first event. */
function raw(base: string, path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: u.hostname, port: u.port, path, method: init.method ?? 'GET', headers: init.headers ?? {}, agent: false },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => {
          body += d;
          // An event stream never ends by itself: its first event is enough.
          if (res.headers['content-type']?.startsWith('text/event-stream') && body.includes('\n\n')) req.destroy();
        });
        const done = () => resolve({ status: res.statusCode!, headers: res.headers, body });
        res.on('end', done);
        res.on('close', done);
      },
    );
    req.on('error', reject);
    req.end(init.body);
  });
}

const json = (a: Answer): unknown => JSON.parse(a.body);

describe('Host (DNS rebinding)', () => {
  it('refuses a foreign Host on every route of both faces, and counts nothing', async () => {
    const s = await service();
    const evil = (url: string) => ({ host: `evil.test:${new URL(url).port}` });
    for (const path of ['/status', '/markets', '/limits', '/v1/leaderboard', '/stream', '/app/', '/nowhere']) {
      const a = await raw(s.baseUrl!, path, { headers: evil(s.baseUrl!) });
      expect([path, a.status]).toEqual([path, 403]);
      expect(json(a)).toEqual(HOST_REFUSED_BASE);
    }
    const signed = l2Headers(CREDS, { method: 'GET', path: '/data/orders' });
    for (const [base, path] of [
      [s.clobUrl!, '/data/orders'],
      [s.baseUrl!, '/data/orders'],
      [s.clobUrl!, '/'],
    ] as const) {
      const a = await raw(base, path, { headers: { ...evil(base), ...signed } });
      expect(a.status).toBe(403);
      expect(json(a)).toEqual(base === s.clobUrl ? { error: 'host not allowed' } : HOST_REFUSED_BASE);
    }
    expect(s.limiter!.clients).toBe(0);
  });

  it('answers the loopback names with any port, and a request without Host (HTTP/1.0)', async () => {
    const s = await service();
    const port = new URL(s.baseUrl!).port;
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, 'localhost']) {
      expect((await raw(s.baseUrl!, '/status', { headers: { host } })).status).toBe(200);
    }
    const signed = l2Headers(CREDS, { method: 'GET', path: '/data/orders' });
    expect((await raw(s.clobUrl!, '/data/orders', { headers: { host: `localhost:${new URL(s.clobUrl!).port}`, ...signed } })).status).toBe(
      200,
    );
    // Browsers always send Host; an HTTP/1.0 client may not, and cannot be a rebinding page.
    const reply = await new Promise<string>((resolve, reject) => {
      const sock = net.connect(Number(port), '127.0.0.1', () => sock.end('GET /status HTTP/1.0\r\n\r\n'));
      let out = '';
      sock.on('data', (d) => (out += d.toString()));
      sock.on('end', () => resolve(out));
      sock.on('error', reject);
    });
    expect(reply).toMatch(/^HTTP\/1\.1 200 /);
  });
});

describe('cross-site browser requests', () => {
  it('a text/plain POST to /books, /prices or /batch-prices-history never reaches the upstream', async () => {
    let upstreamHits = 0;
    const upstream = http.createServer((_req, res) => {
      upstreamHits++;
      res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
    });
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    cleanups.push(() => new Promise<void>((r) => upstream.close(() => r())));
    const clob = `http://127.0.0.1:${(upstream.address() as net.AddressInfo).port}`;
    const s = await service({ offline: false, autoSync: false, urls: { ...DEAD_UPSTREAM, clob } });
    const body = JSON.stringify([{ token_id: '1' }]);
    const textPlain = { 'content-type': 'text/plain;charset=UTF-8' };
    for (const path of ['/books', '/prices', '/batch-prices-history']) {
      // A form or fetch() from a page elsewhere: browsers send Origin with every POST.
      const page = await raw(s.clobUrl!, path, { method: 'POST', body, headers: { ...textPlain, origin: 'http://evil.test' } });
      expect([path, page.status, json(page)]).toEqual([path, 403, CROSS_SITE_CLOB]);
      const metadataOnly = await raw(s.clobUrl!, path, { method: 'POST', body, headers: { ...textPlain, 'sec-fetch-site': 'cross-site' } });
      expect(metadataOnly.status).toBe(403);
      // Not a browser, but still not JSON: refused all the same.
      const script = await raw(s.clobUrl!, path, { method: 'POST', body, headers: textPlain });
      expect([path, script.status, json(script)]).toEqual([path, 415, { error: 'content type must be application/json' }]);
    }
    expect(upstreamHits).toBe(0);
    expect(s.limiter!.clients).toBe(0);
    // A script's JSON POST still goes through.
    const ok = await raw(s.clobUrl!, '/books', { method: 'POST', body, headers: { 'content-type': 'application/json' } });
    expect(ok.status).toBe(200);
    expect(upstreamHits).toBe(1);
  });

  it("no-cors GETs from another site are refused and leave the user's budget whole", async () => {
    const s = await service();
    for (let i = 0; i < 400; i++) {
      const a = await raw(s.baseUrl!, `/markets?offset=${i}`, { headers: i % 2 ? NO_CORS : { ...NO_CORS, 'sec-fetch-site': 'same-site' } });
      if (a.status !== 403) throw new Error(`request ${i}: ${a.status}`);
    }
    expect(s.limiter!.clients).toBe(0);
    const mine = await fetch(`${s.baseUrl}/markets`);
    expect(mine.status).toBe(200);
    expect(mine.headers.get('ratelimit')).toContain('"markets";r=299;');
    // A foreign Origin on a CORS read is refused the same way.
    const cors = await raw(s.baseUrl!, '/markets', { headers: { origin: 'https://evil.test', 'sec-fetch-site': 'cross-site' } });
    expect([cors.status, json(cors)]).toEqual([403, CROSS_SITE_BASE]);
  });

  it('the web UI (same origin) keeps working: catalog reads, its signed orders read, the event stream, a link to /app/', async () => {
    const s = await service();
    const own = { origin: s.baseUrl!, 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors' };
    expect((await raw(s.baseUrl!, '/markets', { headers: own })).status).toBe(200);
    const signed = l2Headers(CREDS, { method: 'GET', path: '/data/orders' });
    const orders = await raw(s.baseUrl!, '/data/orders', { headers: { 'sec-fetch-site': 'same-origin', ...signed } });
    expect(orders.status).toBe(200);
    const stream = await raw(s.baseUrl!, '/stream', { headers: { 'sec-fetch-site': 'same-origin', accept: 'text/event-stream' } });
    expect(stream.status).toBe(200);
    expect(stream.headers['content-type']).toMatch(/^text\/event-stream/);
    // A link from anywhere may open the web UI (a top-level navigation), but not an API route.
    const nav = { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' };
    expect((await raw(s.baseUrl!, '/app/', { headers: nav })).status).not.toBe(403);
    expect((await raw(s.baseUrl!, '/markets', { headers: nav })).status).toBe(403);
    // The same page's own origin on another port (the clob face) is another origin.
    const fromBase = await raw(s.clobUrl!, '/data/orders', { headers: { origin: s.baseUrl!, ...signed } });
    expect(fromBase.status).toBe(403);
  });
});

describe('--allow-origin', () => {
  it('lets a configured origin call the faces with CORS headers and preflights, and no other', async () => {
    const s = await service({ allowedOrigins: ['http://localhost:5173/'] });
    const from = (origin: string) => ({ origin, 'sec-fetch-site': 'same-site', 'sec-fetch-mode': 'cors' });
    const preflight = await raw(s.clobUrl!, '/order', {
      method: 'OPTIONS',
      headers: {
        ...from('http://localhost:5173'),
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,poly_api_key',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    expect(preflight.headers['access-control-allow-methods']).toContain('POST');
    expect(preflight.headers['access-control-allow-headers']).toBe('content-type,poly_api_key');
    expect(s.limiter!.clients).toBe(0);
    const ok = await raw(s.baseUrl!, '/markets', { headers: from('http://localhost:5173') });
    expect(ok.status).toBe(200);
    expect(ok.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    expect(ok.headers['access-control-expose-headers']).toContain('ratelimit');
    const other = await raw(s.baseUrl!, '/markets', { headers: from('http://localhost:5174') });
    expect([other.status, json(other)]).toEqual([403, CROSS_SITE_BASE]);
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('refuses an origin with a path', async () => {
    await expect(service({ allowedOrigins: ['http://localhost:5173/app'] })).rejects.toThrow(/not an origin/);
  });
});
