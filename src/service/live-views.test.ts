/**
 * Live views end to end: a service whose upstream is the fake (its market channel included), a
 * web client's push stream (`GET /stream?client=`), and `POST /live/view`. The expected quotes are
 * computed from the fake's own books (`marketWs.book`) with the displayed-price rule; the tape's
 * trades are the fake's own `last_trade_price` events. The fake's walk is seeded (printed).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_TOKEN_HEADER } from '../contract/local-api-ops.ts';
import { displayPrice, type LiveMarketBook, type LiveQuote, type LiveStatus, type LiveView } from '../contract/live.ts';
import { tradingIds } from '../contract/market-rules.ts';
import { createSyntheticCatalog, startFakeUpstream, type FakeUpstream, type MarketEvent } from '../fake-upstream/index.ts';
import { startService, type Service } from '../http/server.ts';
import { testSeed } from '../testing/seed.ts';

const { seed, replay } = testSeed('live views vs the fake');
let up: FakeUpstream;
let s: Service;
let token: string;
/** Open markets whose every outcome has a book at the fake: [market id, trading ids]. */
let pool: [string, string[]][];

beforeAll(async () => {
  up = await startFakeUpstream({ catalog: createSyntheticCatalog({ markets: 40, seed: 9 }), marketWs: { seed } });
  s = await startService({ urls: { gamma: up.url, clob: up.url, data: up.url }, basePort: 0, clobPort: 0 });
  await s.sync!.syncNow('full');
  token = s.apiToken.token;
  pool = [];
  for (const rec of up.catalog.marketRecords()) {
    const m = up.catalog.getMarket(rec.id);
    const t = m && m.closed !== true ? tradingIds(m) : undefined;
    if (t?.ok && t.ids.every((id) => up.marketWs.book(id))) pool.push([String(rec.id), t.ids]);
  }
});
afterAll(async () => {
  await s?.close();
  await up?.close();
});

const until = (cond: () => boolean, timeout = 20_000) => expect.poll(cond, { interval: 5, timeout, message: replay }).toBe(true);

/** A client's push stream, parsed. */
class Stream {
  readonly events: { name: string; data: unknown }[] = [];
  private readonly abort = new AbortController();
  readonly opened: Promise<void>;
  constructor(client: string) {
    this.opened = this.read(client);
  }
  private async read(client: string): Promise<void> {
    const res = await fetch(`${s.baseUrl}/stream?client=${client}`, { signal: this.abort.signal });
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let buf = '';
    void (async () => {
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          buf += decoder.decode(value, { stream: true });
          let i = buf.indexOf('\n\n');
          while (i >= 0) {
            const chunk = buf.slice(0, i);
            buf = buf.slice(i + 2);
            const name = /^event: (.*)$/m.exec(chunk)?.[1];
            const data = /^data: (.*)$/m.exec(chunk)?.[1];
            if (name && data) this.events.push({ name, data: JSON.parse(data) });
            i = buf.indexOf('\n\n');
          }
        }
      } catch {
        // Aborted.
      }
    })();
  }
  of<T>(name: string): T[] {
    return this.events.filter((e) => e.name === name).map((e) => e.data as T);
  }
  /** The newest quote pushed for a market. */
  quote(id: string): LiveQuote | undefined {
    return this.of<{ quotes: LiveQuote[] }>('quotes')
      .flatMap((b) => b.quotes)
      .filter((q) => q.marketId === id)
      .at(-1);
  }
  close(): void {
    this.abort.abort();
  }
}

async function view(client: string, markets: string[], book?: string): Promise<Response> {
  const q = new URLSearchParams({ client });
  for (const m of markets) q.append('market', m);
  if (book) q.set('book', book);
  return fetch(`${s.baseUrl}/live/view?${q}`, {
    method: 'POST',
    headers: { [API_TOKEN_HEADER]: token, 'content-type': 'application/json' },
  });
}

/** The fake's own displayed price for an asset. */
function fakePrice(assetId: string): number | null {
  const b = up.marketWs.book(assetId)!;
  const bid = b.bids.length ? Math.max(...b.bids.map((l) => Number(l.price))) : null;
  const ask = b.asks.length ? Math.min(...b.asks.map((l) => Number(l.price))) : null;
  return displayPrice(bid, ask, b.last_trade_price === '' ? null : Number(b.last_trade_price));
}

describe('live views', () => {
  it('subscribe what a client shows and push it only that client, equal to the fake', async () => {
    const [a, b, c] = [pool[0]!, pool[1]!, pool[2]!];
    const one = new Stream('one');
    const two = new Stream('two');
    await Promise.all([one.opened, two.opened]);
    const res = await view('one', [a[0], b[0]], a[0]);
    expect(res.status).toBe(200);
    const body = (await res.json()) as LiveView;
    expect(body.quotes.map((q) => q.marketId).sort()).toEqual([a[0], b[0]].sort());
    expect(body.book?.outcomes.map((o) => o.assetId)).toEqual(a[1]);
    expect((await view('two', [c[0]])).status).toBe(200);
    // Every outcome of the three markets is subscribed at the fake, under one socket.
    await up.marketWs.until(() => [...a[1], ...b[1], ...c[1]].every((id) => up.marketWs.subscribedAssets().includes(id)));
    await until(() => [...a[1], ...b[1]].every((id) => s.live.book(id)?.state === 'live'));

    // Moves and trades on `a`: client one's newest quote is the fake's price; two hears nothing of `a`.
    const trades: MarketEvent[] = [];
    for (let i = 0; i < 6; i++) {
      trades.push(...up.marketWs.emit(a[1][0]!, { type: 'trade', side: i % 2 ? 'SELL' : 'BUY', size: '1' }));
      trades.push(...up.marketWs.tick(10));
    }
    await until(() => {
      const q = one.quote(a[0]);
      return !!q && q.state === 'live' && q.prices[0] === fakePrice(a[1][0]!) && q.prices[1] === fakePrice(a[1][1]!);
    });
    expect(two.of<{ quotes: LiveQuote[] }>('quotes').flatMap((x) => x.quotes.map((q) => q.marketId))).not.toContain(a[0]);

    // The open page's book equals the fake's, and its tape holds the fake's trades on `a`, newest first.
    const fakeTrades = trades.filter((e) => e.event_type === 'last_trade_price' && a[1].includes(String(e['asset_id'])));
    await until(() => {
      const page = one.of<LiveMarketBook>('liveBook').at(-1);
      const book = page?.outcomes[0]?.book;
      const fake = up.marketWs.book(a[1][0]!)!;
      return !!book && JSON.stringify(book.bids) === JSON.stringify(fake.bids) && page!.tape.length >= fakeTrades.length;
    });
    const tape = one.of<LiveMarketBook>('liveBook').at(-1)!.tape;
    const expected = fakeTrades
      .map((e) => ({ price: Number(e['price']), side: String(e['side']), time: Number(e['timestamp']) }))
      .sort((x, y) => y.time - x.time);
    expect(tape.slice(0, expected.length).map((t) => ({ price: t.price, side: t.side, time: t.time }))).toEqual(expected);

    // Health goes to everyone.
    await until(() => two.of<LiveStatus>('live').some((st) => st.assets >= 5));

    // An empty view releases the client's assets; those of the other client stay.
    expect((await view('one', [])).status).toBe(200);
    await until(() => a[1].every((id) => !s.live.assets().includes(id)) && c[1].every((id) => s.live.assets().includes(id)));
    one.close();
    two.close();
  });

  it('refuse a bad client id and an unknown market without changing anything', async () => {
    const before = s.live.assets().length;
    const bad = await view('no spaces', [pool[3]![0]]);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toMatch(/client/);
    const unknown = (await (await view('three', ['999999999'])).json()) as LiveView;
    expect(unknown.quotes).toEqual([]);
    expect(s.live.assets().length).toBe(before);
    expect((await fetch(`${s.baseUrl}/stream?client=a%20b`)).status).toBe(400);
  });

  it('need the local API token over HTTP, as every desk write does', async () => {
    const res = await fetch(`${s.baseUrl}/live/view?client=x&market=${pool[0]![0]}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(401);
  });
});
