#!/usr/bin/env node
/**
 * Makes sure an Electron binary exists before `npm start` builds and launches the app.
 *
 * The project installs with `ignore-scripts=true` (.npmrc), so `npm ci` never runs electron's
 * postinstall download and works offline. This script does that download lazily, once per
 * `npm start`, with electron's own installer (node_modules/electron/install.js, which uses
 * @electron/get and honours ELECTRON_MIRROR, electron_config_cache, proxies, ...).
 *
 * As a command: exit 0 when a binary is usable (ELECTRON_OVERRIDE_DIST_PATH, or
 * node_modules/electron/path.txt plus dist/); exit 1 when it is not and could not be fetched,
 * with one line on stderr that says why and points to the headless service, which needs no
 * Electron. scripts/start.mjs imports `ensureElectron` for the path of the executable.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const SERVE_HINT = 'Run "npm run serve" for the headless service and web UI at http://127.0.0.1:7310/app/';

/** Upper bound on the installer; a blackholed network would otherwise hang `npm start`. */
const INSTALL_TIMEOUT_MS = Number(process.env.MARKETDESK_ELECTRON_INSTALL_TIMEOUT_MS) || 600_000;

/** Why no binary is usable; its message is the whole line `npm start` prints. */
export class ElectronUnavailableError extends Error {
  constructor(reason) {
    super(`marketdesk: ${reason}. ${SERVE_HINT}`);
    this.name = 'ElectronUnavailableError';
  }
}

function fail(reason) {
  throw new ElectronUnavailableError(reason);
}

/** Executable path inside dist/, as electron's install.js names it. */
function platformExecutable() {
  switch (process.env.npm_config_platform || process.platform) {
    case 'darwin':
    case 'mas':
      return 'Electron.app/Contents/MacOS/Electron';
    case 'win32':
      return 'electron.exe';
    default:
      return 'electron';
  }
}

function readText(file) {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return undefined;
  }
}

/** Same test electron's index.js and install.js make before using or skipping a download. */
function binaryUsable(electronDir, version) {
  const executable = readText(join(electronDir, 'path.txt'));
  if (!executable) return false;
  const distVersion = readText(join(electronDir, 'dist', 'version'));
  // A dist/ left from another electron version would launch the wrong runtime.
  if (distVersion !== undefined && distVersion.replace(/^v/, '') !== version) return false;
  return existsSync(join(electronDir, 'dist', executable));
}

/** First meaningful line of the installer's error output, e.g. "connect ECONNREFUSED 127.0.0.1:1". */
function shortReason(stderr) {
  const lines = stderr
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
  const line = lines.find((l) => /^([A-Za-z]*Error|Error)\b/.test(l)) ?? lines[0] ?? 'no output';
  const reason = line.replace(/^[A-Za-z]*Error:\s*/, '');
  return reason.length > 160 ? `${reason.slice(0, 157)}...` : reason;
}

function runInstaller(installJs) {
  return new Promise((resolve) => {
    const env = { ...process.env };
    // `npm start` needs the binary, so a global "skip the download" setting must not apply here.
    delete env.ELECTRON_SKIP_BINARY_DOWNLOAD;
    const child = spawn(process.execPath, [installJs], {
      cwd: dirname(installJs),
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk) => {
      if (stderr.length < 64_000) stderr += chunk;
    });
    const timer = setTimeout(() => {
      child.kill();
      resolve({ ok: false, reason: `timed out after ${Math.round(INSTALL_TIMEOUT_MS / 1000)} s` });
    }, INSTALL_TIMEOUT_MS);
    child.on('error', (err) => {
      clearTimeout(timer);
      resolve({ ok: false, reason: err.message });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve(code === 0 ? { ok: true } : { ok: false, reason: shortReason(stderr) });
    });
  });
}

/**
 * Returns the absolute path of a usable Electron executable, downloading it first if needed.
 * Throws ElectronUnavailableError when there is none.
 */
export async function ensureElectron() {
  const require = createRequire(import.meta.url);
  let electronDir;
  try {
    electronDir = dirname(require.resolve('electron/package.json'));
  } catch {
    fail('the electron package is not installed (run "npm ci")');
  }
  const { version } = JSON.parse(readFileSync(join(electronDir, 'package.json'), 'utf8'));

  // electron-vite's own variable for an executable somewhere else.
  const execPath = process.env.ELECTRON_EXEC_PATH;
  if (execPath) {
    if (existsSync(execPath)) return resolve(execPath);
    fail(`ELECTRON_EXEC_PATH is set but ${execPath} does not exist`);
  }

  const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  if (override) {
    // electron resolves the binary inside this directory, so a download would not help.
    const executable = join(override, readText(join(electronDir, 'path.txt')) || platformExecutable());
    if (existsSync(executable)) return resolve(executable);
    fail(`ELECTRON_OVERRIDE_DIST_PATH is set but ${executable} does not exist`);
  }

  if (binaryUsable(electronDir, version)) return installedExecutable(electronDir);

  process.stdout.write(`marketdesk: Electron ${version} is not installed yet; downloading it for ${process.platform}-${process.arch}...\n`);
  const result = await runInstaller(join(electronDir, 'install.js'));
  if (!result.ok) fail(`the Electron binary could not be downloaded (${result.reason})`);
  if (!binaryUsable(electronDir, version)) {
    fail('the Electron installer finished but no binary was found in node_modules/electron/dist');
  }
  return installedExecutable(electronDir);
}

function installedExecutable(electronDir) {
  return join(electronDir, 'dist', readText(join(electronDir, 'path.txt')) ?? platformExecutable());
}

// Run as a command (not imported): report through the exit code and one stderr line.
if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) {
  try {
    await ensureElectron();
  } catch (err) {
    process.stderr.write(`${err instanceof ElectronUnavailableError ? err.message : String(err)}\n`);
    process.exit(1);
  }
}
