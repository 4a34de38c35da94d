/**
 * The clob face's `/ws/market`, as a user's script meets it: a plain `ws` client that subscribes
 * in Polymarket's protocol and keeps its own books from the messages, against a service whose
 * upstream market channel is the socket stub (src/testing/market-ws-stub.ts). Expected books come
 * from the stub's model and the service's live layer.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { DEAD_UPSTREAM } from '../testing/fixtures.ts';
import { MarketWsStub } from '../testing/market-ws-stub.ts';
import { MarketScript } from '../testing/market-script.ts';
import { startService, type Service } from './server.ts';

let stub: MarketWsStub;
let s: Service;
let wsUrl: string;
let n = 0;

beforeAll(async () => {
  stub = await MarketWsStub.start();
  s = await startService({ urls: DEAD_UPSTREAM, clobWsUrl: stub.url, basePort: 0, clobPort: 0, http: true });
  wsUrl = `${s.clobUrl!.replace(/^http/, 'ws')}/ws/market`;
});
afterAll(async () => {
  await s.close();
  await stub.close();
});
beforeEach(() => {
  n += 100;
});

const until = (cond: () => boolean, timeout = 15_000) => expect.poll(cond, { interval: 2, timeout }).toBe(true);
const ids = (k: number) => Array.from({ length: k }, (_, i) => String(820_000_000 + n + i));

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const serviceBook = (id: string) => {
  const b = s.live.book(id);
  return b && { bids: b.bids, asks: b.asks };
};

describe('/ws/market on the clob face', () => {
  it("serves a Polymarket script: books equal to the service's and the upstream's, then updates, PING, unsubscribe", async () => {
    const [a, b] = ids(2);
    const script = new MarketScript(wsUrl);
    await script.opened;
    script.send({ assets_ids: [a, b], type: 'market' });
    await until(() => !!script.book(a!) && !!script.book(b!));
    for (const id of [a!, b!]) {
      expect(script.book(id)).toEqual(stub.levels(id));
      expect(script.book(id)).toEqual(serviceBook(id));
    }
    // The book messages carry what the upstream's do.
    expect(script.messages.find((m) => m['asset_id'] === a)).toMatchObject({
      event_type: 'book',
      market: stub.book(a!).market,
      tick_size: '0.01',
    });
    // Updates, as the upstream sent them.
    const change = stub.change(a!, 'BUY', '0.015', '33');
    stub.send(change, a);
    stub.send(stub.change(b!, 'SELL', '0.985', '4'), b);
    stub.send(stub.trade(a!, '0.5', '3', 'BUY'), a);
    await until(() => script.messages.some((m) => m['event_type'] === 'last_trade_price'));
    expect(script.texts).toContain(JSON.stringify(change));
    for (const id of [a!, b!]) {
      expect(script.book(id)).toEqual(stub.levels(id));
      expect(script.book(id)).toEqual(serviceBook(id));
    }
    script.send('PING');
    await until(() => script.texts.includes('PONG'));
    // Unsubscribed: the service's last owner of `a` is gone, so upstream is unsubscribed too.
    script.send({ operation: 'unsubscribe', assets_ids: [a] });
    await stub.until(() => stub.received.some((r) => r.text === JSON.stringify({ operation: 'unsubscribe', assets_ids: [a] })));
    const before = script.messages.length;
    stub.send(stub.change(b!, 'BUY', '0.016', '1'), b);
    await until(() => script.messages.length === before + 1);
    expect(script.messages.at(-1)).toMatchObject({ event_type: 'price_change' });
    // Subscribing again to an asset the service holds: its book at once, from the live layer's state.
    script.send({ operation: 'subscribe', assets_ids: [b] });
    await script.close();
    await until(() => s.live.assets().length === 0);
  });

  it('a later subscriber gets the book the service holds at once, equal to the upstream', async () => {
    const [a] = ids(1);
    const first = new MarketScript(wsUrl);
    await first.opened;
    first.send({ assets_ids: [a], type: 'market' });
    await until(() => !!first.book(a!));
    stub.send(stub.change(a!, 'SELL', '0.99', '8'), a);
    await until(() => same(first.book(a!), stub.levels(a!)));
    const second = new MarketScript(wsUrl);
    await second.opened;
    second.send({ assets_ids: [a], type: 'market' });
    await until(() => !!second.book(a!));
    expect(second.book(a!)).toEqual(stub.levels(a!));
    expect(second.messages[0]).toMatchObject({ event_type: 'book', asset_id: a, hash: s.live.book(a!)!.hash });
    expect(stub.subscriptionsOf(a!)).toBe(1);
    await first.close();
    await second.close();
  });

  it('50 local subscribers on the same assets share one upstream subscription', async () => {
    const assets = ids(3);
    const opened = stub.opened;
    const scripts = Array.from({ length: 50 }, () => new MarketScript(wsUrl));
    await Promise.all(scripts.map((c) => c.opened));
    for (const c of scripts) c.send({ assets_ids: assets, type: 'market' });
    await until(() => scripts.every((c) => assets.every((id) => !!c.book(id))));
    expect(s.live.status()).toMatchObject({ assets: 3, owners: 50 });
    for (const id of assets) expect(stub.subscriptionsOf(id)).toBe(1);
    expect(stub.opened - opened).toBeLessThanOrEqual(1);
    stub.send(stub.change(assets[1]!, 'BUY', '0.011', '77'), assets[1]);
    await until(() => scripts.every((c) => same(c.book(assets[1]!), stub.levels(assets[1]!))));
    await Promise.all(scripts.map((c) => c.close()));
    // The last local owner gone: released upstream.
    await until(() => s.live.assets().length === 0);
  });

  it('a burst of upstream frames reaches every script as the same frames, one message each, in order', async () => {
    const [a, b] = ids(2);
    const scripts = Array.from({ length: 20 }, () => new MarketScript(wsUrl));
    await Promise.all(scripts.map((c) => c.opened));
    for (const c of scripts) c.send({ assets_ids: [a, b], type: 'market' });
    await until(() => scripts.every((c) => !!c.book(a!) && !!c.book(b!)));
    const from = scripts.map((c) => c.texts.length);
    // Sent back to back, so the service reads many of them in one turn (its writes are corked per turn).
    const burst = Array.from({ length: 40 }, (_, i) =>
      i % 2 ? stub.change(a!, 'BUY', (0.01 + i / 10_000).toFixed(4), String(i + 1)) : stub.trade(b!, '0.5', String(i + 1), 'SELL'),
    );
    for (const [i, m] of burst.entries()) stub.send(m, i % 2 ? a : b);
    await until(() => scripts.every((c, k) => c.texts.length >= from[k]! + burst.length));
    const want = burst.map((m) => JSON.stringify(m));
    for (const [k, c] of scripts.entries()) expect(c.texts.slice(from[k])).toEqual(want);
    for (const c of scripts) expect(c.book(a!)).toEqual(stub.levels(a!));
    await Promise.all(scripts.map((c) => c.close()));
  });

  it('sends custom events only to sockets that asked, and answers what it cannot take with INVALID OPERATION', async () => {
    const [a] = ids(1);
    const plain = new MarketScript(wsUrl);
    const custom = new MarketScript(wsUrl);
    await Promise.all([plain.opened, custom.opened]);
    plain.send({ assets_ids: [a], type: 'market' });
    custom.send({ assets_ids: [a], type: 'market', custom_feature_enabled: true });
    await until(() => !!plain.book(a!) && !!custom.book(a!));
    stub.send(
      { event_type: 'best_bid_ask', market: 'm', asset_id: a, best_bid: '0.1', best_ask: '0.9', spread: '0.8', timestamp: '1767225999000' },
      a,
    );
    stub.send({ event_type: 'new_market', id: '77', market: '0x77', assets_ids: ['1', '2'], timestamp: '1767225999001' });
    await until(() => custom.messages.some((m) => m['event_type'] === 'new_market'));
    expect(custom.messages.some((m) => m['event_type'] === 'best_bid_ask')).toBe(true);
    stub.send(stub.trade(a!, '0.4', '1', 'SELL'), a);
    await until(() => plain.messages.some((m) => m['event_type'] === 'last_trade_price'));
    expect(plain.messages.map((m) => m['event_type'])).toEqual(['book', 'last_trade_price']);
    for (const bad of ['hello', '[1]', JSON.stringify({ assets_ids: [a], type: 'market' })]) plain.send(bad);
    await until(() => plain.texts.filter((t) => t === 'INVALID OPERATION').length === 3);
    await plain.close();
    await custom.close();
  });

  it('refuses foreign Origins and non-loopback Hosts, as the HTTP routes do', async () => {
    const refused = async (headers: Record<string, string>) => {
      const ws = new WebSocket(wsUrl, { headers });
      return new Promise<number>((resolve) => {
        ws.on('unexpected-response', (_req, res) => {
          resolve(res.statusCode ?? 0);
          ws.terminate();
        });
        ws.on('open', () => {
          resolve(101);
          ws.close();
        });
        ws.on('error', () => {});
      });
    };
    expect(await refused({ origin: 'https://evil.example' })).toBe(403);
    expect(await refused({ host: `evil.example:${new URL(s.clobUrl!).port}` })).toBe(403);
    // A page of the face's own origin, and scripts that send no Origin at all, pass.
    expect(await refused({ origin: s.clobUrl! })).toBe(101);
    expect(await refused({})).toBe(101);
  });
});
