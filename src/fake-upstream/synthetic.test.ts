import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { pathToFileURL } from 'node:url';
import { FIXTURES_DIR } from './fixture-catalog.ts';
import type { GammaEvent, GammaMarket } from '../contract/gamma.ts';
import { DEFAULT_NOW, generateCatalog } from './synthetic.ts';
import { timeKey } from './time-format.ts';

const FIXTURES = pathToFileURL(`${FIXTURES_DIR}/`);
const DAY = 86_400_000;
const ISO_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/;
const CLOSED_TIME_RE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\+00$/;
const DIGITS_RE = /^\d+$/;

const small = generateCatalog({ markets: 3000, seed: 42 });

function jsonStringArray(s: unknown): string[] {
  expect(typeof s).toBe('string');
  const v = JSON.parse(s as string) as unknown;
  expect(Array.isArray(v)).toBe(true);
  for (const x of v as unknown[]) expect(typeof x).toBe('string');
  return v as string[];
}

/** `keys` in the order they appear in `reference` (keys the reference lacks are ignored). */
function inReferenceOrder(keys: string[], reference: string[]): boolean {
  const pos = keys.map((k) => reference.indexOf(k)).filter((i) => i >= 0);
  return pos.every((p, i) => i === 0 || p > (pos[i - 1] as number));
}

describe('generateCatalog', () => {
  it('is deterministic for a seed and differs between seeds', () => {
    const a = generateCatalog({ markets: 500, seed: 7 });
    const b = generateCatalog({ markets: 500, seed: 7 });
    const c = generateCatalog({ markets: 500, seed: 8 });
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    expect(JSON.stringify(a.markets)).not.toBe(JSON.stringify(c.markets));
    expect(a.markets[0]!.conditionId).not.toBe(c.markets[0]!.conditionId);
  });

  it('makes exactly the requested number of markets, 1-10 per event, about 2.5 on average', () => {
    expect(small.markets).toHaveLength(3000);
    const perEvent = small.events.map((e) => e.markets!.length);
    expect(Math.min(...perEvent)).toBeGreaterThanOrEqual(1);
    expect(Math.max(...perEvent)).toBeLessThanOrEqual(10);
    expect(perEvent.reduce((a, b) => a + b, 0)).toBe(3000);
    const mean = 3000 / small.events.length;
    expect(mean).toBeGreaterThan(2.1);
    expect(mean).toBeLessThan(2.9);
    // generator's markets are the very objects nested in events
    expect(small.events.flatMap((e) => e.markets!)).toEqual(small.markets);
  });

  it('handles zero markets', () => {
    const z = generateCatalog({ markets: 0 });
    expect(z.markets).toEqual([]);
    expect(z.events).toEqual([]);
  });

  it('gives unique, numeric, sparse ids that ascend with creation time', () => {
    for (const list of [small.markets, small.events] as (GammaMarket | GammaEvent)[][]) {
      const ids = list.map((x) => Number(x.id));
      for (const x of list) expect(x.id).toMatch(DIGITS_RE);
      expect(new Set(ids).size).toBe(ids.length);
      for (let i = 1; i < ids.length; i++) expect(ids[i]).toBeGreaterThan(ids[i - 1]!);
      expect(ids.at(-1)! - ids[0]!).toBeGreaterThan(ids.length); // not dense
      const created = list.map((x) => timeKey(x.createdAt!));
      for (let i = 1; i < created.length; i++) expect(created[i]).toBeGreaterThan(created[i - 1]!);
    }
  });

  it('gives markets the real wire types', () => {
    for (const m of small.markets.slice(0, 1000)) {
      expect(m.question!.length).toBeGreaterThanOrEqual(40);
      expect(m.question!.length).toBeLessThanOrEqual(86);
      expect(m.slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(m.conditionId).toMatch(/^0x[0-9a-f]{64}$/);
      expect(m.questionID).toMatch(/^0x[0-9a-f]{64}$/);
      expect(jsonStringArray(m.outcomes)).toHaveLength(2);
      expect(m.outcomes).toContain('", "'); // Gamma's spacing
      const tokens = jsonStringArray(m.clobTokenIds);
      expect(tokens).toHaveLength(2);
      for (const t of tokens) expect(t).toMatch(/^[1-9]\d{75,76}$/);
      if (m.outcomePrices !== undefined) for (const p of jsonStringArray(m.outcomePrices)) expect(Number.isFinite(Number(p))).toBe(true);
      expect(typeof m.volume).toBe('string');
      expect(Number(m.volume)).toBe(m.volumeNum);
      if (m.liquidity !== undefined) expect(Number(m.liquidity)).toBe(m.liquidityNum);
      for (const k of ['volume24hr', 'volume1wk', 'bestBid', 'bestAsk', 'lastTradePrice', 'orderPriceMinTickSize', 'orderMinSize']) {
        if (k in m) expect(typeof m[k]).toBe('number');
      }
      for (const k of ['startDate', 'endDate', 'createdAt', 'updatedAt']) expect(m[k]).toMatch(ISO_RE);
      for (const k of ['active', 'closed', 'archived', 'negRisk', 'acceptingOrders', 'enableOrderBook'])
        expect(typeof m[k]).toBe('boolean');
      expect(typeof m.groupItemTitle).toBe('string');
      expect(m.submitted_by).toMatch(/^0x[0-9a-fA-F]{40}$/);
      expect(m.image).toMatch(/^https:\/\//);
      expect(m.icon).toBe(m.image);
      expect(m).not.toHaveProperty('events');
      if (m.closed) expect(m.closedTime).toMatch(CLOSED_TIME_RE);
      else expect(m).not.toHaveProperty('closedTime');
    }
    expect(new Set(small.markets.map((m) => m.slug)).size).toBe(3000);
    const creators = new Set(small.markets.map((m) => m.submitted_by));
    expect(creators.size).toBeGreaterThan(3);
    expect(creators.size).toBeLessThanOrEqual(20);
    const desc = small.markets.map((m) => (m.description as string).length);
    const meanDesc = desc.reduce((a, b) => a + b, 0) / desc.length;
    expect(meanDesc).toBeGreaterThan(450);
    expect(meanDesc).toBeLessThan(800);
    expect(small.markets.every((m) => (m.description as string).startsWith('This market will resolve to "Yes" if '))).toBe(true);
  });

  it('leaves keys out sometimes, as the real API does', () => {
    const share = (k: string) => small.markets.filter((m) => k in m).length / small.markets.length;
    for (const k of ['outcomePrices', 'volume24hr', 'volume1wk', 'bestBid', 'lastTradePrice']) {
      expect(share(k)).toBeGreaterThan(0.3);
      expect(share(k)).toBeLessThan(1);
    }
  });

  it('has about 75% open, 20% closed within the last 30 days and 3% archived markets', () => {
    const n = small.markets.length;
    const open = small.markets.filter((m) => m.active && !m.closed).length / n;
    const closed = small.markets.filter((m) => m.closed && !m.archived);
    const archived = small.markets.filter((m) => m.archived).length / n;
    expect(open).toBeGreaterThan(0.65);
    expect(open).toBeLessThan(0.85);
    expect(closed.length / n).toBeGreaterThan(0.12);
    expect(closed.length / n).toBeLessThan(0.3);
    expect(archived).toBeGreaterThan(0.005);
    expect(archived).toBeLessThan(0.07);
    for (const m of closed) {
      const t = timeKey(m.closedTime!);
      expect(t).toBeGreaterThanOrEqual(DEFAULT_NOW - 30 * DAY - 1000);
      expect(t).toBeLessThanOrEqual(DEFAULT_NOW);
      expect(t).toBeGreaterThanOrEqual(timeKey(m.createdAt!));
    }
  });

  it('closes every market of a closed event; open events may hold closed markets', () => {
    for (const e of small.events) if (e.closed) for (const m of e.markets!) expect(m.closed).toBe(true);
    expect(small.events.some((e) => !e.closed && e.markets!.some((m) => m.closed))).toBe(true);
  });

  it('gives events numeric money, unique slugs, 1-4 tags and sometimes a series', () => {
    for (const e of small.events) {
      for (const k of ['liquidity', 'volume', 'openInterest', 'competitive']) expect(typeof e[k]).toBe('number');
      expect(e.ticker).toBe(e.slug);
      for (const k of ['startDate', 'creationDate', 'endDate', 'createdAt', 'updatedAt']) expect(e[k]).toMatch(ISO_RE);
      expect(e.tags!.length).toBeGreaterThanOrEqual(1);
      expect(e.tags!.length).toBeLessThanOrEqual(4);
      expect(new Set(e.tags!.map((t) => t.id)).size).toBe(e.tags!.length);
      for (const t of e.tags!) {
        expect(t.id).toMatch(DIGITS_RE);
        expect(typeof t.label).toBe('string');
        expect(typeof t.slug).toBe('string');
      }
      if ('series' in e) {
        expect(e.series).toHaveLength(1);
        expect(e.seriesSlug).toBe(e.series![0]!.slug);
      }
    }
    expect(new Set(small.events.map((e) => e.slug)).size).toBe(small.events.length);
    const inSeries = small.events.filter((e) => e.series).length / small.events.length;
    expect(inSeries).toBeGreaterThan(0.05);
    expect(inSeries).toBeLessThan(0.35);
    expect(small.series.length).toBeGreaterThanOrEqual(24);
    expect(small.series.length).toBeLessThanOrEqual(60);
    expect(small.tags.length).toBeGreaterThanOrEqual(200);
    expect(small.tags.length).toBeLessThanOrEqual(600);
  });

  it('draws tags with Zipf-like popularity', () => {
    const uses = new Map<string, number>();
    for (const e of small.events) for (const t of e.tags!) uses.set(t.id, (uses.get(t.id) ?? 0) + 1);
    const counts = [...uses.values()].sort((a, b) => b - a);
    const top10 = counts.slice(0, 10).reduce((a, b) => a + b, 0);
    const total = counts.reduce((a, b) => a + b, 0);
    expect(top10 / total).toBeGreaterThan(0.3);
    expect(uses.size).toBeGreaterThan(50);
  });

  it('follows the key order of the real fixtures', () => {
    const realMarket = (JSON.parse(readFileSync(new URL('markets_active_2026-02.json', FIXTURES), 'utf8')) as GammaMarket[])[0]!;
    const realEvent = (JSON.parse(readFileSync(new URL('events_active_2025-06.json', FIXTURES), 'utf8')) as GammaEvent[])[0]!;
    const marketOrder = Object.keys(realMarket);
    const eventOrder = Object.keys(realEvent);
    for (const m of small.markets.slice(0, 200)) expect(inReferenceOrder(Object.keys(m), marketOrder)).toBe(true);
    for (const e of small.events.slice(0, 200)) expect(inReferenceOrder(Object.keys(e), eventOrder)).toBe(true);
    expect(Object.keys(small.markets[0]!).slice(0, 4)).toEqual(['id', 'question', 'conditionId', 'slug']);
  });

  it('respects `now`', () => {
    const now = Date.UTC(2030, 0, 1);
    const c = generateCatalog({ markets: 300, seed: 1, now });
    for (const m of c.markets) expect(timeKey(m.updatedAt!)).toBeLessThanOrEqual(now + 1);
    expect(Math.max(...c.markets.map((m) => timeKey(m.createdAt!)))).toBeGreaterThan(now - 30 * DAY);
  });
});
