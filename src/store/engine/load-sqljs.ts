/**
 * Loads sql.js with its file calls served from disk (wasm-disk.ts): the module is instantiated
 * through sql.js's `instantiateWasm` hook, so the imports are checked against the pinned build
 * (sqljs-build.ts) and wrapped before the instance exists; the wrapped calls are then probed
 * (disk-probe.ts) and the fast binder turned on (fast-bind.ts). Any mismatch leaves `disk`
 * undefined with `problem` saying what was expected and found: the cache is then kept in memory.
 */
import initSqlJs, { type SqlJsStatic } from 'sql.js';
import { checkedBefore, rememberChecked, selfCheck } from './disk-probe.ts';
import { installFastBind } from './fast-bind.ts';
import { sqlWasm } from './sql-wasm-module.ts';
import { buildMismatch, findFileImports, installedSqlJsVersion } from './sqljs-build.ts';
import { DiskLayer, type DiskAccess } from './wasm-disk.ts';

interface Loaded {
  SQL: SqlJsStatic;
  disk: DiskAccess | undefined;
  /** Why `disk` is undefined. */
  problem?: string;
}

/** Loads sql.js with the file imports wrapped; `disk` is undefined (and `problem` says why) when that failed. */
export async function loadSqlJsWithDisk(): Promise<Loaded> {
  const installed = installedSqlJsVersion();
  let wasm: Uint8Array;
  let compiled: Promise<WebAssembly.Module>;
  try {
    ({ bytes: wasm, module: compiled } = sqlWasm());
  } catch (e) {
    return { SQL: await initSqlJs(), disk: undefined, problem: `sql.js's wasm file could not be read: ${(e as Error).message}` };
  }
  let memory: WebAssembly.Memory | undefined;
  // sql.js initialises once per process: a second call gets the first engine, unwrapped.
  let problem: string | undefined = 'sql.js was initialised before its imports could be wrapped';
  let layer: DiskLayer | undefined;
  const SQL = await initSqlJs({
    instantiateWasm(imports: Record<string, Record<string, unknown>>, done: (instance: WebAssembly.Instance) => void) {
      const found = findFileImports(imports, installed);
      if ('problem' in found) problem = found.problem;
      else {
        problem = undefined;
        layer = new DiskLayer(found.fns, () => memory!);
        layer.install(imports['a']!);
      }
      void compiled
        .then((module) => WebAssembly.instantiate(module, imports as WebAssembly.Imports))
        .then((instance) => {
          memory = Object.values(instance.exports).find((e): e is WebAssembly.Memory => e instanceof WebAssembly.Memory);
          done(instance);
        });
      return {};
    },
  } as Parameters<typeof initSqlJs>[0]);
  if (memory) installFastBind(SQL, memory);
  if (!layer || !memory) return { SQL, disk: undefined, problem: problem ?? 'the wasm module exported no memory' };
  const disk = layer.access(SQL);
  const failed = checkedBefore(wasm) ? undefined : selfCheck(disk);
  if (failed === undefined) rememberChecked(wasm);
  return failed === undefined ? { SQL, disk } : { SQL, disk: undefined, problem: buildMismatch(installed, failed) };
}
