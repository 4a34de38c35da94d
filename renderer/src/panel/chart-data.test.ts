/**
 * The panel chart's merge of the upstream's price history with the local one (chart-data.ts):
 * local points fill only the part of the interval the upstream does not reach, a binary
 * market's second outcome is 1 - p, the dashed part meets the line, and a short gap is left alone.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CHART_INTERVALS, type ChartInterval } from '../../../src/contract/enums.ts';
import { alignHistories, mergeLocalHistory, addLivePoint, appendLive, chartCoverage } from './chart-data.ts';

const DAY = 86_400;
const to = 100 * DAY;
const from = to - 7 * DAY;
const up = (t0: number) => [
  {
    name: 'Yes',
    history: [
      { t: t0, p: 0.6 },
      { t: to, p: 0.65 },
    ],
  },
  {
    name: 'No',
    history: [
      { t: t0, p: 0.4 },
      { t: to, p: 0.35 },
    ],
  },
];

describe('mergeLocalHistory', () => {
  it('fills before a late upstream start from local history, seeded at the interval start', () => {
    const start = to - 2 * DAY;
    const local = [
      { t: from - DAY, price: 0.3 },
      { t: from + DAY, price: 0.5 },
      { t: start - 10, price: 0.58 },
      // After the upstream start: the upstream's own points count there.
      { t: start + 10, price: 0.99 },
    ];
    const m = mergeLocalHistory(up(start), local, from, to);
    expect(m.localBefore).toBe(start);
    expect(m.localOnly).toBe(false);
    expect(m.dashed).toEqual([false, false, true, true]);
    expect(m.series[2]).toEqual({
      name: 'Yes · local',
      history: [
        { t: from, p: 0.3 },
        { t: from + DAY, p: 0.5 },
        { t: start - 10, p: 0.58 },
        { t: start, p: 0.6 },
      ],
    });
    expect(m.series[3]!.history.map((h) => h.p)).toEqual([0.7, 0.5, 0.42, 0.4]);
    // The aligned data keeps one x array for all four series.
    const [xs, ...ys] = alignHistories(m.series);
    expect(ys).toHaveLength(4);
    expect(xs[0]).toBe(from);
  });

  it('leaves a chart alone when the upstream covers the interval, or the gap is small', () => {
    const local = [{ t: from - DAY, price: 0.3 }];
    expect(mergeLocalHistory(up(from + 60), local, from, to)).toMatchObject({ localBefore: null, dashed: [false, false] });
    expect(mergeLocalHistory(up(from + 3 * 3600), local, from, to).localBefore).toBeNull();
    expect(mergeLocalHistory(up(from + 12 * 3600), local, from, to).localBefore).toBe(from + 12 * 3600);
  });

  it('charts local history alone when the upstream has none, and only the first outcome of a multi-outcome market', () => {
    const empty = [
      { name: 'A', history: [] },
      { name: 'B', history: [] },
      { name: 'C', history: [] },
    ];
    const m = mergeLocalHistory(
      empty,
      [
        { t: from + DAY, price: 0.2 },
        { t: from + 2 * DAY, price: 0.25 },
      ],
      from,
      to,
    );
    expect(m).toMatchObject({ localOnly: true, localBefore: null, dashed: [false, false, false, true] });
    expect(m.series[3]).toEqual({
      name: 'A · local',
      history: [
        { t: from + DAY, p: 0.2 },
        { t: from + 2 * DAY, p: 0.25 },
      ],
    });
  });

  it("takes all of the local history older than the upstream's for 'all'", () => {
    const start = to - 2 * DAY;
    const m = mergeLocalHistory(
      up(start),
      [
        { t: 5 * DAY, price: 0.1 },
        { t: start - 7200, price: 0.2 },
      ],
      null,
      to,
    );
    expect(m.series[2]!.history.map((h) => h.t)).toEqual([5 * DAY, start - 7200, start]);
    expect(mergeLocalHistory(up(start), [{ t: start - 600, price: 0.2 }], null, to).localBefore).toBeNull();
  });
});

describe('live points on the chart', () => {
  const series = [
    { name: 'Yes', history: [{ t: 100, p: 0.4 }] },
    {
      name: 'No',
      history: [
        { t: 100, p: 0.6 },
        { t: 105, p: 0.61 },
      ],
    },
    { name: 'Yes (local)', history: [{ t: 50, p: 0.3 }] },
  ];
  it("append after each series' own last point, never to the local ones", () => {
    const points = [
      { t: 103, prices: [0.41, 0.59] },
      { t: 106, prices: [0.42, null] },
    ];
    const out = appendLive(series, 2, points);
    expect(out[0]!.history).toEqual([
      { t: 100, p: 0.4 },
      { t: 103, p: 0.41 },
      { t: 106, p: 0.42 },
    ]);
    expect(out[1]!.history).toEqual(series[1]!.history);
    expect(out[2]).toBe(series[2]);
  });
  it('keep one point per second, the newest, and never go back in time', () => {
    let pts = addLivePoint([], { t: 10, prices: [0.1] });
    pts = addLivePoint(pts, { t: 10, prices: [0.2] });
    pts = addLivePoint(pts, { t: 11, prices: [0.3] });
    pts = addLivePoint(pts, { t: 9, prices: [0.9] });
    expect(pts).toEqual([
      { t: 10, prices: [0.2] },
      { t: 11, prices: [0.3] },
    ]);
    expect(addLivePoint(pts, { t: 12, prices: [0.4] }, 2).map((p) => p.t)).toEqual([11, 12]);
  });
});

/**
 * chartCoverage against a model that reads the generated points directly (not the aligned
 * arrays): the range is the earliest and latest point of any outcome, the last price the first
 * outcome's latest point, lagging when that end is older than the interval's allowance (a 24th of
 * the span, at least 10 minutes; 2 days for ALL), and a gap of half a cent or more is reported.
 */
describe('chartCoverage (the range and last point a chart is labelled with)', () => {
  const SPAN: Record<ChartInterval, number | null> = { '1h': 3600, '6h': 21_600, '1d': 86_400, '1w': 604_800, '1m': 2_592_000, all: null };
  const point = fc.record({ t: fc.integer({ min: 1_000_000, max: 1_100_000 }), cents: fc.integer({ min: 0, max: 10_000 }) });
  it('labels the range really drawn and the age of the last point, and flags a price gap', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(point, { maxLength: 6 }), { minLength: 1, maxLength: 3 }),
        fc.constantFrom(...CHART_INTERVALS),
        fc.integer({ min: 0, max: 300_000 }),
        fc.option(fc.integer({ min: 0, max: 10_000 }), { nil: undefined }),
        (outcomes, interval, after, priceCents) => {
          // One point per time in each outcome (the upstream's shape); prices in hundredths of a cent.
          const series = outcomes.map((pts, i) => ({
            name: `O${i}`,
            history: [...new Map(pts.map((p) => [p.t, p])).values()]
              .sort((a, b) => a.t - b.t)
              .map((p) => ({ t: p.t, p: p.cents / 10_000 })),
          }));
          const all = series.flatMap((o) => o.history.map((h) => h.t));
          const now = (all.length ? Math.max(...all) : 1_000_000) + after;
          const price = priceCents === undefined ? undefined : priceCents / 10_000;
          const got = chartCoverage(alignHistories(series), interval, now, price);
          if (all.length === 0) {
            expect(got).toBeUndefined();
            return;
          }
          const to = Math.max(...all);
          const span = SPAN[interval];
          const allowance = span === null ? 172_800 : Math.max(span / 24, 600);
          const last = series[0]!.history.at(-1);
          const gapCents = last && priceCents !== undefined ? priceCents - Math.round(last.p * 10_000) : undefined;
          expect(got).toEqual({
            from: Math.min(...all),
            to,
            lastAgeS: now - to,
            lagging: now - to > allowance,
            lastPrice: last && { t: last.t, p: last.p },
            priceGap: gapCents !== undefined && Math.abs(gapCents) >= 50 ? gapCents / 10_000 : undefined,
          });
        },
      ),
      { numRuns: 500 },
    );
  });
});
