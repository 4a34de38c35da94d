import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { loadFixtureCatalog, FIXTURES_DIR } from './fixture-catalog.ts';
import { startFakeUpstream, type FakeUpstream } from './server.ts';
import { createSyntheticCatalog } from './catalog.ts';
import { localImageName } from './images.ts';
import type { GammaEvent, GammaMarket } from '../contract/gamma.ts';

describe('fake upstream pictures', () => {
  let up: FakeUpstream;
  beforeAll(async () => {
    up = await startFakeUpstream({ catalog: await loadFixtureCatalog(FIXTURES_DIR), images: 'local' });
  });
  afterAll(() => up.close());

  it('points every recorded image and icon at its own /images/ route, keeping the file name', async () => {
    const markets = (await (await fetch(`${up.url}/markets?limit=100`)).json()) as GammaMarket[];
    const events = (await (await fetch(`${up.url}/events?limit=100`)).json()) as GammaEvent[];
    const items = [...markets, ...events, ...markets.flatMap((m) => m.events ?? []), ...events.flatMap((e) => e.markets ?? [])];
    const urls = items.flatMap((i) => [i.image, i.icon]).filter((u): u is string => typeof u === 'string' && u !== '');
    expect(urls.length).toBeGreaterThan(100);
    for (const u of urls) expect(u.startsWith(`${up.url}/images/`), u).toBe(true);
  });

  it('answers a deterministic picture per name, in the format of its extension', async () => {
    const get = async (name: string) => {
      const res = await fetch(`${up.url}/images/${name}`);
      return { type: res.headers.get('content-type'), bytes: Buffer.from(await res.arrayBuffer()) };
    };
    const a = await get('a-market.png');
    expect(a.type).toBe('image/png');
    expect((await sharp(a.bytes).metadata()).format).toBe('png');
    expect((await get('a-market.png')).bytes.equals(a.bytes)).toBe(true);
    const other = await sharp((await get('another.png')).bytes)
      .raw()
      .toBuffer();
    expect(other.equals(await sharp(a.bytes).raw().toBuffer())).toBe(false);
    const jpg = await get('x.jpg');
    expect(jpg.type).toBe('image/jpeg');
    expect((await sharp(jpg.bytes).metadata()).format).toBe('jpeg');
    expect((await fetch(`${up.url}/images/a%2Fb.png`)).status).toBe(404);
  });

  it('rewrites a synthetic catalog too', async () => {
    const syn = await startFakeUpstream({ catalog: createSyntheticCatalog({ markets: 20, seed: 3 }), images: 'local' });
    try {
      const [m] = (await (await fetch(`${syn.url}/markets?limit=1`)).json()) as GammaMarket[];
      const image = String(m!.image);
      expect(image.startsWith(`${syn.url}/images/`)).toBe(true);
      expect((await fetch(image)).headers.get('content-type')).toBe('image/jpeg');
    } finally {
      await syn.close();
    }
  });

  it("leaves the recorded URLs alone unless asked ('recorded', the default)", async () => {
    const catalog = await loadFixtureCatalog(FIXTURES_DIR);
    const recorded = await startFakeUpstream({ catalog });
    try {
      const [m] = (await (await fetch(`${recorded.url}/markets?limit=1`)).json()) as GammaMarket[];
      expect(String(m!.image)).toMatch(/^https:\/\/polymarket-upload\.s3/);
    } finally {
      await recorded.close();
    }
  });

  it('names a picture by the last segment of its URL', () => {
    expect(localImageName('https://polymarket-upload.s3.us-east-2.amazonaws.com/will-trump-win-abc.png')).toBe('will-trump-win-abc.png');
    expect(localImageName('https://x.test/a/b%20c.jpg?x=1')).toBe('b-c.jpg');
    expect(localImageName('')).toBeUndefined();
    expect(localImageName('not a url')).toBeUndefined();
  });
});
