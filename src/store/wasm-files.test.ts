/**
 * wasm-files.ts reaches into one sql.js build by its minified import names: the installed build
 * must be the pinned one, and any other is refused with a message saying what was expected.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SQLJS_BUILD, findWasiImports, installedSqlJsVersion, loadSqlJsWithFileAccess } from './wasm-files.ts';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { dependencies: Record<string, string> };

// Stand-ins with the arities of the pinned build's imports.
const f1 = (_a: number) => 0;
const f4 = (_a: number, _b: number, _c: number, _d: number) => 0;
const pinned = () => ({ x: f4, E: f4, q: f4, t: f4, e: f1, a: f4 });

describe('the sql.js build', () => {
  it('package.json pins exactly the build wasm-files.ts knows, and that build is installed', () => {
    expect(
      pkg.dependencies['sql.js'],
      `package.json must pin sql.js to exactly ${SQLJS_BUILD} (wasm-files.ts's IMPORTS are that build's names)`,
    ).toBe(SQLJS_BUILD);
    expect(installedSqlJsVersion(), `node_modules holds another sql.js than the pinned ${SQLJS_BUILD}: run npm ci`).toBe(SQLJS_BUILD);
  });

  it('gives the store its file access (no fallback to export())', async () => {
    const { access, problem } = await loadSqlJsWithFileAccess();
    // The message, if any, says what was expected and found.
    expect(problem).toBeUndefined();
    expect(access).toBeDefined();
  });
});

describe('another build', () => {
  it('the pinned names are found', () => {
    const r = findWasiImports({ a: pinned() }, SQLJS_BUILD);
    expect('fns' in r && Object.keys(r.fns).sort()).toEqual(['close', 'open', 'read', 'seek', 'write']);
  });

  it('renamed imports are refused, naming the expected build, the installed one and what is off', () => {
    const { E: _seek, ...renamed } = { ...pinned(), F: f4 };
    const r = findWasiImports({ a: renamed }, '1.17.0');
    expect('problem' in r && r.problem).toBe(
      'sql.js build mismatch: src/store/wasm-files.ts expects the WASI import names of sql.js 1.16.0, ' +
        'but sql.js 1.17.0 is installed and a.E (fd_seek) is missing. ' +
        'The cache is persisted with export() instead (one long pause per write); pin sql.js to 1.16.0 or update IMPORTS.',
    );
  });

  it('an import of another arity or kind is refused', () => {
    const r = findWasiImports({ a: { ...pinned(), q: f1, e: 7 } }, '1.15.0');
    expect('problem' in r && r.problem).toContain(
      'sql.js 1.15.0 is installed and a.q (fd_write) takes 1 arguments, not 4; a.e (fd_close) is a number.',
    );
  });

  it('a build without the import module is refused', () => {
    const r = findWasiImports({ env: { fd_seek: f4 } }, undefined);
    expect('problem' in r && r.problem).toContain(
      'sql.js (version unreadable) is installed and its wasm imports have no module "a" (found: env)',
    );
  });
});
