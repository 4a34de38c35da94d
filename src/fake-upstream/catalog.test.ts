import { describe, expect, it } from 'vitest';
import { FIXTURES_DIR } from './fixture-catalog.ts';
import type { GammaEvent, GammaMarket } from '../contract/gamma.ts';
import { createSyntheticCatalog, FakeCatalog } from './catalog.ts';
import { loadFixtureCatalog } from './fixture-catalog.ts';
import { generateCatalog } from './synthetic.ts';
import { timeKey } from './time-format.ts';

const DIR = `${FIXTURES_DIR}/`;

/** Largest updatedAt anywhere in the catalog (items as served). */
function maxUpdated(c: FakeCatalog): number {
  let max = 0;
  for (const m of c.allMarkets()) max = Math.max(max, timeKey(m.updatedAt!));
  for (const e of c.allEvents()) max = Math.max(max, timeKey(e.updatedAt!));
  return max;
}

function consistent(c: FakeCatalog): void {
  for (const rec of c.marketRecords()) expect(c.marketJson(rec)).toBe(JSON.stringify(c.marketItem(rec)));
  for (const rec of c.eventRecords()) expect(c.eventJson(rec)).toBe(JSON.stringify(c.getEvent(rec.id)));
}

// Both cache settings: mutations must invalidate whatever was serialised before.
describe.each([0, 50_000_000])('FakeCatalog mutations (json cache %i chars)', (jsonCacheChars) => {
  const fresh = () => createSyntheticCatalog({ markets: 200, seed: 3, jsonCacheChars });

  it('updateMarket patches a copy, keeps key order and bumps updatedAt past everything', () => {
    const gen = generateCatalog({ markets: 200, seed: 3 });
    const c = new FakeCatalog([{ tags: gen.tags }, { events: gen.events }], { jsonCacheChars });
    const id = gen.markets[10]!.id;
    const before = c.getMarket(id)!;
    consistent(c); // fills the cache when on
    const top = maxUpdated(c);
    const after = c.updateMarket(id, { question: 'Changed?', bestBid: undefined, extraKey: 1 });
    expect(after.question).toBe('Changed?');
    expect(after).not.toHaveProperty('bestBid');
    expect(Object.keys(after)).toEqual([...Object.keys(before).filter((k) => k !== 'bestBid' && k !== 'events'), 'extraKey', 'events']);
    expect(timeKey(after.updatedAt!)).toBeGreaterThan(top);
    expect(gen.markets[10]!.question).not.toBe('Changed?'); // input untouched
    const parent = c.getEvent(c.marketRecord(id)!.eventIds[0]!)!;
    expect(parent.updatedAt).toBe(after.updatedAt);
    expect(parent.markets!.find((m) => m.id === id)!.question).toBe('Changed?');
    consistent(c);
  });

  it('updatedAt always moves forward', () => {
    const c = fresh();
    const id = c.marketRecords()[0]!.id;
    const a = timeKey(c.updateMarket(id, { volume: '1' }).updatedAt!);
    const b = timeKey(c.updateMarket(id, { volume: '2' }).updatedAt!);
    expect(b).toBeGreaterThan(a);
    const explicit = c.updateMarket(id, { updatedAt: '2020-01-01T00:00:00Z' });
    expect(explicit.updatedAt).toBe('2020-01-01T00:00:00Z');
  });

  it('updateEvent shows in the events built into its markets', () => {
    const c = fresh();
    const ev = c.eventRecords()[3]!;
    c.marketJson(c.marketRecord(ev.marketIds[0]!)!);
    const top = maxUpdated(c);
    const updated = c.updateEvent(ev.id, { title: 'New title', closed: true });
    expect(updated.title).toBe('New title');
    expect(timeKey(updated.updatedAt!)).toBeGreaterThan(top);
    for (const mid of ev.marketIds) {
      const m = JSON.parse(c.marketJson(c.marketRecord(mid)!)) as GammaMarket;
      expect(m.events![0]!.title).toBe('New title');
      expect(m.events![0]).not.toHaveProperty('markets');
    }
    consistent(c);
  });

  it('addMarket links to an event and keeps id order; bad ids and duplicates throw', () => {
    const c = fresh();
    const ev = c.eventRecords()[0]!;
    const last = c.marketRecords().at(-1)!;
    const id = String(last.num + 1000);
    const added = c.addMarket({ id, question: 'Brand new?', active: true, closed: false }, { eventId: ev.id });
    expect(added.events![0]!.id).toBe(ev.id);
    expect(c.marketRecords().at(-1)!.id).toBe(id);
    expect(c.getEvent(ev.id)!.markets!.map((m) => m.id)).toContain(id);
    expect(c.getEvent(ev.id)!.updatedAt).toBe(added.updatedAt);
    expect(() => c.addMarket({ id, question: 'again' })).toThrow(/exists/);
    expect(() => c.addMarket({ id: 'abc' })).toThrow(/digits/);
    expect(() => c.addMarket({ id: '5' }, { eventId: '1' })).toThrow(/unknown event/);
    // A lower id lands in order too.
    c.addMarket({ id: '1', question: 'first' });
    expect(c.marketRecords()[0]!.id).toBe('1');
    consistent(c);
  });

  it('addEvent adds its nested markets', () => {
    const c = fresh();
    const event: GammaEvent = {
      id: '999999',
      slug: 'new-event',
      title: 'New',
      markets: [
        { id: '9999990', question: 'A?' },
        { id: '9999991', question: 'B?' },
      ],
    };
    const added = c.addEvent(event);
    expect(added.markets!.map((m) => m.id)).toEqual(['9999990', '9999991']);
    expect(c.getMarket('9999991')!.events![0]!.slug).toBe('new-event');
    expect(c.eventBySlug('new-event')?.id).toBe('999999');
    expect(event.updatedAt).toBeUndefined(); // input untouched
    consistent(c);
  });

  it('removeMarket and removeEvent', () => {
    const c = fresh();
    const ev = c.eventRecords().find((e) => e.marketIds.length >= 2)!;
    const [m1, m2] = ev.marketIds as [string, string];
    c.eventJson(ev);
    const top = maxUpdated(c);
    expect(c.removeMarket(m1)).toBe(true);
    expect(c.removeMarket(m1)).toBe(false);
    expect(c.getMarket(m1)).toBeUndefined();
    const after = c.getEvent(ev.id)!;
    expect(after.markets!.map((m) => m.id)).not.toContain(m1);
    expect(timeKey(after.updatedAt!)).toBeGreaterThan(top);
    expect(c.removeEvent(ev.id)).toBe(true);
    expect(c.getEvent(ev.id)).toBeUndefined();
    expect(c.getMarket(m2)).toBeUndefined(); // only belonged to that event
    const other = c.eventRecords()[0]!;
    const kept = other.marketIds[0]!;
    c.removeEvent(other.id, { keepMarkets: true });
    expect(c.getMarket(kept)).not.toHaveProperty('events');
    consistent(c);
  });
});

describe('FakeCatalog serialisation', () => {
  it('puts `markets` back where the event had it: first, middle, last, alone or absent', () => {
    const m = { id: '5', question: 'Q?' };
    const c = new FakeCatalog({
      events: [
        { markets: [m], id: '1', title: 'first' },
        { id: '2', markets: [m], title: 'middle' },
        { id: '3', title: 'last', markets: [m] },
        { markets: [m], id: '4' } as GammaEvent,
        { id: '6', title: 'absent' },
      ],
    });
    c.addMarket({ id: '7' }, { eventId: '6' });
    for (const rec of c.eventRecords()) {
      const json = c.eventJson(rec);
      expect(json).toBe(JSON.stringify(c.getEvent(rec.id)));
      expect(Object.keys(JSON.parse(json) as object)).toEqual(Object.keys(c.getEvent(rec.id)!));
      expect(c.eventJson(rec, false)).not.toContain('"markets"');
    }
    expect(Object.keys(c.getEvent('2')!)).toEqual(['id', 'markets', 'title']);
    expect(Object.keys(c.getEvent('6')!).at(-1)).toBe('markets');
    const parents = ['1', '2', '3', '4'].map((id) =>
      Object.fromEntries(Object.entries(c.eventRecord(id)!.obj).filter(([k]) => k !== 'markets')),
    );
    expect(c.marketJson(c.marketRecord('5')!)).toBe(JSON.stringify({ ...m, events: parents }));
  });
});

describe('FakeCatalog mutations on fixtures', () => {
  it('keeps a market’s own nested copy of its event in step, in its partial shape', async () => {
    const c = await loadFixtureCatalog(DIR, { jsonCacheChars: 50_000_000 });
    c.marketJson(c.marketRecord('517310')!);
    c.updateEvent('16282', { title: 'Renamed', tags: [] });
    const m = JSON.parse(c.marketJson(c.marketRecord('517310')!)) as GammaMarket;
    expect(m.events![0]!.title).toBe('Renamed');
    expect(m.events![0]).not.toHaveProperty('tags'); // the nested copy never had tags
    expect(c.getEvent('16282')!.tags).toEqual([]);
    c.removeEvent('16282', { keepMarkets: true });
    expect(c.getMarket('517310')!.events).toEqual([]);
    consistent(c);
  });
});
