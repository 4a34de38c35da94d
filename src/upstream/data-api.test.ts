/**
 * Fetching a whole leaderboard from the (fake) Data API: depth, early end, entry shape.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeCatalog, startFakeUpstream, type FakeUpstream } from '../fake-upstream/index.ts';
import { UpstreamClient } from './client.ts';
import { BOARD_DEPTH, fetchBoard, normalizeEntry } from './data-api.ts';

describe('fetchBoard', () => {
  let up: FakeUpstream;
  let client: UpstreamClient;
  beforeAll(async () => {
    up = await startFakeUpstream({ catalog: new FakeCatalog() });
    client = new UpstreamClient({ urls: { gamma: up.url, clob: up.url, data: up.url }, baseDelayMs: 1, maxDelayMs: 5 });
  });
  afterAll(() => up.close());

  const board = { category: 'OVERALL', timePeriod: 'ALL', orderBy: 'VOL' };
  const lbRequests = () => up.requests.entries.filter((e) => e.path === '/v1/leaderboard');

  it('reads a deep board to 1,050 entries in 21 pages of 50', async () => {
    up.requests.clear();
    const entries = await fetchBoard(client, board);
    expect(entries).toHaveLength(BOARD_DEPTH);
    expect(entries).toEqual(up.leaderboard.board('OVERALL', 'ALL', 'VOL').slice(0, BOARD_DEPTH));
    expect(
      lbRequests()
        .map((e) => Number(e.query['offset']))
        .sort((a, b) => a - b),
    ).toEqual(Array.from({ length: 21 }, (_, i) => i * 50));
    expect(lbRequests().every((e) => e.query['limit'] === '50' && e.query['orderBy'] === 'VOL')).toBe(true);
  });

  it('stops after one request when the first page is short', async () => {
    up.requests.clear();
    const entries = await fetchBoard(client, { category: 'WEATHER', timePeriod: 'DAY', orderBy: 'PNL' });
    expect(entries).toEqual(up.leaderboard.board('WEATHER', 'DAY', 'PNL'));
    expect(lbRequests()).toHaveLength(1);
  });

  it('ends a middle-sized board at its first short page', async () => {
    const entries = await fetchBoard(client, { category: 'FINANCE', timePeriod: 'ALL', orderBy: 'PNL' });
    expect(entries).toEqual(up.leaderboard.board('FINANCE', 'ALL', 'PNL'));
  });

  it('normalises entries to spec 2.5', () => {
    expect(
      normalizeEntry({
        rank: 3,
        proxyWallet: '0xA',
        userName: null,
        vol: '12.5',
        pnl: -3,
        profileImage: null,
        xUsername: 'x',
        verifiedBadge: true,
      }),
    ).toEqual({
      rank: '3',
      proxyWallet: '0xA',
      userName: '',
      vol: 12.5,
      pnl: -3,
      profileImage: '',
      xUsername: 'x',
      verifiedBadge: true,
    });
    expect(normalizeEntry({ rank: '1', proxyWallet: '0xB' })).toMatchObject({ xUsername: null, verifiedBadge: null, vol: 0 });
    expect(normalizeEntry({ rank: '1' })).toBeNull();
  });
});
