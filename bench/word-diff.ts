/**
 * `npm run bench -- --only diff`: the rules diff (renderer/src/diff/word-diff.ts) on long texts,
 * in this process (no built CLI, no cache). A rules panel diffs on input, so a diff should take
 * well under a frame (16.7 ms).
 *
 * Each case is timed beside a same-run baseline: tokenizing both texts, the linear work any word
 * diff does before it compares anything. The cases: 300 paragraphs of rules (~12,000 tokens a
 * side) with a clause added and a word changed (the usual edit: D small, the common head and tail
 * cut off), and two unrelated texts of 6,000 words (past the edit bound: the whole-replacement fallback).
 */
import { tokenize, wordDiff } from '../renderer/src/diff/word-diff.ts';
import { percentile, table } from './lib.ts';

const WARMUP = 3;

const para = 'This market will resolve to "Yes" if the official source reports a value above the threshold by the deadline. ';
/** `runs`: timed runs (the fallback walks up to its edit bound: ~1 s a run on a shared machine). */
const CASES: { name: string; runs: number; before: string; after: string }[] = [
  {
    name: 'long rules (~12,000 tokens a side), a clause added and a word changed',
    runs: 200,
    before: para.repeat(300),
    after: `${para.repeat(120)}An added clause about delays, ties and revisions. ${para.repeat(180).replace('deadline', 'end date')}`,
  },
  {
    name: 'unrelated texts (6,000 words each): whole replacement',
    runs: 10,
    before: Array.from({ length: 6000 }, (_, i) => `a${i}`).join(' '),
    after: Array.from({ length: 6000 }, (_, i) => `b${i}`).join(','),
  },
];

const r2 = (x: number) => Math.round(x * 100) / 100;

function time(runs: number, fn: () => unknown): { p50: number; p95: number; max: number } {
  for (let i = 0; i < WARMUP; i++) fn();
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn();
    ms.push(performance.now() - t0);
  }
  ms.sort((a, b) => a - b);
  return { p50: r2(percentile(ms, 50)), p95: r2(percentile(ms, 95)), max: r2(ms[ms.length - 1]!) };
}

export function benchWordDiff(): { results: Record<string, unknown>; report: string[] } {
  const rows = CASES.map(({ name, runs, before, after }) => {
    const tokens = tokenize(before).length + tokenize(after).length;
    const parts = wordDiff(before, after).length;
    // Alternating would mix their caches; each is warmed up on its own instead.
    const baseline = time(runs, () => [tokenize(before), tokenize(after)]);
    const diff = time(runs, () => wordDiff(before, after));
    return { name, runs, tokens, parts, diff, baseline, ratioP50: r2(diff.p50 / Math.max(baseline.p50, 0.001)) };
  });
  return {
    results: { cases: rows },
    report: [
      `### Rules diff (word-diff.ts) after ${WARMUP} warm-up runs, ms (goal for the usual edit: p95 well under a frame, 16.7 ms)`,
      table(
        [
          'case',
          'runs',
          'tokens (both sides)',
          'parts',
          'diff p50',
          'diff p95',
          'diff max',
          'baseline: tokenize both, p50',
          'p95',
          'diff / baseline (p50)',
        ],
        rows.map((r) => [
          r.name,
          r.runs,
          r.tokens,
          r.parts,
          r.diff.p50,
          r.diff.p95,
          r.diff.max,
          r.baseline.p50,
          r.baseline.p95,
          r.ratioP50,
        ]),
      ),
    ],
  };
}
