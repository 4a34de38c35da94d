import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { OutboundScheduler } from '../limits/scheduler.ts';
import { silentLogger } from '../logger.ts';
import { UpstreamClient } from '../upstream/client.ts';
import { IconCache, urlHash, type IconCacheOptions } from './icon-cache.ts';

/**
 * A CDN stand-in: good and bad pictures, counting requests per path. A `/slow` picture is held
 * until the test lets it go (`release`): a fetch is in flight for exactly as long as the test says.
 */
const hits = new Map<string, number>();
/** Per path: resolves the test's wait for the next request's arrival. */
const arrivals = new Map<string, () => void>();
/** Held `/slow` answers per path, and the paths let go (answered at once from then on). */
const held = new Map<string, (() => void)[]>();
const released = new Set<string>();

/** Resolves when a request for `p` has reached the server (at once if one already has). */
function arrived(p: string): Promise<void> {
  if (hits.has(p)) return Promise.resolve();
  return new Promise((resolve) => arrivals.set(p, resolve));
}

/** Answers the held requests for `p`, and every later one at once. */
function release(p: string): void {
  released.add(p);
  for (const send of held.get(p) ?? []) send();
  held.delete(p);
}
let server: Server;
let base: string;
let png: Buffer;
let bigPixels: Buffer;

function client(): UpstreamClient {
  const u = 'http://127.0.0.1:9';
  return new UpstreamClient({ urls: { gamma: u, clob: u, data: u }, gate: new OutboundScheduler() });
}

const dirs: string[] = [];
function dataDir(): string {
  const d = mkdtempSync(path.join(os.tmpdir(), 'marketdesk-icons-'));
  dirs.push(d);
  return d;
}

function cache(opts: Partial<IconCacheOptions> = {}): IconCache {
  return new IconCache({ fetcher: client(), log: silentLogger, ...opts });
}

beforeAll(async () => {
  png = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#3366cc' } })
    .png()
    .toBuffer();
  // Over the 25-megapixel bound, yet a small file: the bound must refuse it before decoding.
  bigPixels = await sharp({ create: { width: 5001, height: 5001, channels: 3, background: '#000' } })
    .png()
    .toBuffer();
  server = createServer((req, res) => {
    const p = req.url ?? '/';
    hits.set(p, (hits.get(p) ?? 0) + 1);
    arrivals.get(p)?.();
    arrivals.delete(p);
    const send = (type: string, body: Buffer) => {
      // A held request whose caller gave up is gone by the time it is let go.
      if (res.destroyed) return;
      res.writeHead(200, { 'content-type': type, 'content-length': String(body.length) });
      res.end(body);
    };
    if (p.startsWith('/ok')) send('image/png', png);
    else if (p === '/big.png') send('image/png', Buffer.alloc(6 * 1024 * 1024, 1));
    else if (p === '/page.html') send('text/html', Buffer.from('<html>not a picture</html>'));
    else if (p === '/corrupt.png') send('image/png', Buffer.from('PNG? no, just text'));
    else if (p === '/pixels.png') send('image/png', bigPixels);
    else if (p.startsWith('/slow')) {
      if (released.has(p)) send('image/png', png);
      else held.set(p, [...(held.get(p) ?? []), () => send('image/png', png)]);
    } else if (p === '/svg') send('image/svg+xml', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'));
    else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((r) => server.close(r));
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

afterEach(() => {
  // Nothing stays held past its test.
  for (const p of [...held.keys()]) release(p);
  hits.clear();
  arrivals.clear();
  released.clear();
});

describe('IconCache', () => {
  it('fetches once, resizes to a 64×64 WebP, and serves it from disk after a restart', async () => {
    const dir = dataDir();
    const url = `${base}/ok-1.png`;
    const first = await cache({ dataDir: dir }).get(url);
    expect(first?.contentType).toBe('image/webp');
    const meta = await sharp(first!.bytes).metadata();
    expect({ format: meta.format, width: meta.width, height: meta.height }).toEqual({ format: 'webp', width: 64, height: 64 });
    expect(first!.bytes.byteLength).toBeLessThan(8 * 1024);
    // The same process again (memory), then a new one on the same data dir (disk): no new fetch.
    const restarted = cache({ dataDir: dir });
    expect(Buffer.from((await restarted.get(url))!.bytes).equals(Buffer.from(first!.bytes))).toBe(true);
    expect(restarted.fetches).toBe(0);
    expect(hits.get('/ok-1.png')).toBe(1);
    expect(readdirSync(path.join(dir, 'icons'))).toEqual([`${urlHash(url)}.webp`]);
    expect(statSync(path.join(dir, 'icons', `${urlHash(url)}.webp`)).size).toBe(first!.bytes.byteLength);
  });

  it('removes a temp file a killed process left behind', async () => {
    const dir = dataDir();
    const icons = path.join(dir, 'icons');
    mkdirSync(icons);
    // Above Linux's largest pid: no live process owns it.
    const stale = `${urlHash('x')}.webp.tmp-${2 ** 22 + 5}`;
    writeFileSync(path.join(icons, stale), 'half an icon');
    await cache({ dataDir: dir }).get(`${base}/ok-5.png`);
    expect(readdirSync(icons)).toEqual([`${urlHash(`${base}/ok-5.png`)}.webp`]);
  });

  it('shares one fetch between concurrent requests for one URL', async () => {
    const c = cache();
    const all = await Promise.all(Array.from({ length: 6 }, () => c.get(`${base}/ok-2.png`)));
    expect(hits.get('/ok-2.png')).toBe(1);
    expect(c.fetches).toBe(1);
    for (const hit of all) expect(hit?.hash).toBe(urlHash(`${base}/ok-2.png`));
  });

  it.each([
    ['larger than the byte bound', '/big.png'],
    ['not an image type', '/page.html'],
    ['not decodable', '/corrupt.png'],
    ['over the pixel bound', '/pixels.png'],
    ['SVG', '/svg'],
    ['missing (404)', '/gone.png'],
  ])('gives no icon for a picture %s, and remembers that until the retry time', async (_what, p) => {
    let now = 1_000_000;
    const dir = dataDir();
    const c = cache({ dataDir: dir, now: () => now });
    expect(await c.get(`${base}${p}`)).toBeNull();
    expect(await c.get(`${base}${p}`)).toBeNull();
    expect(hits.get(p)).toBe(1);
    now += 2 * 3_600_000;
    expect(await c.get(`${base}${p}`)).toBeNull();
    expect(hits.get(p)).toBe(2);
    // Nothing written, no temp file left behind.
    expect(readdirSync(dir).flatMap((d) => readdirSync(path.join(dir, d)))).toEqual([]);
  });

  it('cancels a fetch every caller gave up on, and remembers nothing about it', async () => {
    const c = cache();
    const url = `${base}/slow-1.png`;
    const a = new AbortController();
    const b = new AbortController();
    const first = c.get(url, { signal: a.signal });
    const second = c.get(url, { signal: b.signal });
    // The fetch is in flight (and held there until released).
    await arrived('/slow-1.png');
    a.abort();
    // One caller still waits: the fetch goes on for it.
    b.abort();
    expect(await first).toBeNull();
    expect(await second).toBeNull();
    // Not a failure of the picture: the next caller fetches it at once, and gets it.
    release('/slow-1.png');
    const again = await c.get(url);
    expect(again?.contentType).toBe('image/webp');
    expect(hits.get('/slow-1.png')).toBe(2);
  });

  it('goes on with a fetch while one caller still waits', async () => {
    const c = cache();
    const url = `${base}/slow-2.png`;
    const gone = new AbortController();
    const left = c.get(url, { signal: gone.signal });
    const stays = c.get(url, { signal: new AbortController().signal });
    await arrived('/slow-2.png');
    gone.abort();
    expect(await left).toBeNull();
    // The answer comes only now, after one caller gave up: the fetch went on for the other.
    release('/slow-2.png');
    expect((await stays)?.contentType).toBe('image/webp');
    expect(hits.get('/slow-2.png')).toBe(1);
  });

  it("answers 'pending' past the wait, and the fetch goes on to cache the icon", async () => {
    const c = cache();
    const url = `${base}/slow-3.png`;
    // Held by the server: the wait runs out first, whatever the machine's speed.
    expect(await c.get(url, { waitMs: 20, signal: new AbortController().signal })).toBe('pending');
    release('/slow-3.png');
    const later = await c.get(url);
    expect(later?.contentType).toBe('image/webp');
    expect(hits.get('/slow-3.png')).toBe(1);
    expect(await c.get(url, { waitMs: 20 })).toEqual(later);
  });

  it('offline: serves what is on disk and never fetches', async () => {
    const dir = dataDir();
    await cache({ dataDir: dir }).get(`${base}/ok-3.png`);
    const offline = cache({ dataDir: dir, offline: true });
    expect((await offline.get(`${base}/ok-3.png`))?.contentType).toBe('image/webp');
    expect(await offline.get(`${base}/ok-4.png`)).toBeNull();
    expect(offline.fetches).toBe(0);
    expect(hits.get('/ok-3.png')).toBe(1);
    expect(hits.has('/ok-4.png')).toBe(false);
  });

  it('an unreachable host gives no icon and is retried after a short delay', async () => {
    let now = 0;
    const c = cache({ now: () => now });
    const dead = 'http://127.0.0.1:9/ok.png';
    expect(await c.get(dead)).toBeNull();
    expect(c.fetches).toBe(1);
    expect(await c.get(dead)).toBeNull();
    expect(c.fetches).toBe(1);
    now += 31_000;
    expect(await c.get(dead)).toBeNull();
    expect(c.fetches).toBe(2);
  });
});
