/**
 * The package's root folder (the one holding marketdesk's package.json), found by walking up
 * from this module. The same code runs from src/ under tsx, from the bundles in out/, and from
 * an Electron app archive, and each sits at a different depth below the root.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

interface PackageJson {
  name?: string;
  version: string;
}

function findRoot(from: string): { dir: string; pkg: PackageJson } {
  for (let dir = from; ; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as PackageJson;
      if (pkg.name === 'marketdesk') return { dir, pkg };
    }
    if (dirname(dir) === dir) throw new Error(`marketdesk: no package.json above ${from}`);
  }
}

const root = findRoot(dirname(fileURLToPath(import.meta.url)));
export const PACKAGE_ROOT: string = root.dir;
/** The version in package.json (what `/status` reports). */
export const PACKAGE_VERSION: string = root.pkg.version;
