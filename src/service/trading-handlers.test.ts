/**
 * The CLOB trading routes through real HTTP: the service in front of the fake upstream.
 * Parameters and bodies pass through unchanged; reads are cached (Age), served stale while the
 * upstream is down (X-Marketdesk-Stale); the upstream's 4xx come back as they were; trades and
 * writes need L2 auth and are re-signed with the configured credentials; a write's body reaches
 * the upstream byte for byte and is not retried after a 5xx.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Credentials } from '../auth/credentials.ts';
import { l2Headers } from '../auth/l2.ts';
import { createSyntheticCatalog, startFakeUpstream, type FakeUpstream } from '../fake-upstream/index.ts';
import { startService } from '../http/server.ts';

const CREDS: Credentials = {
  apiKey: '3f0b6c2e-91d4-4a7e-b8c5-0d2e6f1a9b47',
  secret: Buffer.alloc(32, 7).toString('base64url'),
  passphrase: 'p'.repeat(64),
  address: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
};
const TOKEN = '71321045679252212594626385532706912750332728571942532289631379312455583992563';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function world(opts: { offline?: boolean } = {}) {
  const fake = await startFakeUpstream({
    catalog: createSyntheticCatalog({ markets: 10, seed: 1 }),
    clob: { credentials: CREDS, orders: [] },
    // Unsigned orders: these tests check forwarding; V2 signing is checked in src/clients/clob-client-v2.test.ts.
    trading: { orders: 'any' },
  });
  cleanups.push(() => fake.close());
  let skew = 0;
  const s = await startService({
    urls: { gamma: fake.url, clob: fake.url, data: fake.url },
    basePort: 0,
    clobPort: 0,
    offline: !!opts.offline,
    credentials: CREDS,
    now: () => Date.now() + skew,
    client: { baseDelayMs: 1, maxDelayMs: 5, maxRetries: 2 },
  });
  cleanups.push(() => s.close());
  return { fake, s, later: (ms: number) => (skew += ms) };
}

async function direct(fake: FakeUpstream, path: string, init?: RequestInit): Promise<unknown> {
  return (await fetch(fake.url + path, init)).json();
}

const post = (body: string, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  body,
  headers: { 'content-type': 'application/json', ...headers },
});
const count = (fake: FakeUpstream, path: string) => fake.requests.count((e) => e.path === path);

describe('trading reads', () => {
  it('GET /: the service answers "OK" itself', async () => {
    const { s, fake } = await world();
    const r = await fetch(`${s.clobUrl}/`);
    expect(await r.json()).toBe('OK');
    expect(count(fake, '/')).toBe(0);
  });

  it('forwards each read with its parameters and answers what the upstream answered', async () => {
    const { s, fake } = await world();
    const reads: [string, RequestInit?][] = [
      [`/book?token_id=${TOKEN}`],
      [`/price?token_id=${TOKEN}&side=SELL`],
      [`/midpoint?token_id=${TOKEN}`],
      [`/prices-history?market=${TOKEN}&interval=1d&fidelity=60`],
      [`/prices-history?market=${TOKEN}&startTs=1761900000&endTs=1761950000&fidelity=30`],
      ['/books', post(JSON.stringify([{ token_id: TOKEN }, { token_id: '42' }]))],
      [
        '/prices',
        post(
          JSON.stringify([
            { token_id: TOKEN, side: 'BUY' },
            { token_id: '42', side: 'SELL' },
          ]),
        ),
      ],
      ['/batch-prices-history', post(JSON.stringify({ markets: [TOKEN, '42'], interval: '1w', fidelity: 600 }))],
    ];
    for (const [path, init] of reads) {
      const mine = await fetch(s.clobUrl + path, init);
      expect(mine.status, path).toBe(200);
      expect(await mine.json(), path).toEqual(await direct(fake, path, init));
    }
    const book = (await (await fetch(`${s.clobUrl}/book?token_id=${TOKEN}`)).json()) as { asset_id: string; bids: unknown[] };
    expect(book.asset_id).toBe(TOKEN);
    expect(book.bids.length).toBeGreaterThan(0);
  });

  it("passes the upstream's 4xx back with its status and body", async () => {
    const { s } = await world();
    const missing = await fetch(`${s.clobUrl}/book?token_id=0`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: 'No orderbook exists for the requested token id' });
    const noSide = await fetch(`${s.clobUrl}/price?token_id=${TOKEN}`);
    expect(noSide.status).toBe(400);
    expect(await noSide.json()).toEqual({ error: 'Invalid side' });
    const notJson = await fetch(`${s.clobUrl}/books`, post('[{"token_id":'));
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toEqual({ error: 'body must be a JSON request body' });
  });

  it('caches books for 2 s and histories for 60 s, with Age', async () => {
    const { s, fake, later } = await world();
    const book = `${s.clobUrl}/book?token_id=${TOKEN}`;
    const first = await fetch(book);
    expect(first.headers.get('age')).toBeNull();
    later(1500);
    const second = await fetch(book);
    expect(second.headers.get('age')).toBe('1');
    expect(await second.json()).toEqual(await first.json());
    expect(count(fake, '/book')).toBe(1);
    later(600);
    await fetch(book);
    expect(count(fake, '/book')).toBe(2);

    const hist = `${s.clobUrl}/prices-history?market=${TOKEN}&interval=1d`;
    await fetch(hist);
    later(59_000);
    expect((await fetch(hist)).headers.get('age')).toBe('59');
    expect(count(fake, '/prices-history')).toBe(1);
    // Different parameters are a different entry; identical reads in flight share one request.
    await Promise.all([fetch(`${hist}&fidelity=5`), fetch(`${hist}&fidelity=5`), fetch(`${hist}&fidelity=5`)]);
    expect(count(fake, '/prices-history')).toBe(2);
  });

  it('serves the last good answer while the upstream is unreachable, saying how old it is', async () => {
    const { s, fake, later } = await world();
    const url = `${s.clobUrl}/midpoint?token_id=${TOKEN}`;
    const good = await (await fetch(url)).json();
    later(5000);
    fake.faults.push({ kind: '500', match: '/midpoint' }, 10);
    const r = await fetch(url);
    expect(r.status).toBe(200);
    expect(r.headers.get('x-marketdesk-stale')).toBe('1');
    expect(r.headers.get('age')).toBe('5');
    expect(await r.json()).toEqual(good);
    // Nothing cached for this one: the orders family's internal error.
    fake.faults.push({ kind: '500', match: '/midpoint' }, 10);
    const none = await fetch(`${s.clobUrl}/midpoint?token_id=42`);
    expect(none.status).toBe(500);
    expect(await none.json()).toEqual({ error: 'internal_error' });
  });
});

describe('authenticated routes', () => {
  const signed = (method: string, path: string, body?: string) =>
    l2Headers(CREDS, { method, path, ...(body !== undefined ? { body } : {}) });

  it('GET /data/trades needs L2 auth and is re-signed for the upstream', async () => {
    const { s } = await world();
    const anon = await fetch(`${s.clobUrl}/data/trades`);
    expect(anon.status).toBe(401);
    expect(await anon.json()).toEqual({ error: 'Unauthorized/Invalid api key' });
    const r = await fetch(`${s.clobUrl}/data/trades?asset_id=1001`, { headers: signed('GET', '/data/trades') });
    expect(r.status).toBe(200);
    const page = (await r.json()) as { data: { asset_id: string }[]; next_cursor: string };
    expect(page.data.map((t) => t.asset_id)).toEqual(['1001']);
    expect(page.next_cursor).toBe('LTE=');
  });

  it('POST /order forwards the signed body byte for byte; DELETE /order cancels it', async () => {
    const { s, fake } = await world();
    // Odd spacing and key order, a salt past 2^53: any re-serialisation would change them.
    const body =
      `{"order":{"salt":123456789012345678901234,"maker":"0xabc","tokenId":"${TOKEN}","makerAmount":"5000000", ` +
      `"takerAmount":"10000000","side":"BUY","expiration":"0","signature":"0xsig"},"owner":"${CREDS.apiKey}","orderType":"GTC"}`;
    const anon = await fetch(`${s.clobUrl}/order`, post(body));
    expect(anon.status).toBe(401);
    // Signed over a different body: refused too.
    expect((await fetch(`${s.clobUrl}/order`, post(body, signed('POST', '/order', `${body} `)))).status).toBe(401);
    expect(fake.trading.orders.size).toBe(0);

    const placed = await fetch(`${s.clobUrl}/order`, post(body, signed('POST', '/order', body)));
    expect(placed.status).toBe(200);
    const res = (await placed.json()) as { success: boolean; orderID: string; status: string };
    expect(res).toMatchObject({ success: true, status: 'live' });
    expect(fake.trading.orders.get(res.orderID)!.raw).toBe(body);
    expect(fake.clob!.orders.map((o) => o.id)).toEqual([res.orderID]);
    expect(fake.clob!.orders[0]).toMatchObject({ side: 'BUY', price: '0.5', original_size: '10', asset_id: TOKEN });

    const cancel = JSON.stringify({ orderID: res.orderID });
    const del = await fetch(`${s.clobUrl}/order`, {
      method: 'DELETE',
      body: cancel,
      headers: { 'content-type': 'application/json', ...signed('DELETE', '/order', cancel) },
    });
    expect(await del.json()).toEqual({ canceled: [res.orderID], not_canceled: {} });
    expect(fake.clob!.orders).toEqual([]);
  });

  it('a write is not sent again after a 5xx (it may have been placed); the 5xx is passed back', async () => {
    const { s, fake } = await world();
    const body = JSON.stringify({
      order: { salt: 1, tokenId: TOKEN, side: 'SELL', makerAmount: '1000000', takerAmount: '400000' },
      owner: CREDS.apiKey,
      orderType: 'GTC',
    });
    fake.faults.push({ kind: '500', match: '/order' });
    const r = await fetch(`${s.clobUrl}/order`, post(body, signed('POST', '/order', body)));
    expect(r.status).toBe(500);
    expect(await r.json()).toEqual({ error: 'cannot get the information' });
    expect(count(fake, '/order')).toBe(1);
    // A 429 certainly did nothing: that one is retried.
    fake.faults.push({ kind: '429', retryAfter: 0, match: '/order' });
    const again = await fetch(`${s.clobUrl}/order`, post(body, signed('POST', '/order', body)));
    expect(again.status).toBe(200);
    expect(count(fake, '/order')).toBe(3);
  });

  it('the app itself (IPC) places orders without signing; without credentials it is 401', async () => {
    const { s, fake } = await world();
    const body = JSON.stringify({
      order: { salt: 2, tokenId: TOKEN, side: 'BUY', makerAmount: '1', takerAmount: '2' },
      owner: CREDS.apiKey,
      orderType: 'GTC',
    });
    const res = await s.dispatch('order.place', { body });
    expect(res.success).toBe(true);
    expect(fake.trading.orders.size).toBe(1);
    await s.dispatch('credentials.clear', {});
    await expect(s.dispatch('order.place', { body })).rejects.toMatchObject({ status: 401 });
  });
});
