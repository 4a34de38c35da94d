/**
 * Runs scripts/ensure-electron.mjs in a child process against a throwaway copy of the electron
 * package, so the result does not depend on whether this machine has the binary, and the
 * download is forced to fail fast (mirror on a closed port, empty cache).
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const repo = resolve(import.meta.dirname, '..');
const realNodeModules = join(repo, 'node_modules');
const realElectron = join(realNodeModules, 'electron');
const version = (
  JSON.parse(readFileSync(join(realElectron, 'package.json'), 'utf8')) as {
    version: string;
  }
).version;
const executable =
  process.platform === 'darwin' ? 'Electron.app/Contents/MacOS/Electron' : process.platform === 'win32' ? 'electron.exe' : 'electron';

const MESSAGE = new RegExp(
  String.raw`^marketdesk: the Electron binary could not be downloaded \((.+)\)\. ` +
    String.raw`Run "npm run serve" for the headless service and web UI at http://127\.0\.0\.1:7310/app/$`,
);

let work: string;
let electronDir: string;

beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), 'marketdesk-ensure-electron-'));
  // A project skeleton: the script, and an electron package without any binary.
  mkdirSync(join(work, 'scripts'));
  copyFileSync(join(repo, 'scripts/ensure-electron.mjs'), join(work, 'scripts/ensure-electron.mjs'));
  electronDir = join(work, 'node_modules/electron');
  mkdirSync(electronDir, { recursive: true });
  for (const file of ['package.json', 'install.js', 'checksums.json', 'index.js']) {
    copyFileSync(join(realElectron, file), join(electronDir, file));
  }
  mkdirSync(join(work, 'cache'));
});

afterEach(() => {
  rmSync(work, { recursive: true, force: true });
});

function run(env: Record<string, string | undefined>) {
  const childEnv: NodeJS.ProcessEnv = { ...process.env };
  for (const key of Object.keys(childEnv)) {
    // Anything that could point the installer elsewhere or skip it comes from the test only.
    if (/^(ELECTRON_|electron_|npm_config_electron)/i.test(key) || key === 'force_no_cache') {
      delete childEnv[key];
    }
  }
  Object.assign(childEnv, {
    // The copied install.js finds @electron/get and extract-zip in the real node_modules.
    NODE_PATH: realNodeModules,
    ELECTRON_MIRROR: 'http://127.0.0.1:1/',
    electron_config_cache: join(work, 'cache'),
    ...env,
  });
  const result = spawnSync(process.execPath, [join(work, 'scripts/ensure-electron.mjs')], {
    cwd: work,
    env: childEnv,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function fakeBinary(dir: string): void {
  const file = join(dir, executable);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, '#!/bin/sh\n');
  chmodSync(file, 0o755);
}

describe('ensure-electron', () => {
  it('accepts ELECTRON_OVERRIDE_DIST_PATH when it holds the executable', () => {
    const dist = join(work, 'override');
    fakeBinary(dist);
    const r = run({ ELECTRON_OVERRIDE_DIST_PATH: dist });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });

  it('refuses an ELECTRON_OVERRIDE_DIST_PATH without the executable, in one line', () => {
    const r = run({ ELECTRON_OVERRIDE_DIST_PATH: join(work, 'empty') });
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n')).toHaveLength(2); // one line plus its newline
    expect(r.stderr).toMatch(/^marketdesk: ELECTRON_OVERRIDE_DIST_PATH is set but .+ does not exist\. Run "npm run serve"/);
  });

  it("accepts electron-vite's ELECTRON_EXEC_PATH when the file exists", () => {
    fakeBinary(join(work, 'elsewhere'));
    const r = run({ ELECTRON_EXEC_PATH: join(work, 'elsewhere', executable) });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });

  it('accepts an installed binary (path.txt + dist/) without downloading', () => {
    writeFileSync(join(electronDir, 'path.txt'), executable);
    fakeBinary(join(electronDir, 'dist'));
    writeFileSync(join(electronDir, 'dist/version'), version);
    const r = run({});
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('');
    expect(r.code).toBe(0);
  });

  it('with no binary and the download blocked, exits 1 with one clear line', () => {
    const r = run({});
    expect(r.code).toBe(1);
    const lines = r.stderr.split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe('');
    const match = MESSAGE.exec(lines[0] ?? '');
    expect(match, r.stderr).not.toBeNull();
    expect(match?.[1]).toMatch(/ECONNREFUSED/);
  });

  it('re-downloads when dist/ holds another electron version', () => {
    writeFileSync(join(electronDir, 'path.txt'), executable);
    fakeBinary(join(electronDir, 'dist'));
    writeFileSync(join(electronDir, 'dist/version'), '1.0.0');
    const r = run({});
    expect(r.code).toBe(1);
    expect(r.stderr.trimEnd()).toMatch(MESSAGE);
  });
});
