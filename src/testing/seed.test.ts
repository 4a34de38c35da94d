import { afterEach, describe, expect, it } from 'vitest';
import { mulberry32 } from '../fake-upstream/prng.ts';
import { SEED_ENV, testSeed } from './seed.ts';

const saved = process.env[SEED_ENV];
afterEach(() => {
  if (saved === undefined) delete process.env[SEED_ENV];
  else process.env[SEED_ENV] = saved;
});

describe('testSeed', () => {
  it('replays the seed MARKETDESK_SEED names, and prints how', () => {
    process.env[SEED_ENV] = '123456';
    const lines: string[] = [];
    const { seed, rng, replay } = testSeed('kills', (l) => lines.push(l));
    expect(seed).toBe(123456);
    expect(replay).toBe('seed 123456 (replay: MARKETDESK_SEED=123456)');
    expect(lines).toEqual(['kills: seed 123456 (replay: MARKETDESK_SEED=123456)']);
    const again = mulberry32(123456);
    expect(Array.from({ length: 5 }, rng)).toEqual(Array.from({ length: 5 }, again));
  });

  it('draws a fresh seed without it, and the printed seed replays the same draws', () => {
    delete process.env[SEED_ENV];
    const lines: string[] = [];
    const first = testSeed('t', (l) => lines.push(l));
    expect(lines).toEqual([`t: ${first.replay}`]);
    const draws = Array.from({ length: 5 }, first.rng);
    process.env[SEED_ENV] = /MARKETDESK_SEED=(\d+)/.exec(lines[0]!)![1];
    const replayed = testSeed('t', () => {});
    expect(replayed.seed).toBe(first.seed);
    expect(Array.from({ length: 5 }, replayed.rng)).toEqual(draws);
  });

  it('refuses a value that is not a 32-bit seed', () => {
    for (const bad of ['x', '-1', '1.5', String(2 ** 32)]) {
      process.env[SEED_ENV] = bad;
      expect(() => testSeed('t', () => {}), bad).toThrow(`${SEED_ENV}=${bad}`);
    }
  });
});
