/**
 * `npm run bench -- --only cold`: the first answers after the OS's page cache was emptied, as
 * after a reboot: start to the first /markets answer, then the first search, a deep uncached
 * listing and a popular tag's page, each the first of its kind. Beside each, the same from a
 * warm page cache in the same run (the baseline). Dropping the cache needs root
 * (/proc/sys/vm/drop_caches); without it the cold rows are skipped and say so.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cliProcess, get, rssMiB, table, type Proc } from './lib.ts';

type Step = [name: string, path: string];

/** Empties the OS page cache; false when this machine does not let us. */
function dropPageCache(): boolean {
  try {
    execFileSync('sync');
    writeFileSync('/proc/sys/vm/drop_caches', '3');
    return true;
  } catch {
    return false;
  }
}

async function firstAnswers(cacheDir: string, steps: Step[], procs: Proc[]): Promise<{ ms: number[]; rss: number }> {
  const t0 = performance.now();
  const serve = cliProcess(['serve', '--offline', '--no-limits', '--data-dir', cacheDir, '--base-port', '0', '--clob-port', '0']);
  procs.push(serve);
  try {
    const base = (await serve.waitFor(/base: (http:\/\/\S+)/))[1]!;
    const ms: number[] = [];
    let at = t0;
    for (const [name, p] of steps) {
      const r = await get(`${base}${p}`);
      if (r.status !== 200) throw new Error(`${name}: ${r.status} ${r.body.slice(0, 200)}`);
      const now = performance.now();
      ms.push(now - at);
      at = now;
    }
    return { ms, rss: rssMiB(serve.child.pid!).rss };
  } finally {
    await serve.stop();
  }
}

export async function benchCold(
  cacheDir: string,
  markets: number,
  procs: Proc[],
): Promise<{ results: Record<string, unknown>; report: string[] }> {
  const deep = Math.floor(markets * 0.7);
  const steps: Step[] = [
    ['process start to the first /markets answer', '/markets?limit=20&closed=false&order=volume'],
    ['then: search, two words', '/public-search?q=bitcoin%20price'],
    [`then: markets at offset ${deep.toLocaleString('en')}, id order (uncached)`, `/markets?limit=50&offset=${deep}`],
    [
      'then: active=true&closed=false by 24h volume, page 3 (uncached)',
      '/markets?limit=50&offset=100&active=true&closed=false&order=volume24hr',
    ],
    ['then: events by 24h volume, page 2 (uncached)', '/events?limit=20&offset=20&closed=false&order=volume24hr'],
  ];
  // Warm first: it also proves the steps answer before the cache is dropped.
  await firstAnswers(cacheDir, steps, procs);
  const warm = await firstAnswers(cacheDir, steps, procs);
  const dropped = dropPageCache();
  const cold = dropped ? await firstAnswers(cacheDir, steps, procs) : undefined;
  const results = { dropped, coldMs: cold?.ms ?? null, warmMs: warm.ms, coldRssMiB: cold?.rss ?? null, warmRssMiB: warm.rss };
  const report = [
    dropped
      ? '### Cold page cache: each first answer after `echo 3 > /proc/sys/vm/drop_caches`, beside a warm page cache (ms)'
      : '### Cold page cache: skipped (cannot write /proc/sys/vm/drop_caches here: run the bench as root to measure it)',
    table(
      ['step (each its first time in a fresh process)', 'cold page cache', 'warm page cache'],
      steps.map(([name], i) => [name, cold ? cold.ms[i]!.toFixed(0) : 'skipped', warm.ms[i]!.toFixed(0)]),
    ),
  ];
  return { results, report };
}
