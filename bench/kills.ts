/**
 * `npm run bench -- --only kills [--size 10k|100k|...] [--n KILLS]`: crash safety under 50 and more
 * kill -9s at random points (src/testing/crash-harness.ts, as crash-safety.test.ts does 10 times).
 *
 * A cache of the bench's size (capped: every kill is followed by a reopen and a full
 * integrity_check) is bulk-loaded once; then the modes take turns until each was killed a
 * quarter of the times: batches into it (an incremental sync's writes), a bulk load into an empty
 * cache, a VACUUM after deleting batches, and the upgrade of a cache an older build wrote. After
 * every kill it must open, pass integrity_check, have the whole schema and hold every committed
 * batch; nothing may be left beside it, the WAL no longer than one transaction's worth.
 *
 * The kill points come from a seed (printed, and kept in the results): `MARKETDESK_SEED=<seed>`
 * draws the same ones again (src/testing/seed.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { KILL_MODES, KillRig, type KillMode, type KillOutcome } from '../src/testing/crash-harness.ts';
import { testSeed } from '../src/testing/seed.ts';
import { percentile, table } from './lib.ts';

/** Markets in the killed cache at most: 20k makes a ~100 MB file, whose VACUUM and upgrade take seconds. */
const MAX_MARKETS = 20_000;
const BATCH = 500;

export async function benchKills(markets: number, kills: number): Promise<{ results: Record<string, unknown>; report: string[] }> {
  const size = Math.min(markets, MAX_MARKETS);
  const seedBatches = Math.max(4, Math.round(size / BATCH));
  const root = mkdtempSync(path.join(os.tmpdir(), 'marketdesk-bench-kills-'));
  const { seed, rng, replay } = testSeed('kills', (line) => process.stderr.write(`${line}\n`));
  const t0 = performance.now();
  const outcomes: KillOutcome[] = [];
  let phaseMs: Record<string, number> = {};
  try {
    const rig = new KillRig(
      root,
      { batch: BATCH, syncBatches: 4, bulkBatches: Math.max(4, Math.round(seedBatches / 4)), vacuumBatches: 2 },
      rng,
    );
    await rig.seed(seedBatches);
    const perMode = Math.ceil(kills / KILL_MODES.length);
    const killed = (m: KillMode) => outcomes.filter((o) => o.mode === m && o.run.killed).length;
    for (let i = 0; KILL_MODES.some((m) => killed(m) < perMode); i++) {
      if (i > kills * 4) throw new Error(`the kills do not land: most runs ended by themselves; ${replay}`);
      const mode = KILL_MODES[i % KILL_MODES.length]!;
      if (killed(mode) >= perMode) continue;
      const o = await rig.kill(mode);
      outcomes.push(o);
      const c = o.check;
      process.stderr.write(
        `kills: ${mode} ${o.run.killed ? `killed after "${o.run.after}"${o.run.inside ? ' (inside)' : ''}` : 'ended'}; ` +
          `reopen ${c.reopenMs.toFixed(0)} ms, ${c.markets} markets, WAL ${(c.walBytes / 2 ** 20).toFixed(1)} MiB` +
          `${c.problems.length ? `; FAILED: ${c.problems.join('; ')}` : ''}\n`,
      );
    }
    phaseMs = rig.phaseMs;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  const seconds = (performance.now() - t0) / 1000;
  const r1 = (x: number) => Math.round(x * 10) / 10;
  const phaseOf: Record<KillMode, [name: string, line: string]> = {
    sync: ['-', ''],
    bulk: ['index rebuild', 'indexing'],
    vacuum: ['VACUUM', 'vacuuming'],
    upgrade: ['upgrade at open', 'upgrading'],
  };
  const phaseText = (m: KillMode) => `${phaseOf[m][0]}; aimed over 0-${Math.round(phaseMs[phaseOf[m][1]] ?? 0)} ms`;
  const rows = KILL_MODES.map((mode) => {
    const mine = outcomes.filter((o) => o.mode === mode);
    const k = mine.filter((o) => o.run.killed);
    const reopen = k.map((o) => o.check.reopenMs).sort((a, b) => a - b);
    return {
      mode,
      runs: mine.length,
      kills: k.length,
      insidePhase: k.filter((o) => o.run.inside).length,
      failures: mine.filter((o) => o.check.problems.length > 0).length,
      reopenP50Ms: r1(percentile(reopen, 50)),
      reopenP95Ms: r1(percentile(reopen, 95)),
      maxWalMiB: r1(Math.max(...k.map((o) => o.check.walBytes)) / 2 ** 20),
      maxFileMiB: r1(Math.max(...k.map((o) => o.check.fileBytes)) / 2 ** 20),
      leftovers: mine.reduce((n, o) => n + o.check.leftovers.length, 0),
      ...(mode === 'sync' ? {} : { phaseMs: Math.round(phaseMs[phaseOf[mode][1]] ?? 0) }),
    };
  });
  const total = rows.reduce((n, r) => n + r.kills, 0);
  const failures = outcomes.filter((o) => o.check.problems.length > 0);
  return {
    results: {
      markets: size,
      batch: BATCH,
      kills: total,
      seed,
      failures: failures.length,
      seconds: r1(seconds),
      modes: rows,
      problems: failures.slice(0, 10).map((o) => ({ mode: o.mode, after: o.run.after, problems: o.check.problems })),
    },
    report: [
      `### kill -9 at random points: ${total} kills on a ${size.toLocaleString('en')}-market cache ` +
        `(batches of ${BATCH}; ${r1(seconds)} s; ${replay}; failures must be 0)`,
      table(
        [
          'mode',
          'runs',
          'kills',
          'inside the phase',
          'failures',
          'reopen p50 (ms)',
          'reopen p95 (ms)',
          'largest WAL left (MiB)',
          'file (MiB)',
          'leftover files',
        ],
        rows.map((r) => [
          r.mode === 'sync' ? 'sync: batches into the cache' : r.mode === 'bulk' ? 'bulk load into an empty cache' : r.mode,
          r.runs,
          r.kills,
          r.mode === 'sync' ? '-' : `${r.insidePhase} (${phaseText(r.mode)})`,
          r.failures,
          r.reopenP50Ms,
          r.reopenP95Ms,
          r.maxWalMiB,
          r.maxFileMiB,
          r.leftovers,
        ]),
      ),
      ...(failures.length
        ? [
            `**${failures.length} failed:**`,
            ...failures.slice(0, 10).map((o) => `- ${o.mode} after "${o.run.after}": ${o.check.problems.join('; ')}`),
          ]
        : []),
    ],
  };
}
