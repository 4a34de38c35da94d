/**
 * The market rules against a table of cases (junk included) and against a small model written
 * from the generated lists themselves, never by decoding: what was encoded is what the rules
 * must read back, and junk must read as nothing.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  eventLeader,
  isPlaceholder,
  jsonList,
  marketChance,
  marketLeader,
  num,
  outcomesOf,
  rankMarkets,
  textList,
  tradingIds,
  type Ranked,
} from './market-rules.ts';

describe('jsonList and textList (Gamma JSON-text lists)', () => {
  it.each<[string, unknown, string[]]>([
    ['JSON text', '["Yes","No"]', ['Yes', 'No']],
    ['JSON text with spaces', '[ "Yes" , "No" ]', ['Yes', 'No']],
    ['a real array', ['Yes', 'No'], ['Yes', 'No']],
    ['numbers in the text', '[0.5, "0.25"]', ['0.5', '0.25']],
    ['numbers in a real array', [0.5, 1], ['0.5', '1']],
    ['an empty list', '[]', []],
    ['absent', undefined, []],
    ['null', null, []],
    ['empty text', '', []],
    ['malformed JSON', '["Yes",', []],
    ['plain text', 'Yes, No', []],
    ['a JSON string', '"Yes"', []],
    ['a JSON number', '5', []],
    ['JSON null', 'null', []],
    ['a JSON object', '{"0":"Yes"}', []],
    ['a number', 42, []],
    ['an object', { 0: 'Yes', length: 1 }, []],
    ['a boolean', true, []],
  ])('%s', (_, input, expected) => {
    expect(textList(input)).toEqual(expected);
    expect(jsonList(input)).toHaveLength(expected.length);
  });

  it('keeps items as they are (jsonList) or as text (textList)', () => {
    expect(jsonList('[1,null,"a"]')).toEqual([1, null, 'a']);
    expect(textList('[1,null,"a"]')).toEqual(['1', 'null', 'a']);
  });
});

describe('num', () => {
  it.each<[unknown, number | undefined]>([
    [0.5, 0.5],
    ['0.5', 0.5],
    [' 0.5 ', 0.5],
    ['1e-3', 0.001],
    [0, 0],
    ['0', 0],
    ['', undefined],
    ['  ', undefined],
    ['x', undefined],
    ['Infinity', undefined],
    [Number.NaN, undefined],
    [null, undefined],
    [undefined, undefined],
    [true, undefined],
  ])('%j reads %j', (v, expected) => expect(num(v)).toBe(expected));
});

/** A market as in the renderer's and the export's earlier tests. */
const m = (id: string, prices: string | null | undefined, volumeNum = 0, extra: Record<string, unknown> = {}): Ranked => ({
  id,
  question: `Q ${id}?`,
  outcomes: '["Yes","No"]',
  outcomePrices: prices,
  volumeNum,
  ...extra,
});

describe('the rules, by case', () => {
  it('tells placeholders by their missing prices', () => {
    for (const p of [undefined, null, '', '[]', 'junk', '["",""]', '[null]']) expect(isPlaceholder(m('a', p)), String(p)).toBe(true);
    expect(isPlaceholder(m('a', '["0","1"]'))).toBe(false);
    expect(isPlaceholder(m('a', '["","0.2"]'))).toBe(false);
  });

  it("takes a market's chance from its first price", () => {
    expect(marketChance(m('a', '["0.31","0.69"]'))).toBe(0.31);
    expect(marketChance(m('a', '[0.31,0.69]'))).toBe(0.31);
    expect(marketChance(m('a', '["","0.69"]'))).toBeUndefined();
    expect(marketChance(m('a', 'junk'))).toBeUndefined();
  });

  it('pairs outcomes with their prices and trading ids by place, names first', () => {
    expect(outcomesOf({ version: 'v1', outcomes: '["Yes","No"]', outcomePrices: '["0.2"]', clobTokenIds: '["11","22"]' })).toEqual([
      { name: 'Yes', price: 0.2, tokenId: '11' },
      { name: 'No', price: undefined, tokenId: '22' },
    ]);
    // Ids that do not match the outcomes (or no version) trade nothing.
    expect(outcomesOf({ version: 'v1', outcomes: '["Yes","No"]', clobTokenIds: '["11","22","33"]' }).map((o) => o.tokenId)).toEqual([
      undefined,
      undefined,
    ]);
    expect(outcomesOf({ outcomes: '["Yes","No"]', clobTokenIds: '["11","22"]' }).map((o) => o.tokenId)).toEqual([undefined, undefined]);
    expect(outcomesOf({ outcomes: 'junk', outcomePrices: '["0.2"]' })).toEqual([]);
  });

  it("takes a market's leader from its Yes price, or its leading named outcome", () => {
    expect(marketLeader(m('a', '["0.31","0.69"]'))).toEqual({ name: 'Yes', price: 0.31 });
    expect(marketLeader({ outcomes: '["Lakers","Celtics"]', outcomePrices: '["0.42","0.58"]' })).toEqual({ name: 'Celtics', price: 0.58 });
    expect(marketLeader({ outcomes: '["A","B"]', outcomePrices: '["0.5","0.5"]' })).toEqual({ name: 'A', price: 0.5 });
    expect(marketLeader({ outcomes: '["No","YES"]', outcomePrices: '["0.9","0.1"]' })).toEqual({ name: 'YES', price: 0.1 });
    expect(marketLeader(m('ph', null))).toBeUndefined();
  });

  it('ranks priced markets by chance, then volume, resolved ones last', () => {
    const ranked = rankMarkets([
      m('big', '["0.1","0.9"]', 900),
      m('ph', null, 5),
      m('lo', '["0.29","0.71"]', 1),
      m('hi', '["0.29","0.71"]', 2),
    ]);
    expect(ranked.map((x) => x.id)).toEqual(['hi', 'lo', 'big']);
    const settled = rankMarkets([m('won', '["1","0"]', 5, { closed: true }), m('open', '["0.4","0.6"]', 1)]);
    expect(settled.map((x) => x.id)).toEqual(['open', 'won']);
  });

  it("names an event's leader by its group title, or a single market's chance as the markets grid reads it", () => {
    const twoMarkets = [m('a', '["0.2","0.8"]', 9, { groupItemTitle: 'Newsom' }), m('b', '["0.3","0.7"]', 1, { groupItemTitle: ' AOC ' })];
    expect(eventLeader(twoMarkets)).toEqual({ label: 'AOC', price: 0.3 });
    expect(eventLeader([m('a', '["0.2","0.8"]'), m('b', '["0.3","0.7"]', 0, { groupItemTitle: '  ' })])).toEqual({
      label: 'Q b?',
      price: 0.3,
    });
    // One priced market reads as the markets grid reads it: its Yes price, not the likelier No.
    expect(eventLeader([m('a', '["0.2","0.8"]'), m('ph', null)])).toEqual({ label: 'Yes', price: 0.2 });
    expect(eventLeader([m('ph', null)])).toBeUndefined();
    expect(eventLeader([])).toBeUndefined();
    const settled = [
      m('1', '["0.2","0.8"]'),
      m('2', '["0.6","0.4"]', 0, { groupItemTitle: 'Bob' }),
      m('4', '["1","0"]', 0, { closed: true }),
    ];
    expect(eventLeader(settled)).toEqual({ label: 'Bob', price: 0.6 });
  });
});

// ---- The model: lists are generated as data, then encoded the ways Gamma (or junk) sends them.

type Item = { price: number; as: 'text' | 'number' } | { junk: unknown };
const item: fc.Arbitrary<Item> = fc.oneof(
  fc.record({
    // Few distinct prices, so ties (and the tie rules) come up often.
    price: fc.oneof(fc.constantFrom(0, 0.3, 0.5, 1), fc.double({ min: 0, max: 1, noNaN: true })),
    as: fc.constantFrom('text' as const, 'number' as const),
  }),
  fc.record({ junk: fc.constantFrom('', ' ', 'x', 'NaN', 'Infinity', null, true, false, [], {}) }),
);
const encoded = (i: Item): unknown => ('junk' in i ? i.junk : i.as === 'text' ? String(i.price) : i.price);
/** What the model reads an item's price as: a generated number, or nothing for junk. */
const priceOf = (i: Item | undefined): number | undefined => (i && 'price' in i ? i.price : undefined);

type Encoding = 'text' | 'array' | 'junk';
const encoding = fc.constantFrom<Encoding>('text', 'text', 'array', 'junk');
const JUNK_FIELDS = [undefined, null, '', 'junk', '{"a":1}', '"x"', 7];
function encode(list: unknown[], how: Encoding, junkIndex: number): unknown {
  if (how === 'text') return JSON.stringify(list);
  if (how === 'array') return list;
  return JUNK_FIELDS[junkIndex % JUNK_FIELDS.length];
}

interface GenMarket {
  id: string;
  names: string[];
  items: Item[];
  namesHow: Encoding;
  pricesHow: Encoding;
  junk: number;
  closed: boolean;
  volume: number;
  title: string | undefined;
}
const genMarket: fc.Arbitrary<GenMarket> = fc.record({
  id: fc.constantFrom('1', '2', '3', '4', '5'),
  names: fc.array(fc.constantFrom('Yes', 'No', 'yes', 'YES', 'Lakers', 'Celtics', ''), { maxLength: 4 }),
  items: fc.array(item, { maxLength: 4 }),
  namesHow: encoding,
  pricesHow: encoding,
  junk: fc.nat(),
  closed: fc.boolean(),
  volume: fc.constantFrom(0, 1, 5, 100),
  title: fc.constantFrom(undefined, 'Alice', ' Bob ', '  '),
});
const toMarket = (g: GenMarket): Ranked => ({
  id: g.id,
  question: `Q${g.id}`,
  outcomes: encode(g.names, g.namesHow, g.junk),
  outcomePrices: encode(g.items.map(encoded), g.pricesHow, g.junk + 1),
  volumeNum: g.volume,
  closed: g.closed,
  ...(g.title === undefined ? {} : { groupItemTitle: g.title }),
});

/** The model's lists: what was generated, or nothing when the field was sent as junk. */
const modelNames = (g: GenMarket) => (g.namesHow === 'junk' ? [] : g.names);
const modelItems = (g: GenMarket) => (g.pricesHow === 'junk' ? [] : g.items);
const modelPriced = (g: GenMarket) =>
  modelNames(g).flatMap((name, i) => {
    const price = priceOf(modelItems(g)[i]);
    return price === undefined ? [] : [{ name, price }];
  });
/** Yes (any case) first; otherwise the highest price, the earliest of equals (a stable sort). */
function modelMarketLeader(g: GenMarket) {
  const list = modelPriced(g);
  return list.find((o) => o.name.toLowerCase() === 'yes') ?? [...list].sort((a, b) => b.price - a.price)[0];
}
const modelChance = (g: GenMarket) => priceOf(modelItems(g)[0]);
const modelPlaceholder = (g: GenMarket) => modelItems(g).every((i) => priceOf(i) === undefined);
function modelEventLeader(gs: GenMarket[]) {
  const key = (g: GenMarket): number[] => [g.closed ? 1 : 0, -(modelChance(g) ?? -1), -g.volume];
  const before = (a: number[], b: number[]) => a.findIndex((x, i) => x !== b[i]);
  const ranked = gs
    .filter((g) => !modelPlaceholder(g))
    .map((g, i) => ({ g, i }))
    .sort((a, b) => {
      const d = before(key(a.g), key(b.g));
      return d === -1 ? a.i - b.i : key(a.g)[d]! - key(b.g)[d]!;
    })
    .map((x) => x.g);
  if (ranked.length === 1) {
    // As the markets grid reads the same market: Yes's price, else the likeliest side.
    const best = modelMarketLeader(ranked[0]!);
    if (best) return { label: best.name, price: best.price };
  }
  const top = ranked[0];
  if (!top || modelChance(top) === undefined) return undefined;
  return { label: top.title?.trim() || `Q${top.id}`, price: modelChance(top)! };
}

describe('the rules, against the model', () => {
  it('a market: outcomes, chance, placeholder, leader', () => {
    fc.assert(
      fc.property(genMarket, (g) => {
        const market = toMarket(g);
        expect(outcomesOf(market).map((o) => [o.name, o.price])).toEqual(modelNames(g).map((n, i) => [n, priceOf(modelItems(g)[i])]));
        expect(marketChance(market)).toBe(modelChance(g));
        expect(isPlaceholder(market)).toBe(modelPlaceholder(g));
        const leader = modelMarketLeader(g);
        expect(marketLeader(market)).toEqual(leader && { name: leader.name, price: leader.price });
      }),
      { numRuns: 500 },
    );
  });

  it("an event: its markets' ranking and its leader", () => {
    fc.assert(
      fc.property(fc.array(genMarket, { maxLength: 5 }), (gs) => {
        expect(eventLeader(gs.map(toMarket))).toEqual(modelEventLeader(gs));
      }),
      { numRuns: 500 },
    );
  });
});

/**
 * tradingIds against a small model: the generator records what it encoded (the version, each
 * field's ids and how they were sent), and the model reads the rule off that record, never by
 * decoding: "v2" takes positionIds, "v1" clobTokenIds, whatever else is present.
 */
describe('tradingIds (the one rule for the ids the CLOB takes)', () => {
  const decimalId = fc.bigInt({ min: 0n, max: (1n << 256n) - 1n }).map(String);
  const junkId = fc.oneof(fc.constant(''), fc.constant('0x1f'), fc.constant('12a'), fc.constant(' 12'), fc.integer(), fc.constant(null));
  type Sent =
    | { kind: 'absent' }
    | { kind: 'null' }
    | { kind: 'garbage'; value: unknown }
    | { kind: 'list'; ids: unknown[]; asText: boolean };
  const sent: fc.Arbitrary<Sent> = fc.oneof(
    fc.constant<Sent>({ kind: 'absent' }),
    fc.constant<Sent>({ kind: 'null' }),
    fc.constantFrom<unknown>('', 'junk', '{"0":"1"}', 42, true, {}).map<Sent>((value) => ({ kind: 'garbage', value })),
    fc
      .record({
        ids: fc.array(fc.oneof({ weight: 9, arbitrary: decimalId }, { weight: 1, arbitrary: junkId }), { maxLength: 4 }),
        asText: fc.boolean(),
      })
      .map<Sent>((r) => ({ kind: 'list', ...r })),
  );
  const encode = (s: Sent): unknown =>
    s.kind === 'null' ? null : s.kind === 'garbage' ? s.value : s.kind === 'list' ? (s.asText ? JSON.stringify(s.ids) : s.ids) : undefined;
  const gen = fc.record({
    version: fc.constantFrom<unknown>('v1', 'v2', undefined, null, '', 'v3', 'V2', 2),
    clob: sent,
    position: sent,
    outcomeCount: fc.integer({ min: 0, max: 4 }),
  });
  type G = { version: unknown; clob: Sent; position: Sent; outcomeCount: number };
  const market = (g: G) => {
    const out: Record<string, unknown> = { outcomes: JSON.stringify(Array.from({ length: g.outcomeCount }, (_, i) => `O${i}`)) };
    if (g.version !== undefined) out.version = g.version;
    const c = encode(g.clob);
    if (g.clob.kind !== 'absent') out.clobTokenIds = c;
    const p = encode(g.position);
    if (g.position.kind !== 'absent') out.positionIds = p;
    return out;
  };
  /** The rule, read off what was generated. */
  const model = (g: G): string[] | undefined => {
    const chosen = g.version === 'v1' ? g.clob : g.version === 'v2' ? g.position : undefined;
    if (chosen?.kind !== 'list' || chosen.ids.length === 0) return undefined;
    if (!chosen.ids.every((t) => typeof t === 'string' && /^\d+$/.test(t))) return undefined;
    if (chosen.ids.length !== g.outcomeCount) return undefined;
    return chosen.ids as string[];
  };

  it('chooses by version, never by which field is present, and refuses junk with a reason', () => {
    fc.assert(
      fc.property(gen, (g) => {
        const r = tradingIds(market(g));
        const want = model(g);
        if (want) expect(r).toEqual({ ok: true, version: g.version, ids: want });
        else {
          expect(r.ok).toBe(false);
          if (!r.ok) expect(r.reason).toMatch(/^Trading is off for this market: [^\n]+\.$/);
        }
        // The other version's ids are never the answer (unless the two lists are equal).
        const other = g.version === 'v1' ? g.position : g.version === 'v2' ? g.clob : undefined;
        const chosen = g.version === 'v1' ? g.clob : g.version === 'v2' ? g.position : undefined;
        if (r.ok && other?.kind === 'list' && chosen?.kind === 'list') expect(r.ids).toEqual(chosen.ids);
      }),
      { numRuns: 2000 },
    );
  });

  it('a live v1 market with positionIds (Gamma, 2026-08) trades its clobTokenIds', () => {
    const r = tradingIds({ version: 'v1', outcomes: '["Yes", "No"]', clobTokenIds: '["111", "222"]', positionIds: ['895', '896'] });
    expect(r).toEqual({ ok: true, version: 'v1', ids: ['111', '222'] });
    expect(tradingIds({ version: 'v2', outcomes: '["Yes", "No"]', clobTokenIds: '["111", "222"]', positionIds: ['895', '896'] })).toEqual({
      ok: true,
      version: 'v2',
      ids: ['895', '896'],
    });
    expect(tradingIds({ version: 'v2', outcomes: '["Yes", "No"]', clobTokenIds: '["111", "222"]' }).ok).toBe(false);
    expect(tradingIds({ outcomes: '["Yes", "No"]', clobTokenIds: '["111", "222"]' })).toEqual({
      ok: false,
      reason: 'Trading is off for this market: it has no protocol version.',
    });
  });
});
