/**
 * The fake upstream's trading routes (deterministic answers in Polymarket's shapes, an order
 * list that placements and cancellations change) and its section 8 limits (429 past a window).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createSyntheticCatalog } from './catalog.ts';
import { parseFakeUpstreamArgs } from './main.ts';
import { startFakeUpstream, type FakeUpstream } from './server.ts';
import { FakeClock } from '../testing/fake-clock.ts';

const fakes: FakeUpstream[] = [];
afterEach(async () => {
  while (fakes.length) await fakes.pop()!.close();
});

async function fake(opts: Partial<Parameters<typeof startFakeUpstream>[0]> = {}): Promise<FakeUpstream> {
  const f = await startFakeUpstream({ catalog: createSyntheticCatalog({ markets: 20, seed: 1 }), ...opts });
  fakes.push(f);
  return f;
}

const json = async (r: Response) => ({ status: r.status, body: (await r.json()) as unknown });
const post = (body: unknown, method = 'POST'): RequestInit => ({
  method,
  body: JSON.stringify(body),
  headers: { 'content-type': 'application/json' },
});
const L2 = { POLY_ADDRESS: '0x1', POLY_SIGNATURE: 's', POLY_TIMESTAMP: '1', POLY_API_KEY: 'k', POLY_PASSPHRASE: 'p' };

describe('trading routes', () => {
  it("centres a catalog token's book and midpoint on its outcome price", async () => {
    const catalog = createSyntheticCatalog({ markets: 20, seed: 1 });
    const f = await fake({ catalog });
    const m = [...catalog.allMarkets()].find((x) => typeof x['clobTokenIds'] === 'string' && typeof x['outcomePrices'] === 'string')!;
    const tokens = JSON.parse(m['clobTokenIds'] as string) as string[];
    const prices = (JSON.parse(m['outcomePrices'] as string) as string[]).map(Number);
    for (const [i, token] of tokens.entries()) {
      // Exactly (to four decimals, off 0 and 1): a live desk reads the catalog's price off the book.
      const expected = Number(Math.min(0.9998, Math.max(0.0002, prices[i]!)).toFixed(4));
      const mid = (await json(await fetch(`${f.url}/midpoint?token_id=${token}`))).body as { mid: string };
      expect(Number(mid.mid)).toBe(expected);
      const book = (await json(await fetch(`${f.url}/book?token_id=${token}`))).body as {
        bids: { price: string }[];
        asks: { price: string }[];
      };
      expect(Number(book.bids.at(-1)!.price)).toBeLessThan(Number(mid.mid));
      expect(Number(book.asks.at(-1)!.price)).toBeGreaterThan(Number(mid.mid));
    }
  });

  it('answers books, prices, midpoints and histories the same way every time', async () => {
    const f = await fake();
    const book = await json(await fetch(`${f.url}/book?token_id=123`));
    expect(book.status).toBe(200);
    expect(book.body).toEqual((await json(await fetch(`${f.url}/book?token_id=123`))).body);
    const b = book.body as { asset_id: string; bids: { price: string }[]; asks: { price: string }[] };
    expect(b.asset_id).toBe('123');
    // Polymarket's order: bids ascending, asks descending; best bid below best ask.
    const bids = b.bids.map((x) => Number(x.price));
    const asks = b.asks.map((x) => Number(x.price));
    expect(bids).toEqual([...bids].sort((x, y) => x - y));
    expect(asks).toEqual([...asks].sort((x, y) => y - x));
    expect(bids.at(-1)!).toBeLessThan(asks.at(-1)!);
    const mid = (await json(await fetch(`${f.url}/midpoint?token_id=123`))).body as { mid: string };
    expect(Number(mid.mid)).toBeGreaterThan(bids.at(-1)!);
    const books = (await json(await fetch(`${f.url}/books`, post([{ token_id: '123' }])))).body;
    expect(books).toEqual([book.body]);
    const prices = (await json(await fetch(`${f.url}/prices`, post([{ token_id: '123', side: 'BUY' }])))).body as Record<
      string,
      Record<string, string>
    >;
    expect(prices['123']!['BUY']).toBe(((await json(await fetch(`${f.url}/price?token_id=123&side=BUY`))).body as { price: string }).price);
    const h = (await json(await fetch(`${f.url}/prices-history?market=123&interval=1d&fidelity=60`))).body as {
      history: { t: number; p: number }[];
    };
    expect(h.history).toHaveLength(25);
    const batch = (await json(await fetch(`${f.url}/batch-prices-history`, post({ markets: ['123'], interval: '1d', fidelity: 60 }))))
      .body as { history: Record<string, unknown> };
    expect(batch.history['123']).toEqual(h.history);
    expect((await json(await fetch(`${f.url}/book?token_id=0`))).status).toBe(404);
    expect((await json(await fetch(`${f.url}/book?token_id=abc`))).status).toBe(400);
    expect(await json(await fetch(`${f.url}/`))).toEqual({ status: 200, body: 'OK' });
  });

  it('places and cancels orders (L2 headers required)', async () => {
    // Unsigned orders: this checks the order list; V2 signatures are checked in order-signing.test.ts.
    const f = await fake({ trading: { orders: 'any' } });
    const order = {
      order: { salt: 1, tokenId: '5', side: 'BUY', makerAmount: '2000000', takerAmount: '4000000' },
      owner: 'k',
      orderType: 'GTC',
    };
    expect((await fetch(`${f.url}/order`, post(order))).status).toBe(401);
    const placed = (await json(await fetch(`${f.url}/order`, { ...post(order), headers: { 'content-type': 'application/json', ...L2 } })))
      .body as { orderID: string; success: boolean };
    expect(placed.success).toBe(true);
    expect([...f.trading.orders.keys()]).toEqual([placed.orderID]);
    const again = (await json(await fetch(`${f.url}/order`, { ...post(order), headers: { 'content-type': 'application/json', ...L2 } })))
      .body as { success: boolean };
    expect(again.success).toBe(false);
    const del = await json(
      await fetch(`${f.url}/order`, {
        ...post({ orderID: placed.orderID }, 'DELETE'),
        headers: { 'content-type': 'application/json', ...L2 },
      }),
    );
    expect(del.body).toEqual({ canceled: [placed.orderID], not_canceled: {} });
    expect(f.trading.orders.size).toBe(0);
  });
});

describe('limits', () => {
  it('off unless asked; with the spec table the request past a window gets 429 and Retry-After', async () => {
    const open = await fake();
    expect(open.limits).toBeUndefined();
    const clock = new FakeClock();
    const f = await fake({ limits: 'spec', limitsNow: clock.now });
    // Keyset pages count as GET /markets.
    for (let i = 0; i < 300; i++) expect((await fetch(`${f.url}/markets/keyset?limit=1`)).status).toBe(200);
    const r = await fetch(`${f.url}/markets?limit=1`);
    expect(r.status).toBe(429);
    expect(r.headers.get('retry-after')).toBe('10');
    expect(await r.json()).toEqual({ type: 'too many requests', error: 'rate limit exceeded' });
    expect(f.requests.count((e) => e.limited === true)).toBe(1);
    expect((await fetch(`${f.url}/markets/1`)).status).not.toBe(429);
    for (let i = 0; i < 50; i++) await (await fetch(`${f.url}/`)).arrayBuffer();
    const h = await fetch(`${f.url}/`);
    expect(h.status).toBe(429);
    expect(await h.json()).toEqual({ error: 'rate limit exceeded' });
    await clock.advance(10_000);
    expect((await fetch(`${f.url}/markets?limit=1`)).status).toBe(200);
  });

  it('maps upstream paths onto the table routes', async () => {
    const f = await fake({ limits: 'spec' });
    const r = (m: string, p: string) => f.limits!.routeOf(m, p);
    expect(r('GET', '/events/keyset')).toEqual({ route: 'GET /events', face: 'base' });
    expect(r('GET', '/events/slug/x')).toEqual({ route: 'GET /events/slug/:slug', face: 'base' });
    expect(r('GET', '/tags/12')).toEqual({ route: 'GET /tags/:id', face: 'base' });
    expect(r('POST', '/order')).toEqual({ route: 'POST /order', face: 'clob' });
    expect(r('GET', '/data/orders')).toEqual({ route: 'GET /data/orders', face: 'clob' });
    expect(r('GET', '/series')).toEqual({ route: 'GET /series', face: 'base' });
    // A path no row names counts in the face's general windows only.
    expect(r('GET', '/comments')).toEqual({ route: undefined, face: 'base' });
    expect(r('GET', '/v1/leaderboard')).toEqual({ route: 'GET /v1/leaderboard', face: 'base' });
  });

  it('the CLI flag: --limits spec|off', () => {
    expect(parseFakeUpstreamArgs(['--synthetic', '5', '--limits', 'off'])).toMatchObject({ limits: 'off' });
    expect(parseFakeUpstreamArgs(['--synthetic', '5', '--limits', 'some'])).toBe('--limits must be spec or off');
  });
});
