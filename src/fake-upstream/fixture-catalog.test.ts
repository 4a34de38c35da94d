import { readFileSync } from 'node:fs';
import { FIXTURE_VERSION_SEED, FIXTURES_DIR } from './fixture-catalog.ts';
import { modernizeEvent, modernizeMarket } from './protocol-versions.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import type { GammaEvent, GammaMarket, GammaSeries, GammaTag } from '../contract/gamma.ts';
import type { FakeCatalog } from './catalog.ts';
import { loadFixtureCatalog } from './fixture-catalog.ts';

const DIR = `${FIXTURES_DIR}/`;
const raw = <T>(file: string): T => JSON.parse(readFileSync(DIR + file, 'utf8')) as T;
// The catalog serves the recordings in their 2026 shape (protocol-versions.ts): compare against that.
type Obj = Record<string, unknown>;
const market = <T extends GammaMarket>(m: T): T => modernizeMarket(m as Obj, FIXTURE_VERSION_SEED, { retired: new Map() }) as T;
const event = <T extends GammaEvent>(e: T): T => modernizeEvent(e as Obj, FIXTURE_VERSION_SEED, { retired: new Map() }) as T;
const withoutKey = <T extends object>(o: T, key: string): T => Object.fromEntries(Object.entries(o).filter(([k]) => k !== key)) as T;

const marketsFile = raw<GammaMarket[]>('markets_active_2026-02.json').map(market);
const eventsFile = raw<GammaEvent[]>('events_active_2025-06.json').map(event);
const statground = raw<GammaMarket[]>('statground_2024/markets_2024_sample100.json').map(market);
const nautilusMarket = market(raw<GammaMarket>('nautilus_trader/gamma_market.json'));
const nautilusClosed = market(raw<GammaMarket>('nautilus_trader/gamma_market_closed_binary_accepting_false.json'));
const rawSeries = raw<GammaSeries & { events: GammaEvent[] }>('statground_2024/series_10001.json');
const series10001 = { ...rawSeries, events: rawSeries.events.map(event) };
const tagsPage = raw<GammaTag[]>('tags_default_page_2026-01-02.json');

let catalog: FakeCatalog;
beforeAll(async () => {
  catalog = await loadFixtureCatalog(DIR);
});

function marketJson(id: string): string {
  return catalog.marketJson(catalog.marketRecord(id)!);
}
function eventJson(id: string): string {
  return catalog.eventJson(catalog.eventRecord(id)!);
}

describe('loadFixtureCatalog', () => {
  it('serves every /markets object of the 2026 dump byte-for-byte', () => {
    for (const m of marketsFile) {
      expect(marketJson(m.id)).toBe(JSON.stringify(m));
      expect(catalog.getMarket(m.id)).toEqual(m);
    }
  });

  it('serves other /markets-shaped files unchanged too (statground keeps its sorted keys)', () => {
    for (const m of [...statground, nautilusMarket, nautilusClosed]) expect(marketJson(m.id)).toBe(JSON.stringify(m));
    expect(JSON.parse(marketJson(nautilusClosed.id))).not.toHaveProperty('events');
  });

  it('serves /events objects unchanged when no other file touches their markets', () => {
    const marketIds = new Set(marketsFile.map((m) => m.id));
    const linked = new Set(marketsFile.flatMap((m) => m.events!.map((e) => e.id)));
    let checked = 0;
    for (const e of eventsFile) {
      if (linked.has(e.id) || e.markets!.some((m) => marketIds.has(m.id))) continue;
      expect(eventJson(e.id)).toBe(JSON.stringify(e));
      checked++;
    }
    expect(checked).toBeGreaterThan(90);
  });

  it('keeps the first copy of a market seen in several files, whichever route reaches it', () => {
    // 517310 is in the 2026 /markets dump and nested in event 16282 of the 2025 /events dump.
    const first = marketsFile.find((m) => m.id === '517310')!;
    const event = JSON.parse(eventJson('16282')) as GammaEvent;
    const nested = event.markets!.find((m) => m.id === '517310')!;
    expect(nested).toEqual(withoutKey(first, 'events'));
    expect(Object.keys(nested)).toEqual(Object.keys(first).filter((k) => k !== 'events'));
    expect(marketJson('517310')).toBe(JSON.stringify(first));
  });

  it('prefers the full /events object over a partial nested copy of the same event', () => {
    const full = eventsFile.find((e) => e.id === '16282')!;
    const served = JSON.parse(eventJson('16282')) as GammaEvent;
    expect(withoutKey(served, 'markets')).toEqual(withoutKey(full, 'markets'));
    expect(Object.keys(served)).toEqual(Object.keys(full)); // markets stays where it was
    expect(served.tags).toEqual(full.tags);
  });

  it('builds events for markets that only came nested in an event', () => {
    const event = eventsFile.find((e) => e.id === '14629')!;
    const market = event.markets![0]!;
    expect(catalog.getMarket(market.id)).toEqual({ ...market, events: [withoutKey(event, 'markets')] });
    expect(marketJson(market.id)).toBe(JSON.stringify({ ...market, events: [withoutKey(event, 'markets')] }));
  });

  it('answers a market the same through /markets and nested in /events', () => {
    for (const rec of catalog.eventRecords()) {
      const event = JSON.parse(catalog.eventJson(rec)) as GammaEvent;
      for (const m of event.markets ?? []) {
        const item = JSON.parse(marketJson(m.id)) as GammaMarket;
        expect(withoutKey(item, 'events')).toEqual(m);
        expect(m).not.toHaveProperty('events');
      }
    }
  });

  it('serialises every item exactly as JSON.stringify of its object', () => {
    for (const rec of catalog.marketRecords()) expect(catalog.marketJson(rec)).toBe(JSON.stringify(catalog.marketItem(rec)));
    for (const rec of catalog.eventRecords()) {
      expect(catalog.eventJson(rec)).toBe(JSON.stringify(catalog.getEvent(rec.id)));
      expect(catalog.eventJson(rec, false)).toBe(JSON.stringify(withoutKey(catalog.getEvent(rec.id)!, 'markets')));
    }
  });

  it('loads every id from every file once', () => {
    const nautilusEvent = raw<GammaEvent[]>('nautilus_trader/gamma_event.json');
    const ids = new Set([
      ...marketsFile.map((m) => m.id),
      ...eventsFile.flatMap((e) => e.markets!.map((m) => m.id)),
      ...nautilusEvent.flatMap((e) => e.markets!.map((m) => m.id)),
      ...statground.map((m) => m.id),
      ...[
        'gamma_market',
        'gamma_market_closed_binary_accepting_false',
        'gamma_market_closed_binary_accepting_true',
        'gamma_market_closed_nonbinary_legacy',
        'gamma_market_closed_zero_zero_legacy',
        'gamma_market_sports_market_map_handicap',
        'gamma_market_sports_market_money_line',
      ].map((f) => raw<GammaMarket>(`nautilus_trader/${f}.json`).id),
    ]);
    expect(catalog.counts.markets).toBe(ids.size);
    expect(
      catalog
        .marketRecords()
        .map((r) => r.id)
        .sort(),
    ).toEqual([...ids].sort());
    const nums = catalog.marketRecords().map((r) => r.num);
    for (let i = 1; i < nums.length; i++) expect(nums[i]).toBeGreaterThan(nums[i - 1]!);
  });

  it('loads series and the events nested in them', () => {
    expect(catalog.seriesById('10001')).toEqual(series10001);
    expect(catalog.counts.series).toBeGreaterThanOrEqual(2);
    const nested = series10001.events[0]!;
    expect(catalog.getEvent(nested.id)).toEqual({ ...nested, markets: [] });
  });

  it('lists tags from the tag files first, then tags seen on events', () => {
    expect(catalog.tags().slice(0, 100)).toEqual(tagsPage);
    expect(catalog.tag('818')?.label).toBe('Solana'); // only on an event in the /events dump
    expect(catalog.tagBySlug('SOLANA')?.id).toBe('818');
  });
});
