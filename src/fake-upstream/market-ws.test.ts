/**
 * The fake upstream's CLOB market channel (market-ws.ts) over real sockets, with `ws` as the
 * client: subscriptions and snapshots, the seeded walk, one book state with the REST routes, the
 * 500-asset cap, every fault mode, and `new_market`/`market_resolved` on catalog mutations.
 * Expected values come from the fake's own state (its REST answers, `marketWs.book`), the samples
 * in fixtures/polymarket-2026/ws-market/ and the official client's book hash. No sleeps: a test
 * waits for frames, for the server's state (`marketWs.until`) or for a PONG, which the channel sends
 * after everything it sent before (one socket, in order).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Chain, ClobClient } from '@polymarket/clob-client-v2';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { PACKAGE_ROOT } from '../package-root.ts';
import { testSeed } from '../testing/seed.ts';
import { createSyntheticCatalog, type FakeCatalog } from './catalog.ts';
import { parseList } from './clob.ts';
import type { BookSummary } from './market-books.ts';
import { INVALID_OPERATION, MALFORMED_FRAME, MARKET_WS_CONTROL_PATH, type MarketEvent } from './market-ws.ts';
import { MUTATE_PATH, mutate } from './mutations.ts';
import { startFakeUpstream, type FakeUpstream, type FakeUpstreamOptions } from './server.ts';

type Obj = Record<string, any>;
const SAMPLES = join(PACKAGE_ROOT, 'fixtures', 'polymarket-2026', 'ws-market');
const sampleText = (file: string): string => readFileSync(join(SAMPLES, file), 'utf8');
const sample = (file: string): Obj => JSON.parse(sampleText(file));

const { seed, replay } = testSeed('market-ws');

const fakes: FakeUpstream[] = [];
const clients: Client[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.ws.terminate();
  while (fakes.length) await fakes.pop()!.close();
});

async function fake(opts: Partial<FakeUpstreamOptions> = {}, catalog?: FakeCatalog): Promise<FakeUpstream> {
  const up = await startFakeUpstream({
    catalog: catalog ?? createSyntheticCatalog({ markets: 40, seed: 7 }),
    ...opts,
    marketWs: { seed, ...opts.marketWs },
  });
  fakes.push(up);
  return up;
}

/** A `ws` client that keeps every frame and lets a test wait for what it expects. */
class Client {
  readonly frames: string[] = [];
  /** Parsed events, arrays flattened, in order (not-JSON frames and PONGs left out). */
  readonly events: Obj[] = [];
  pongs = 0;
  protocolPongs = 0;
  closeCode: number | undefined;
  private waiters: { pred: () => boolean; resolve: () => void }[] = [];

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const text = data.toString();
      this.frames.push(text);
      if (text === 'PONG') this.pongs++;
      else {
        try {
          const v = JSON.parse(text) as Obj | Obj[];
          this.events.push(...(Array.isArray(v) ? v : [v]));
        } catch {
          // kept in frames only
        }
      }
      this.check();
    });
    ws.on('pong', () => {
      this.protocolPongs++;
      this.check();
    });
    ws.on('close', (code) => {
      this.closeCode = code;
      this.check();
    });
    ws.on('error', () => {});
  }

  static async open(up: FakeUpstream): Promise<Client> {
    const ws = new WebSocket(`${up.marketWs.url}/ws/market`);
    const c = new Client(ws);
    clients.push(c);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    return c;
  }

  send(msg: unknown): void {
    this.ws.send(typeof msg === 'string' ? msg : JSON.stringify(msg));
  }

  until(pred: () => boolean): Promise<void> {
    if (pred()) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ pred, resolve }));
  }

  /** Everything the channel sent before this call has arrived (a PONG comes after it). */
  async barrier(): Promise<void> {
    const n = this.pongs;
    this.send('PING');
    await this.until(() => this.pongs > n);
  }

  /** Subscribes and waits for the snapshots of the ids that have a book. */
  async subscribe(ids: string[], withBooks: number, extra: Obj = {}): Promise<Obj[]> {
    const before = this.events.length;
    this.send({ assets_ids: ids, type: 'market', custom_feature_enabled: true, ...extra });
    await this.until(() => this.events.length >= before + withBooks);
    return this.events.slice(before);
  }

  /** Adds assets to the subscription (`operation: subscribe`) and waits for their snapshots. */
  async add(ids: string[], withBooks: number): Promise<Obj[]> {
    const before = this.events.length;
    this.send({ operation: 'subscribe', assets_ids: ids });
    await this.until(() => this.events.length >= before + withBooks);
    return this.events.slice(before);
  }

  private check(): void {
    this.waiters = this.waiters.filter((w) => {
      if (!w.pred()) return true;
      w.resolve();
      return false;
    });
  }
}

/** Outcome ids of open markets whose books have at least three levels a side, `n` of them. */
function tokens(up: FakeUpstream, n: number): string[] {
  const out: string[] = [];
  for (const rec of up.catalog.marketRecords()) {
    const m = rec.obj as Obj;
    if (m.closed === true) continue;
    const ids: string[] = m.version === 'v2' ? (m.positionIds ?? []) : parseList(m.clobTokenIds);
    for (const t of ids) {
      const b = up.trading.bookOf(t);
      if (b && b.bids.length >= 3 && b.asks.length >= 3 && out.length < n) out.push(t);
    }
  }
  expect(out).toHaveLength(n);
  return out;
}

/** An id the catalog names that the CLOB has no book for (a v1 market's positionId, or a v2 market's CTF token). */
function booklessId(up: FakeUpstream): string {
  for (const rec of up.catalog.marketRecords()) {
    const m = rec.obj as Obj;
    const ids: string[] = m.version === 'v2' ? parseList(m.clobTokenIds) : (m.positionIds ?? []);
    for (const t of ids) if (!up.trading.hasBook(t)) return t;
  }
  return [...up.catalog.protocolIds.retired.keys()][0]!;
}

async function getJson(up: FakeUpstream, path: string, init?: RequestInit): Promise<any> {
  const r = await fetch(up.url + path, init);
  expect(r.status, path).toBe(200);
  return r.json();
}

const REST_FIELDS = [
  'market',
  'asset_id',
  'timestamp',
  'hash',
  'bids',
  'asks',
  'min_order_size',
  'tick_size',
  'neg_risk',
  'last_trade_price',
];
const restPart = (e: Obj): Obj => Object.fromEntries(REST_FIELDS.map((k) => [k, e[k]]));
const sdk = () => new ClobClient({ host: 'http://127.0.0.1:9', chain: Chain.POLYGON });

/** A consumer's books, built from the channel's events only, as the live layer builds them. */
class Books {
  readonly books = new Map<string, Obj>();
  /** price_change entries whose hash did not match the book they left. */
  readonly mismatches: Obj[] = [];

  async apply(e: Obj, client = sdk()): Promise<void> {
    const b = (asset: string) => this.books.get(asset)!;
    switch (e.event_type) {
      case 'book':
        this.books.set(e.asset_id, {
          ...restPart(e),
          bids: new Map(e.bids.map((l: Obj) => [l.price, l.size])),
          asks: new Map(e.asks.map((l: Obj) => [l.price, l.size])),
        });
        break;
      case 'price_change':
        for (const c of e.price_changes) {
          const book = b(c.asset_id);
          const side: Map<string, string> = c.side === 'BUY' ? book.bids : book.asks;
          if (Number(c.size) === 0) side.delete(c.price);
          else side.set(c.price, c.size);
          book.timestamp = e.timestamp;
          const summary = this.summary(c.asset_id);
          if ((await client.getOrderBookHash({ ...summary } as any)) !== c.hash) this.mismatches.push(c);
        }
        break;
      case 'last_trade_price':
        b(e.asset_id).last_trade_price = e.price;
        b(e.asset_id).timestamp = e.timestamp;
        break;
      case 'tick_size_change':
        b(e.asset_id).tick_size = e.new_tick_size;
        b(e.asset_id).timestamp = e.timestamp;
        break;
    }
  }

  /** The asset's book in `GET /book`'s shape and key order (hash "", as the SDK hashes it). */
  summary(asset: string): BookSummary {
    const b = this.books.get(asset)!;
    const levels = (m: Map<string, string>, dir: 1 | -1) =>
      [...m].map(([price, size]) => ({ price, size })).sort((x, y) => dir * (Number(x.price) - Number(y.price)));
    return {
      market: b.market,
      asset_id: b.asset_id,
      timestamp: b.timestamp,
      hash: '',
      bids: levels(b.bids, 1),
      asks: levels(b.asks, -1),
      min_order_size: b.min_order_size,
      tick_size: b.tick_size,
      neg_risk: b.neg_risk,
      last_trade_price: b.last_trade_price,
    };
  }
}

describe('market channel: subscriptions', () => {
  it('sends one book per asset with a book, equal to GET /book, with the official client’s hash', async () => {
    const up = await fake();
    const ids = tokens(up, 3);
    const none = booklessId(up);
    const c = await Client.open(up);
    c.send({ assets_ids: [...ids, none], type: 'market', custom_feature_enabled: true });
    await c.until(() => c.frames.length === 1);
    const dump = JSON.parse(c.frames[0]!) as Obj[];
    // The initial dump is one JSON array of book events.
    expect(Array.isArray(dump)).toBe(true);
    expect(dump.map((e) => e.asset_id)).toEqual(ids);
    const client = sdk();
    for (const e of dump) {
      expect(e.event_type).toBe('book');
      const rest = await getJson(up, `/book?token_id=${e.asset_id}`);
      expect(restPart(e)).toEqual(rest);
      expect(e.timestamp).toMatch(/^\d{13}$/);
      // The hash is the official client's summary hash of the book.
      expect(await client.getOrderBookHash({ ...rest, hash: '' })).toBe(e.hash);
    }
    expect(up.marketWs.socketCount).toBe(1);
    expect(up.marketWs.subscribedAssets()).toEqual([...ids, none]);
    const [info] = up.marketWs.sockets();
    expect(info).toMatchObject({ id: 1, open: true, customFeature: true, assets: [...ids, none], overCap: [] });
    expect(info!.received[0]!.kind).toBe('market');

    // PING -> PONG; a second initial message and junk -> INVALID OPERATION (the real server's answer).
    await c.barrier();
    c.send({ assets_ids: ids, type: 'market' });
    c.send('hello');
    await c.barrier();
    expect(c.frames.slice(1)).toEqual(['PONG', INVALID_OPERATION, INVALID_OPERATION, 'PONG']);
    expect(up.marketWs.sockets()[0]!.received.map((r) => r.kind)).toEqual(['market', 'ping', 'invalid', 'invalid', 'ping']);
    expect(up.requests.entries.filter((r) => r.path === '/ws/market').map((r) => r.status)).toEqual([101]);
  });

  it('initial_dump false sends no snapshot; an operation adds assets (with their books) and removes them', async () => {
    const up = await fake();
    const [a, b, d] = tokens(up, 3) as [string, string, string];
    const c = await Client.open(up);
    c.send({ assets_ids: [a], type: 'market', initial_dump: false });
    await c.barrier();
    expect(c.frames).toEqual(['PONG']);
    expect(up.marketWs.sockets()[0]!.customFeature).toBe(false);
    c.send({ operation: 'subscribe', assets_ids: [b, d] });
    await c.until(() => c.events.length === 2);
    expect(c.events.map((e) => [e.event_type, e.asset_id])).toEqual([
      ['book', b],
      ['book', d],
    ]);
    expect(up.marketWs.subscribedAssets()).toEqual([a, b, d]);

    // Unsubscribed: no more updates for it; the walk moves only what is still subscribed.
    c.send({ operation: 'unsubscribe', assets_ids: [b, d] });
    await c.barrier();
    expect(up.marketWs.subscribedAssets()).toEqual([a]);
    const before = c.events.length;
    up.marketWs.emit(b, { type: 'price_change', changes: [{ side: 'BUY', price: '0.02', size: 5 }] });
    const mine = up.marketWs.emit(a, { type: 'price_change', changes: [{ side: 'BUY', price: '0.02', size: 5 }] });
    const ticked = up.marketWs.tick(20);
    await c.barrier();
    // Not custom: no best_bid_ask.
    const expected = [...mine, ...ticked].filter((e) => e.event_type !== 'best_bid_ask');
    expect(c.events.slice(before)).toEqual(expected);
    expect(ticked.every((e) => e['asset_id'] === a || (e['price_changes'] as Obj[] | undefined)?.[0]?.asset_id === a)).toBe(true);
    // The unsubscribed asset's book still moved: the fake's book is one state.
    expect(up.marketWs.book(b)!.bids.some((l) => l.price === '0.02' && l.size === '5')).toBe(true);
  });

  it('accepts the subscription messages of the docs and the official example as they are', async () => {
    const up = await fake();
    const docs = sample('subscribe__docs_overview_example.json');
    const c = await Client.open(up);
    c.send(sampleText('subscribe__docs_overview_example.json'));
    // Unknown decimal ids still have (derived) books on the fake CLOB.
    await c.until(() => c.events.length === 2);
    expect(c.events.map((e) => e.asset_id)).toEqual(docs.assets_ids);
    for (const line of sampleText('subscribe_update__docs_mirror_polyoxide.jsonl').trim().split('\n')) c.send(line);
    await c.barrier();
    expect(c.frames.at(-1)).toBe('PONG');
    expect(c.frames).not.toContain(INVALID_OPERATION);
    // clob-client-v2's example sends `markets: []` and `initial_dump: true` and no custom features.
    const c2 = await Client.open(up);
    c2.send({ type: 'market', markets: [], assets_ids: docs.assets_ids, initial_dump: true });
    await c2.until(() => c2.events.length === 2);
    expect(up.marketWs.sockets()[1]!.customFeature).toBe(false);
  });

  it('serves nothing else on the port: another path is a 404', async () => {
    const up = await fake();
    const ws = new WebSocket(`${up.marketWs.url}/ws/user`);
    const error = await new Promise<Error>((resolve) => ws.once('error', resolve));
    expect(error.message).toMatch(/Unexpected server response: 404/);
  });
});

describe('market channel: the walk', () => {
  it('applying the messages to the snapshots gives the fake’s book, which REST answers; every hash checks', async () => {
    const up = await fake();
    const ids = tokens(up, 4);
    const c = await Client.open(up);
    const dump = await c.subscribe(ids, 4);
    const events = up.marketWs.tick(500);
    await c.barrier();
    // Custom features on: the client got every event, in order, however they were framed.
    expect(c.events.slice(dump.length), replay).toEqual(events);
    const frames = c.frames.slice(1, -1);
    expect(
      frames.some((f) => f.startsWith('[')),
      replay,
    ).toBe(true);
    expect(
      frames.some((f) => f.startsWith('{')),
      replay,
    ).toBe(true);
    const kinds = new Set(events.map((e) => e.event_type));
    for (const k of ['price_change', 'last_trade_price', 'book', 'best_bid_ask']) expect(kinds.has(k), `${k}; ${replay}`).toBe(true);

    const books = new Books();
    const client = sdk();
    for (const e of c.events) await books.apply(e, client);
    expect(books.mismatches, replay).toEqual([]);
    for (const id of ids) {
      const fake = up.marketWs.book(id)!;
      const mine = books.summary(id);
      expect({ ...mine, hash: fake.hash }, replay).toEqual(fake);
      expect(await client.getOrderBookHash({ ...mine })).toBe(fake.hash);
      // REST answers from the same book.
      expect(await getJson(up, `/book?token_id=${id}`)).toEqual(fake);
      const bid = fake.bids.at(-1)!.price;
      const ask = fake.asks.at(-1)!.price;
      expect(await getJson(up, `/price?token_id=${id}&side=BUY`)).toEqual({ price: bid });
      expect(await getJson(up, `/price?token_id=${id}&side=SELL`)).toEqual({ price: ask });
      const mid = String(Number(((Number(bid) + Number(ask)) / 2).toFixed(4)));
      expect(await getJson(up, `/midpoint?token_id=${id}`)).toEqual({ mid });
      expect(await getJson(up, `/spread?token_id=${id}`)).toEqual({ spread: String(Number((Number(ask) - Number(bid)).toFixed(4))) });
      expect((await getJson(up, `/last-trade-price?token_id=${id}`)).price).toBe(fake.last_trade_price);
      expect(await getJson(up, `/tick-size?token_id=${id}`)).toEqual({ minimum_tick_size: Number(fake.tick_size) });
    }
    const post = (body: unknown): RequestInit => ({ method: 'POST', body: JSON.stringify(body) });
    const batch = await getJson(up, '/books', post(ids.map((token_id) => ({ token_id }))));
    expect(batch).toEqual(ids.map((id) => up.marketWs.book(id)));
    // Each book is uncrossed.
    for (const id of ids) {
      const b = up.marketWs.book(id)!;
      expect(Number(b.bids.at(-1)!.price), replay).toBeLessThan(Number(b.asks.at(-1)!.price));
    }
  });

  it('is deterministic: the same seed and subscriptions give the same events; a book never ticked stays derived', async () => {
    const a = await fake();
    const b = await fake();
    const ids = tokens(a, 3);
    const untouched = tokens(a, 4)[3]!;
    const ca = await Client.open(a);
    const cb = await Client.open(b);
    await ca.subscribe(ids, 3);
    await cb.subscribe(ids, 3);
    const restBefore = await getJson(a, `/book?token_id=${untouched}`);
    expect(a.marketWs.tick(60)).toEqual(b.marketWs.tick(60));
    expect(ids.map((id) => a.marketWs.book(id))).toEqual(ids.map((id) => b.marketWs.book(id)));
    expect(await getJson(a, `/book?token_id=${untouched}`)).toEqual(restBefore);
    expect(a.trading.live.tokens().sort()).toEqual([...ids].sort());
  });

  it('scripts exact sequences with emit: level changes, trades, tick size changes, snapshots', async () => {
    const up = await fake();
    const [id] = tokens(up, 1) as [string];
    const c = await Client.open(up);
    await c.subscribe([id], 1);
    const start = up.marketWs.book(id)!;
    const bestAsk = start.asks.at(-1)!;
    const [pc, bba] = up.marketWs.emit(id, {
      type: 'price_change',
      changes: [
        { side: 'SELL', price: bestAsk.price, size: 0 },
        { side: 'BUY', price: Number(start.bids[0]!.price) - 0.001, size: '42' },
      ],
    });
    expect(pc!['price_changes']).toHaveLength(2);
    expect(bba).toMatchObject({ event_type: 'best_bid_ask', asset_id: id, best_bid: start.bids.at(-1)!.price });
    const ask2 = up.marketWs.book(id)!.asks.at(-1)!;
    const trade = up.marketWs.emit(id, { type: 'trade', side: 'BUY', size: 1 }, 'array');
    expect(trade.map((e) => e.event_type)).toEqual(['last_trade_price', 'book']);
    expect(trade[0]).toMatchObject({ price: ask2.price, side: 'BUY', size: '1', fee_rate_bps: '0' });
    const tick = up.marketWs.emit(id, { type: 'tick_size_change', tick_size: '0.001' });
    expect(tick[0]).toMatchObject({ old_tick_size: '0.01', new_tick_size: '0.001' });
    const snap = up.marketWs.emit(id, { type: 'book' });
    await c.barrier();
    expect(c.frames.filter((f) => f.startsWith('[')).length).toBe(2);
    const books = new Books();
    for (const e of c.events) await books.apply(e);
    expect(books.mismatches).toEqual([]);
    expect(restPart(snap[0]!)).toEqual(up.marketWs.book(id));
    expect(await getJson(up, `/last-trade-price?token_id=${id}`)).toEqual({ price: ask2.price, side: 'BUY' });
    expect(await getJson(up, `/tick-size?token_id=${id}`)).toEqual({ minimum_tick_size: 0.001 });
    // Timestamps rise strictly.
    const ts = c.events.map((e) => Number(e.timestamp));
    const distinct = [...new Set(ts)];
    expect(distinct).toEqual([...distinct].sort((x, y) => x - y));
    expect(() => up.marketWs.emit(id, { type: 'trade', side: 'SELL', size: 1e9 })).toThrow(/cannot trade/);
    expect(() => up.marketWs.emit('0', { type: 'book' })).toThrow(/no book/);
  });

  it('ticks on a timer at the given rate, and stops', async () => {
    const up = await fake();
    const ids = tokens(up, 2);
    const c = await Client.open(up);
    const dump = await c.subscribe(ids, 2);
    up.marketWs.start(200);
    expect(up.marketWs.rate).toBe(200);
    await c.until(() => c.events.length >= dump.length + 10);
    up.marketWs.stop();
    expect(up.marketWs.rate).toBe(0);
    await c.barrier();
    const n = c.events.length;
    await c.barrier();
    expect(c.events.length).toBe(n);
  });

  it('tells the `sent` hook of each publish as it goes out (the bench times messages by it); nothing while frozen', async () => {
    const seen: MarketEvent[][] = [];
    const up = await fake({ marketWs: { sent: (events) => void seen.push([...events]) } });
    const ids = tokens(up, 2);
    const c = await Client.open(up);
    const dump = await c.subscribe(ids, 2);
    expect(seen).toEqual([]);
    const events = up.marketWs.tick(5);
    await c.until(() => c.events.length >= dump.length + events.length);
    expect(seen).toHaveLength(5);
    expect(seen.flat()).toEqual(events);
    up.marketWs.faults.freeze();
    up.marketWs.tick(3);
    expect(seen).toHaveLength(5);
  });
});

describe('market channel: the 500-asset cap', () => {
  it('sends no snapshot and no updates for assets beyond 500 on one socket', async () => {
    const up = await fake();
    // Ids the catalog does not name still have derived books.
    const ids = Array.from({ length: 501 }, (_, i) => String(10_000_000 + i));
    const c = await Client.open(up);
    c.send({ assets_ids: ids, type: 'market', custom_feature_enabled: true });
    await c.until(() => c.frames.length === 1);
    expect((JSON.parse(c.frames[0]!) as Obj[]).map((e) => e.asset_id)).toEqual(ids.slice(0, 500));
    expect(up.marketWs.sockets()[0]).toMatchObject({ overCap: [ids[500]] });
    expect(up.marketWs.sockets()[0]!.assets).toHaveLength(500);
    // A second socket takes the 501st.
    const c2 = await Client.open(up);
    await c2.subscribe([ids[500]!], 1);
    up.marketWs.emit(ids[500]!, { type: 'book' });
    await c.barrier();
    await c2.barrier();
    expect(c.events).toHaveLength(500);
    expect(c2.events).toHaveLength(2);
    expect(up.marketWs.assetCount).toBe(501);
  });

  it('takes the cap as an option, and can refuse a socket over it (closed with 1008)', async () => {
    const up = await fake({ marketWs: { maxAssetsPerSocket: 2 } });
    const ids = tokens(up, 3);
    const c = await Client.open(up);
    await c.subscribe(ids, 2);
    await c.barrier();
    expect(c.events.map((e) => e.asset_id)).toEqual(ids.slice(0, 2));
    up.marketWs.overCap = 'refuse';
    const c2 = await Client.open(up);
    c2.send({ assets_ids: ids, type: 'market' });
    await c2.until(() => c2.closeCode !== undefined);
    expect(c2.closeCode).toBe(1008);
    expect(c2.events).toEqual([]);
  });
});

describe('market channel: faults', () => {
  it('drop: every socket closes without a close frame (1006); clients can connect again', async () => {
    const up = await fake();
    const ids = tokens(up, 1);
    const a = await Client.open(up);
    const b = await Client.open(up);
    await a.subscribe(ids, 1);
    expect(up.marketWs.faults.drop()).toBe(2);
    expect(up.marketWs.socketCount).toBe(0);
    await a.until(() => a.closeCode !== undefined);
    await b.until(() => b.closeCode !== undefined);
    expect([a.closeCode, b.closeCode]).toEqual([1006, 1006]);
    const again = await Client.open(up);
    await again.subscribe(ids, 1);
    expect(up.marketWs.socketCount).toBe(1);
  });

  it('freeze: sockets stay open, nothing is sent, no PONG (text or protocol) until thawed; updates meanwhile are lost', async () => {
    const up = await fake();
    const [id] = tokens(up, 1) as [string];
    const c = await Client.open(up);
    await c.subscribe([id], 1);
    const frames = c.frames.length;
    up.marketWs.faults.freeze();
    expect(up.marketWs.faults.frozen).toBe(true);
    const sent = up.marketWs.framesSent;
    c.send('PING');
    c.ws.ping();
    await up.marketWs.until(() => up.marketWs.sockets()[0]!.queued === 1 && up.marketWs.sockets()[0]!.pings === 1);
    up.marketWs.emit(id, { type: 'price_change', changes: [{ side: 'BUY', price: '0.013', size: 7 }] });
    up.marketWs.tick(5);
    expect(up.marketWs.framesSent).toBe(sent);
    expect(up.marketWs.socketCount).toBe(1);
    expect(c.ws.readyState).toBe(WebSocket.OPEN);
    up.marketWs.faults.thaw();
    // The PING sent while frozen is answered now; the protocol ping never was.
    await c.barrier();
    expect(c.frames.slice(frames)).toEqual(['PONG', 'PONG']);
    expect(c.protocolPongs).toBe(0);
    expect(up.marketWs.sockets()[0]!.received.map((r) => r.kind)).toEqual(['market', 'ping', 'ping']);
    // The client's book is now behind the fake's: the next price_change's hash says so.
    up.marketWs.emit(id, { type: 'price_change', changes: [{ side: 'BUY', price: '0.014', size: 3 }] });
    await c.barrier();
    const books = new Books();
    for (const e of c.events) await books.apply(e);
    expect(books.mismatches).toHaveLength(1);
    // Protocol pings are answered again.
    c.ws.ping();
    await c.until(() => c.protocolPongs === 1);
  });

  it('malformed: a frame that is not JSON', async () => {
    const up = await fake();
    const c = await Client.open(up);
    await c.subscribe(tokens(up, 1), 1);
    up.marketWs.faults.malformed();
    await c.barrier();
    expect(c.frames.at(-2)).toBe(MALFORMED_FRAME);
    expect(() => JSON.parse(c.frames.at(-2)!)).toThrow();
  });

  it('duplicate: the next publish’s frames arrive twice, then once again', async () => {
    const up = await fake();
    const [id] = tokens(up, 1) as [string];
    const c = await Client.open(up);
    await c.subscribe([id], 1);
    const n = c.frames.length;
    up.marketWs.faults.duplicate(1);
    up.marketWs.emit(id, { type: 'price_change', changes: [{ side: 'BUY', price: '0.012', size: 9 }] });
    up.marketWs.emit(id, { type: 'price_change', changes: [{ side: 'BUY', price: '0.012', size: 8 }] });
    await c.barrier();
    const got = c.frames.slice(n, -1).filter((f) => f.includes('"price_change"'));
    expect(got).toHaveLength(3);
    expect(got[0]).toBe(got[1]);
    expect(got[2]).not.toBe(got[1]);
  });

  it('reorder: two consecutive price_changes of an asset arrive swapped, and the hashes show it', async () => {
    const up = await fake();
    const [id, other] = tokens(up, 2) as [string, string];
    const c = await Client.open(up);
    await c.subscribe([id, other], 2);
    up.marketWs.faults.reorder();
    const [first] = up.marketWs.emit(id, { type: 'price_change', changes: [{ side: 'BUY', price: '0.011', size: 11 }] });
    const [between] = up.marketWs.emit(other, { type: 'price_change', changes: [{ side: 'BUY', price: '0.011', size: 12 }] });
    const [second] = up.marketWs.emit(id, { type: 'price_change', changes: [{ side: 'BUY', price: '0.012', size: 13 }] });
    await c.barrier();
    const pcs = c.events.filter((e) => e.event_type === 'price_change');
    expect(pcs).toEqual([between, second, first]);
    expect(Number(pcs[1]!.timestamp)).toBeGreaterThan(Number(pcs[2]!.timestamp));
    const books = new Books();
    for (const e of c.events) await books.apply(e);
    expect(books.mismatches.length).toBeGreaterThan(0);
    // Only that pair: later updates come in order.
    const [third] = up.marketWs.emit(id, { type: 'price_change', changes: [{ side: 'BUY', price: '0.013', size: 14 }] });
    await c.barrier();
    expect(c.events.filter((e) => e.event_type === 'price_change').at(-1)).toEqual(third);
  });

  it('is driven over HTTP too: POST /_fake/market-ws', async () => {
    const up = await fake();
    const ids = tokens(up, 2);
    const c = await Client.open(up);
    await c.subscribe(ids, 2);
    const post = async (body: unknown) => {
      const r = await fetch(up.url + MARKET_WS_CONTROL_PATH, { method: 'POST', body: JSON.stringify(body) });
      return { status: r.status, body: (await r.json()) as Obj };
    };
    const t = await post({ action: 'tick', n: 5 });
    expect(t.status).toBe(200);
    expect(t.body).toMatchObject({ sockets: 1, assets: 2, rate: 0, frozen: false, seed });
    await c.barrier();
    expect(c.events.slice(2)).toEqual(t.body.events);
    const e = await post({ action: 'emit', asset_id: ids[0], change: { type: 'book' } });
    expect(e.body.events[0]).toMatchObject({ event_type: 'book', asset_id: ids[0] });
    expect((await post({ action: 'freeze' })).body.frozen).toBe(true);
    expect((await post({ action: 'thaw' })).body.frozen).toBe(false);
    expect((await post({ action: 'start', rate: 5 })).body.rate).toBe(5);
    expect((await post({ action: 'stop' })).body.rate).toBe(0);
    expect((await post({ action: 'cap', max: 3, overCap: 'refuse' })).body.maxAssetsPerSocket).toBe(3);
    expect(up.marketWs.overCap).toBe('refuse');
    expect((await post({ action: 'drop' })).body.sockets).toBe(0);
    expect((await post({ action: 'nope' })).status).toBe(400);
    expect((await post({ action: 'emit', asset_id: '0', change: { type: 'book' } })).status).toBe(400);
  });
});

describe('market channel: catalog events', () => {
  it('new_market and market_resolved go to custom-feature sockets when a mutation opens or resolves a market', async () => {
    const catalog = createSyntheticCatalog({ markets: 40, seed: 7 });
    const up = await fake({}, catalog);
    const custom = await Client.open(up);
    const plain = await Client.open(up);
    custom.send({ assets_ids: [], type: 'market', custom_feature_enabled: true });
    plain.send({ assets_ids: [], type: 'market' });
    await custom.barrier();
    await plain.barrier();
    // A v1 template with fees (the synthetic catalog has none: given here).
    const like = catalog.marketRecords().find((r) => r.obj.closed !== true && (r.obj as Obj).version === 'v1')!;
    catalog.updateMarket(like.id, { feesEnabled: true, feeSchedule: { exponent: 1, rate: 0.07, takerOnly: true, rebateRate: 0.2 } } as Obj);
    mutate(catalog, { op: 'openMarket', id: '990001', eventId: like.eventIds[0]!, question: 'A new one?', like: like.id });
    await custom.until(() => custom.events.some((e) => e.event_type === 'new_market'));
    const m = catalog.getMarket('990001') as Obj;
    const ids: string[] = m.version === 'v2' ? m.positionIds : parseList(m.clobTokenIds);
    const nm = custom.events.find((e) => e.event_type === 'new_market')!;
    expect(nm).toMatchObject({
      id: '990001',
      question: 'A new one?',
      market: m.conditionId,
      condition_id: m.conditionId,
      assets_ids: ids,
      clob_token_ids: ids,
      outcomes: parseList(m.outcomes),
      active: true,
      fees_enabled: true,
      // Gamma's camelCase numbers become snake_case strings, as in the 2026 recordings.
      fee_schedule: { exponent: '1', rate: '0.07', taker_only: true, rebate_rate: '0.2' },
    });
    // A new market's ids are its own, not its template's.
    expect(ids).toHaveLength(2);
    expect(ids.some((t) => parseList((like.obj as Obj).clobTokenIds).includes(t))).toBe(false);
    expect(nm.event_message.id).toBe(like.eventIds[0]);
    await plain.barrier();
    expect(plain.events).toEqual([]);

    // Its books are the new market's: subscribe and compare with REST.
    const [book] = await custom.add([ids[0]!], 1);
    expect(restPart(book!)).toEqual(await getJson(up, `/book?token_id=${ids[0]}`));
    expect(book!.market).toBe(m.conditionId);

    const r = await fetch(up.url + MUTATE_PATH, { method: 'POST', body: JSON.stringify({ op: 'resolve', id: '990001', winner: 1 }) });
    expect(r.status).toBe(200);
    await custom.until(() => custom.events.some((e) => e.event_type === 'market_resolved'));
    const res = custom.events.find((e) => e.event_type === 'market_resolved')!;
    expect(res).toMatchObject({
      id: '990001',
      market: m.conditionId,
      assets_ids: ids,
      winning_asset_id: ids[1],
      winning_outcome: parseList(m.outcomes)[1],
    });
    await plain.barrier();
    expect(plain.events).toEqual([]);
  });
});

describe('market channel: a repriced market', () => {
  it('a price mutation makes the books again around the new price and sends the held ones, equal to REST', async () => {
    const catalog = createSyntheticCatalog({ markets: 40, seed: 7 });
    const up = await fake({}, catalog);
    const rec = catalog.marketRecords().find((r) => {
      const m = r.obj as Obj;
      return m.closed !== true && m.version !== 'v2' && parseList(m.clobTokenIds).every((t) => up.trading.hasBook(t));
    })!;
    const [yes, no] = parseList((rec.obj as Obj).clobTokenIds) as [string, string];
    const c = await Client.open(up);
    await c.subscribe([yes], 1);
    // The held book has ticked (a live book); the other outcome's is still derived.
    up.marketWs.emit(yes, { type: 'price_change', changes: [{ side: 'BUY', price: '0.011', size: 3 }] });
    await c.barrier();
    const before = c.events.length;
    mutate(catalog, { op: 'price', id: rec.id, price: 0.62 });
    await c.until(() => c.events.length > before);
    await c.barrier();
    const sent = c.events.slice(before);
    expect(sent.map((e) => [e.event_type, e.asset_id])).toEqual([['book', yes]]);
    expect(restPart(sent[0]!)).toEqual(await getJson(up, `/book?token_id=${yes}`));
    // Centred on the new price: best bid and ask half a cent either side; the other outcome at 1 - price.
    expect([sent[0]!.bids.at(-1).price, sent[0]!.asks.at(-1).price]).toEqual(['0.615', '0.625']);
    expect(await getJson(up, `/midpoint?token_id=${no}`)).toEqual({ mid: '0.38' });
    expect(Number(sent[0]!.timestamp)).toBeGreaterThan(Number(c.events[before - 1]!.timestamp));
  });
});

describe('market channel: shapes follow the samples (fixtures/polymarket-2026/ws-market)', () => {
  /** Every key of the sample is there, with a string where the sample has one. */
  function like(sampleObj: Obj, got: Obj, what: string): void {
    for (const [k, v] of Object.entries(sampleObj)) {
      expect(got, `${what}.${k}`).toHaveProperty(k);
      if (typeof v === 'string') expect(typeof got[k], `${what}.${k}`).toBe('string');
      if (typeof v === 'boolean') expect(typeof got[k], `${what}.${k}`).toBe('boolean');
      if (Array.isArray(v)) expect(Array.isArray(got[k]), `${what}.${k}`).toBe(true);
    }
  }

  it('book, price_change, last_trade_price, best_bid_ask, tick_size_change, new_market, market_resolved', async () => {
    const catalog = createSyntheticCatalog({ markets: 40, seed: 7 });
    const up = await fake({}, catalog);
    const [id] = tokens(up, 1) as [string];
    const c = await Client.open(up);
    const [book] = await c.subscribe([id], 1);
    like(sample('book__docs_example.json'), book!, 'book');
    const [pc, bba] = up.marketWs.emit(id, {
      type: 'price_change',
      changes: [{ side: 'BUY', price: up.marketWs.book(id)!.bids.at(-1)!.price, size: 0 }],
    });
    const pcSample = sample('price_change__docs_example.json');
    like(pcSample, pc!, 'price_change');
    like(pcSample.price_changes[0], (pc!['price_changes'] as Obj[])[0]!, 'price_changes[0]');
    like(sample('ws_market_best_bid_ask_msg__nautilus_fixture_2026-03-26.json'), bba!, 'best_bid_ask');
    const [ltp] = up.marketWs.emit(id, { type: 'trade', side: 'SELL', size: 1 });
    like(sample('last_trade_price__docs_example.json'), ltp!, 'last_trade_price');
    expect(ltp!['transaction_hash']).toMatch(/^0x[0-9a-f]{64}$/);
    // The docs' example is not JSON (a stray backslash); without it, it is.
    const tsc = JSON.parse(sampleText('tick_size_change__docs_example.txt').replace('",\\', '",')) as Obj;
    like(tsc, up.marketWs.emit(id, { type: 'tick_size_change', tick_size: '0.001' })[0]!, 'tick_size_change');
    const like0 = catalog.marketRecords().find((r) => r.obj.closed !== true)!;
    mutate(catalog, { op: 'openMarket', id: '990002', eventId: like0.eventIds[0]! });
    mutate(catalog, { op: 'resolve', id: '990002', winner: 0 });
    await c.until(() => c.events.some((e) => e.event_type === 'market_resolved'));
    like(sample('ws_market_new_market_msg__nautilus_fixture_2026-03-26.json'), c.events.find((e) => e.event_type === 'new_market')!, 'nm');
    like(
      sample('ws_market_resolved_msg__nautilus_fixture_2026-03-26.json'),
      c.events.find((e) => e.event_type === 'market_resolved')!,
      'mr',
    );
    const all: MarketEvent[] = c.events as MarketEvent[];
    expect(all.every((e) => /^\d+$/.test(String(e['timestamp'])))).toBe(true);
  });
});
