/**
 * How far sql.js is from native SQLite on the same work: the reads the service's reader
 * issues for each query are recorded under sql.js, then replayed with the same SQL and
 * bindings in better-sqlite3 on the same cache file.
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { ROOT, percentile } from './lib.ts';
import { CatalogStore } from '../src/store/catalog-store.ts';
import type { Bind } from '../src/store/statements.ts';

type NativeDb = {
  prepare(sql: string): { raw(on: boolean): { all(...p: unknown[]): unknown[] } };
  exec(sql: string): void;
  function(name: string, fn: (...a: never[]) => unknown): void;
  close(): void;
};

/** better-sqlite3 is a dev dependency built on demand (install scripts are off, see .npmrc). */
function loadNative(): (file: string) => NativeDb {
  const require = createRequire(import.meta.url);
  try {
    const Database = require('better-sqlite3') as new (f: string, o?: object) => NativeDb;
    new Database(':memory:').close(); // the native binding loads here, not at require
    return (f) => new Database(f, { readonly: true });
  } catch {
    process.stderr.write('bench: building better-sqlite3 from source (once, about 2 minutes)...\n');
    const r = spawnSync('npm', ['rebuild', 'better-sqlite3', '--ignore-scripts=false'], { cwd: ROOT, stdio: 'inherit' });
    if (r.status !== 0) throw new Error('better-sqlite3 could not be built');
    const Database = require('better-sqlite3') as new (f: string, o?: object) => NativeDb;
    return (f) => new Database(f, { readonly: true });
  }
}

export interface NativeRow {
  query: string;
  sqljsMs: number;
  nativeMs: number;
  ratio: number;
}

export async function compareNative(
  dataDir: string,
  file: string,
  queries: [string, (store: CatalogStore) => unknown][],
  n = 200,
): Promise<NativeRow[]> {
  const open = loadNative();
  const store = await CatalogStore.open({ dataDir });
  const native = open(file);
  // The search reader's per-connection tokenizer table (search-reader.ts), made the same way.
  native.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.search_tokens USING fts3tokenize('unicode61', 'remove_diacritics=2')`);
  // The same JS rank function, with the weights the traced query left in the sql.js reader.
  const rank = (store.search as unknown as { rank(mi: Uint8Array): number }).rank.bind(store.search);
  native.function('search_rank', (mi: Uint8Array) => rank(mi));
  const rows: NativeRow[] = [];
  try {
    for (const [name, run] of queries) {
      const reads: [string, Bind][] = [];
      store.statements.trace = (sql, bind) => reads.push([sql, [...bind]]);
      run(store);
      store.statements.trace = undefined;
      const stmts = reads.map(([sql, bind]) => [native.prepare(sql).raw(true), bind] as const);
      const time = (fn: () => void) => {
        for (let i = 0; i < 10; i++) fn();
        const t: number[] = [];
        for (let i = 0; i < n; i++) {
          const t0 = performance.now();
          fn();
          t.push(performance.now() - t0);
        }
        return percentile(
          t.sort((a, b) => a - b),
          50,
        );
      };
      // The raw reads only, both sides: same SQL, same bindings, rows as arrays.
      const sqljsMs = time(() => {
        for (const [sql, bind] of reads) store.statements.all(sql, bind);
      });
      const nativeMs = time(() => {
        for (const [st, bind] of stmts) st.all(...bind);
      });
      rows.push({
        query: name,
        sqljsMs: Math.round(sqljsMs * 1000) / 1000,
        nativeMs: Math.round(nativeMs * 1000) / 1000,
        ratio: Math.round((sqljsMs / nativeMs) * 100) / 100,
      });
    }
  } finally {
    native.close();
    await store.close();
  }
  return rows;
}
