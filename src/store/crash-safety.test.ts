/**
 * Crash safety by construction: a child process (crash-child.ts) writes into the cache and is
 * killed with SIGKILL at random points, the modes taking turns: batches into a populated cache
 * (an incremental sync's writes), a bulk load into an empty one (and its index rebuild), a
 * VACUUM, and the schema upgrade of a cache an older build wrote. After each kill the file must
 * open (finishing a cut-short upgrade), pass `PRAGMA integrity_check`, and hold every batch whose
 * COMMIT had returned; nothing may pile up beside it (crash-harness.ts checks). Where the sqlite3
 * command-line tool is installed, it checks a copy of the crashed file first, independently of
 * sql.js. `npm run bench -- --only kills` does the same 50 and more times on a larger cache.
 *
 * The kill points come from a seed, printed at the start and in every failure message:
 * `MARKETDESK_SEED=<seed> npx vitest run src/store/crash-safety.test.ts` draws the same ones again.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../testing/fixtures.ts';
import { testSeed } from '../testing/seed.ts';
import { KILL_MODES, KillRig, type KillMode } from '../testing/crash-harness.ts';

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

const KILLS = 10;

describe('kill -9 at random points', () => {
  it(`${KILLS} kills in sync, bulk load, vacuum, upgrade: the cache opens, passes integrity_check, keeps committed batches`, async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const { rng, replay } = testSeed('crash-safety kills');
    const rig = new KillRig(t.dir, { batch: 200, syncBatches: 4, bulkBatches: 6, vacuumBatches: 2 }, rng);
    await rig.seed(6);
    const killed: Record<KillMode, number> = { sync: 0, bulk: 0, vacuum: 0, upgrade: 0 };
    let kills = 0;
    for (let runs = 0; kills < KILLS; runs++) {
      expect(runs, `the kills should land within 40 runs; ${replay}`).toBeLessThan(40);
      // The mode killed least so far: each gets two or three kills.
      const mode = KILL_MODES.reduce((a, b) => (killed[b] < killed[a] ? b : a));
      const { run, check } = await rig.kill(mode);
      const what = `${mode}, ${run.killed ? `killed ${run.killDelayMs?.toFixed(1)} ms` : 'not killed'} after "${run.after}"; ${replay}`;
      expect(check.problems, `${what}: ${run.lines.join(' | ')}`).toEqual([]);
      // The populated cache stays populated (a bulk load killed early may leave an empty one).
      if (mode !== 'bulk') expect(check.markets, what).toBeGreaterThan(0);
      if (run.killed) {
        kills++;
        killed[mode]++;
      }
    }
    expect(Math.min(...Object.values(killed)), `${JSON.stringify(killed)}; ${replay}`).toBeGreaterThanOrEqual(2);
    expect(rig.committed.size, replay).toBeGreaterThan(0);
  });
});
