#!/usr/bin/env node
/**
 * `npm run serve` serves the built renderer at /app/. Build it first when out/renderer is
 * missing or older than its sources, so a fresh clone needs no separate build step and a
 * warm start pays nothing.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const built = path.join(root, 'out/renderer/index.html');

function newest(dir) {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

const sources = [path.join(root, 'renderer'), path.join(root, 'src/contract')];
const srcTime = Math.max(...sources.map(newest), statSync(path.join(root, 'electron.vite.config.ts')).mtimeMs);
if (existsSync(built) && statSync(built).mtimeMs >= srcTime) process.exit(0);

process.stderr.write('marketdesk: building the web UI (out/renderer)...\n');
const r = spawnSync(process.execPath, [path.join(root, 'node_modules/electron-vite/bin/electron-vite.js'), 'build', '--logLevel', 'warn'], {
  cwd: root,
  stdio: 'inherit',
});
process.exit(r.status ?? 1);
