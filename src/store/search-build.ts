/**
 * The search index of a bulk load, built on the other core. After a first full sync the store
 * has two long single-threaded jobs: the sort indexes and the search index (tokenising every
 * event's text, about 1 GB at a million markets). A worker thread (search-build-worker.ts, its
 * own sql.js) takes the search index: the store sends it the documents between its index builds,
 * the worker indexes them into a scratch file, and the store copies the finished tables in (a
 * copy of pages' worth of blobs, not a tokenisation). The result is the same index, table for
 * table, as a rebuild on the main thread (search-build.test.ts compares them).
 *
 * Anything that goes wrong in the worker (no worker file, no disk access, a full disk) ends in
 * the main thread's own rebuild instead, so the build can only be faster, never missing.
 */
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Database, SqlValue } from 'sql.js';
import { PACKAGE_ROOT } from '../package-root.ts';
import { DOCS_AFTER, FTS_SHADOW_TABLES, finishSearchIndex, rebuildSearchIndex } from './search-index.ts';
import { tempPath } from './temp-files.ts';
import type { Logger } from '../logger.ts';
import type { Statements } from './statements.ts';
import type { DiskAccess } from './engine/wasm-disk.ts';

export type DocRow = [docid: number, ...text: string[]];
export type ToBuilder = { type: 'docs'; rows: DocRow[]; chars: number } | { type: 'end' };
export type FromBuilder = { type: 'ack'; chars: number } | { type: 'done' } | { type: 'failed'; error: string };

/** Documents per message, and the characters sent ahead of the worker (enough for it to keep busy while the store builds an index). */
const DOCS_PER_MESSAGE = 256;
const AHEAD_CHARS = 48 * 2 ** 20;

/** Where the worker builds: a temp file of the cache, so a killed process's is removed at the next open (temp-files.ts). */
export function searchBuildFile(cacheFile: string): string {
  return `${tempPath(cacheFile)}-search`;
}

function spawnBuilder(file: string, pageSize: number): Worker {
  const workerData = { file, pageSize };
  // From source (tests, tsx) the worker is TypeScript; from a build, its own bundle beside cli.js.
  if (import.meta.url.endsWith('.ts')) {
    const src = new URL('./search-build-worker.ts', import.meta.url).href;
    return new Worker(`import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(src)}); })`, {
      eval: true,
      workerData,
    });
  }
  return new Worker(path.join(PACKAGE_ROOT, 'out/main/search-build-worker.js'), { workerData });
}

export class SearchBuild {
  private after = 0;
  private sentAll = false;
  private inFlight = 0;
  private failure: string | undefined;
  private readonly done: Promise<void>;

  private constructor(
    private readonly st: Statements,
    private readonly worker: Worker,
    readonly file: string,
  ) {
    this.done = new Promise<void>((resolve, reject) => {
      worker.on('message', (m: FromBuilder) => {
        if (m.type === 'ack') {
          this.inFlight -= m.chars;
          if (!this.failure) this.feed();
        } else if (m.type === 'done') resolve();
        else reject(new Error(m.error));
      });
      worker.on('error', reject);
      worker.on('exit', (code) => reject(new Error(`the search build's worker exited (${code})`)));
    });
    this.done.catch((e: Error) => {
      this.failure = e.message;
    });
  }

  /** Starts a worker building into a scratch file beside `cacheFile`. */
  static start(st: Statements, cacheFile: string, pageSize: number): SearchBuild {
    const file = searchBuildFile(cacheFile);
    const build = new SearchBuild(st, spawnBuilder(file, pageSize), file);
    build.feed();
    return build;
  }

  /**
   * Sends documents until the worker has enough to go on. The store calls it between its own
   * steps; acknowledgements call it too, whenever the main thread is free.
   */
  feed(): void {
    while (!this.sentAll && !this.failure && this.inFlight < AHEAD_CHARS) {
      const rows = this.st.all(DOCS_AFTER, [this.after, DOCS_PER_MESSAGE]) as DocRow[];
      if (rows.length === 0) {
        this.sentAll = true;
        this.worker.postMessage({ type: 'end' } satisfies ToBuilder);
        return;
      }
      let chars = 0;
      for (const r of rows) for (let i = 1; i < r.length; i++) chars += (r[i] as string).length;
      this.after = rows[rows.length - 1]![0];
      this.inFlight += chars;
      this.worker.postMessage({ type: 'docs', rows, chars } satisfies ToBuilder);
    }
  }

  /**
   * Waits for the worker to finish, and puts its index in place (finishSearchIndex's
   * transaction). Throws if the worker failed; the caller then rebuilds on the main thread.
   */
  async finish(db: Database, disk: DiskAccess): Promise<void> {
    try {
      this.feed();
      await this.done;
      const built = disk.open(this.file, { readOnly: true });
      try {
        finishSearchIndex(db, () => {
          for (const [table, cols] of Object.entries(FTS_SHADOW_TABLES)) copyTable(built, db, table, cols);
        });
      } finally {
        built.close();
      }
    } finally {
      await this.worker.terminate();
      await fsp.rm(this.file, { force: true });
    }
  }

  /** Stops the worker and removes its file (the build is not wanted after all). */
  async abandon(): Promise<void> {
    this.failure ??= 'abandoned';
    await this.worker.terminate();
    await fsp.rm(this.file, { force: true });
  }
}

/** Replaces `table`'s rows in `to` with those of `from`. */
function copyTable(from: Database, to: Database, table: string, cols: readonly string[]): void {
  to.exec(`DELETE FROM ${table}`);
  const read = from.prepare(`SELECT ${cols.join(', ')} FROM ${table}`);
  const write = to.prepare(`INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`);
  try {
    while (read.step()) write.run(read.get() as SqlValue[]);
  } finally {
    read.free();
    write.free();
  }
}

/**
 * The search index of a bulk load: in a worker when the cache is on disk, else (or if the worker
 * fails) by the main thread's rebuild. `between` runs the store's other work, calling `feed`
 * between its steps so the worker keeps busy.
 */
export async function buildSearchIndexBeside(
  db: Database,
  st: Statements,
  target: { file: string; disk: DiskAccess; pageSize: number } | undefined,
  log: Logger,
  between: (feed: () => void) => Promise<void>,
): Promise<'worker' | 'main'> {
  let build: SearchBuild | undefined;
  if (target) {
    try {
      build = SearchBuild.start(st, target.file, target.pageSize);
    } catch (e) {
      log.warn(`the search index is built on the main thread: ${(e as Error).message}`);
    }
  }
  if (!build) {
    // First, as before the worker: its merge frees pages that the sort indexes then fill.
    rebuildSearchIndex(db);
    await between(() => undefined);
    return 'main';
  }
  try {
    await between(() => build.feed());
  } catch (e) {
    await build.abandon();
    throw e;
  }
  try {
    await build.finish(db, target!.disk);
    return 'worker';
  } catch (e) {
    log.warn(`the search index's worker failed (${(e as Error).message}): rebuilding it on the main thread`);
  }
  rebuildSearchIndex(db);
  return 'main';
}
