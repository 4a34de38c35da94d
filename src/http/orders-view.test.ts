/**
 * `GET /orders/view` and `GET /orders/export` through real HTTP (both faces), against the fake
 * upstream serving the recorded catalog and the demo account's orders. Expected values come from
 * the fake upstream's own orders and catalog records (and the service's `/markets/:id` for event
 * titles), never from the code under test.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { l2Headers } from '../auth/l2.ts';
import type { OrderRow, OrdersViewPage, OrderViewField } from '../contract/orders-ops.ts';
import { DEMO_CREDENTIALS as CREDS } from '../cli/demo.ts';
import { FIXTURES_DIR, loadFixtureCatalog } from '../fake-upstream/fixture-catalog.ts';
import { startFakeUpstream, type FakeUpstream, type RawOrder } from '../fake-upstream/index.ts';
import { csvLine } from '../service/orders-view.ts';
import { startService, type Service } from './server.ts';
import { parseCsv } from '../testing/csv.ts';

let fake: FakeUpstream;
let service: Service;
/** What the fake upstream holds: its orders, and per condition id the market they belong to. */
let raw: RawOrder[];
const markets = new Map<
  string,
  { id: string; question: string; outcomes: string[]; tokens: string[]; prices: number[]; title: string | null }
>();
const UNCACHED = `0x${'ab'.repeat(32)}`;
const MATCHED_ID = `0x${'ef'.repeat(32)}`;

beforeAll(async () => {
  const catalog = await loadFixtureCatalog(FIXTURES_DIR);
  fake = await startFakeUpstream({ catalog, clob: { credentials: CREDS } });
  // One order of a market the catalog does not have: its joined fields are null.
  const first = fake.clob!.orders[0]!;
  fake.clob!.orders.push({ ...first, id: `0x${'cd'.repeat(32)}`, market: UNCACHED, asset_id: '42', created_at: first.created_at - 99_999 });
  // And one in another status, in the upstream's spelling, for the status filter.
  fake.clob!.orders.push({
    ...fake.clob!.orders[1]!,
    id: MATCHED_ID,
    status: 'ORDER_STATUS_MATCHED',
    created_at: first.created_at - 199_999,
  });
  raw = fake.clob!.orders;
  service = await startService({ urls: { gamma: fake.url, clob: fake.url, data: fake.url }, basePort: 0, clobPort: 0, credentials: CREDS });
  await service.sync!.syncNow();
  const ids = new Set(raw.map((o) => o.market));
  for (const rec of catalog.marketRecords()) {
    const m = rec.obj as Record<string, unknown>;
    if (!ids.has(m['conditionId'] as string)) continue;
    const detail = (await (await fetch(`${service.baseUrl}/markets/${m['id']}`)).json()) as { events?: { title?: string }[] };
    markets.set(m['conditionId'] as string, {
      id: String(m['id']),
      question: m['question'] as string,
      outcomes: JSON.parse(m['outcomes'] as string) as string[],
      tokens: JSON.parse(m['clobTokenIds'] as string) as string[],
      prices: (JSON.parse(m['outcomePrices'] as string) as string[]).map(Number),
      title: detail.events?.[0]?.title ?? null,
    });
  }
}, 120_000);

afterAll(async () => {
  await service?.close();
  await fake?.close();
});

const signed = (path: string, creds = CREDS) => l2Headers(creds, { method: 'GET', path }, { family: 'KUEST' });

async function view(query: string, face: 'base' | 'clob' = 'clob'): Promise<OrdersViewPage> {
  const url = face === 'base' ? service.baseUrl : service.clobUrl;
  const res = await fetch(`${url}/orders/view${query}`, { headers: signed('/orders/view') });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as OrdersViewPage;
}

const all = (query = '') => view(`?limit=500${query ? `&${query}` : ''}`);

/** The row the fake's order should give. */
function expectedRow(o: RawOrder): Partial<OrderRow> {
  const m = markets.get(o.market);
  return {
    id: o.id,
    market: o.market,
    assetId: o.asset_id,
    price: o.price,
    question: m?.question ?? null,
    outcome_name: m ? (m.outcomes[m.tokens.indexOf(o.asset_id)] ?? null) : null,
    market_id: m?.id ?? null,
    event_title: m?.title ?? null,
  };
}

describe('orders.view', () => {
  it('answers every order with its market question, outcome name and market id, newest first, and the total', async () => {
    const page = await all();
    expect(page.total).toBe(raw.length);
    expect(page.data).toHaveLength(raw.length);
    const newestFirst = [...raw].sort((a, b) => b.created_at - a.created_at);
    expect(page.data.map((r) => r.id)).toEqual(newestFirst.map((o) => o.id));
    for (const [i, o] of newestFirst.entries()) expect(page.data[i]).toMatchObject(expectedRow(o));
    expect(page.data.find((r) => r.market === UNCACHED)).toMatchObject({ question: null, outcome_name: null, market_id: null });
    // The base face serves it too (the web UI's way), with the same answer.
    expect(await view('?limit=500', 'base')).toEqual(page);
  });

  it('finds orders by market name, condition id (any case) or token id', async () => {
    const trump = raw.filter((o) => {
      const m = markets.get(o.market);
      return !!m && (m.question.toLowerCase().includes('trump') || !!m.title?.toLowerCase().includes('trump'));
    });
    expect(trump.length, 'the demo account has orders on Trump markets').toBeGreaterThan(0);
    expect(trump.length).toBeLessThan(raw.length);
    const byName = await all('q=Trump');
    expect(byName.total).toBe(trump.length);
    expect(new Set(byName.data.map((r) => r.id))).toEqual(new Set(trump.map((o) => o.id)));
    expect((await all('q=tRuMp')).total).toBe(trump.length);

    const market = raw[0]!.market;
    const ofMarket = raw.filter((o) => o.market === market).map((o) => o.id);
    expect((await all(`q=${market.toUpperCase().replace('0X', '0x')}`)).data.map((r) => r.id).sort()).toEqual([...ofMarket].sort());
    expect((await all(`market=${market}`)).total).toBe(ofMarket.length);
    const token = raw[0]!.asset_id;
    const ofToken = raw.filter((o) => o.asset_id === token);
    expect((await all(`q=${token}`)).total).toBe(ofToken.length);
    expect((await all(`asset_id=${token}`)).total).toBe(ofToken.length);
    expect((await all('side=SELL')).total).toBe(raw.filter((o) => o.side === 'SELL').length);
    expect(await all('q=no%20such%20market%20anywhere')).toMatchObject({ total: 0, data: [] });
  });

  /** An order's outcome name as the market names it (else the order's own word). */
  const outcomeOf = (o: RawOrder): string => {
    const m = markets.get(o.market);
    return (m ? m.outcomes[m.tokens.indexOf(o.asset_id)] : undefined) ?? o.outcome;
  };
  /** The independent model of `q`: every word somewhere in the question, event title or outcome. */
  const hasWords = (o: RawOrder, text: string): boolean => {
    const m = markets.get(o.market);
    const hay = [m?.question ?? '', m?.title ?? '', outcomeOf(o)].join(' ').toLowerCase();
    return text
      .toLowerCase()
      .split(/\s+/)
      .filter(Boolean)
      .every((w) => hay.includes(w));
  };
  const ids = (rows: readonly { id: string }[]) => new Set(rows.map((r) => r.id));

  it('filters by words in any order, each matching the market, its event or the outcome', async () => {
    // Two words of a question that has several, given backwards, plus its outcome.
    const o = raw.find((x) => (markets.get(x.market)?.question.split(' ').length ?? 0) >= 5)!;
    const w = markets.get(o.market)!.question.split(' ');
    const text = `${w[3]} ${w[1]} ${outcomeOf(o)}`;
    const expected = raw.filter((x) => hasWords(x, text));
    expect(expected.map((x) => x.id)).toContain(o.id);
    const got = await all(`q=${encodeURIComponent(text)}`);
    expect(got.total).toBe(expected.length);
    expect(ids(got.data)).toEqual(ids(expected));
    // The same words the other way round and in another case find the same orders.
    const back = `${outcomeOf(o).toUpperCase()}  ${w[1]} ${w[3]}`;
    expect(ids((await all(`q=${encodeURIComponent(back)}`)).data)).toEqual(ids(expected));
    // A word matching nothing empties the list, whatever the others match.
    expect((await all(`q=${encodeURIComponent(`${w[1]} zzqqxx`)}`)).total).toBe(0);
  });

  it('filters by outcome, side and status, alone and together', async () => {
    const status = (o: RawOrder) => o.status.toLowerCase().replace(/^order_status_/, '');
    const yes = raw.filter((o) => outcomeOf(o).toLowerCase() === 'yes');
    expect(yes.length, 'some orders are on Yes').toBeGreaterThan(0);
    expect(ids((await all('outcome=yes')).data)).toEqual(ids(yes));
    expect((await all('outcome=YES')).total).toBe(yes.length);
    const matched = raw.filter((o) => status(o) === 'matched');
    expect(matched.map((o) => o.id)).toEqual([MATCHED_ID]);
    expect(ids((await all('status=matched')).data)).toEqual(ids(matched));
    expect(ids((await all('status=live')).data)).toEqual(ids(raw.filter((o) => status(o) === 'live')));
    const o = raw[0]!;
    const word = markets.get(o.market)!.question.split(' ')[1]!;
    const both = raw.filter((x) => x.side === 'BUY' && outcomeOf(x) === 'No' && status(x) === 'live' && hasWords(x, word));
    const got = await all(`side=buy&outcome=No&status=live&q=${encodeURIComponent(word)}`);
    expect(got.total).toBe(both.length);
    expect(ids(got.data)).toEqual(ids(both));
  });

  it('gives each order its remaining size, its value and its distance from the current price', async () => {
    const page = await all();
    for (const r of page.data) {
      const o = raw.find((x) => x.id === r.id)!;
      const remaining = Number(o.original_size) - Number(o.size_matched);
      expect(Number(r.remaining)).toBeCloseTo(remaining, 9);
      expect(r.value).toBeCloseTo(remaining * Number(o.price), 6);
      const m = markets.get(o.market);
      const current = m?.prices[m.tokens.indexOf(o.asset_id)];
      expect(r.current_price).toBe(current ?? null);
      if (current === undefined) expect(r.distance_cents).toBeNull();
      else expect(r.distance_cents).toBeCloseTo((Number(o.price) - current) * 100, 6);
    }
    expect(page.data.find((r) => r.market === UNCACHED)).toMatchObject({ current_price: null, distance_cents: null });
  });

  const KEYS: Record<OrderViewField, (r: OrderRow) => string | number> = {
    created_at: (r) => Date.parse(r.createdAt),
    price: (r) => Number(r.price),
    size: (r) => Number(r.originalSize),
    filled: (r) => Number(r.sizeMatched),
    remaining: (r) => Number(r.originalSize) - Number(r.sizeMatched),
    // To a millionth of a dollar: products of short decimals carry float noise beyond it.
    value: (r) => Math.round((Number(r.originalSize) - Number(r.sizeMatched)) * Number(r.price) * 1e6) / 1e6,
    distance: (r) => r.distance_cents ?? Number.NEGATIVE_INFINITY,
    market: (r) => (r.question ?? '\uffff').toLowerCase(),
    outcome: (r) => (r.outcome_name ?? r.outcome).toLowerCase(),
    side: (r) => r.side,
    status: (r) => r.status,
    expiration: (r) => {
      const e = Number(raw.find((o) => o.id === r.id)!.expiration);
      return e === 0 ? Number.POSITIVE_INFINITY : e;
    },
  };

  it.each(Object.keys(KEYS) as OrderViewField[])('sorts by %s both ways', async (field) => {
    for (const ascending of [true, false]) {
      const page = await all(`order_by=${field}&ascending=${ascending}`);
      expect(page.total).toBe(raw.length);
      expect(new Set(page.data.map((r) => r.id)).size).toBe(raw.length);
      const keys = page.data.map(KEYS[field]);
      for (let i = 1; i < keys.length; i++) {
        const [a, b] = [keys[i - 1]!, keys[i]!];
        if (ascending) expect(a <= b, `${field} ascending at ${i}: ${a} then ${b}`).toBe(true);
        else expect(a >= b, `${field} descending at ${i}: ${a} then ${b}`).toBe(true);
      }
    }
  });

  it('pages by offset and limit over the same order', async () => {
    const whole = await all('order_by=price&ascending=true');
    const pages = await Promise.all([0, 100, 200].map((o) => view(`?order_by=price&ascending=true&limit=100&offset=${o}`)));
    for (const [i, p] of pages.entries()) expect(p).toMatchObject({ total: raw.length, limit: 100, offset: i * 100 });
    expect(pages.flatMap((p) => p.data)).toEqual(whole.data);
    expect(await view('?offset=5000')).toEqual({ total: raw.length, limit: 100, offset: 5000, data: [] });
    expect((await view('')).data).toHaveLength(100);
  });

  it.each([
    ['?sort=price', 'unknown_field: sort'],
    ['?order_by=colour', 'order_by must be one of'],
    ['?limit=501', 'limit must be an integer between 1 and 500'],
    ['?offset=-1', 'offset must be an integer'],
    ['?ascending=maybe', 'ascending must be true or false'],
    ['?status=open', 'status must be one of live, matched'],
    ['?side=hold', 'side must be one of'],
    [`?outcome=${'x'.repeat(201)}`, 'outcome'],
  ])('refuses %s with a 400 naming it', async (query, message) => {
    const res = await fetch(`${service.clobUrl}/orders/view${query}`, { headers: signed('/orders/view') });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toContain(message);
  });

  it('refuses callers without L2 auth, or signing with another secret, on both faces', async () => {
    const other = { ...CREDS, secret: Buffer.from('another-secret-entirely').toString('base64') };
    for (const url of [service.baseUrl, service.clobUrl]) {
      for (const path of ['/orders/view', '/orders/export']) {
        for (const headers of [{}, signed(path, other)]) {
          const res = await fetch(`${url}${path}`, { headers });
          expect(res.status).toBe(401);
          expect(await res.json()).toEqual({ error: 'Unauthorized/Invalid api key' });
        }
      }
    }
  });
});

describe('orders.export', () => {
  it("is the view's rows for the same filters and sort, as an RFC 4180 attachment", async () => {
    const query = 'q=trump&order_by=price&ascending=true';
    const rows = (await all(query)).data;
    const res = await fetch(`${service.baseUrl}/orders/export?${query}`, { headers: signed('/orders/export') });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="marketdesk-orders-\d{4}-\d{2}-\d{2}\.csv"$/);
    const [header, ...records] = parseCsv(await res.text());
    expect(header).toEqual(
      (
        'id,created_at,market,question,outcome,side,price_cents,original_size,size_matched,status,asset_id,expiration,' +
        'remaining_size,value,current_price_cents,distance_cents'
      ).split(','),
    );
    expect(records).toEqual(
      rows.map((r) => [
        r.id,
        r.createdAt,
        r.market,
        r.question ?? '',
        r.outcome_name ?? r.outcome,
        r.side,
        String(Math.round(Number(r.price) * 1e6) / 1e4),
        r.originalSize,
        r.sizeMatched,
        r.status,
        r.assetId,
        raw.find((o) => o.id === r.id)!.expiration,
        r.remaining,
        String(r.value),
        r.current_price === null ? '' : String(Math.round(r.current_price * 1e6) / 1e4),
        r.distance_cents === null ? '' : String(r.distance_cents),
      ]),
    );
    // Everything, not a page: the whole account without filters.
    const whole = await fetch(`${service.clobUrl}/orders/export`, { headers: signed('/orders/export') });
    expect(parseCsv(await whole.text())).toHaveLength(raw.length + 1);
  });

  it('quotes cells RFC 4180 style, defuses formulas in a market question, and writes prices in cents', () => {
    const line = csvLine({
      id: '0x1',
      status: 'live',
      market: '0x2',
      assetId: '3',
      outcome: 'Yes',
      makerAddress: '0x4',
      owner: '0x4',
      price: '0.375',
      originalSize: '10',
      sizeMatched: '0',
      side: 'BUY',
      type: 'GTC',
      associateTrades: [],
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
      expiration: '0',
      position: 0,
      marketId: '5',
      question: '=HYPERLINK("x"), now',
      outcomeName: 'Yes',
      eventTitle: null,
      currentPrice: 0.4,
    });
    expect(parseCsv(line)[0]).toEqual([
      '0x1',
      '2026-01-01T00:00:00.000Z',
      '0x2',
      `'=HYPERLINK("x"), now`,
      'Yes',
      'BUY',
      '37.5',
      '10',
      '0',
      'live',
      '3',
      '0',
      '10',
      '3.75',
      '40',
      '-2.5',
    ]);
    expect(line).toContain(`"'=HYPERLINK(""x""), now"`);
  });
});
