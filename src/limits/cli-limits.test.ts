/**
 * `serve --limits FILE` and `--no-limits` as a user runs them (child processes, ephemeral ports).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../testing/fixtures.ts';
import { CLI_ENTRY } from '../testing/built-cli.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

function tmp(): string {
  const t = tempDir();
  cleanups.push(t.cleanup);
  return t.dir;
}

function serve(args: string[]): {
  child: ChildProcess;
  out: () => string;
  line: (re: RegExp) => Promise<RegExpMatchArray>;
  exited: Promise<number | null>;
} {
  const child = spawn(
    process.execPath,
    [CLI_ENTRY, 'serve', '--offline', '--data-dir', tmp(), '--base-port', '0', '--clob-port', '0', ...args],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  const waiters: (() => void)[] = [];
  const onData = (d: Buffer) => {
    out += d.toString();
    for (const w of waiters.splice(0)) w();
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
  });
  const line = (re: RegExp) =>
    new Promise<RegExpMatchArray>((resolve, reject) => {
      const check = () => {
        const m = out.match(re);
        if (m) resolve(m);
        else if (child.exitCode !== null) reject(new Error(`exited before ${re}: ${out}`));
        else waiters.push(check);
      };
      void exited.then(() => check());
      check();
    });
  return { child, out: () => out, line, exited };
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
    expect(await run.exited).toBe(2);
    expect(run.out()).toMatch(/--limits: limits table: windows\.0\.limit/);
    expect(run.out()).toMatch(/usage: npm run serve/);
  });
});
