/**
 * The alerts' logic on its own (evaluate.ts): each kind fires once per crossing, re-arms when its
 * condition stops holding, and, given the state it kept, does not fire again after a restart
 * (the state is all that carries over: a restart is a new evaluation with the kept state).
 */
import { describe, expect, it } from 'vitest';
import {
  evaluateCatalog,
  evaluateOrders,
  needsOf,
  orderOutcome,
  vanishedOrders,
  type CatalogInputs,
  type MarketFacts,
  type NewItem,
  type OrderFact,
  type RevisionFact,
} from './evaluate.ts';
import type { StoredRule } from './rules-file.ts';

const HOUR = 3_600_000;
const NOW = Date.UTC(2026, 10, 1);

function rule(over: Partial<StoredRule> & Pick<StoredRule, 'kind'>): StoredRule {
  return { id: 'r1', label: 'x', createdAt: new Date(NOW).toISOString(), lastFiredAt: null, state: {}, ...over };
}

const market = (id: string, price: number | null, endMs: number | null = null): MarketFacts => ({
  id,
  slug: `m-${id}`,
  question: `Q${id}?`,
  price,
  endMs,
});

function inputs(over: Partial<CatalogInputs> = {}): CatalogInputs {
  return {
    now: NOW,
    markets: new Map(),
    events: new Map(),
    ranges: new Map(),
    revisions: [],
    changeSeq: 0,
    revisionSeq: 0,
    matches: new Map(),
    watch: { markets: [], events: [] },
    ...over,
  };
}

/** Runs the rule through a sequence of inputs, keeping its state as the engine does; the firings' counts per step. */
function run(r: StoredRule, steps: CatalogInputs[]): number[] {
  return steps.map((inp) => {
    const out = evaluateCatalog([r], inp);
    const st = out.states.get(r.id);
    if (st) r.state = st;
    return out.firings.length;
  });
}

const prices = (id: string, ...ps: (number | null)[]) => ps.map((p) => inputs({ markets: new Map([[id, market(id, p)]]) }));

describe('price_cross', () => {
  it('records the first side, fires once per crossing either way, and not again with its kept state', () => {
    const r = rule({ kind: 'price_cross', market: { id: '7', slug: null, question: 'Q7?' }, level: 0.6 });
    expect(run(r, prices('7', 0.5, 0.55, 0.63, 0.7, 0.59, 0.58, 0.61))).toEqual([0, 0, 1, 0, 1, 0, 1]);
    // A restart: the same state, the same price: nothing.
    const restarted = structuredClone(r);
    expect(run(restarted, prices('7', 0.61))).toEqual([0]);
  });

  it('fires only upward with direction up, and its firing says before and after', () => {
    const r = rule({ kind: 'price_cross', market: { id: '7', slug: null, question: 'Q7?' }, level: 0.6, direction: 'up' });
    run(r, prices('7', 0.5));
    const out = evaluateCatalog([r], prices('7', 0.65)[0]!);
    expect(out.firings).toEqual([
      expect.objectContaining({ ruleId: 'r1', kind: 'price_cross', before: 0.5, after: 0.65, title: 'Q7? crossed 60¢ (50¢ → 65¢)' }),
    ]);
    r.state = out.states.get('r1')!;
    expect(run(r, prices('7', 0.55, 0.62, 0.5))).toEqual([0, 1, 0]);
  });

  it('keeps its side while the market has no price', () => {
    const r = rule({ kind: 'price_cross', market: { id: '7', slug: null, question: null }, level: 0.6 });
    expect(run(r, prices('7', 0.5, null, 0.7))).toEqual([0, 0, 1]);
  });
});

describe('price_move', () => {
  const r0 = () => rule({ kind: 'price_move', market: { id: '7', slug: null, question: null }, points: 0.05, windowHours: 24 });
  const at = (price: number, min: number, max: number) =>
    inputs({ markets: new Map([['7', market('7', price)]]), ranges: new Map([['7/24', { min, max }]]) });

  it('fires when the move within the window reaches the points, once, and re-arms when it falls back', () => {
    const r = r0();
    expect(run(r, [at(0.5, 0.48, 0.52), at(0.55, 0.5, 0.55), at(0.56, 0.5, 0.56), at(0.52, 0.5, 0.56), at(0.45, 0.45, 0.56)])).toEqual([
      0, 1, 0, 0, 1,
    ]);
    expect(run(structuredClone(r), [at(0.45, 0.45, 0.56)])).toEqual([0]);
  });

  it('measures down moves from the window high and signs them', () => {
    const out = evaluateCatalog([r0()], at(0.4, 0.4, 0.5));
    expect(out.firings[0]).toMatchObject({ before: 0.5, after: 0.4 });
    expect(out.firings[0]!.title).toContain('−10 pts in 24 h');
  });
});

describe('ends_soon', () => {
  const soon = (endMs: number | null) => inputs({ markets: new Map([['7', market('7', 0.5, endMs)]]) });

  it('fires once when the end comes within the hours, re-arms when the end date moves out', () => {
    const r = rule({ kind: 'ends_soon', market: { id: '7', slug: null, question: null }, hours: 24 });
    expect(
      run(r, [soon(NOW + 48 * HOUR), soon(NOW + 20 * HOUR), soon(NOW + 10 * HOUR), soon(NOW + 72 * HOUR), soon(NOW + 5 * HOUR)]),
    ).toEqual([0, 1, 0, 0, 1]);
    expect(run(structuredClone(r), [soon(NOW + 5 * HOUR)])).toEqual([0]);
    // Ended: no longer "ends soon", nothing fires.
    expect(run(rule({ kind: 'ends_soon', market: { id: '7', slug: null, question: null }, hours: 24 }), [soon(NOW - HOUR)])).toEqual([0]);
  });

  it('without a target watches the watchlist, each item once, and re-arms an item taken off it', () => {
    const r = rule({ kind: 'ends_soon', hours: 24 });
    const inp = (watchMarkets: string[]) =>
      inputs({
        markets: new Map([
          ['7', market('7', 0.5, NOW + HOUR)],
          ['8', market('8', 0.5, NOW + 2 * HOUR)],
        ]),
        events: new Map([['9', { id: '9', slug: 'e9', title: 'E9', endMs: NOW + 3 * HOUR }]]),
        watch: { markets: watchMarkets, events: ['9'] },
      });
    expect(run(r, [inp(['7']), inp(['7', '8']), inp(['8']), inp(['7', '8'])])).toEqual([2, 1, 0, 1]);
    expect(needsOf([r], { markets: ['7'], events: ['9'] })).toMatchObject({ markets: new Set(['7']), events: new Set(['9']) });
  });
});

describe('rule_edit', () => {
  const rev = (seq: number, id: string, field: string, entity: 'market' | 'event' = 'market'): RevisionFact => ({
    seq,
    entity,
    id,
    slug: null,
    name: `N${id}`,
    field,
    before: 'a',
    after: 'b',
  });

  it('starts at its creation position and fires once per edited target per evaluation, only for its target', () => {
    const r = rule({ kind: 'rule_edit', market: { id: '7', slug: null, question: null }, state: { revisionSeq: 10 } });
    const edits = [rev(9, '7', 'description'), rev(11, '7', 'description'), rev(12, '7', 'endDate'), rev(13, '8', 'description')];
    const out = evaluateCatalog([r], inputs({ revisions: edits, revisionSeq: 13 }));
    expect(out.firings).toHaveLength(1);
    expect(out.firings[0]).toMatchObject({
      market: { id: '7' },
      before: { description: 'a', endDate: 'a' },
      after: { description: 'b', endDate: 'b' },
      title: 'Rules edited: N7 (description, endDate)',
    });
    r.state = out.states.get('r1')!;
    expect(r.state.revisionSeq).toBe(13);
    // The same revisions again (a restart re-reading the feed): nothing new.
    expect(run(r, [inputs({ revisions: edits, revisionSeq: 13 })])).toEqual([0]);
  });

  it('without a target follows the watchlist, markets and events', () => {
    const r = rule({ kind: 'rule_edit', state: { revisionSeq: 0 } });
    const out = evaluateCatalog(
      [r],
      inputs({
        revisions: [rev(1, '7', 'description'), rev(2, '8', 'description'), rev(3, '9', 'title', 'event')],
        revisionSeq: 3,
        watch: { markets: ['7'], events: ['9'] },
      }),
    );
    expect(out.firings.map((f) => f.market?.id ?? `e${f.event?.id}`)).toEqual(['7', 'e9']);
  });

  it('a rule that never read the feed records the position and fires nothing', () => {
    const r = rule({ kind: 'rule_edit' });
    expect(run(r, [inputs({ revisions: [rev(5, '7', 'description')], revisionSeq: 5, watch: { markets: ['7'], events: [] } })])).toEqual([
      0,
    ]);
    expect(r.state.revisionSeq).toBe(5);
  });
});

describe('new_match', () => {
  it('fires once per matching new item after its position', () => {
    const item = (seq: number, id: string): NewItem => ({ seq, entity: 'market', id, slug: null, name: `Q${id}`, endMs: null });
    const r = rule({ kind: 'new_match', q: 'fed', label: 'fed', state: { changeSeq: 4 } });
    const matches = new Map([['r1', [item(3, '1'), item(5, '2'), item(6, '3')]]]);
    const out = evaluateCatalog([r], inputs({ matches, changeSeq: 6 }));
    expect(out.firings.map((f) => f.market?.id)).toEqual(['2', '3']);
    expect(out.firings[0]!.title).toBe('New market matches “fed”: Q2');
    r.state = out.states.get('r1')!;
    expect(run(r, [inputs({ matches, changeSeq: 6 })])).toEqual([0]);
  });
});

describe('order_done', () => {
  const order = (id: string, sizeMatched: string, marketId: string | null = '7'): OrderFact => ({
    id,
    marketId,
    question: 'Q7?',
    outcome: 'Yes',
    side: 'BUY',
    price: '0.4',
    originalSize: '10',
    sizeMatched,
  });

  it('finds the orders gone after a refresh', () => {
    expect(vanishedOrders([order('a', '0'), order('b', '0')], [order('b', '3')]).map((o) => o.id)).toEqual(['a']);
  });

  it("takes the upstream's word, else the matched size", () => {
    expect(orderOutcome(order('a', '0'), { status: 'MATCHED', originalSize: '10', sizeMatched: '10' })).toBe('filled');
    expect(orderOutcome(order('a', '10'), { status: 'CANCELED', originalSize: '10', sizeMatched: '4' })).toBe('cancelled');
    expect(
      orderOutcome(order('a', '0'), {
        status: 'ORDER_STATUS_CANCELED_MARKET_RESOLVED'.replace('ORDER_STATUS_', ''),
        originalSize: '10',
        sizeMatched: '0',
      }),
    ).toBe('cancelled');
    expect(orderOutcome(order('a', '0'), { status: 'live', originalSize: '10', sizeMatched: '0' })).toBeNull();
    expect(orderOutcome(order('a', '10'), null)).toBe('filled');
    expect(orderOutcome(order('a', '9'), null)).toBe('cancelled');
  });

  it('fires each done order for every rule covering its market', () => {
    const any = rule({ kind: 'order_done', id: 'any' });
    const on7 = rule({ kind: 'order_done', id: 'on7', market: { id: '7', slug: 's7', question: 'Q7?' } });
    const on8 = rule({ kind: 'order_done', id: 'on8', market: { id: '8', slug: 's8', question: 'Q8?' } });
    const out = evaluateOrders([any, on7, on8], [{ order: order('a', '10'), status: 'filled' }]);
    expect(out.map((f) => f.ruleId)).toEqual(['any', 'on7']);
    expect(out[0]).toMatchObject({
      order: { id: 'a', status: 'filled', side: 'BUY', outcome: 'Yes' },
      title: 'Order filled: BUY 10 Yes @ 40¢ on Q7?',
    });
  });
});
