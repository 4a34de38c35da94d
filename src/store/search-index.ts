/**
 * The full-text index behind GET /public-search (stock sql.js has FTS3/4, not FTS5).
 *
 * One FTS4 document per event: its title, ticker + slug, its markets' questions, its
 * description and its markets' descriptions, five columns so a title hit can outweigh a
 * description hit. The table is external-content over the `search_docs` view, so the ~110 MB
 * of text per 100k markets is not stored twice; only the index is. External content means a
 * document must be deleted from the index while the view still shows its old text: BEFORE
 * triggers on events, markets and market_events delete the affected documents (once per
 * batch, remembered in `search_dirty`) and the writer re-inserts them from the view at the end
 * of its transaction (`flushSearchIndex`). Triggers, not writer code, catch every write path
 * (sync batches, remove, prune) and skip writes that leave the searchable text unchanged (a
 * volume update does not re-index).
 *
 * `prefix="1"`: a one-letter last word ("b") would otherwise merge the doclists of every term
 * starting with it (~1 s at 100k markets); two letters and more expand cheaply enough.
 *
 * Tags get a tiny ordinary FTS4 table of their own (labels and slugs), kept by triggers.
 *
 * The view, the tables and the tag triggers are made by the cache's migration v2 (migrations.ts, frozen).
 */
import type { Database } from 'sql.js';
import type { Statements } from './statements.ts';

export const SEARCH_COLUMNS = ['title', 'keys', 'questions', 'description', 'details'] as const;

const TOKENIZE = `tokenize=unicode61 "remove_diacritics=2"`;

/**
 * The index's columns and options: the same in the cache (its migration, migrations.ts v2; migrations.test.ts holds
 * them equal) and in a worker's build (search-build.ts), so their tables match.
 */
export const FTS_ARGS = `${SEARCH_COLUMNS.join(', ')}, ${TOKENIZE}, prefix="1"`;

/** The tables FTS4 keeps the index in (external content: no content table). */
export const FTS_SHADOW_TABLES = {
  search_fts_segments: ['blockid', 'block'],
  search_fts_segdir: ['level', 'idx', 'start_block', 'leaves_end_block', 'end_block', 'root'],
  search_fts_docsize: ['docid', 'size'],
  search_fts_stat: ['id', 'value'],
} as const;

/** Every event's document, `after` a docid, in docid order (a worker's build reads them so). */
export const DOCS_AFTER = `SELECT rowid, ${SEARCH_COLUMNS.join(', ')} FROM search_docs WHERE rowid > ? ORDER BY rowid LIMIT ?`;

/** Takes the documents of the events `ids` (a SELECT of event ids) out of the index, once per batch. */
const unindex = (ids: string) => `
  DELETE FROM search_fts WHERE docid IN (SELECT id FROM (${ids}) WHERE id NOT IN (SELECT id FROM search_dirty));
  INSERT OR IGNORE INTO search_dirty (id) ${ids};`;

const sameEvent =
  `EXISTS (SELECT 1 FROM events WHERE id = NEW.id AND "title" IS NEW."title" AND "ticker" IS NEW."ticker" ` +
  `AND "slug" IS NEW."slug" AND "description" IS NEW."description")`;
const sameMarket =
  'EXISTS (SELECT 1 FROM markets WHERE id = NEW.id AND "question" IS NEW."question" AND "description" IS NEW."description")';
const linksOf = (market: string) => `SELECT event_id AS id FROM market_events WHERE market_id = ${market}`;

/**
 * The triggers that keep event documents (and search_order) in step. Dropped for a bulk load into an empty cache
 * (one rebuild at the end is much cheaper); their presence marks the index as complete.
 */
const DOC_TRIGGERS: readonly [name: string, sql: string][] = [
  // INSERT OR REPLACE replaces without firing delete triggers, so inserts check the old row.
  ['search_events_ins', `BEFORE INSERT ON events WHEN NOT ${sameEvent} BEGIN ${unindex('SELECT NEW.id AS id')} END`],
  [
    'search_events_upd',
    `BEFORE UPDATE OF id, "title", "ticker", "slug", "description" ON events BEGIN ${unindex('SELECT OLD.id AS id')} END`,
  ],
  ['search_events_del', `BEFORE DELETE ON events BEGIN ${unindex('SELECT OLD.id AS id')} END`],
  ['search_markets_ins', `BEFORE INSERT ON markets WHEN NOT ${sameMarket} BEGIN ${unindex(linksOf('NEW.id'))} END`],
  ['search_markets_upd', `BEFORE UPDATE OF id, "question", "description" ON markets BEGIN ${unindex(linksOf('OLD.id'))} END`],
  ['search_markets_del', `BEFORE DELETE ON markets BEGIN ${unindex(linksOf('OLD.id'))} END`],
  // Only a link that is really new changes the document (the writer re-upserts known links).
  [
    'search_links_ins',
    'BEFORE INSERT ON market_events WHEN NOT EXISTS ' +
      '(SELECT 1 FROM market_events WHERE market_id = NEW.market_id AND event_id = NEW.event_id) ' +
      `BEGIN ${unindex('SELECT NEW.event_id AS id')} END`,
  ],
  [
    'search_links_upd',
    `BEFORE UPDATE OF market_id, event_id ON market_events BEGIN ${unindex('SELECT OLD.event_id AS id UNION SELECT NEW.event_id')} END`,
  ],
  ['search_links_del', `BEFORE DELETE ON market_events BEGIN ${unindex('SELECT OLD.event_id AS id')} END`],
  ['search_order_ins', `AFTER INSERT ON events BEGIN INSERT OR REPLACE INTO search_order (id, volume) VALUES (NEW.id, NEW."volume"); END`],
  [
    'search_order_upd',
    `AFTER UPDATE OF id, "volume" ON events BEGIN DELETE FROM search_order WHERE id = OLD.id; ` +
      `INSERT OR REPLACE INTO search_order (id, volume) VALUES (NEW.id, NEW."volume"); END`,
  ],
  ['search_order_del', `AFTER DELETE ON events BEGIN DELETE FROM search_order WHERE id = OLD.id; END`],
];

function createTriggers(db: Database, triggers: readonly [string, string][]): void {
  for (const [name, body] of triggers) db.exec(`CREATE TRIGGER IF NOT EXISTS ${name} ${body}`);
}

function hasTrigger(db: Database, name: string): boolean {
  return (db.exec(`SELECT 1 FROM sqlite_master WHERE type = 'trigger' AND name = '${name}'`)[0]?.values.length ?? 0) > 0;
}

const REINSERT =
  `INSERT INTO search_fts (docid, ${SEARCH_COLUMNS.join(', ')}) ` +
  `SELECT rowid, ${SEARCH_COLUMNS.join(', ')} FROM search_docs WHERE rowid IN (SELECT id FROM search_dirty) ORDER BY rowid`;

/**
 * Re-inserts the documents taken out in this transaction, from the rows as they are now (in
 * docid order: FTS4 appends ascending docids without flushing). Call before the commit.
 */
export function flushSearchIndex(st: Statements): void {
  st.run(REINSERT);
  st.run('DELETE FROM search_dirty');
}

/** Rebuilds every event document from the rows and turns incremental upkeep (back) on. */
export function rebuildSearchIndex(db: Database): void {
  finishSearchIndex(db, () =>
    // 'optimize' merges the rebuild's segments into one b-tree: every later query reads one
    // doclist per term instead of a dozen (2 s at 100k events, once; queries 15% faster).
    db.exec(`INSERT INTO search_fts(search_fts) VALUES ('rebuild'); INSERT INTO search_fts(search_fts) VALUES ('optimize');`),
  );
}

/**
 * Puts the event documents in place with `fill` (a rebuild, or a copy of an index built
 * elsewhere), then the tie-break keys and the triggers, in one transaction.
 */
export function finishSearchIndex(db: Database, fill: () => void): void {
  db.exec('BEGIN');
  try {
    fill();
    db.exec('DELETE FROM search_dirty; DELETE FROM search_order; INSERT INTO search_order (id, volume) SELECT id, "volume" FROM events;');
    createTriggers(db, DOC_TRIGGERS);
    db.exec('COMMIT');
  } catch (e) {
    db.exec('ROLLBACK');
    throw e;
  }
}

/** Before a bulk load into an empty cache: no per-row upkeep (rebuildSearchIndex at the end). */
export function suspendSearchIndex(db: Database): void {
  for (const [name] of DOC_TRIGGERS) db.exec(`DROP TRIGGER IF EXISTS ${name}`);
}

/**
 * At open, after the migrations: builds the event documents when their triggers are missing (a
 * cache just migrated from v1, or one persisted in the middle of a bulk load). True if it did.
 */
export function ensureSearchIndex(db: Database): boolean {
  if (DOC_TRIGGERS.some(([name]) => !hasTrigger(db, name))) {
    rebuildSearchIndex(db);
    return true;
  }
  // Pending documents mean a write path committed without flushing: put them back. (Only then:
  // a read-only file takes no write, not even an empty one.)
  if (db.exec('SELECT 1 FROM search_dirty LIMIT 1').length > 0) db.exec(`${REINSERT}; DELETE FROM search_dirty;`);
  return false;
}
