/**
 * `serve --allow-origin URL` as a user runs it (the built CLI, ephemeral ports).
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../testing/fixtures.ts';
import { CLI_ENTRY } from '../testing/built-cli.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

function serve(args: string[]) {
  const data = tempDir();
  cleanups.push(data.cleanup);
  const child = spawn(
    process.execPath,
    [CLI_ENTRY, 'serve', '--offline', '--data-dir', data.dir, '--base-port', '0', '--clob-port', '0', ...args],
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
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
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
  return { out: () => out, line, exited };
}

describe('serve --allow-origin', () => {
  it('lets the given origins call the faces from a browser, and no other', async () => {
    const run = serve(['--allow-origin', 'http://localhost:5173', '--allow-origin', 'https://Tools.Example/']);
    const base = (await run.line(/base: (http:\/\/\S+)/))[1]!;
    // Printed after the URLs, from the same write sequence: waited for, not assumed.
    expect((await run.line(/pages allowed to call the API: .*/))[0]).toBe(
      'pages allowed to call the API: http://localhost:5173, https://tools.example',
    );
    const allowed = await fetch(`${base}/status`, { headers: { origin: 'https://tools.example' } });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://tools.example');
    const other = await fetch(`${base}/status`, { headers: { origin: 'https://evil.example' } });
    expect(other.status).toBe(403);
    expect(await other.json()).toEqual({ type: 'forbidden', error: 'cross-site request refused' });
  });

  it('refuses a URL with a path with the usage line and exit code 2', async () => {
    const run = serve(['--allow-origin', 'http://localhost:5173/app']);
    expect(await run.exited).toBe(2);
    expect(run.out()).toMatch(/--allow-origin: not an origin .*"http:\/\/localhost:5173\/app"/);
    expect(run.out()).toMatch(/usage: npm run serve .*\[--allow-origin URL\]/);
  });
});
