/**
 * sql.js's wasm, read and compiled once per process. The CLI starts this first (cli.ts): V8
 * compiles the module on its background threads while the main thread loads the service's
 * modules, where before the cache's open waited about 90 ms for the compile to finish.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

let compiled: { bytes: Uint8Array; module: Promise<WebAssembly.Module> } | undefined;

/** The wasm file's bytes and its compile (started at the first call). Throws if the file cannot be read. */
export function sqlWasm(): { bytes: Uint8Array; module: Promise<WebAssembly.Module> } {
  if (!compiled) {
    const bytes = new Uint8Array(readFileSync(createRequire(import.meta.url).resolve('sql.js/dist/sql-wasm.wasm')));
    const module = WebAssembly.compile(bytes);
    // Awaited by the loader; a failure there is its to report.
    module.catch(() => undefined);
    compiled = { bytes, module };
  }
  return compiled;
}
