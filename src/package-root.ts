/**
 * The package's root folder (the one holding marketdesk's package.json), found by walking up
 * from this module. The same code runs from src/ under tsx, from the bundles in out/, and from
 * an Electron app archive, and each sits at a different depth below the root.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'marketdesk') return dir;
    if (dirname(dir) === dir) throw new Error(`marketdesk: no package.json above ${from}`);
  }
}

export const PACKAGE_ROOT: string = findRoot(dirname(fileURLToPath(import.meta.url)));
