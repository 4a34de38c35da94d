/**
 * catalog.export over a catalog of several export batches (EXPORT_BATCH rows each) through real
 * HTTP: ties in the sort value and runs of NULLs that cross a batch boundary come out exactly
 * as the listing paged to its end gives them, and a request made while an export streams is
 * answered before the export ends (the export takes a turn per batch, fair-turns.ts).
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateCatalog } from '../fake-upstream/synthetic.ts';
import { tempDir } from '../testing/fixtures.ts';
import { EXPORT_BATCH } from './export-handlers.ts';
import { startService, type Service } from '../http/server.ts';
import { httpJson, type Obj } from '../testing/http-json.ts';

const MARKETS = 6000;
let s: Service;
let base: string;
const web = tempDir();

/**
 * In id order: two markets in five have no 24h volume and one in seven no end date (NULLs spread
 * over the ids), and the rest share their 24h volume forty at a time, so tie groups and the NULL
 * run straddle batch boundaries. Events likewise: one in four without volume, ties of thirty.
 */
function shapeCatalog() {
  const c = generateCatalog({ markets: MARKETS, seed: 11 });
  const markets = c.events.flatMap((e) => (e.markets ?? []) as Record<string, unknown>[]);
  markets.sort((a, b) => Number(a['id']) - Number(b['id']));
  let ranked = 0;
  for (const [i, m] of markets.entries()) {
    if (i % 5 < 2) delete m['volume24hr'];
    else m['volume24hr'] = Math.floor(ranked++ / 40) * 100;
    if (i % 7 === 0) {
      delete m['endDate'];
      delete m['endDateIso'];
    }
  }
  const events = [...c.events].sort((a, b) => Number(a.id) - Number(b.id)) as Record<string, unknown>[];
  ranked = 0;
  for (const [i, e] of events.entries()) {
    if (i % 4 === 0) delete e['volume'];
    else e['volume'] = Math.floor(ranked++ / 30) * 1000;
  }
  return c;
}

beforeAll(async () => {
  s = await startService({
    urls: { gamma: 'http://127.0.0.1:9/', clob: 'http://127.0.0.1:9/', data: 'http://127.0.0.1:9/' },
    offline: true,
    basePort: 0,
    clobPort: 0,
    webRoot: web.dir,
  });
  base = s.baseUrl!;
  const c = shapeCatalog();
  s.store.apply({ tags: c.tags, events: c.events });
}, 60_000);

afterAll(async () => {
  await s.close();
  web.cleanup();
});

const { json, all } = httpJson(() => base);

/** The first cell of each data line (the id; none of these ids is quoted). */
async function exportedIds(path: string): Promise<string[]> {
  const r = await fetch(base + path);
  expect(r.status, path).toBe(200);
  const lines = (await r.text()).split('\r\n');
  expect(lines.pop(), 'the file ends with a line break').toBe('');
  return lines.slice(1).map((l) => l.slice(0, l.indexOf(',')));
}

/** Whether `key` ties across a batch boundary in `rows` (equal values, or both missing, either side of it). */
function straddles(rows: Obj[], key: string, missing: boolean): boolean {
  for (let b = EXPORT_BATCH; b < rows.length; b += EXPORT_BATCH) {
    const [x, y] = [rows[b - 1]![key], rows[b]![key]];
    if (missing ? x === undefined && y === undefined : x !== undefined && x === y) return true;
  }
  return false;
}

const MARKET_ORDERS = [
  'order=volume24hr',
  'order=volume24hr&ascending=true',
  'closed=false&order=volume24hr',
  'order=endDate',
  'order=endDate&ascending=true',
  'order=volume24hr,endDate&ascending=true',
  'order=volume24hr,endDate',
  '',
];
const EVENT_ORDERS = ['order=volume', 'order=volume&ascending=true', 'active=true&order=volume&ascending=true', 'order=id'];

describe('catalog.export across batches', () => {
  it('the catalog has ties and NULL runs across batch boundaries (the premise)', async () => {
    const desc = await all('/markets', 'order=volume24hr');
    expect(desc.length).toBeGreaterThan(4 * EXPORT_BATCH);
    expect(straddles(desc, 'volume24hr', false)).toBe(true);
    expect(straddles(desc, 'volume24hr', true)).toBe(true);
    const events = await all('/events', 'order=volume&ascending=true');
    expect(straddles(events, 'volume', false)).toBe(true);
    expect(straddles(events, 'volume', true)).toBe(true);
  });

  it.each(MARKET_ORDERS)('markets?%s: the ids of /markets paged to the end, in order', async (q) => {
    const listed = await all('/markets', q);
    expect(listed.length).toBeGreaterThan(EXPORT_BATCH);
    expect(await exportedIds(`/export/markets?${q}`)).toEqual(listed.map((m) => m.id));
  });

  it.each(EVENT_ORDERS)('events?%s: the ids of /events paged to the end, in order', async (q) => {
    const listed = await all('/events', q);
    expect(listed.length).toBeGreaterThan(EXPORT_BATCH);
    expect(await exportedIds(`/export/events?${q}`)).toEqual(listed.map((e) => e.id));
  });
});

/** A GET on `agent`, resolving with its status and body. */
function get(agent: http.Agent, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(base + path, { agent }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      })
      .on('error', reject);
  });
}

describe('catalog.export and other requests', () => {
  it('a /markets request made while an export reads its batches is answered before the export ends', async () => {
    // The second client's connection is open before the export starts: its request reaches the
    // service at once, so what is compared is the service's turns, not a connection's set-up.
    const other = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const count = (await json<{ count: number }>('/markets/count')).count;
    const batches = Math.ceil(count / EXPORT_BATCH);
    let read = 0;
    let asked: Promise<{ status: number; body: string; readThen: number }> | undefined;
    try {
      expect((await get(other, '/markets?limit=1')).status).toBe(200);
      // The export's batch reads, seen in the store (one query of many ids each); the request is
      // made right after the first, so it is in flight while the export still has batches to read.
      s.store.statements.trace = (sql, bind) => {
        if (!sql.includes('FROM markets m WHERE m.id IN') || bind.length < 2) return;
        read++;
        asked ??= get(other, '/markets?limit=1&offset=1').then((r) => ({ ...r, readThen: read }));
      };
      const exported = await get(new http.Agent(), '/export/markets');
      const answered = await asked!;
      expect(exported.body.split('\r\n').length - 2).toBe(count);
      expect(read).toBe(batches);
      expect(answered.status).toBe(200);
      expect((JSON.parse(answered.body) as unknown[]).length).toBe(1);
      expect(answered.readThen).toBeLessThan(batches);
    } finally {
      s.store.statements.trace = undefined;
      other.destroy();
    }
  });
});
