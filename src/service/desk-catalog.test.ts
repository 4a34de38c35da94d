/**
 * markets.count / events.count and catalog.export through real HTTP over the fixture catalog.
 * Expected values are the service's own listings (`/markets`, `/events`, `/v1/leaderboard`)
 * paged to the end with the same filters and sort; the route ranking beside `/markets/:id`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSyntheticCatalog, startFakeUpstream, type FakeUpstream } from '../fake-upstream/index.ts';
import { fixtureEvents, fixtureMarkets, fixtureTags, tempDir } from '../testing/fixtures.ts';
import { MARKET_COLUMNS, EVENT_COLUMNS, eventCells, marketCells, csvRow } from './export-csv.ts';
import { startService, type Service } from '../http/server.ts';
import { parseCsv } from '../testing/csv.ts';
import { httpJson, type Obj } from '../testing/http-json.ts';

let s: Service;
let fake: FakeUpstream;
let base: string;
const noWebUi = tempDir();

beforeAll(async () => {
  fake = await startFakeUpstream({ catalog: createSyntheticCatalog({ markets: 5, seed: 3 }) });
  s = await startService({
    urls: { gamma: fake.url, clob: fake.url, data: fake.url },
    basePort: 0,
    clobPort: 0,
    webRoot: noWebUi.dir,
    client: { baseDelayMs: 1, maxDelayMs: 5, maxRetries: 1 },
  });
  base = s.baseUrl!;
  s.store.apply({ tags: fixtureTags(), events: fixtureEvents() });
  s.store.apply({ markets: fixtureMarkets() });
});

afterAll(async () => {
  await s.close();
  await fake.close();
  noWebUi.cleanup();
});

const { json, all } = httpJson(() => base);

const MARKET_QUERIES = ['', 'active=true', 'closed=false&order=volume24hr', 'order=endDate&ascending=true', 'tag_slug=politics'];
const EVENT_QUERIES = ['', 'closed=false&order=volume', 'tag_slug=sports&order=title&ascending=true', 'volume_min=100000'];

describe('counts', () => {
  it.each(MARKET_QUERIES)('/markets/count?%s equals the rows /markets lists', async (q) => {
    const rows = await all('/markets', q);
    const { count } = await json<{ count: number }>(`/markets/count?${q}`);
    expect(count).toBe(rows.length);
  });

  it.each(EVENT_QUERIES)('/events/count?%s equals the rows /events lists', async (q) => {
    const rows = await all('/events', q);
    const { count } = await json<{ count: number }>(`/events/count?${q}`);
    expect(count).toBe(rows.length);
  });

  it('filters narrow the count, and paging parameters are ignored', async () => {
    const total = (await json<{ count: number }>('/markets/count')).count;
    const closed = (await json<{ count: number }>('/markets/count?closed=true')).count;
    const open = (await json<{ count: number }>('/markets/count?closed=false&limit=5&offset=9999&order=nope')).count;
    expect(total).toBeGreaterThan(0);
    expect(closed + open).toBe(total);
    expect((await json<{ count: number }>('/markets/count?tag_slug=no-such-tag')).count).toBe(0);
  });

  it('a bad filter is the listing’s 400', async () => {
    const r = await fetch(`${base}/markets/count?volume_num_min=lots`);
    expect(r.status).toBe(400);
    expect(await r.json()).toMatchObject({ type: 'bad request' });
  });

  it('answers through dispatch (IPC) as over HTTP', async () => {
    const viaIpc = await s.dispatch('events.count', { closed: 'false' });
    expect(viaIpc).toEqual(await json('/events/count?closed=false'));
  });
});

describe('routes beside /markets/:id', () => {
  it('static segments win over the id parameter', async () => {
    const [first] = await json<Obj[]>('/markets?limit=1');
    expect(await json('/markets/count')).toEqual({ count: expect.any(Number) });
    expect(await json<Obj>(`/markets/${first!.id}`)).toMatchObject({ id: first!.id });
    // Unknown id: the chart route is reached (its 404), not /markets/:id with id "123/chart".
    const r = await fetch(`${base}/markets/999999999/chart`);
    expect(r.status).toBe(404);
    expect(await r.json()).toEqual({ type: 'not found error', error: 'id not found' });
  });
});

async function csv(path: string): Promise<{ r: Response; rows: string[][]; text: string }> {
  const r = await fetch(base + path);
  const text = await r.text();
  return { r, rows: r.status === 200 ? parseCsv(text) : [], text };
}

/** A cell as the CSV writes it, then read back (what a spreadsheet sees). */
const asRead = (cells: string) => parseCsv(cells)[0]!;

describe('catalog.export', () => {
  it.each(MARKET_QUERIES)('markets?%s: the rows of /markets paged to the end, in order', async (q) => {
    const listed = await all('/markets', q);
    const { r, rows } = await csv(`/export/markets?${q}`);
    expect(r.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(r.headers.get('content-disposition')).toMatch(/^attachment; filename="marketdesk-markets-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(rows[0]).toEqual([...MARKET_COLUMNS]);
    expect(rows.slice(1).map((row) => row[0])).toEqual(listed.map((m) => m.id));
    expect(rows.slice(1)).toEqual(listed.map((m) => asRead(csvRow(marketCells(m as never)))));
  });

  it.each(EVENT_QUERIES)('events?%s: the rows of /events paged to the end, in order', async (q) => {
    const listed = await all('/events', q);
    const { rows } = await csv(`/export/events?${q}`);
    expect(rows[0]).toEqual([...EVENT_COLUMNS]);
    expect(rows.slice(1).map((row) => row[0])).toEqual(listed.map((e) => e.id));
    expect(rows.slice(1)).toEqual(listed.map((e) => asRead(csvRow(eventCells(e as never)))));
  });

  it('the values are the listing’s own: question, volume, status', async () => {
    const listed = await all('/markets', 'order=volume24hr');
    const { rows } = await csv('/export/markets?order=volume24hr');
    const col = (name: string) => MARKET_COLUMNS.indexOf(name as never);
    for (const [i, m] of listed.entries()) {
      const row = rows[i + 1]!;
      expect(row[col('question')]!.replace(/^'/, '')).toBe(m['question'] ?? '');
      expect(row[col('volume_24hr')]).toBe(m['volume24hr'] === undefined ? '' : String(m['volume24hr']));
      expect(row[col('closed')]).toBe(String(m['closed'] ?? ''));
    }
  });

  it('exports more than one internal page (the whole catalog, not the first 500)', async () => {
    const { count } = await json<{ count: number }>('/markets/count');
    const { rows } = await csv('/export/markets');
    expect(rows.length - 1).toBe(count);
  });

  it('a bad parameter is the JSON 400, not half a CSV', async () => {
    for (const path of ['/export/markets?order=nope', '/export/events?volume_min=x', '/export/pies', '/export/markets?closed=maybe']) {
      const { r, text } = await csv(path);
      expect(r.status, path).toBe(400);
      expect(r.headers.get('content-type'), path).toMatch(/^application\/json/);
      expect(JSON.parse(text), path).toMatchObject({ type: 'bad request' });
    }
  });

  it('the leaderboard: every entry /v1/leaderboard pages through, in rank order', async () => {
    const listed: Obj[] = [];
    for (let offset = 0; offset <= 1000; offset += 50) {
      const page = await json<Obj[]>(`/v1/leaderboard?timePeriod=WEEK&orderBy=VOL&limit=50&offset=${offset}`);
      listed.push(...page);
      if (page.length < 50) break;
    }
    const { rows } = await csv('/export/leaderboard?timePeriod=WEEK&orderBy=VOL');
    expect(rows[0]!.slice(0, 5)).toEqual(['rank', 'proxy_wallet', 'user_name', 'vol', 'pnl']);
    expect(listed.length).toBeGreaterThan(0);
    expect(rows.slice(1).map((r) => [r[0], r[1], Number(r[3]), Number(r[4])])).toEqual(
      listed.map((e) => [e['rank'], e['proxyWallet'], e['vol'], e['pnl']]),
    );
  });

  it('answers IPC with the whole text', async () => {
    const raw = await s.dispatch('catalog.export', { list: 'events', closed: 'true' });
    const { collectRaw } = await import('../contract/raw.ts');
    const reply = await collectRaw(raw);
    expect(reply.body).toBe((await csv('/export/events?closed=true')).text);
  });
});

describe('catalog.export offline', () => {
  it('the leaderboard with nothing cached and no upstream: a plain 503, no CSV', async () => {
    const web = tempDir();
    const offline = await startService({
      urls: { gamma: 'http://127.0.0.1:9/', clob: 'http://127.0.0.1:9/', data: 'http://127.0.0.1:9/' },
      offline: true,
      basePort: 0,
      clobPort: 0,
      webRoot: web.dir,
    });
    try {
      const r = await fetch(`${offline.baseUrl}/export/leaderboard`);
      expect(r.status).toBe(503);
      expect(await r.json()).toEqual({ type: 'service unavailable', error: 'no leaderboard is cached and the upstream cannot be reached' });
      // Markets and events come from the cache and export (here: just the header) offline.
      expect(await (await fetch(`${offline.baseUrl}/export/markets`)).text()).toBe(`${MARKET_COLUMNS.join(',')}\r\n`);
    } finally {
      await offline.close();
      web.cleanup();
    }
  });
});
