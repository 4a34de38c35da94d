/**
 * The fake CLOB `/data/orders` and Data API `/v1/leaderboard` over real HTTP: Polymarket's
 * shapes, paging, auth and validation, deterministic data.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { l2Headers } from '../auth/l2.ts';
import type { Credentials } from '../auth/credentials.ts';
import { createSyntheticCatalog, FakeCatalog } from './catalog.ts';
import { catalogMarkets, createFakeOrders, type RawOrder } from './clob.ts';
import { FAKE_CATEGORIES, FAKE_ORDERS, FAKE_PERIODS, FakeLeaderboard, type RawLeaderboardEntry } from './data-api.ts';
import { startFakeUpstream, type FakeUpstream } from './server.ts';

const CREDS: Credentials = {
  apiKey: '6c1e0d1a-7f4e-4c1b-9d7e-2b8f3a5c9e10',
  secret: `${Buffer.alloc(32, 7).toString('base64url')}=`,
  passphrase: 'p'.repeat(64),
  address: '0x90F79bf6EB2c4f870365E785982E1f101E93b906',
};

const SNAKE_KEYS = [
  'asset_id',
  'associate_trades',
  'created_at',
  'expiration',
  'id',
  'maker_address',
  'market',
  'order_type',
  'original_size',
  'outcome',
  'owner',
  'price',
  'side',
  'size_matched',
  'status',
];

async function get(up: FakeUpstream, path: string, headers: Record<string, string> = {}) {
  const res = await fetch(up.url + path, { headers });
  return { status: res.status, body: (await res.json()) as any };
}

const signed = (c = CREDS) => l2Headers(c, { method: 'GET', path: '/data/orders' });

describe('fake CLOB /data/orders', () => {
  let up: FakeUpstream;
  let catalog: FakeCatalog;
  beforeAll(async () => {
    catalog = createSyntheticCatalog({ markets: 300, seed: 5 });
    up = await startFakeUpstream({ catalog, clob: { credentials: CREDS } });
  });
  afterAll(() => up.close());

  it('answers 401 with the production body to anything but the configured account', async () => {
    for (const headers of [{}, signed({ ...CREDS, passphrase: 'x'.repeat(64) }), signed({ ...CREDS, apiKey: 'other' })]) {
      expect(await get(up, '/data/orders', headers)).toEqual({ status: 401, body: { error: 'Unauthorized/Invalid api key' } });
    }
  });

  it('pages 100 at a time, base64 offset cursors, LTE= at the end', async () => {
    const pages: { data: RawOrder[]; next_cursor: string; limit: number; count: number }[] = [];
    let cursor = 'MA==';
    while (cursor !== 'LTE=') {
      const r = await get(up, `/data/orders?next_cursor=${encodeURIComponent(cursor)}`, signed());
      expect(r.status).toBe(200);
      pages.push(r.body);
      cursor = r.body.next_cursor;
    }
    expect(pages.map((p) => [p.count, p.limit, p.next_cursor])).toEqual([
      [100, 100, 'MTAw'],
      [100, 100, 'MjAw'],
      [75, 100, 'LTE='],
    ]);
    const all = pages.flatMap((p) => p.data);
    expect(all).toEqual(up.clob!.orders);
    expect(new Set(all.map((o) => o.id)).size).toBe(275);
  });

  it("serves Polymarket's snake_case orders over several markets and assets of its catalog", () => {
    const orders = up.clob!.orders;
    for (const o of orders) {
      expect(Object.keys(o).sort()).toEqual(SNAKE_KEYS);
      expect(o.status).toBe('LIVE');
      expect(Number.isInteger(o.created_at)).toBe(true);
      expect(o.owner).toBe(CREDS.apiKey);
      expect(o.id).toMatch(/^0x[0-9a-f]{64}$/);
    }
    const markets = new Set(orders.map((o) => o.market));
    expect(markets.size).toBeGreaterThanOrEqual(6);
    expect(new Set(orders.map((o) => o.asset_id)).size).toBeGreaterThan(markets.size);
    const conditionIds = new Set(catalogMarkets(catalog).map((m) => m.conditionId));
    for (const m of markets) expect(conditionIds.has(m)).toBe(true);
  });

  it('filters by market and asset_id, and ignores unknown parameters', async () => {
    const o = up.clob!.orders[42]!;
    const byMarket = await get(up, `/data/orders?market=${o.market}&geo_block_token=x`, signed());
    expect(byMarket.body.data).toEqual(up.clob!.orders.filter((x) => x.market === o.market));
    const byAsset = await get(up, `/data/orders?asset_id=${o.asset_id}&id=${o.id}`, signed());
    expect(byAsset.body.data).toEqual([o]);
  });

  it('is deterministic and 404s without credentials', async () => {
    expect(createFakeOrders({ seed: 3 })).toEqual(createFakeOrders({ seed: 3 }));
    expect(createFakeOrders({ seed: 3 })).not.toEqual(createFakeOrders({ seed: 4 }));
    const bare = await startFakeUpstream({ catalog: new FakeCatalog() });
    try {
      expect((await get(bare, '/data/orders', signed())).status).toBe(404);
    } finally {
      await bare.close();
    }
  });
});

describe('fake Data API /v1/leaderboard', () => {
  let up: FakeUpstream;
  beforeAll(async () => {
    up = await startFakeUpstream({ catalog: new FakeCatalog() });
  });
  afterAll(() => up.close());

  it('has a ranked board for every category, period and order', () => {
    const lb = new FakeLeaderboard();
    for (const c of FAKE_CATEGORIES) {
      for (const p of FAKE_PERIODS) {
        for (const o of FAKE_ORDERS) {
          const b = lb.board(c, p, o);
          expect(b.length, `${c}/${p}/${o}`).toBeGreaterThan(0);
          expect(b.map((e) => e.rank)).toEqual(b.map((_, i) => String(i + 1)));
          const key = (e: RawLeaderboardEntry) => (o === 'VOL' ? e.vol : e.pnl);
          for (let i = 1; i < b.length; i++) expect(key(b[i - 1]!)).toBeGreaterThanOrEqual(key(b[i]!));
        }
      }
    }
    expect(lb.board('OVERALL', 'ALL', 'PNL').length).toBeGreaterThan(1050);
    expect(new FakeLeaderboard().board('CRYPTO', 'WEEK', 'VOL')).toEqual(lb.board('CRYPTO', 'WEEK', 'VOL'));
  });

  it('answers a bare array page with camelCase entries and string ranks', async () => {
    const r = await get(up, '/v1/leaderboard?category=SPORTS&timePeriod=MONTH&orderBy=VOL&limit=50&offset=1000');
    expect(r.status).toBe(200);
    expect(r.body).toEqual(up.leaderboard.board('SPORTS', 'MONTH', 'VOL').slice(1000, 1050));
    const d = await get(up, '/v1/leaderboard');
    expect(d.body).toEqual(up.leaderboard.board('OVERALL', 'DAY', 'PNL').slice(0, 25));
    expect(Object.keys(d.body[0]).sort()).toEqual([
      'pnl',
      'profileImage',
      'proxyWallet',
      'rank',
      'userName',
      'verifiedBadge',
      'vol',
      'xUsername',
    ]);
  });

  it('filters by user (any case) and userName', async () => {
    const e = up.leaderboard.board('OVERALL', 'DAY', 'PNL')[7]!;
    expect((await get(up, `/v1/leaderboard?user=${e.proxyWallet.toLowerCase()}`)).body).toEqual([e]);
    expect((await get(up, `/v1/leaderboard?userName=${e.userName}`)).body).toEqual([e]);
  });

  it('rejects bad values like the Data API', async () => {
    for (const [q, param] of [
      ['category=GEOPOLITICS', 'category'],
      ['timePeriod=YEAR', 'timePeriod'],
      ['orderBy=ROI', 'orderBy'],
      ['limit=51', 'limit'],
      ['limit=0', 'limit'],
      ['offset=1001', 'offset'],
      ['offset=-1', 'offset'],
    ] as const) {
      expect(await get(up, `/v1/leaderboard?${q}`)).toEqual({ status: 400, body: { error: `invalid ${param} parameter` } });
    }
  });
});
