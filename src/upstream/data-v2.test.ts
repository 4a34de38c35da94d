/**
 * Reading the Data API v2's account lists whole, by cursor, from the fake upstream: every row
 * the fake's own script holds, in its order, the filters sent again with each page, and a bad
 * envelope refused rather than taken for the end of the list.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSyntheticCatalog, startFakeUpstream, type FakeUpstream } from '../fake-upstream/index.ts';
import { UpstreamClient } from './client.ts';
import { dataPageOf, readDataV2 } from './data-v2.ts';

const USER = '0x00000000000000000000000000000000000d47a2';

describe('readDataV2', () => {
  let up: FakeUpstream;
  let client: UpstreamClient;
  beforeAll(async () => {
    up = await startFakeUpstream({ catalog: createSyntheticCatalog({ markets: 400, seed: 11 }), dataV2: { user: USER, positions: 57 } });
    client = new UpstreamClient({ urls: { gamma: up.url, clob: up.url, data: up.url }, baseDelayMs: 1, maxDelayMs: 5 });
  });
  afterAll(() => up.close());

  const v2 = (list: string) => up.requests.entries.filter((e) => e.path === `/v2/${list}`);

  it.each(['positions', 'activity', 'trades'] as const)('reads every %s row by cursor, the filters on every page', async (list) => {
    const expected = up.dataV2.rows()[list];
    // More than one page, and a last page that is not full.
    expect(expected.length).toBeGreaterThan(40);
    up.requests.clear();
    const got = await readDataV2(client, list, { query: { user: USER }, pageSize: 20 });
    expect(got.rows).toEqual(expected);
    expect(got.complete).toBe(true);
    const pages = Math.ceil(expected.length / 20);
    expect(got.pages).toBe(pages);
    expect(v2(list)).toHaveLength(pages);
    expect(v2(list).every((e) => e.query['user'] === USER && e.query['limit'] === '20')).toBe(true);
    expect(v2(list)[0]!.query['cursor']).toBeUndefined();
    expect(
      v2(list)
        .slice(1)
        .every((e) => typeof e.query['cursor'] === 'string'),
    ).toBe(true);
  });

  it('keeps a filter across pages (one condition id)', async () => {
    const one = up.dataV2.rows().positions[3]!;
    up.requests.clear();
    const got = await readDataV2(client, 'positions', { query: { user: USER, condition: String(one['condition_id']) }, pageSize: 1 });
    expect(got.rows).toEqual(up.dataV2.rows().positions.filter((p) => p['condition_id'] === one['condition_id']));
    expect(v2('positions').every((e) => e.query['condition'] === one['condition_id'])).toBe(true);
  });

  it('stops at maxRows and says the list is not complete', async () => {
    const got = await readDataV2(client, 'activity', { query: { user: USER }, pageSize: 10, maxRows: 25 });
    expect(got.rows).toEqual(up.dataV2.rows().activity.slice(0, 25));
    expect(got.complete).toBe(false);
    expect(got.pages).toBe(3);
  });

  it('an account with nothing is one empty page', async () => {
    const got = await readDataV2(client, 'positions', { query: { user: '0x0000000000000000000000000000000000000001' } });
    expect(got).toEqual({ rows: [], complete: true, pages: 1 });
  });

  it('refuses an answer that is not a v2 page', () => {
    for (const bad of [
      null,
      [],
      { data: [] },
      { data: {}, pagination: { has_more: false, next_cursor: null } },
      { data: [], pagination: { has_more: 'no' } },
    ])
      expect(() => dataPageOf(bad, '/v2/positions')).toThrow(/not a Data API v2 page|other than/);
    expect(dataPageOf({ data: [], pagination: { limit: 5, has_more: false, next_cursor: null } }, '/v2/x').data).toEqual([]);
  });
});
