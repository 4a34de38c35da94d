/**
 * The upstream orders walk: normalisation of Polymarket's (and Kuest's) order shape, every page
 * followed to whichever end marker the upstream uses, L2-signed requests.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { Credentials } from '../auth/credentials.ts';
import { verifyL2 } from '../auth/l2.ts';
import { FakeCatalog, startFakeUpstream, type FakeUpstream } from '../fake-upstream/index.ts';
import { UpstreamClient, UpstreamError } from './client.ts';
import { fetchOpenOrders, isEndCursor, isoTime, normalizeOrder, normalizeStatus } from './clob.ts';

const CREDS: Credentials = {
  apiKey: '6c1e0d1a-7f4e-4c1b-9d7e-2b8f3a5c9e10',
  secret: Buffer.alloc(32, 9).toString('base64url'),
  passphrase: 'p'.repeat(64),
  address: '0x90F79bf6EB2c4f870365E785982E1f101E93b906',
};

/** The live capture in docs/upstream/clob-data-limits.md §2.5. */
const CAPTURED = {
  id: '0xc566c1aa8e0a4a3b0f4f1f2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4cf165',
  status: 'LIVE',
  owner: 'aa17dfae-754d-2498-f336-8bd1db84f525',
  maker_address: '0xb98ad946c7f753596F26396Bf3F34A2EeBc39E86',
  market: '0x7018aa00bb11cc22dd33ee44ff5566778899aabbccddeeff00112233445bd6e',
  asset_id: '84371186359433032934344934234365568331165136826770712345678901234567',
  side: 'BUY',
  original_size: '5',
  size_matched: '0',
  price: '0.01',
  outcome: 'Yes',
  expiration: '0',
  order_type: 'GTC',
  associate_trades: [],
  created_at: 1784930007,
};

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

const client = (url: string) =>
  new UpstreamClient({ urls: { gamma: url, clob: url, data: url }, baseDelayMs: 1, maxDelayMs: 5, maxRetries: 1 });

describe('order normalisation', () => {
  it("maps the captured snake_case order to the spec's Order", () => {
    expect(normalizeOrder(CAPTURED)).toEqual({
      id: CAPTURED.id,
      status: 'live',
      market: CAPTURED.market,
      assetId: CAPTURED.asset_id,
      outcome: 'Yes',
      makerAddress: CAPTURED.maker_address,
      owner: CAPTURED.owner,
      price: '0.01',
      originalSize: '5',
      sizeMatched: '0',
      side: 'BUY',
      type: 'GTC',
      associateTrades: [],
      createdAt: '2026-07-24T21:53:27.000Z',
      updatedAt: '2026-07-24T21:53:27.000Z',
    });
  });

  it("takes Kuest's camelCase and other spellings of status and time", () => {
    const o = normalizeOrder({
      id: '0x1',
      status: 'ORDER_STATUS_LIVE',
      assetId: '7',
      makerAddress: '0xabc',
      originalSize: 10,
      sizeMatched: '2.5',
      type: 'gtd',
      associateTrades: ['t1', 5, null],
      createdAt: '2026-01-02T03:04:05Z',
      updatedAt: 1767323045000,
    })!;
    expect(o).toMatchObject({ status: 'live', assetId: '7', makerAddress: '0xabc', originalSize: '10', sizeMatched: '2.5', type: 'GTD' });
    expect(o.associateTrades).toEqual(['t1', '5']);
    expect(o.createdAt).toBe('2026-01-02T03:04:05.000Z');
    expect(o.updatedAt).toBe('2026-01-02T03:04:05.000Z');
    expect(normalizeOrder({ status: 'LIVE' })).toBeNull();
    expect(normalizeStatus('MATCHED')).toBe('matched');
    expect(isoTime('1784930007')).toBe('2026-07-24T21:53:27.000Z');
    expect(isoTime('garbage')).toBe('');
  });

  it('knows every end marker', () => {
    expect([isEndCursor('LTE='), isEndCursor(''), isEndCursor(undefined), isEndCursor(null), isEndCursor('MTAw')]).toEqual([
      true,
      true,
      true,
      true,
      false,
    ]);
  });
});

describe('fetchOpenOrders', () => {
  async function fake(): Promise<FakeUpstream> {
    const up = await startFakeUpstream({ catalog: new FakeCatalog(), clob: { credentials: CREDS } });
    cleanups.push(() => up.close());
    return up;
  }

  it('walks every page of the fake CLOB, signed, and normalises each order', async () => {
    const up = await fake();
    const orders = await fetchOpenOrders(client(up.url), CREDS);
    expect(orders).toHaveLength(275);
    expect(orders.map((o) => o.id)).toEqual(up.clob!.orders.map((o) => o.id));
    expect(orders.every((o) => o.status === 'live' && o.assetId !== '' && o.createdAt.endsWith('Z'))).toBe(true);
    const cursors = up.requests.entries.filter((e) => e.path === '/data/orders').map((e) => e.query['next_cursor']);
    expect(cursors).toEqual(['MA==', 'MTAw', 'MjAw']);
  });

  it('signs with the KUEST_* family when asked', async () => {
    const up = await fake();
    expect(await fetchOpenOrders(client(up.url), CREDS, { family: 'KUEST' })).toHaveLength(275);
  });

  it("fails with the upstream's 401 when the credentials are wrong", async () => {
    const up = await fake();
    const err = await fetchOpenOrders(client(up.url), { ...CREDS, passphrase: 'wrong' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UpstreamError);
    expect((err as UpstreamError).status).toBe(401);
    expect((err as Error).message).not.toContain('wrong');
  });

  /** A CLOB that ends its pages with `end` (Kuest's "" or a missing key), checking each signature. */
  async function clobEndingWith(end: '' | undefined): Promise<{ url: string; unsigned: () => number }> {
    let unsigned = 0;
    const server: Server = createServer((req, res) => {
      const url = new URL(req.url!, 'http://x');
      if (!verifyL2(CREDS, { method: req.method!, path: req.url!, headers: req.headers })) unsigned++;
      const first = (url.searchParams.get('next_cursor') ?? 'MA==') === 'MA==';
      const body: Record<string, unknown> = { data: [{ ...CAPTURED, id: first ? '0xa' : '0xb' }], limit: 100, count: 1 };
      if (first) body['next_cursor'] = 'MQ==';
      else if (end !== undefined) body['next_cursor'] = end;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    cleanups.push(() => new Promise((r) => server.close(() => r())));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, unsigned: () => unsigned };
  }

  it('also stops at an empty or absent cursor', async () => {
    for (const end of ['', undefined] as const) {
      const c = await clobEndingWith(end);
      expect((await fetchOpenOrders(client(c.url), CREDS)).map((o) => o.id)).toEqual(['0xa', '0xb']);
      expect(c.unsigned()).toBe(0);
    }
  });
});
