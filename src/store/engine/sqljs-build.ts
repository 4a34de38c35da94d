/**
 * The one sql.js build the disk layer knows: its version, the minified names and arities of the
 * file calls its wasm module imports, and the check that the installed build has them. Any
 * other build is refused by findFileImports with buildMismatch's message (load-sqljs.ts then
 * serves from memory only).
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/** The sql.js build whose import names IMPORTS are; package.json pins sql.js to exactly this. */
export const SQLJS_BUILD = '1.16.0';

/** The imports of that build (module `a`), by minified name: what each is and its arity in the glue. */
export const IMPORTS = {
  open: ['x', '__syscall_openat', 4],
  seek: ['E', 'fd_seek', 4],
  write: ['q', 'fd_write', 4],
  read: ['t', 'fd_read', 4],
  close: ['e', 'fd_close', 1],
  sync: ['K', 'fd_sync', 1],
  fstat: ['g', '__syscall_fstat64', 2],
  ftruncate: ['J', '__syscall_ftruncate64', 2],
  fcntl: ['b', '__syscall_fcntl64', 3],
  fchown: ['h', '__syscall_fchown32', 1],
  fchmod: ['j', '__syscall_fchmod', 2],
  fdstat: ['m', 'fd_fdstat_get', 2],
  unlink: ['o', '__syscall_unlinkat', 3],
  access: ['D', '__syscall_faccessat', 3],
  stat: ['N', '__syscall_stat64', 2],
  lstat: ['M', '__syscall_lstat64', 2],
  fstatat: ['L', '__syscall_newfstatat', 4],
} as const;
export type ImportKey = keyof typeof IMPORTS;
export type Fn = (...args: never[]) => unknown;

/** The version of the sql.js package that is installed (undefined if it cannot be read). */
export function installedSqlJsVersion(): string | undefined {
  try {
    // Its exports map hides package.json; the wasm file sits in dist/ beside it.
    const wasm = createRequire(import.meta.url).resolve('sql.js/dist/sql-wasm.wasm');
    return (JSON.parse(fs.readFileSync(path.join(path.dirname(wasm), '..', 'package.json'), 'utf8')) as { version?: string }).version;
  } catch {
    return undefined;
  }
}

/** The message for a build these names do not fit: what is expected, what is installed, what was found. */
export function buildMismatch(installed: string | undefined, found: string): string {
  return (
    `sql.js build mismatch: src/store/engine/sqljs-build.ts expects the file imports of sql.js ${SQLJS_BUILD}, ` +
    `but sql.js ${installed ?? '(version unreadable)'} is installed and ${found}. ` +
    `The cache is kept in memory only and not saved; pin sql.js to ${SQLJS_BUILD} or update IMPORTS.`
  );
}

/** The file calls in a module's import object, by the pinned build's names; or what was found instead. */
export function findFileImports(
  imports: Record<string, Record<string, unknown> | undefined>,
  installed: string | undefined,
): { fns: Record<ImportKey, Fn> } | { problem: string } {
  const mod = imports['a'];
  if (!mod)
    return {
      problem: buildMismatch(installed, `its wasm imports have no module "a" (found: ${Object.keys(imports).join(', ') || 'none'})`),
    };
  const wrong: string[] = [];
  const fns: Partial<Record<ImportKey, Fn>> = {};
  for (const key of Object.keys(IMPORTS) as ImportKey[]) {
    const [min, is, arity] = IMPORTS[key];
    const f = mod[min];
    const name = `a.${min} (${is})`;
    if (typeof f !== 'function') wrong.push(`${name} is ${f === undefined ? 'missing' : `a ${typeof f}`}`);
    else if (f.length !== arity) wrong.push(`${name} takes ${f.length} arguments, not ${arity}`);
    else fns[key] = f as Fn;
  }
  if (wrong.length) return { problem: buildMismatch(installed, wrong.join('; ')) };
  return { fns: fns as Record<ImportKey, Fn> };
}
