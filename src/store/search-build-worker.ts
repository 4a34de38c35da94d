/**
 * The worker thread of search-build.ts: builds the search index of the documents it is sent into
 * its own database file (a contentless FTS4 table with the cache's columns and options), merges
 * it into one segment, and closes the file for the store to copy in. The file is scratch: no
 * journal, no fsync; a kill leaves it to the next open's temp-file cleanup.
 */
import { rmSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { loadSqlJsWithDisk } from './engine/load-sqljs.ts';
import { FTS_ARGS, SEARCH_COLUMNS } from './search-index.ts';
import type { FromBuilder, ToBuilder } from './search-build.ts';

const port = parentPort;
if (!port) throw new Error('search-build-worker runs as a worker thread');
const { file, pageSize } = workerData as { file: string; pageSize: number };
const post = (m: FromBuilder) => port.postMessage(m);

try {
  const { disk, problem } = await loadSqlJsWithDisk();
  if (!disk) throw new Error(problem ?? 'no disk access');
  // A file of this name is a dead build's (this pid's earlier run): start over.
  rmSync(file, { force: true });
  const db = disk.open(file);
  db.exec(
    `PRAGMA locking_mode = EXCLUSIVE; PRAGMA page_size = ${pageSize}; PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; ` +
      `PRAGMA cache_size = -32768; CREATE VIRTUAL TABLE search_fts USING fts4(content="", ${FTS_ARGS}); BEGIN`,
  );
  const insert = db.prepare(`INSERT INTO search_fts (docid, ${SEARCH_COLUMNS.join(', ')}) VALUES (?, ?, ?, ?, ?, ?)`);
  port.on('message', (m: ToBuilder) => {
    try {
      if (m.type === 'docs') {
        for (const row of m.rows) insert.run(row);
        post({ type: 'ack', chars: m.chars });
      } else {
        insert.free();
        // One segment per index, as the cache's own rebuild leaves it (search-index.ts).
        db.exec(`INSERT INTO search_fts(search_fts) VALUES ('optimize'); COMMIT`);
        db.close();
        post({ type: 'done' });
      }
    } catch (e) {
      post({ type: 'failed', error: (e as Error).message });
    }
  });
} catch (e) {
  post({ type: 'failed', error: (e as Error).message });
}
