/**
 * Issue 25, "A V1-token request for a V2 market is never sent": through real HTTP, a service on
 * the fake upstream (its synthetic catalog mixes v1 and v2 markets) refuses on every id-carrying
 * CLOB route an id its catalog knows to be the wrong trading id (a v2 market's clobTokenIds, a v1
 * market's positionIds) with a 400 `{error}` naming the market and the ids to use, and the fake's
 * request log shows the request never reached it; the right ids, ids the catalog does not know
 * and ids of a market without a known version are forwarded. Every expected id and market comes
 * from the fake's own catalog; the catalog's seed and the random choices are printed.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Credentials } from '../auth/credentials.ts';
import { l2Headers } from '../auth/l2.ts';
import { createSyntheticCatalog, startFakeUpstream, type FakeUpstream } from '../fake-upstream/index.ts';
import { startService, type Service } from '../http/server.ts';
import type { Logger } from '../logger.ts';
import { pick } from '../fake-upstream/prng.ts';
import { testSeed } from '../testing/seed.ts';
import { guardTradingIds, tradingIdsOf } from './trading-id-guard.ts';

const quiet: Logger = { info: () => {}, warn: () => {} } as Logger;
const CREDS: Credentials = {
  apiKey: randomUUID(),
  secret: randomBytes(32).toString('base64url'),
  passphrase: randomBytes(32).toString('hex'),
  address: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
};
const { seed, rng, replay } = testSeed('trading-id-guard');

/** A cached market with a known version, read from the fake's catalog. */
interface Known {
  market: string;
  version: 'v1' | 'v2';
  /** The ids it trades by, in outcome order. */
  right: string[];
  /** The ids of the other field (clobTokenIds of a v2 market, positionIds of a v1 market), in outcome order. */
  wrong: string[];
}

const list = (v: unknown): string[] => {
  const a: unknown = typeof v === 'string' ? JSON.parse(v) : v;
  return Array.isArray(a) ? a.filter((x): x is string => typeof x === 'string') : [];
};

let up: FakeUpstream;
let s: Service;
let known: Known[];
/** A v1 market with positionIds whose version the test changed to one this build does not know. */
let unversioned: { market: string; positionIds: string[] };

beforeAll(async () => {
  up = await startFakeUpstream({
    catalog: createSyntheticCatalog({ markets: 80, seed }),
    clob: { credentials: CREDS, orders: [] },
    // Unsigned orders: the right ids' orders must be taken (signing is clob-client-v2.test.ts's).
    trading: { orders: 'any' },
  });
  // The fake's v2 markets carry `clobTokenIds: null`; Gamma may send a v2 market's former CTF token
  // ids. Half of the fake's v2 markets (at least one) get theirs back, so both kinds are here.
  const retired = new Map<string, string[]>();
  for (const [token, market] of up.catalog.protocolIds.retired) retired.set(market, [...(retired.get(market) ?? []), token]);
  let first = true;
  for (const [market, tokens] of retired) {
    if (first || rng() < 0.5) up.catalog.updateMarket(market, { clobTokenIds: JSON.stringify(tokens) });
    first = false;
  }
  // One v1 market with positionIds gets a version this build does not know: its ids pass.
  const v1WithPositions = up.catalog.marketRecords().filter((r) => r.obj.version === 'v1' && list(r.obj.positionIds).length > 0);
  const odd = pick(rng, v1WithPositions);
  up.catalog.updateMarket(odd.id, { version: 'v3' });
  unversioned = { market: odd.id, positionIds: list(odd.obj.positionIds) };

  s = await startService({
    urls: { gamma: up.url, clob: up.url, data: up.url },
    basePort: 0,
    clobPort: 0,
    credentials: CREDS,
    log: quiet,
    // No cache: every forwarded read reaches the fake, so the log tells what was sent.
    tradingTtlMs: { book: 0, price: 0, history: 0 },
    client: { baseDelayMs: 1, maxDelayMs: 5, maxRetries: 0 },
  });
  await s.sync!.syncNow('full');
  known = up.catalog
    .marketRecords()
    .filter((r) => s.store.reader.getMarket(r.num) !== undefined)
    .flatMap((r): Known[] => {
      const v = r.obj.version;
      if (v !== 'v1' && v !== 'v2') return [];
      const clob = list(r.obj.clobTokenIds);
      const pos = list(r.obj.positionIds);
      return [{ market: r.id, version: v, right: v === 'v2' ? pos : clob, wrong: v === 'v2' ? clob : pos }];
    });
}, 60_000);

afterAll(async () => {
  await s?.close();
  await up?.close();
});

interface Call {
  method: 'GET' | 'POST';
  /** The path and query. */
  url: string;
  body?: string;
}

let salt = 0;
/** Each id-carrying route, asked about one id. */
const ROUTES: Record<string, (t: string) => Call> = {
  book: (t) => ({ method: 'GET', url: `/book?token_id=${t}` }),
  price: (t) => ({ method: 'GET', url: `/price?token_id=${t}&side=BUY` }),
  midpoint: (t) => ({ method: 'GET', url: `/midpoint?token_id=${t}` }),
  spread: (t) => ({ method: 'GET', url: `/spread?token_id=${t}` }),
  'last-trade-price': (t) => ({ method: 'GET', url: `/last-trade-price?token_id=${t}` }),
  'tick-size': (t) => ({ method: 'GET', url: `/tick-size?token_id=${t}` }),
  'neg-risk': (t) => ({ method: 'GET', url: `/neg-risk?token_id=${t}` }),
  'fee-rate': (t) => ({ method: 'GET', url: `/fee-rate?token_id=${t}` }),
  'prices-history': (t) => ({ method: 'GET', url: `/prices-history?market=${t}&interval=1d&fidelity=60` }),
  'markets-by-token': (t) => ({ method: 'GET', url: `/markets-by-token/${t}` }),
  books: (t) => ({ method: 'POST', url: '/books', body: JSON.stringify([{ token_id: t }]) }),
  prices: (t) => ({ method: 'POST', url: '/prices', body: JSON.stringify([{ token_id: t, side: 'BUY' }]) }),
  midpoints: (t) => ({ method: 'POST', url: '/midpoints', body: JSON.stringify([{ token_id: t }]) }),
  spreads: (t) => ({ method: 'POST', url: '/spreads', body: JSON.stringify([{ token_id: t }]) }),
  'last-trades-prices': (t) => ({ method: 'POST', url: '/last-trades-prices', body: JSON.stringify([{ token_id: t }]) }),
  'batch-prices-history': (t) => ({
    method: 'POST',
    url: '/batch-prices-history',
    body: JSON.stringify({ markets: [t], interval: '1d', fidelity: 60 }),
  }),
  order: (t) => ({
    method: 'POST',
    url: '/order',
    body: JSON.stringify({
      order: {
        salt: ++salt,
        maker: CREDS.address,
        tokenId: t,
        makerAmount: '5000000',
        takerAmount: '10000000',
        side: 'BUY',
        signature: '0xsig',
      },
      owner: CREDS.apiKey,
      orderType: 'GTC',
    }),
  }),
};
const NAMES = Object.keys(ROUTES);

const pathOf = (c: Call) => c.url.split('?')[0]!;
const reached = (c: Call) => up.requests.count((e) => e.method === c.method && e.path === pathOf(c));

/** Sends `c` to `base` (the clob face, or the fake itself); POST /order signed with the credentials. */
async function send(base: string, c: Call): Promise<{ status: number; body: unknown }> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (c.url === '/order') Object.assign(headers, l2Headers(CREDS, { method: 'POST', path: '/order', body: c.body! }));
  const res = await fetch(base + c.url, { method: c.method, headers, ...(c.body !== undefined ? { body: c.body } : {}) });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as unknown) : undefined };
}

/** The refusal the clob face must give for `k`'s wrong id at outcome `i`. */
function refusal(k: Known, i: number): { error: string } {
  const t = k.wrong[i]!;
  const what = k.version === 'v2' ? 'a CTF token id' : 'a position id';
  const protocol = k.version === 'v2' ? 'Protocol V2' : 'Protocol V1';
  const tradeBy = k.version === 'v2' ? 'positionIds' : 'clobTokenIds';
  const instead = k.right[i] !== undefined ? ` (for this outcome: ${k.right[i]})` : '';
  return { error: `token id ${t} is ${what} of market ${k.market}, a ${protocol} market: trade it by its ${tradeBy}${instead}` };
}

/** Asks the clob face for a wrong id and checks the 400 and that the fake never saw it. */
async function expectRefused(name: string, k: Known, i: number): Promise<void> {
  const c = ROUTES[name]!(k.wrong[i]!);
  const before = reached(c);
  const via = await send(s.clobUrl!, c);
  expect(via, `${replay}: ${name} with ${k.version} market ${k.market}'s wrong id ${k.wrong[i]}`).toEqual({
    status: 400,
    body: refusal(k, i),
  });
  expect(reached(c) - before, `${replay}: ${name} reached the upstream`).toBe(0);
}

/** Asks the clob face for an id that must be forwarded: it reaches the fake, and answers as the fake does. */
async function expectForwarded(name: string, t: string, note: string): Promise<void> {
  const c = ROUTES[name]!(t);
  const before = reached(c);
  const via = await send(s.clobUrl!, c);
  expect(reached(c) - before, `${replay}: ${name} with ${note} ${t} was not forwarded`).toBe(1);
  // The order route places an order: its answer is checked, not asked twice.
  if (name === 'order') expect(via.body, `${replay}: ${note}`).toMatchObject({ success: true });
  else expect(via, `${replay}: ${name} with ${note} ${t}`).toEqual(await send(up.url, c));
}

const v2WithClob = () => known.filter((k) => k.version === 'v2' && k.wrong.length > 0);
const v1WithPositions = () => known.filter((k) => k.version === 'v1' && k.wrong.length > 0);

describe('the clob face refuses a wrong trading id without sending it', () => {
  it('the fake catalog has both kinds', () => {
    expect(v2WithClob().length, replay).toBeGreaterThan(0);
    expect(v1WithPositions().length, replay).toBeGreaterThan(0);
  });

  it.each(NAMES)("%s: a v2 market's clobTokenIds and a v1 market's positionIds answer 400, unsent", async (name) => {
    for (const k of [pick(rng, v2WithClob()), pick(rng, v1WithPositions())])
      for (let i = 0; i < k.wrong.length; i++) await expectRefused(name, k, i);
  });

  it.each(NAMES)('%s: the right ids are forwarded and answered', async (name) => {
    for (const k of [pick(rng, v2WithClob()), pick(rng, v1WithPositions())])
      await expectForwarded(name, k.right[0]!, `${k.version} right id`);
  });

  it.each(NAMES)('%s: an id the catalog does not know, and one of a market without a known version, pass', async (name) => {
    const unknown = BigInt(`0x${randomBytes(30).toString('hex')}`).toString();
    await expectForwarded(name, unknown, 'unknown id');
    await expectForwarded(name, unversioned.positionIds[0]!, `market ${unversioned.market} (version v3)`);
  });

  it('a batch is refused for one wrong id among right ones, and names that one', async () => {
    const v2 = pick(rng, v2WithClob());
    const v1 = pick(rng, v1WithPositions());
    const body = JSON.stringify([{ token_id: v1.right[0] }, { token_id: v2.wrong[0] }, { token_id: v1.wrong[0] }]);
    const c: Call = { method: 'POST', url: '/books', body };
    const before = reached(c);
    expect(await send(s.clobUrl!, c)).toEqual({ status: 400, body: refusal(v2, 0) });
    expect(reached(c) - before).toBe(0);
    const history: Call = {
      method: 'POST',
      url: '/batch-prices-history',
      body: JSON.stringify({ markets: [v2.right[0], v1.wrong[1] ?? v1.wrong[0]], interval: '1d' }),
    };
    const h = await send(s.clobUrl!, history);
    expect(h.status).toBe(400);
    expect((h.body as { error: string }).error).toContain(`of market ${v1.market}, a Protocol V1 market`);
  });

  it('any market, route and outcome: wrong ids refused unsent, right ones forwarded (property)', async () => {
    const tradable = known.filter((k) => k.right.length > 0);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...tradable), fc.constantFrom(...NAMES), fc.boolean(), fc.nat(), async (k, name, wrong, n) => {
        if (wrong && k.wrong.length > 0) await expectRefused(name, k, n % k.wrong.length);
        else await expectForwarded(name, k.right[n % k.right.length]!, `${k.version} right id`);
      }),
      { seed, numRuns: 80 },
    );
  });

  it('a market that changes version: the refusals follow the next sync', async () => {
    const k = pick(rng, v1WithPositions());
    await expectRefused('book', k, 0);
    // It becomes v2: its positionIds are now the ids it trades by; its clobTokenIds the wrong ones.
    up.catalog.updateMarket(k.market, { version: 'v2' });
    await s.sync!.syncNow('full');
    const now: Known = { market: k.market, version: 'v2', right: k.wrong, wrong: k.right };
    await expectRefused('book', now, 0);
    await expectForwarded('book', now.right[0]!, 'v2 right id (was v1)');
  });
});

describe('the ids a request carries (tradingIdsOf)', () => {
  const order = (tokenId: unknown) => ({ order: { salt: 1, tokenId, side: 'BUY' }, owner: 'k', orderType: 'GTC' });
  it.each<[string, Record<string, unknown>, string[]]>([
    ['GET /book', { token_id: '11' }, ['11']],
    ['GET /markets-by-token/:token_id', { token_id: '12' }, ['12']],
    ['GET /prices-history', { market: '13', interval: '1d' }, ['13']],
    // Elsewhere `market` is a condition id, not a token id.
    ['GET /data/trades', { market: '0xabc', asset_id: '14' }, []],
    ['POST /books', { body: JSON.stringify([{ token_id: '15' }, { token_id: 16 }, { nope: '17' }, null]) }, ['15', '16']],
    ['POST /prices', { body: JSON.stringify([{ token_id: '18', side: 'BUY' }]) }, ['18']],
    ['POST /batch-prices-history', { body: JSON.stringify({ markets: ['19', '20'], interval: '1d' }) }, ['19', '20']],
    ['POST /order', { body: JSON.stringify(order('21')) }, ['21']],
    // A batch of orders (POST /orders): every order's token id.
    ['POST /orders', { body: JSON.stringify([order('22'), order('23'), { owner: 'k' }]) }, ['22', '23']],
    ['POST /order', { body: '{"order": "not an object"}' }, []],
    ['POST /books', { body: 'not json' }, []],
    ['DELETE /order', { body: JSON.stringify({ orderID: '0x1' }) }, []],
  ])('%s %j', (route, params, want) => {
    expect(tradingIdsOf(route, params)).toEqual(want);
  });

  it('refuses the first wrong id, naming it', () => {
    const lookup = (id: string) =>
      id === '2'
        ? { market: '9', version: 'v2' as const, field: 'clobTokenIds' as const, tradeBy: 'positionIds' as const, instead: '5' }
        : undefined;
    expect(() => guardTradingIds(lookup, 'POST /orders', { body: JSON.stringify([order('1'), order('2')]) })).toThrow(
      'token id 2 is a CTF token id of market 9, a Protocol V2 market: trade it by its positionIds (for this outcome: 5)',
    );
    expect(() => guardTradingIds(lookup, 'POST /orders', { body: JSON.stringify([order('1'), order('3')]) })).not.toThrow();
  });
});
