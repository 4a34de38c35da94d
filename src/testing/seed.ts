/**
 * The seed of a test's (or the kill bench's) random choices: kill points, fault schedules. Every
 * such choice comes from one seeded generator (fake-upstream/prng.ts), never Math.random, and the
 * seed is printed, so a failure can be replayed:
 *
 *   MARKETDESK_SEED=123456 npx vitest run src/store/crash-safety.test.ts
 *
 * Without the variable each run draws a new seed (the kills keep landing in new places).
 */
import { randomInt } from 'node:crypto';
import { mulberry32, type Rng } from '../fake-upstream/prng.ts';

/** The one environment variable that replays a seed, for every test and bench that draws one. */
export const SEED_ENV = 'MARKETDESK_SEED';

export interface TestSeed {
  seed: number;
  rng: Rng;
  /** `seed 123456 (replay: MARKETDESK_SEED=123456)`: for assertion messages and reports. */
  replay: string;
}

/** The seed from MARKETDESK_SEED, or a fresh one; prints `<what>: seed N (replay: MARKETDESK_SEED=N)`. */
export function testSeed(what: string, print: (line: string) => void = (line) => console.log(line)): TestSeed {
  const raw = process.env[SEED_ENV]?.trim();
  let seed: number;
  if (raw) {
    seed = Number(raw);
    if (!Number.isInteger(seed) || seed < 0 || seed >= 2 ** 32) throw new Error(`${SEED_ENV}=${raw}: want an integer from 0 to 2^32 - 1`);
  } else seed = randomInt(2 ** 32);
  const replay = `seed ${seed} (replay: ${SEED_ENV}=${seed})`;
  print(`${what}: ${replay}`);
  return { seed, rng: mulberry32(seed), replay };
}
