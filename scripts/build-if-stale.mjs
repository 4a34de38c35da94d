#!/usr/bin/env node
/**
 * `npm run serve | sync | demo | fake-upstream` run built JavaScript (out/main/cli.js) and serve
 * the built renderer (out/renderer). Build them first when any output is missing or older than
 * its sources, so a fresh clone needs no separate build step and a warm start pays nothing.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outputs = [
  'out/main/cli.js',
  'out/main/index.js',
  'out/main/search-build-worker.js',
  'out/preload/index.cjs',
  'out/renderer/index.html',
].map((p) => path.join(root, p));
const sourceDirs = ['src', 'main', 'renderer'].map((p) => path.join(root, p));
const sourceFiles = ['electron.vite.config.ts', 'package.json'].map((p) => path.join(root, p));

/** Newest modification time below dir, tests left out (they are not built). */
function newest(dir) {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) t = Math.max(t, newest(p));
    else if (!/\.test\.tsx?$/.test(e.name)) t = Math.max(t, statSync(p).mtimeMs);
  }
  return t;
}

const srcTime = Math.max(...sourceDirs.map(newest), ...sourceFiles.map((f) => statSync(f).mtimeMs));
const built = outputs.every((f) => existsSync(f) && statSync(f).mtimeMs >= srcTime);
if (built) process.exit(0);

process.stderr.write('marketdesk: building (out/): the CLI, the desktop shell and the web UI...\n');
const r = spawnSync(process.execPath, [path.join(root, 'node_modules/electron-vite/bin/electron-vite.js'), 'build', '--logLevel', 'warn'], {
  cwd: root,
  stdio: 'inherit',
});
process.exit(r.status ?? 1);
