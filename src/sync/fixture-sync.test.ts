/**
 * End to end over real HTTP: the fake upstream serves the real Gamma fixtures, the service
 * syncs them, and every fixture market and event comes back from /markets and /events with
 * the spec's fields equal to the fixture's, of the same JSON type.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Event, Market } from '../contract/index.ts';
import { loadFixtureCatalog, type FakeCatalog, type FakeUpstream } from '../fake-upstream/index.ts';
import { startService, type Service } from '../http/server.ts';
import { FIXTURES_DIR } from '../testing/fixtures.ts';
import { startFake } from '../testing/sync-harness.ts';

const MARKET_SPEC_FIELDS = [
  'id',
  'question',
  'conditionId',
  'slug',
  'resolutionSource',
  'endDate',
  'startDate',
  'image',
  'icon',
  'description',
  'outcomes',
  'clobTokenIds',
  'active',
  'closed',
  'archived',
  'createdAt',
  'updatedAt',
  'questionID',
] as const;
const EVENT_SPEC_FIELDS = [
  'id',
  'ticker',
  'slug',
  'title',
  'description',
  'resolutionSource',
  'startDate',
  'endDate',
  'image',
  'icon',
  'active',
  'closed',
  'archived',
  'createdAt',
  'updatedAt',
] as const;
const TAG_SPEC_FIELDS = ['id', 'label', 'slug', 'createdAt', 'updatedAt', 'requiresTranslation'] as const;
const EVENT_REF_FIELDS = ['id', 'ticker', 'slug', 'title'] as const;
// Money and prices the cache keeps too: same values, same types.
const MARKET_EXTRA_FIELDS = [
  'outcomePrices',
  'volume',
  'volumeNum',
  'liquidity',
  'liquidityNum',
  'volume24hr',
  'bestBid',
  'bestAsk',
  'closedTime',
] as const;

let fake: FakeUpstream;
let catalog: FakeCatalog;
let service: Service;

async function getAll<T>(path: string): Promise<T[]> {
  const out: T[] = [];
  for (let offset = 0; ; offset += 100) {
    const res = await fetch(`${service.baseUrl}${path}${path.includes('?') ? '&' : '?'}limit=100&offset=${offset}`);
    expect(res.status).toBe(200);
    const page = (await res.json()) as T[];
    out.push(...page);
    if (page.length < 100) return out;
  }
}

const ts = (c: Record<string, unknown>) => (typeof c['updatedAt'] === 'string' ? Date.parse(c['updatedAt']) : -Infinity);

/** Same value and same JSON type, or both absent. */
function expectSameField(served: Record<string, unknown>, source: Record<string, unknown>, field: string, where: string): void {
  expect({ where, field, present: field in served }).toEqual({ where, field, present: field in source });
  if (field in source) expect({ where, field, value: served[field] }).toEqual({ where, field, value: source[field] });
}

beforeAll(async () => {
  catalog = await loadFixtureCatalog(FIXTURES_DIR);
  fake = await startFake(catalog);
  service = await startService({
    urls: { gamma: fake.url, clob: fake.url, data: fake.url },
    basePort: 0,
    clobPort: 0,
    // The fixtures are old: a horizon of 20 years keeps every closed one.
    horizonMs: 20 * 365 * 86_400_000,
  });
  await service.sync!.syncNow('full');
});

afterAll(async () => {
  await service?.close();
  await fake?.close();
});

describe('sync of the real Gamma fixtures', () => {
  it('serves every fixture market with the spec fields equal and of the same type', async () => {
    const served = new Map((await getAll<Market>('/markets')).map((m) => [m.id, m]));
    const records = catalog.marketRecords();
    expect(records.length).toBeGreaterThan(800);
    expect(served.size).toBe(records.length);
    for (const rec of records) {
      const source = catalog.getMarket(rec.id)! as Record<string, unknown>;
      const m = served.get(String(source['id']));
      expect(m, `market ${String(source['id'])}`).toBeDefined();
      for (const f of [...MARKET_SPEC_FIELDS, ...MARKET_EXTRA_FIELDS]) expectSameField(m!, source, f, `market ${m!.id}`);
      const refs = (source['events'] as Record<string, unknown>[] | undefined) ?? [];
      expect(m!.events?.map((e) => e.id).sort()).toEqual(refs.map((e) => String(e['id'])).sort());
      for (const ref of m!.events ?? []) {
        const src = refs.find((e) => e['id'] === ref.id)!;
        // The ref carries the event as the cache has it; the nested copy in a /markets item can be an older snapshot.
        const cached = catalog.getEvent(ref.id) as Record<string, unknown> | undefined;
        for (const f of EVENT_REF_FIELDS) {
          const want = cached && f in cached ? cached[f] : src[f];
          if (want !== undefined) expect(typeof ref[f]).toBe(typeof want);
        }
      }
    }
  });

  it('serves every fixture event with its tags and markets', async () => {
    const served = new Map((await getAll<Event>('/events')).map((e) => [e.id, e]));
    const records = catalog.eventRecords();
    const tagCopies = new Map<string, Record<string, unknown>[]>();
    const addCopy = (t: Record<string, unknown>) => tagCopies.set(String(t['id']), [...(tagCopies.get(String(t['id'])) ?? []), t]);
    for (const t of catalog.tags()) addCopy(t);
    for (const r of records) for (const t of catalog.getEvent(r.id)!.tags ?? []) addCopy(t);
    for (const r of catalog.marketRecords())
      for (const ev of catalog.getMarket(r.id)!.events ?? []) for (const t of ev.tags ?? []) addCopy(t);
    expect(served.size).toBe(records.length);
    // Markets carry their own (sometimes newer) snapshots of their events; the newest is served.
    const copies = new Map<string, Record<string, unknown>[]>();
    for (const r of catalog.marketRecords()) {
      for (const ev of catalog.getMarket(r.id)!.events ?? []) copies.set(ev.id, [...(copies.get(ev.id) ?? []), ev]);
    }
    for (const rec of records) {
      const source = catalog.getEvent(rec.id)! as Record<string, unknown>;
      const e = served.get(String(source['id']))!;
      expect(e, `event ${String(source['id'])}`).toBeDefined();
      const newest = [source, ...(copies.get(e.id) ?? [])].reduce((a, b) => (ts(b) > ts(a) ? b : a));
      for (const f of EVENT_SPEC_FIELDS) expectSameField(e, newest, f, `event ${e.id}`);
      const tags = (source['tags'] as Record<string, unknown>[] | undefined) ?? [];
      if ('tags' in source) {
        expect(e.tags.map((t) => t.id)).toEqual(tags.map((t) => t['id']));
        e.tags.forEach((t) => {
          // A tag is one row: events carry snapshots of it of different ages, the newest is served.
          const newest = tagCopies.get(t.id)!.reduce((a, b) => (ts(b) > ts(a) ? b : a));
          for (const f of TAG_SPEC_FIELDS) expectSameField(t, newest, f, `event ${e.id} tag ${t.id}`);
        });
      }
      const nested = (source['markets'] as Record<string, unknown>[] | undefined) ?? [];
      expect(e.markets.map((m) => m.id).sort()).toEqual(nested.map((m) => String(m['id'])).sort());
      for (const m of e.markets) expect(m).not.toHaveProperty('events');
    }
  });

  it('answers a fixture market by id, slug and condition id', async () => {
    const source = catalog.getMarket(catalog.marketRecords()[0]!.id)!;
    for (const path of [`/markets/${source.id}`, `/markets/slug/${source.slug}`]) {
      const res = await fetch(service.baseUrl + path);
      expect(res.status).toBe(200);
      expect(((await res.json()) as Market).id).toBe(source.id);
    }
    const res = await fetch(`${service.baseUrl}/markets?condition_id=${source.conditionId!.toUpperCase().replace('0X', '0x')}`);
    expect(((await res.json()) as Market[]).map((m) => m.id)).toEqual([source.id]);
  });

  it('reports its sync on /status', async () => {
    const res = await fetch(`${service.baseUrl}/status`);
    const body = (await res.json()) as { counts: { markets: number }; sync: { lastFullSyncAt: string | null; lastError: string | null } };
    expect(body.counts.markets).toBe(catalog.marketRecords().length);
    expect(body.sync.lastFullSyncAt).not.toBeNull();
    expect(body.sync.lastError).toBeNull();
  });
});
