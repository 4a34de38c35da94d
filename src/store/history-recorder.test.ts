/**
 * Recording inside the writer's batches (history-schema.ts triggers, history-recorder.ts): the
 * first bulk load into an empty cache records nothing; later writes record snapshots on a
 * change past the threshold or hourly, revisions with before/after, and each change kind; old
 * snapshots are thinned to hourly, then daily.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { GammaEvent, GammaMarket } from '../contract/gamma.ts';
import { CatalogStore } from './catalog-store.ts';

const stores: CatalogStore[] = [];
afterEach(async () => {
  while (stores.length) await stores.pop()!.close();
});

const T0 = Date.UTC(2026, 10, 1);
let stamp = T0;
const next = () => {
  stamp += 1000;
  return new Date(stamp).toISOString();
};

function market(id: number, over: Partial<GammaMarket> = {}): GammaMarket {
  return {
    id: String(id),
    question: `Q${id}?`,
    slug: `q${id}`,
    description: 'rules',
    resolutionSource: '',
    endDate: '2027-01-01T00:00:00Z',
    outcomes: '["Yes", "No"]',
    outcomePrices: '["0.4", "0.6"]',
    bestBid: 0.39,
    bestAsk: 0.41,
    lastTradePrice: 0.4,
    volume24hr: 1000,
    liquidityNum: 5000,
    closed: false,
    active: true,
    updatedAt: next(),
    ...over,
  } as GammaMarket;
}

async function store(now: { t: number }): Promise<CatalogStore> {
  const s = await CatalogStore.open();
  stores.push(s);
  s.recorder.now = () => now.t;
  return s;
}

const kinds = (s: CatalogStore, since = 0) =>
  s.changes
    .list(since, [], 1000, 0)
    .changes.map((c) => `${c.kind}:${c.market?.id ?? c.event?.id}`)
    .sort();

describe('history recording', () => {
  it('records nothing for the first bulk load, then each kind of change', async () => {
    const now = { t: T0 };
    const s = await store(now);
    const triggers = () => s.statements.value("SELECT count(*) FROM sqlite_temp_master WHERE type = 'trigger' AND name LIKE 'hist_%'");
    expect(triggers()).toBe(5);
    await s.bulkLoad(async () => {
      // Not even tested row by row while the load runs (they held its upserts to half speed).
      expect(triggers()).toBe(0);
      s.apply({ markets: [market(1), market(2), market(3), market(4)] });
    });
    expect(triggers()).toBe(5);
    expect(kinds(s)).toEqual([]);
    now.t += 60_000;
    s.apply({
      markets: [
        market(1, { outcomePrices: '["0.52", "0.48"]' }),
        market(2, { closed: true, outcomePrices: '["1", "0"]', umaResolutionStatus: 'resolved' }),
        market(3, { description: 'new rules', endDate: '2027-02-01T00:00:00Z' }),
        market(4, { liquidityNum: 9000 }),
        market(5),
      ],
    });
    expect(kinds(s)).toEqual(['closed:2', 'end_date:3', 'liquidity_move:4', 'new_market:5', 'price_move:1', 'resolved:2', 'rule_edit:3']);
    const all = s.changes.list(0, [], 100, 0).changes;
    const move = all.find((c) => c.kind === 'price_move')!;
    expect(move).toMatchObject({ before: 0.4, after: 0.52, market: { id: '1', slug: 'q1', question: 'Q1?' } });
    expect(all.find((c) => c.kind === 'resolved')!.after).toMatchObject({ winner: 'Yes' });
    expect(s.changes.list(0, ['rule_edit'], 100, 0).changes).toHaveLength(1);
    // Market 1: the stored row as a baseline, then the new price.
    expect(s.history.history(1, 0, 2e9).map((p) => p.price)).toEqual([0.4, 0.52]);
    const rev = s.history.revisions('market', 3, 10, 0);
    expect(rev.total).toBe(2);
    expect(rev.revisions.map((r) => [r.field, r.before, r.after]).sort()).toEqual([
      ['description', 'rules', 'new rules'],
      ['endDate', '2027-01-01T00:00:00Z', '2027-02-01T00:00:00Z'],
    ]);
  });

  it('records no news while a first full sync is run again, and does once one completed', async () => {
    const now = { t: T0 };
    const s = await store(now);
    await s.bulkLoad(async () => {
      s.apply({ markets: [market(1)] });
    });
    // Cut short: no lastFullSyncAt yet, so the next full sync still loads the catalog.
    await s.bulkLoad(async () => {
      s.apply({ markets: [market(2)] });
    });
    expect(kinds(s)).toEqual([]);
    s.setMeta('lastFullSyncAt', new Date(now.t).toISOString());
    await s.bulkLoad(async () => {
      s.apply({ markets: [market(3)] });
    });
    expect(kinds(s)).toEqual(['new_market:3']);
  });

  it('snapshots a small change only after an hour, reports a move once, and thins old data', async () => {
    const now = { t: T0 };
    const s = await store(now);
    s.apply({ markets: [market(1)] });
    const prices = () => s.history.history(1, 0, 2e9).map((p) => p.price);
    expect(prices()).toEqual([0.4]);
    now.t += 60_000;
    s.apply({ markets: [market(1, { outcomePrices: '["0.4005", "0.5995"]' })] });
    expect(prices()).toEqual([0.4]);
    now.t += 3_600_000;
    s.apply({ markets: [market(1, { outcomePrices: '["0.4006", "0.5994"]' })] });
    expect(prices()).toEqual([0.4, 0.4006]);
    // A point within 5 minutes of the last snapshot waits; a jump of 2 points does not.
    now.t += 60_000;
    s.apply({ markets: [market(1, { outcomePrices: '["0.41", "0.59"]' })] });
    expect(prices()).toEqual([0.4, 0.4006]);
    now.t += 300_000;
    s.apply({ markets: [market(1, { outcomePrices: '["0.412", "0.588"]' })] });
    expect(prices()).toEqual([0.4, 0.4006, 0.412]);
    now.t += 60_000;
    s.apply({ markets: [market(1, { outcomePrices: '["0.46", "0.54"]' })] });
    now.t += 60_000;
    s.apply({ markets: [market(1, { outcomePrices: '["0.47", "0.53"]' })] });
    expect(prices()).toEqual([0.4, 0.4006, 0.412, 0.46]);
    // 0.40 -> 0.46 is a move; 0.46 -> 0.47 is not another.
    expect(s.changes.list(0, ['price_move'], 10, 0).changes.map((c) => [c.before, c.after])).toEqual([[0.4, 0.46]]);
    // 100 days of a snapshot every 10 minutes, then thinned.
    const day = 86_400;
    const end = Math.floor(now.t / 1000) + 100 * day;
    for (let t = end - 100 * day; t <= end; t += 600) {
      s.statements.run('INSERT OR REPLACE INTO market_history (market_id, ts, price) VALUES (2, ?, 1)', [t]);
    }
    s.recorder.thin(end);
    const ts = s.history.history(2, 0, 2e9).map((p) => p.t);
    const recent = ts.filter((t) => t > end - 7 * day);
    const hourly = ts.filter((t) => t <= end - 7 * day && t > end - 90 * day);
    const daily = ts.filter((t) => t <= end - 90 * day);
    expect(recent.length).toBeGreaterThanOrEqual(7 * 144);
    expect(new Set(hourly.map((t) => Math.floor(t / 3600))).size).toBe(hourly.length);
    expect(hourly.length).toBeGreaterThan(80 * 24);
    expect(new Set(daily.map((t) => Math.floor(t / day))).size).toBe(daily.length);
  });

  it('records an event’s title, rules and tag edits as revisions and changes', async () => {
    const now = { t: T0 };
    const s = await store(now);
    const tag = (id: number) => ({ id: String(id), label: `T${id}`, slug: `t${id}` });
    const event = (over: Partial<GammaEvent> = {}) =>
      ({ id: '9', title: 'E', slug: 'e', description: 'd', closed: false, updatedAt: next(), tags: [tag(1)], ...over }) as GammaEvent;
    s.apply({ tags: [tag(1), tag(2)], events: [event()] });
    expect(kinds(s)).toEqual(['new_event:9']);
    now.t += 60_000;
    s.apply({ events: [event({ title: 'E2', tags: [tag(1), tag(2)] })] });
    expect(kinds(s, Math.floor(now.t / 1000))).toEqual(['tags:9']);
    const rev = s.history.revisions('event', 9, 10, 0).revisions;
    expect(rev.map((r) => [r.field, r.before, r.after]).sort()).toEqual([
      ['tags', '["t1"]', '["t1","t2"]'],
      ['title', 'E', 'E2'],
    ]);
  });
});
