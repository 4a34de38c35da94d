/**
 * Crash safety by construction: a child process writes numbered batches into the cache and is
 * killed with SIGKILL at random points (while opening and recovering, mid-batch, during the bulk
 * load's index rebuild, while closing). After each kill the file must open, pass
 * `PRAGMA integrity_check`, and hold every batch whose COMMIT had returned; nothing may pile up
 * beside it. Where the sqlite3 command-line tool is installed, it checks a copy of the crashed
 * file first, independently of sql.js.
 */
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../testing/fixtures.ts';
import { CACHE_FILE, CatalogStore } from './catalog-store.ts';

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

const KILLS = 10;
const BATCH = 200;
const hasSqlite3 = spawnSync('sqlite3', ['-version']).status === 0;

interface ChildRun {
  committed: number[];
  killed: boolean;
  lines: string[];
}

/**
 * Runs the child from batch `first`; kills it once it has printed `after` (a line) and then a
 * random 0-30 ms more, or lets it finish when that line never comes.
 */
function runChild(dir: string, first: number, batches: number, after: string): Promise<ChildRun> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/store/crash-child.ts', dir, String(first), String(batches), String(BATCH)],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const run: ChildRun = { committed: [], killed: false, lines: [] };
  let buffered = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    buffered += chunk;
    for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      run.lines.push(line);
      const m = /^committed (\d+)$/.exec(line);
      if (m) run.committed.push(Number(m[1]));
      if (line === after)
        setTimeout(() => {
          run.killed = child.kill('SIGKILL');
        }, Math.random() * 30);
    }
  });
  return new Promise((resolve) => child.on('exit', () => resolve(run)));
}

/** The sqlite3 tool's integrity_check of a copy of the crashed file and its journal (it recovers the copy, not ours). */
function nativeCheck(dir: string): string {
  const copy = path.join(dir, 'native-check');
  mkdirSync(copy, { recursive: true });
  for (const f of readdirSync(dir).filter((n) => n.startsWith(CACHE_FILE))) copyFileSync(path.join(dir, f), path.join(copy, f));
  const r = spawnSync('sqlite3', [path.join(copy, CACHE_FILE), 'PRAGMA integrity_check'], { encoding: 'utf8' });
  spawnSync('rm', ['-rf', copy]);
  return (r.stdout + r.stderr).trim();
}

describe('kill -9 at random points', () => {
  it(`${KILLS} kills: the cache opens, passes integrity_check and holds every committed batch; nothing piles up`, async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const dir = t.dir;
    const committed = new Set<number>();
    let next = 0;
    let kills = 0;
    let runs = 0;
    while (kills < KILLS) {
      runs++;
      expect(runs, 'the kills should land within 40 runs').toBeLessThan(40);
      // Where to kill: while opening (recovering the last crash), after a random batch, or after the bulk load's index rebuild.
      const batches = 8;
      const r = Math.floor(Math.random() * (batches + 2)) - 1;
      const after = r < 0 ? 'open' : r >= batches ? 'indexed' : `committed ${next + r}`;
      const run = await runChild(dir, next, batches, after);
      for (const n of run.committed) committed.add(n);
      next += batches;
      if (run.killed) kills++;
      else expect(run.lines.at(-1), `the child ended without being killed: ${run.lines.join(' | ')}`).toBe('closed');

      // Only the cache, its journal and the dead child's lock: no copies, no temp files.
      expect(readdirSync(dir).filter((n) => !/^catalog\.sqlite(-wal|-journal|\.lock)?$/.test(n))).toEqual([]);
      if (hasSqlite3) expect(nativeCheck(dir)).toBe('ok');
      const store = await CatalogStore.open({ dataDir: dir });
      try {
        expect(store.movedAside).toBeUndefined();
        expect(store.statements.value('PRAGMA integrity_check')).toBe('ok');
        for (const n of committed) {
          const have = store.statements.value('SELECT count(*) FROM markets WHERE id BETWEEN ? AND ?', [
            n * 10_000,
            n * 10_000 + BATCH - 1,
          ]);
          expect(have, `batch ${n} was committed before the kill`).toBe(BATCH);
        }
        // Every batch is whole or absent (one killed between its COMMIT and its line may be whole).
        const sizes = store.statements.all('SELECT id / 10000, count(*) FROM markets GROUP BY 1').map((row) => row[1]);
        expect(sizes.filter((c) => c !== BATCH)).toEqual([]);
      } finally {
        await store.close();
      }
      expect(readdirSync(dir)).toEqual([CACHE_FILE]);
    }
    expect(committed.size).toBeGreaterThan(0);
  });
});
