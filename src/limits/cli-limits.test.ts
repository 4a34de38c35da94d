/**
 * `serve --limits FILE` and `--no-limits` as a user runs them (child processes, ephemeral ports).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../testing/fixtures.ts';
import { cleanupAfterEach, runCli, type CliRun } from '../testing/cli-run.ts';

const cleanup = cleanupAfterEach();

function tmp(): string {
  const t = tempDir();
  cleanup(t.cleanup);
  return t.dir;
}

/** `serve --offline` on free ports and a fresh data dir, plus `args`. */
function serve(args: string[]): CliRun {
  return runCli(['serve', '--offline', '--data-dir', tmp(), '--base-port', '0', '--clob-port', '0', ...args], { cleanup });
}

async function statuses(url: string, n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const r = await fetch(url);
    await r.arrayBuffer();
    out.push(r.status);
  }
  return out;
}

describe('serve: rate-limit flags', () => {
  it('--limits FILE replaces the table (and the limiter is on without --no-limits)', async () => {
    const file = path.join(tmp(), 'limits.json');
    writeFileSync(file, JSON.stringify({ windows: [{ name: 'markets', limit: 2, seconds: 60, routes: ['GET /markets'] }] }));
    const run = serve(['--limits', file]);
    const base = (await run.line(/base: (http:\/\/\S+)/))[1]!;
    expect(await statuses(`${base}/markets`, 3)).toEqual([200, 200, 429]);
    const r = await fetch(`${base}/markets`);
    expect(r.headers.get('retry-after')).toBe('60');
    expect(r.headers.get('ratelimit-policy')).toBe('"markets";q=2;w=60');
    expect(run.out()).not.toMatch(/--no-limits/);
  });

  it('--no-limits turns the inbound limiter off and says so at start', async () => {
    const run = serve(['--no-limits']);
    const base = (await run.line(/base: (http:\/\/\S+)/))[1]!;
    await run.line(/inbound rate limits are off \(--no-limits\)/);
    const all = await statuses(`${base}/markets?limit=1`, 310);
    expect(all.filter((s) => s !== 200)).toEqual([]);
  });

  it('a bad --limits file is a usage error naming the problem', async () => {
    const file = path.join(tmp(), 'bad.json');
    writeFileSync(file, JSON.stringify({ windows: [{ name: 'm', limit: -1, seconds: 10, routes: ['GET /markets'] }] }));
    const run = serve(['--limits', file]);
    expect((await run.exited).code).toBe(2);
    expect(run.out()).toMatch(/--limits: limits table: windows\.0\.limit/);
    expect(run.out()).toMatch(/usage: npm run serve/);
  });
});
