/**
 * `serve --allow-origin URL` as a user runs it (the built CLI, ephemeral ports).
 */
import { describe, expect, it } from 'vitest';
import { tempDir } from '../testing/fixtures.ts';
import { cleanupAfterEach, runCli, type CliRun } from '../testing/cli-run.ts';

const cleanup = cleanupAfterEach();

/** `serve --offline` on free ports and a fresh data dir, plus `args`. */
function serve(args: string[]): CliRun {
  const data = tempDir();
  cleanup(data.cleanup);
  return runCli(['serve', '--offline', '--data-dir', data.dir, '--base-port', '0', '--clob-port', '0', ...args], { cleanup });
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
    expect((await run.exited).code).toBe(2);
    expect(run.out()).toMatch(/--allow-origin: not an origin .*"http:\/\/localhost:5173\/app"/);
    expect(run.out()).toMatch(/usage: npm run serve .*\[--allow-origin URL\]/);
  });
});
