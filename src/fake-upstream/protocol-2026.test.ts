/**
 * The fake upstream is today's (issue 25): v1/v2 markets, the 2026 Gamma fields and `$schema`,
 * the CLOB answering by the id kind of a market's version, Gamma's offset cap and keyset rules,
 * and the Data API v2. Expected values come from the samples in fixtures/polymarket-2026 or from
 * the fake's own state.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../package-root.ts';
import { createSyntheticCatalog, type FakeCatalog } from './catalog.ts';
import { parseList } from './clob.ts';
import { DATA_V2_DEFAULT_USER } from './data-v2.ts';
import { FIXTURES_DIR, loadFixtureCatalog, readFixtureParts } from './fixture-catalog.ts';
import { positionIdsOf, v2ConditionId } from './protocol-versions.ts';
import { startFakeUpstream, type FakeUpstream } from './server.ts';

type Obj = Record<string, any>;
const SAMPLES = join(PACKAGE_ROOT, 'fixtures', 'polymarket-2026');
const sample = (file: string): Obj => JSON.parse(readFileSync(join(SAMPLES, file), 'utf8'));
const NO_BOOK = { error: 'No orderbook exists for the requested token id' };

async function get(up: FakeUpstream, path: string): Promise<{ status: number; body: any; text: string }> {
  const res = await fetch(up.url + path);
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, body, text };
}

const markets = (c: FakeCatalog): Obj[] => c.marketRecords().map((r) => r.obj as Obj);
const share = (xs: Obj[], f: (m: Obj) => boolean) => xs.filter(f).length / xs.length;

describe('catalogs mix v1 and v2 markets', () => {
  it('synthetic: a third v2 with native positionIds and null clobTokenIds; a third of v1 with positionIds; deterministic', () => {
    const c = createSyntheticCatalog({ markets: 600, seed: 5 });
    const all = markets(c);
    expect(all.every((m) => m.version === 'v1' || m.version === 'v2')).toBe(true);
    expect(c.eventRecords().every((r) => (r.obj as Obj).version !== undefined && (r.obj as Obj).eventMetadata !== undefined)).toBe(true);
    const v2 = all.filter((m) => m.version === 'v2');
    const v1 = all.filter((m) => m.version === 'v1');
    expect(v2.length / all.length).toBeGreaterThan(0.25);
    expect(v2.length / all.length).toBeLessThan(0.42);
    expect(share(v1, (m) => Array.isArray(m.positionIds))).toBeGreaterThan(0.25);
    expect(share(v1, (m) => Array.isArray(m.positionIds))).toBeLessThan(0.42);
    for (const m of v2) {
      expect(m.clobTokenIds).toBeNull();
      expect(m.positionIds).toEqual(positionIdsOf(m.conditionId, m.id, parseList(m.outcomes).length));
      for (const p of m.positionIds) expect(p).toMatch(/^\d+$/);
      // (bytes31 condition id << 8) | outcome index
      expect(BigInt(m.positionIds[1]) >> 8n).toBe(BigInt(v2ConditionId(m.conditionId, m.id)));
      expect(v2ConditionId(m.conditionId, m.id)).toMatch(/^0x01[0-9a-f]{60}$/);
    }
    for (const m of all) {
      for (const k of ['comboStatus', 'feesEnabled', 'rfqEnabled', 'holdingRewardsEnabled']) expect(m).toHaveProperty(k);
      if (m.feesEnabled) expect(m.feeSchedule).toEqual({ exponent: 1, rate: 0.04, takerOnly: true, rebateRate: 0.25 });
    }
    const again = markets(createSyntheticCatalog({ markets: 600, seed: 5 }));
    expect(JSON.stringify(again)).toBe(JSON.stringify(all));
    expect(JSON.stringify(markets(createSyntheticCatalog({ markets: 600, seed: 6 })))).not.toBe(JSON.stringify(all));
  });

  it('the position ids match the live relation seen on market 559651 (2026-08-16)', () => {
    const live = sample('gamma/gamma_market_559651_v1_with_positionIds__live_2026-08-16__ChloePike.json');
    expect(positionIdsOf(live.conditionId, live.id, 2)).toEqual(live.positionIds);
  });

  it('fixtures: a fixed third of the recorded markets load as v2, other recorded fields kept', async () => {
    const c = await loadFixtureCatalog(`${FIXTURES_DIR}/`);
    const recorded = new Map<string, Obj>();
    for (const { part } of await readFixtureParts(`${FIXTURES_DIR}/`)) {
      for (const m of part.markets ?? []) if (!recorded.has(m.id)) recorded.set(m.id, m as Obj);
    }
    const all = markets(c);
    const v2 = all.filter((m) => m.version === 'v2');
    expect(v2.length / all.length).toBeGreaterThan(0.25);
    expect(v2.length / all.length).toBeLessThan(0.42);
    let checked = 0;
    for (const m of v2) {
      const r = recorded.get(m.id);
      if (!r) continue;
      for (const [k, v] of Object.entries(r)) if (k !== 'clobTokenIds' && k !== 'events') expect(m[k]).toEqual(v);
      for (const t of parseList(r.clobTokenIds)) expect(c.protocolIds.retired.get(t)).toBe(m.id);
      checked++;
    }
    expect(checked).toBeGreaterThan(10);
    const again = await loadFixtureCatalog(`${FIXTURES_DIR}/`);
    expect(markets(again).map((m) => m.version)).toEqual(all.map((m) => m.version));
  });
});

describe('fake upstream over HTTP, 2026', () => {
  let up: FakeUpstream;
  let catalog: FakeCatalog;
  let v1: Obj;
  let v1Combo: Obj;
  let v2: Obj;
  beforeAll(async () => {
    catalog = createSyntheticCatalog({ markets: 300, seed: 9 });
    up = await startFakeUpstream({ catalog, dataV2: { positions: 7 } });
    const open = markets(catalog).filter((m) => m.closed !== true);
    v1 = open.find((m) => m.version === 'v1' && !m.positionIds && parseList(m.clobTokenIds).length === 2)!;
    v1Combo = open.find((m) => m.version === 'v1' && Array.isArray(m.positionIds) && parseList(m.clobTokenIds).length === 2)!;
    v2 = open.find((m) => m.version === 'v2')!;
  });
  afterAll(() => up.close());

  it('Gamma: `$schema` on single items and keyset pages, not on plain lists', async () => {
    const one = await get(up, `/markets/${v2.id}`);
    expect(Object.keys(one.body)[0]).toBe('$schema');
    expect(one.body.$schema).toBe('https://gamma-api.polymarket.com/schemas/Market.json');
    expect(one.body.version).toBe('v2');
    expect(one.text).toContain('"clobTokenIds":null');
    const ev = await get(up, `/events/${catalog.eventRecords()[0]!.id}`);
    expect(ev.body.$schema).toBe('https://gamma-api.polymarket.com/schemas/Event.json');
    expect(ev.body).toHaveProperty('eventMetadata');
    const ks = await get(up, '/events/keyset?limit=2');
    expect(ks.body.$schema).toBe('https://gamma-api.polymarket.com/schemas/EventsKeysetListResponse.json');
    const list = await get(up, '/markets?limit=3');
    expect(list.body.every((m: Obj) => !('$schema' in m))).toBe(true);
  });

  it('Gamma: offsets past 2,000 answer 422; keyset reads after_cursor, ignores cursor, needs its filters again', async () => {
    for (const kind of ['markets', 'events']) {
      expect((await get(up, `/${kind}?offset=2000`)).status).toBe(200);
      expect(await get(up, `/${kind}?offset=2001`)).toMatchObject({
        status: 422,
        body: { type: 'validation error', error: `offset too large, use /${kind}/keyset for deeper pagination` },
      });
    }
    const first = await get(up, '/markets/keyset?limit=3&closed=true');
    expect(first.body.markets.every((m: Obj) => m.closed === true)).toBe(true);
    const ignored = await get(up, `/markets/keyset?limit=3&closed=true&cursor=${first.body.next_cursor}`);
    expect(ignored.body.markets).toEqual(first.body.markets);
    const second = await get(up, `/markets/keyset?limit=3&closed=true&after_cursor=${first.body.next_cursor}`);
    expect(second.body.markets.every((m: Obj) => m.closed === true)).toBe(true);
    expect(Number(second.body.markets[0].id)).toBeGreaterThan(Number(first.body.markets[2].id));
    // The cursor carries no filters: without them the walk goes on unfiltered.
    const unfiltered = await get(up, `/markets/keyset?limit=50&after_cursor=${first.body.next_cursor}`);
    const after = markets(catalog).filter((m) => Number(m.id) > Number(first.body.markets[2].id));
    expect(unfiltered.body.markets.map((m: Obj) => m.id)).toEqual(after.slice(0, 50).map((m) => m.id));
  });

  it('CLOB: books and prices by the id kind of the market version; the other kind has no book', async () => {
    const v1Tokens = parseList(v1.clobTokenIds);
    const v2Ids: string[] = v2.positionIds;
    for (const t of [...v1Tokens, ...v2Ids, parseList(v1Combo.clobTokenIds)[0]!]) {
      const book = await get(up, `/book?token_id=${t}`);
      expect(book.status).toBe(200);
      expect(book.body.asset_id).toBe(t);
    }
    // Books centre on the catalog's price, for v2 markets too.
    const price = Number(parseList(v2.outcomePrices)[0]);
    const mid = Number((await get(up, `/midpoint?token_id=${v2Ids[0]}`)).body.mid);
    expect(Math.abs(mid - price)).toBeLessThan(0.02);
    const retired = [...catalog.protocolIds.retired].find(([, id]) => id === v2.id)![0];
    for (const t of [retired, v1Combo.positionIds[0]]) {
      for (const path of ['/book', '/price?side=BUY&', '/midpoint', '/spread', '/last-trade-price']) {
        const url = path.endsWith('&') ? `${path}token_id=${t}` : `${path}?token_id=${t}`;
        expect(await get(up, url)).toMatchObject({ status: 404, body: NO_BOOK });
      }
      expect((await get(up, `/prices-history?market=${t}&interval=1d`)).body).toEqual({ history: [] });
      const books = await fetch(`${up.url}/books`, { method: 'POST', body: JSON.stringify([{ token_id: t }, { token_id: v2Ids[0] }]) });
      expect(((await books.json()) as Obj[]).map((b) => b.asset_id)).toEqual([v2Ids[0]]);
    }
  });

  it('Data API v2: the envelope, snake_case rows shaped like the live samples, cursor paging, value', async () => {
    const live = sample('data-v2/v2_positions__live_2026-10__polyoxide@0c581cb.json');
    const u = DATA_V2_DEFAULT_USER;
    const p1 = await get(up, `/v2/positions?user=${u}&limit=3`);
    expect(Object.keys(p1.body)).toEqual(Object.keys(live));
    expect(Object.keys(p1.body.pagination)).toEqual(Object.keys(live.pagination));
    expect(Object.keys(p1.body.data[0])).toEqual(Object.keys(live.data[0]));
    expect(p1.body.pagination).toMatchObject({ limit: 3, offset: 0, has_more: true });
    const rows: Obj[] = [...p1.body.data];
    let cursor = p1.body.pagination.next_cursor;
    while (cursor) {
      const next = await get(up, `/v2/positions?user=${u}&limit=3&cursor=${cursor}`);
      rows.push(...next.body.data);
      cursor = next.body.pagination.next_cursor;
      if (!cursor) expect(next.body.pagination.has_more).toBe(false);
    }
    expect(rows).toHaveLength(7);
    // Each row's token is its market's outcome id by version.
    for (const r of rows) {
      const m = markets(catalog).find((x) => x.conditionId === r.condition_id)!;
      const ids = m.version === 'v2' ? m.positionIds : parseList(m.clobTokenIds);
      expect(ids[r.outcome_index]).toBe(r.token_id);
      expect(r.current_price).toBe(Number(parseList(m.outcomePrices)[r.outcome_index]));
    }
    for (const [route, file] of [
      ['activity', 'data-v2/v2_activity__live_2026-09-14__polyoxide@ae7213d.json'],
      ['trades', 'data-v2/v2_trades__live_2026-09-14__polyoxide@ae7213d.json'],
    ] as const) {
      const page = await get(up, `/v2/${route}?user=${u}&limit=2`);
      expect(Object.keys(page.body.data[0])).toEqual(Object.keys(sample(file).data[0]));
      expect(page.body.data).toHaveLength(2);
    }
    const value = await get(up, `/v2/value?user=${u}`);
    expect(Object.keys(value.body.data)).toEqual(Object.keys(sample('data-v2/v2_value__live_2026-09__polyoxide@ae7213d.json').data));
    const sum = rows.reduce((s, r) => s + r.current_value, 0);
    expect(value.body.data.value).toBeCloseTo(sum, 3);
    expect((await get(up, '/v2/value?user=0x0000000000000000000000000000000000000001')).body).toEqual({ data: null });
    expect((await get(up, '/v2/positions?user=0x0000000000000000000000000000000000000001')).body).toEqual({
      data: [],
      pagination: { limit: 100, offset: 0, has_more: false, next_cursor: null },
    });
    expect((await get(up, `/v2/positions?user=${u}&cursor=nonsense`)).status).toBe(400);
    const cid = rows[0]!.condition_id;
    expect((await get(up, `/v2/positions?user=${u}&condition=${cid}`)).body.data.map((r: Obj) => r.condition_id)).toEqual([cid]);
  });
});
