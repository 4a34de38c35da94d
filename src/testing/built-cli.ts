/**
 * The CLI as users run it: built JavaScript (out/main/cli.js, see scripts/build-if-stale.mjs),
 * never the TypeScript sources through a runner. Tests and the bench spawn this file.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { PACKAGE_ROOT } from '../package-root.ts';

export const CLI_ENTRY = path.join(PACKAGE_ROOT, 'out', 'main', 'cli.js');

/** Builds out/ when a source is newer (a no-op after `npm run build`); throws if the build fails. */
export function buildIfStale(): void {
  const r = spawnSync(process.execPath, [path.join(PACKAGE_ROOT, 'scripts', 'build-if-stale.mjs')], {
    cwd: PACKAGE_ROOT,
    stdio: 'inherit',
  });
  if (r.status !== 0) throw new Error(`build failed (exit ${r.status ?? r.signal})`);
}
