/**
 * The live side's writes (live-records.ts, history-recorder.ts `recordLive`/`resolvedLive`): live
 * prices become snapshots by the sync's rule, checked against an independent model of that rule on
 * a seeded walk; moves are reported, old snapshots thinned; a resolution heard live is reported
 * once, whichever of the channel and the sync comes first; a committed write survives a kill.
 */
import { copyFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { GammaMarket } from '../contract/gamma.ts';
import { tempDir } from '../testing/fixtures.ts';
import { testSeed } from '../testing/seed.ts';
import { CACHE_FILE, CatalogStore } from './catalog-store.ts';
import type { LivePricePoint } from './live-records.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
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
    conditionId: `0xC${id}`,
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

async function open(now: { t: number }, dataDir?: string): Promise<CatalogStore> {
  const s = await CatalogStore.open(dataDir === undefined ? {} : { dataDir });
  cleanups.push(() => s.close().catch(() => {}));
  s.recorder.now = () => now.t;
  return s;
}

/** A market's snapshots as [ts, price, bid, ask, last] in 1/10,000. */
const rows = (s: CatalogStore, id: number) =>
  s.statements.all('SELECT ts, price, bid, ask, last FROM market_history WHERE market_id = ? ORDER BY ts', [id]) as number[][];

type Row = [ts: number, price: number | null, bid: number | null, ask: number | null, last: number | null];

/**
 * The snapshot rule, restated from its description (history-schema.ts) for a live point, whose money
 * is the last snapshot's: none without a snapshot before (or in the same second); a 2-point jump at
 * once; a 0.1-point change of a price after 5 minutes; any change after an hour.
 */
function modelDue(v: Row, l: Row | undefined): boolean {
  if (!l || l[0] >= v[0]) return false;
  const gap = v[0] - l[0];
  if (v[1] !== null && l[1] !== null && Math.abs(v[1] - l[1]) >= 200) return true;
  const moved = (a: number | null, b: number | null) => a !== b && (a === null || b === null || Math.abs(a - b) >= 10);
  if (gap >= 300 && [1, 2, 3, 4].some((i) => moved(v[i]!, l[i]!))) return true;
  return gap >= 3600 && [1, 2, 3, 4].some((i) => v[i] !== l[i]);
}

const p4 = (x: number | null) => (x === null ? null : Math.round(x * 10_000));

describe('live prices in the history', () => {
  it('follow the snapshot rule: a seeded walk of live points against a model of the rule', async () => {
    const { rng, replay } = testSeed('live snapshots vs the rule');
    const now = { t: T0 };
    const s = await open(now);
    // Loaded as a first sync loads (nothing recorded); a catalog change then gives market 1 its first
    // snapshots (the stored row, then the new one); 2 has none.
    await s.bulkLoad(async () => void s.apply({ markets: [market(1), market(2), market(3, { closed: true })] }));
    now.t += 60_000;
    s.apply({ markets: [market(1, { outcomePrices: '["0.45", "0.55"]' })] });
    const model: Row[] = rows(s, 1).map((r) => r as Row);
    expect(
      model.map((r) => r[1]),
      replay,
    ).toEqual([4000, 4500]);
    let price = 0.45;
    for (let step = 0; step < 400; step++) {
      // Steps of 0 to 15 minutes, moves of up to 3 points, now and then a side empty or a repeat.
      now.t += Math.floor(rng() * 4) === 0 ? 0 : Math.floor(rng() * 900) * 1000;
      const r = rng();
      if (r > 0.2) price = Math.min(0.99, Math.max(0.01, price + (rng() - 0.5) * (r > 0.9 ? 0.06 : 0.004)));
      const point: LivePricePoint = {
        marketId: 1,
        price,
        bid: rng() < 0.05 ? null : price - 0.005,
        ask: price + 0.005,
        last: rng() < 0.5 ? price : null,
      };
      const v: Row = [Math.floor(now.t / 1000), p4(point.price), p4(point.bid), p4(point.ask), p4(point.last)];
      const due = modelDue(v, model.at(-1));
      const written = s.liveRecords.recordPrices([point, { ...point, marketId: 2 }, { ...point, marketId: 3 }]);
      expect(written, `step ${step}; ${replay}`).toBe(due ? 1 : 0);
      if (due) model.push(v);
    }
    expect(rows(s, 1), replay).toEqual(model);
    expect(model.length, `the walk should have taken snapshots; ${replay}`).toBeGreaterThan(10);
    // No first snapshot from the stream, none for a closed market; money stays the last snapshot's.
    expect(rows(s, 2)).toEqual([]);
    expect(rows(s, 3)).toEqual([]);
    const money = s.statements.all('SELECT DISTINCT vol24, liq FROM market_history WHERE market_id = 1');
    expect(money).toEqual([[1000, 5000]]);
  });

  it('reports a live move as the sync does, and thins old snapshots once an hour', async () => {
    const now = { t: T0 };
    const s = await open(now);
    s.apply({ markets: [market(1)] });
    now.t += 60_000;
    s.apply({ markets: [market(1, { outcomePrices: '["0.41", "0.59"]' })] });
    // 100 days of a snapshot every 10 minutes for market 2, and a thinning long ago.
    const day = 86_400;
    const at = Math.floor(now.t / 1000) + 600;
    let recent = 0;
    for (let t = at - 100 * day; t < at - 600; t += 600) {
      s.statements.run('INSERT INTO market_history (market_id, ts, price) VALUES (2, ?, 1)', [t]);
      if (t > at - 7 * day) recent++;
    }
    s.setMeta('history.thinnedAt', String(at - 200 * day));
    now.t = at * 1000;
    expect(s.liveRecords.recordPrices([{ marketId: 1, price: 0.47, bid: 0.46, ask: 0.48, last: 0.47 }])).toBe(1);
    expect(s.changes.list(0, ['price_move'], 10, 0).changes.map((c) => [c.market?.id, c.before, c.after])).toEqual([['1', 0.4, 0.47]]);
    expect(s.getMeta('history.thinnedAt')).toBe(String(at));
    const ts = s.history.history(2, 0, 2e9).map((p) => p.t);
    const hourly = ts.filter((t) => t <= at - 7 * day && t > at - 90 * day);
    expect(new Set(hourly.map((t) => Math.floor(t / 3600))).size).toBe(hourly.length);
    expect(hourly.length).toBeGreaterThan(80 * 24);
    expect(ts.filter((t) => t > at - 7 * day)).toHaveLength(recent);
  });

  it('keeps what it committed: a copy of the files taken without closing holds every live snapshot', async () => {
    const t = tempDir();
    const copy = tempDir();
    cleanups.push(t.cleanup, copy.cleanup);
    const now = { t: T0 };
    const s = await open(now, t.dir);
    s.apply({ markets: [market(1)] });
    now.t += 60_000;
    s.apply({ markets: [market(1, { outcomePrices: '["0.45", "0.55"]' })] });
    for (let i = 1; i <= 5; i++) {
      now.t += 600_000;
      expect(s.liveRecords.recordPrices([{ marketId: 1, price: 0.45 + i / 100, bid: null, ask: null, last: null }])).toBe(1);
    }
    const expected = rows(s, 1);
    // What a kill leaves: the file and its WAL as they are now.
    for (const f of [CACHE_FILE, `${CACHE_FILE}-wal`]) {
      if (existsSync(path.join(t.dir, f))) copyFileSync(path.join(t.dir, f), path.join(copy.dir, f));
    }
    const again = await open({ t: now.t }, copy.dir);
    expect(rows(again, 1)).toEqual(expected);
    expect(expected).toHaveLength(7);
  });
});

describe('resolutions heard live', () => {
  it('are reported at once, once, and not again when the catalog follows', async () => {
    const now = { t: T0 };
    const s = await open(now);
    s.apply({
      markets: [market(5), market(6, { closed: true, outcomePrices: '["1", "0"]', umaResolutionStatus: 'resolved' } as never)],
    });
    now.t += 60_000;
    const resolved = () => s.changes.list(0, ['resolved'], 10, 0).changes.map((c) => [c.market?.id, c.after]);
    expect(s.liveRecords.resolved(5, 'No', '["0","1"]')).toBe(true);
    expect(resolved()).toEqual([['5', { winner: 'No', outcomePrices: ['0', '1'] }]]);
    expect(s.liveRecords.resolved(5, 'No', '["0","1"]')).toBe(false);
    // Already resolved in the cache: the sync reported it.
    expect(s.liveRecords.resolved(6, 'Yes', '["1","0"]')).toBe(false);
    now.t += 60_000;
    s.apply({ markets: [market(5, { closed: true, outcomePrices: '["0", "1"]', umaResolutionStatus: 'resolved' } as never)] });
    expect(resolved()).toHaveLength(1);
    expect(s.changes.list(0, ['closed'], 10, 0).changes.map((c) => c.market?.id)).toEqual(['5']);
    // Another market's resolution still comes from the sync's trigger.
    s.apply({ markets: [market(7)] });
    now.t += 60_000;
    s.apply({ markets: [market(7, { closed: true, outcomePrices: '["1", "0"]', umaResolutionStatus: 'resolved' } as never)] });
    expect(resolved().map(([id]) => id)).toEqual(['7', '5']);
  });
});
