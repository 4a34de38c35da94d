/**
 * Measures the icon cache: fetch + resize + save time per icon and bytes on disk per icon, for
 * the fake upstream's generated pictures (256 px) and for photo-like 1000 px JPEGs (closer to
 * the venue's real pictures). Run: `npx tsx bench/icons.ts [count]`.
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { loadFixtureCatalog, FIXTURES_DIR } from '../src/fake-upstream/fixture-catalog.ts';
import { startFakeUpstream } from '../src/fake-upstream/server.ts';
import { OutboundScheduler } from '../src/limits/scheduler.ts';
import { silentLogger } from '../src/logger.ts';
import { UpstreamClient } from '../src/upstream/client.ts';
import { IconCache } from '../src/icons/icon-cache.ts';

const count = Number(process.argv[2] ?? 40);

async function run(label: string, urls: string[]): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'marketdesk-icons-measure-'));
  const u = 'http://127.0.0.1:9';
  const client = new UpstreamClient({ urls: { gamma: u, clob: u, data: u }, gate: new OutboundScheduler() });
  const cache = new IconCache({ fetcher: client, log: silentLogger, dataDir: dir });
  const ms: number[] = [];
  for (const url of urls) {
    const t0 = performance.now();
    if (!(await cache.get(url))) throw new Error(`no icon for ${url}`);
    ms.push(performance.now() - t0);
  }
  const t1 = performance.now();
  for (const url of urls) await new IconCache({ fetcher: client, log: silentLogger, dataDir: dir }).get(url);
  const diskHit = (performance.now() - t1) / urls.length;
  const files = readdirSync(path.join(dir, 'icons'));
  const bytes = files.map((f) => statSync(path.join(dir, 'icons', f)).size);
  ms.sort((a, b) => a - b);
  const at = (q: number) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))]!.toFixed(1);
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  console.log(
    `${label}: ${urls.length} icons; fetch+resize+save median ${at(0.5)} ms, p95 ${at(0.95)} ms; ` +
      `disk hit ${diskHit.toFixed(2)} ms; on disk mean ${Math.round(mean(bytes))} B, max ${Math.max(...bytes)} B (${files.length} files)`,
  );
  rmSync(dir, { recursive: true, force: true });
}

const catalog = await loadFixtureCatalog(FIXTURES_DIR);
const fake = await startFakeUpstream({ catalog, images: 'local' });
const fakeUrls = [...new Set(catalog.marketRecords().map((r) => String(r.obj.icon ?? r.obj.image ?? '')))].filter(Boolean).slice(0, count);
await run('fake upstream pictures (256 px PNG/JPEG)', fakeUrls);
await fake.close();

// Photo-like: many overlapping shapes in varied colours under light noise, 1000×1000 JPEG q85,
// so the 64 px icon keeps detail as a real picture's does. One per URL.
async function photo(seed: number): Promise<Buffer> {
  let x = seed * 7919 + 1;
  const rnd = (n: number) => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x % n;
  };
  const circle = () => {
    const fill = `rgb(${rnd(256)},${rnd(256)},${rnd(256)})`;
    return `<circle cx="${rnd(1000)}" cy="${rnd(1000)}" r="${20 + rnd(160)}" fill="${fill}" fill-opacity="0.7"/>`;
  };
  const shapes = Array.from({ length: 120 }, circle).join('');
  const rect = '<rect width="1000" height="1000" fill="#777"/>';
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="1000">${rect}${shapes}</svg>`;
  const create = { width: 1000, height: 1000, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 0, sigma: 18 } } as const;
  const noise = await sharp({ create }).png().toBuffer();
  return sharp(Buffer.from(svg))
    .composite([{ input: noise, blend: 'add' }])
    .jpeg({ quality: 85 })
    .toBuffer();
}
const photos = new Map<string, Buffer>();
const server = createServer((req, res) => {
  const body = photos.get(req.url ?? '/');
  res.writeHead(body ? 200 : 404, { 'content-type': 'image/jpeg', 'content-length': String(body?.length ?? 0) });
  res.end(body);
});
const n = Math.min(count, 30);
// Generated first: the figure is the cache's work, not this stand-in CDN's.
for (let i = 0; i < n; i++) photos.set(`/photo-${i}.jpg`, await photo(i));
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const photoUrls = [...photos.keys()].map((p) => `${base}${p}`);
const size = Math.round([...photos.values()].reduce((a, b) => a + b.length, 0) / photos.size / 1024);
await run(`photo-like 1000 px JPEGs (~${size} KB each)`, photoUrls);
server.close();
