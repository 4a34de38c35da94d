/**
 * Issue 25 (the trading id, everywhere), end to end through a service on the fake upstream:
 * the market page of a "v2" market asks the CLOB for its position ids, never its CTF token ids;
 * a "v1" market that also carries positionIds asks for its clobTokenIds only; a market without a
 * known version is served and searchable but asks the CLOB nothing; and the 2026 Gamma fields
 * come back unchanged through /markets, /events and /public-search. The markets are built here
 * (the fake's generated catalogs change on their own schedule).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { GammaEvent, GammaMarket } from '../contract/gamma.ts';
import type { MarketBook, MarketChart } from '../contract/index.ts';
import { createSyntheticCatalog, startFakeUpstream, type FakeUpstream } from '../fake-upstream/index.ts';
import { fixtureMarkets, tempDir } from '../testing/fixtures.ts';
import { startService, type Service } from '../http/server.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

const BASE = fixtureMarkets()[0]!;
const FEE_SCHEDULE = { exponent: 1, rate: 0.04, takerOnly: true, rebateRate: 0.25 };
const CLOB_IDS = ['32338220190071351435772801779725302244575775216413325951443816017994629993401', '1234567890123456789'];
const POSITION_IDS = [
  '895257453734540292493143124621755605615887197499956109032745153687078305792',
  '895257453734540292493143124621755605615887197499956109032745153687078305793',
];

function market(id: string, extra: Record<string, unknown>): GammaMarket {
  const { events: _events, ...base } = BASE;
  return {
    ...base,
    id,
    slug: `protocol-test-${id}`,
    question: `Zanzibarquux protocol test ${id}?`,
    conditionId: `0x${id.padStart(64, '0')}`,
    outcomes: '["Yes", "No"]',
    outcomePrices: '["0.25", "0.75"]',
    closed: false,
    active: true,
    comboStatus: 'pending',
    rfqEnabled: false,
    holdingRewardsEnabled: true,
    feesEnabled: true,
    feeType: 'politics_fees',
    feeSchedule: FEE_SCHEDULE,
    ...extra,
  } as GammaMarket;
}

const V2 = market('990001', { version: 'v2', positionIds: POSITION_IDS, clobTokenIds: null });
const V1_WITH_POSITIONS = market('990002', { version: 'v1', clobTokenIds: JSON.stringify(CLOB_IDS), positionIds: POSITION_IDS });
const NO_VERSION = market('990003', { clobTokenIds: JSON.stringify(CLOB_IDS), positionIds: POSITION_IDS });
const UNKNOWN_VERSION = market('990004', { version: 'v3', clobTokenIds: JSON.stringify(CLOB_IDS), positionIds: POSITION_IDS });
const EVENT = {
  id: '990100',
  slug: 'zanzibarquux-protocol-test',
  title: 'Zanzibarquux protocol test',
  active: true,
  closed: false,
  version: 'v1',
  eventMetadata: { context_requires_regen: true },
  markets: [V2, V1_WITH_POSITIONS, NO_VERSION, UNKNOWN_VERSION],
} as unknown as GammaEvent;

async function world(): Promise<{ s: Service; fake: FakeUpstream }> {
  const web = tempDir();
  cleanups.push(web.cleanup);
  const fake = await startFakeUpstream({ catalog: createSyntheticCatalog({ markets: 3, seed: 2 }) });
  cleanups.push(() => fake.close());
  const s = await startService({
    urls: { gamma: fake.url, clob: fake.url, data: fake.url },
    basePort: 0,
    clobPort: 0,
    webRoot: web.dir,
    persistDelayMs: 0,
    client: { baseDelayMs: 1, maxDelayMs: 5, maxRetries: 1 },
  });
  cleanups.push(() => s.close());
  s.store.apply({ events: [EVENT] });
  return { s, fake };
}

async function get<T>(s: Service, p: string): Promise<{ status: number; body: T }> {
  const r = await fetch(s.baseUrl + p);
  return { status: r.status, body: (await r.json()) as T };
}

/** The ids the service asked the CLOB about (books and price histories). */
function asked(fake: FakeUpstream): string[] {
  return fake.requests.entries
    .filter((e) => e.path === '/book' || e.path === '/prices-history')
    .map((e) => String(e.path === '/book' ? e.query['token_id'] : e.query['market']));
}

describe('the trading id, chosen by version', () => {
  it('a v2 market page asks the CLOB for its position ids, never a CTF token id', async () => {
    const { s, fake } = await world();
    const chart = await get<MarketChart>(s, `/markets/${V2.id}/chart?interval=1d`);
    expect(chart.status).toBe(200);
    expect(chart.body.outcomes.map((o) => [o.name, o.tokenId])).toEqual([
      ['Yes', POSITION_IDS[0]],
      ['No', POSITION_IDS[1]],
    ]);
    const book = await get<MarketBook>(s, `/markets/${V2.id}/book`);
    expect(book.status).toBe(200);
    expect(book.body.outcomes.map((o) => o.tokenId)).toEqual(POSITION_IDS);
    expect(asked(fake).sort()).toEqual([...POSITION_IDS, ...POSITION_IDS].sort());
  });

  it('a v1 market that also carries positionIds asks for its clobTokenIds only', async () => {
    const { s, fake } = await world();
    expect((await get<MarketChart>(s, `/markets/${V1_WITH_POSITIONS.id}/chart?interval=1w`)).status).toBe(200);
    const book = await get<MarketBook>(s, `/markets/${V1_WITH_POSITIONS.id}/book`);
    expect(book.body.outcomes.map((o) => o.tokenId)).toEqual(CLOB_IDS);
    expect(asked(fake).sort()).toEqual([...CLOB_IDS, ...CLOB_IDS].sort());
  });

  it('a market without a known version is served and searchable, and asks the CLOB nothing', async () => {
    const { s, fake } = await world();
    for (const m of [NO_VERSION, UNKNOWN_VERSION]) {
      const chart = await get<MarketChart>(s, `/markets/${m.id}/chart`);
      const off = m.version === undefined ? 'it has no protocol version' : 'its protocol version "v3" is unknown';
      expect(chart.body).toEqual({
        id: m.id,
        interval: '1d',
        outcomes: [],
        fetchedAt: null,
        stale: false,
        tradingOff: `Trading is off for this market: ${off}.`,
      });
      const book = await get<MarketBook>(s, `/markets/${m.id}/book`);
      expect(book.body).toEqual({
        id: m.id,
        outcomes: [],
        fetchedAt: null,
        stale: false,
        tradingOff: `Trading is off for this market: ${off}.`,
      });
      expect((await get<GammaMarket>(s, `/markets/${m.id}`)).body.question).toBe(m.question);
    }
    expect(asked(fake)).toEqual([]);
    const found = await get<{ events: { id: string; markets?: { id: string }[] }[] }>(s, '/public-search?q=zanzibarquux');
    expect(found.body.events.map((e) => e.id)).toEqual([EVENT.id]);
  });
});

describe('the 2026 Gamma fields round-trip unchanged', () => {
  const NEW_MARKET_KEYS = [
    'version',
    'positionIds',
    'clobTokenIds',
    'comboStatus',
    'rfqEnabled',
    'holdingRewardsEnabled',
    'feesEnabled',
    'feeType',
    'feeSchedule',
  ];
  const pick = (o: Record<string, unknown>, keys: string[]) => Object.fromEntries(keys.filter((k) => k in o).map((k) => [k, o[k]]));

  it('through /markets, /markets/:id, /events and /public-search', async () => {
    const { s } = await world();
    const sent = [V2, V1_WITH_POSITIONS, NO_VERSION, UNKNOWN_VERSION];
    const listed = await get<GammaMarket[]>(s, `/markets?${sent.map((m) => `id=${m.id}`).join('&')}`);
    expect(listed.status).toBe(200);
    const byId = new Map(listed.body.map((m) => [m.id, m]));
    for (const m of sent) {
      expect(pick(byId.get(m.id)!, NEW_MARKET_KEYS)).toEqual(pick(m, NEW_MARKET_KEYS));
      expect(pick((await get<GammaMarket>(s, `/markets/${m.id}`)).body, NEW_MARKET_KEYS)).toEqual(pick(m, NEW_MARKET_KEYS));
    }
    // An explicit null stays null; an array stays an array.
    expect(byId.get(V2.id)!.clobTokenIds).toBeNull();
    expect(Array.isArray(byId.get(V2.id)!['positionIds'])).toBe(true);

    const events = await get<GammaEvent[]>(s, `/events?id=${EVENT.id}`);
    const e = events.body[0]!;
    expect(e['version']).toBe('v1');
    expect(e['eventMetadata']).toEqual({ context_requires_regen: true });
    const nested = new Map((e.markets ?? []).map((m) => [m.id, m as Record<string, unknown>]));
    expect([...nested.keys()].sort()).toEqual(sent.map((m) => m.id).sort());
    for (const m of sent) expect(pick(nested.get(m.id)!, NEW_MARKET_KEYS)).toEqual(pick(m, NEW_MARKET_KEYS));

    const found = await get<{ events: Record<string, unknown>[] }>(s, '/public-search?q=zanzibarquux');
    // Search answers an event as a reference (id, ticker, slug, title) with its markets whole.
    const fe = found.body.events[0]!;
    const searched = fe['markets'] as Record<string, unknown>[];
    expect(searched.map((m) => m['id']).sort()).toEqual(sent.map((m) => m.id).sort());
    for (const m of searched) expect(pick(m, NEW_MARKET_KEYS)).toEqual(pick(sent.find((x) => x.id === m['id'])!, NEW_MARKET_KEYS));
  });
});
