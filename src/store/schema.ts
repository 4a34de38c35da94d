/**
 * The cache schema, versioned by `PRAGMA user_version`. Each migration (migrations.ts, frozen once
 * shipped) moves the schema one version up; a database from a newer marketdesk (higher version) is refused by the probe, so
 * it is moved aside rather than misread.
 */
import type { Database } from 'sql.js';
import { MIGRATIONS } from './migrations.ts';
import { backfillMoveKeys } from './move-keys.ts';
import { CHANCE_EXPR } from './screen-filters.ts';
import { backfillWrongTradingIds } from './trading-id-index.ts';

/**
 * The sort and lookup indexes of markets and events. Kept out of the migrations so a bulk
 * load into an empty cache can drop them and build them once at the end (several times
 * faster than maintaining 20 indexes row by row), and so a cache persisted mid-load gets
 * them back at the next open.
 */
export const ENTITY_INDEXES: readonly string[] = [
  'CREATE INDEX IF NOT EXISTS markets_slug ON markets("slug")',
  'CREATE INDEX IF NOT EXISTS markets_condition ON markets(_condition_lc)',
  'CREATE INDEX IF NOT EXISTS markets_creator ON markets(_creator_lc)',
  'CREATE INDEX IF NOT EXISTS markets_question ON markets("question")',
  'CREATE INDEX IF NOT EXISTS markets_volume ON markets(_volume)',
  'CREATE INDEX IF NOT EXISTS markets_volume24hr ON markets("volume24hr")',
  'CREATE INDEX IF NOT EXISTS markets_volume1wk ON markets("volume1wk")',
  'CREATE INDEX IF NOT EXISTS markets_liquidity ON markets(_liquidity)',
  'CREATE INDEX IF NOT EXISTS markets_start ON markets(_start_ts)',
  'CREATE INDEX IF NOT EXISTS markets_end ON markets(_end_ts)',
  'CREATE INDEX IF NOT EXISTS markets_created ON markets(_created_ts)',
  'CREATE INDEX IF NOT EXISTS markets_updated ON markets(_updated_ts)',
  'CREATE INDEX IF NOT EXISTS markets_closed_ts ON markets(_closed_ts)',
  // Status filter + sort: without these, `closed=true ORDER BY volume24hr` walks the whole sort
  // index checking each row (about 200 ms at 100k markets; 1 ms with them). `active` and
  // `archived` ride along at the end so `active=true&closed=false` (what Polymarket's own clients
  // send most) is answered from the index alone: 23 ms -> 2 ms at offset 8,000 of 100k.
  'CREATE INDEX IF NOT EXISTS markets_status_volume ON markets("closed", _volume, "active", "archived")',
  'CREATE INDEX IF NOT EXISTS markets_status_volume24hr ON markets("closed", "volume24hr", "active", "archived")',
  'CREATE INDEX IF NOT EXISTS markets_status_liquidity ON markets("closed", _liquidity, "active", "archived")',
  'CREATE INDEX IF NOT EXISTS markets_status_end ON markets("closed", _end_ts, "active", "archived")',
  // With the ones above, the planner takes `closed` for the WHERE and sorts the rest: text sorts need theirs too.
  'CREATE INDEX IF NOT EXISTS markets_status_question ON markets("closed", "question", "active", "archived")',
  // The other sorts, so none walks a plain key index reading each 2 KB row for its status (`closed=false`
  // by volume1wk, slug, updatedAt or closedTime at offset 8,000 of 100k: 45-110 ms without).
  'CREATE INDEX IF NOT EXISTS markets_status_volume1wk ON markets("closed", "volume1wk", "active", "archived")',
  'CREATE INDEX IF NOT EXISTS markets_status_slug ON markets("closed", "slug", "active", "archived")',
  'CREATE INDEX IF NOT EXISTS markets_status_updated ON markets("closed", _updated_ts, "active", "archived")',
  'CREATE INDEX IF NOT EXISTS markets_status_closed_ts ON markets("closed", _closed_ts, "active", "archived")',
  // `active=true&closed=false` sorted (Polymarket's most sent query): with both tests in the seek,
  // the index reads in (key, id) order, so a deep page skips entries instead of sorting every tie
  // group before it (16 ms -> 2 ms at offset 60,000 of 100k). About 2 MiB each at 100k markets.
  'CREATE INDEX IF NOT EXISTS markets_closed_active_volume ON markets("closed", "active", _volume)',
  'CREATE INDEX IF NOT EXISTS markets_closed_active_volume24hr ON markets("closed", "active", "volume24hr")',
  'CREATE INDEX IF NOT EXISTS markets_closed_active_liquidity ON markets("closed", "active", _liquidity)',
  'CREATE INDEX IF NOT EXISTS markets_closed_active_end ON markets("closed", "active", _end_ts)',
  'CREATE INDEX IF NOT EXISTS markets_closed_active_start ON markets("closed", "active", _start_ts)',
  'CREATE INDEX IF NOT EXISTS markets_closed_active_created ON markets("closed", "active", _created_ts)',
  // The "what moved" sorts (issue 27: chance, 24h change by sign and by size, spread): each its key index, its
  // (closed, key, status) and its (closed, active, key) one, as every sort above, for the same listing goals.
  'CREATE INDEX IF NOT EXISTS markets_chance ON markets(_chance)',
  'CREATE INDEX IF NOT EXISTS markets_change ON markets("oneDayPriceChange")',
  'CREATE INDEX IF NOT EXISTS markets_change_size ON markets(_change_size)',
  'CREATE INDEX IF NOT EXISTS markets_spread ON markets("spread")',
  'CREATE INDEX IF NOT EXISTS markets_status_chance ON markets("closed", _chance, "active", "archived")',
  'CREATE INDEX IF NOT EXISTS markets_status_change ON markets("closed", "oneDayPriceChange", "active", "archived")',
  'CREATE INDEX IF NOT EXISTS markets_status_change_size ON markets("closed", _change_size, "active", "archived")',
  'CREATE INDEX IF NOT EXISTS markets_status_spread ON markets("closed", "spread", "active", "archived")',
  'CREATE INDEX IF NOT EXISTS markets_closed_active_chance ON markets("closed", "active", _chance)',
  'CREATE INDEX IF NOT EXISTS markets_closed_active_change ON markets("closed", "active", "oneDayPriceChange")',
  'CREATE INDEX IF NOT EXISTS markets_closed_active_change_size ON markets("closed", "active", _change_size)',
  'CREATE INDEX IF NOT EXISTS markets_closed_active_spread ON markets("closed", "active", "spread")',
  // Id order (the default) with any status tests: a walk of this narrow index to a deep offset,
  // instead of the table's 2 KB rows (31 ms -> under 1 ms at offset 70,000 of 100k).
  'CREATE INDEX IF NOT EXISTS markets_id_status ON markets(id, "closed", "active", "archived")',
  // Screens (issue 16, screen-filters.ts): every range a screen tests and the status flags, led by the
  // end date (the window most screens set), so a screen's candidates are tested in this narrow index,
  // never in their 2 KB rows (a three-range, one-tag screen: 500 ms -> a few ms at 100k markets).
  // The chance is an expression, the first of outcomePrices: queries use exactly this one.
  'CREATE INDEX IF NOT EXISTS markets_screen_ranges ON markets(_end_ts, ' +
    `${CHANCE_EXPR}, _volume, "volume24hr", _liquidity, "spread", "oneDayPriceChange", "closed", "active", "archived")`,
  'CREATE INDEX IF NOT EXISTS events_slug ON events(_slug_lc)',
  'CREATE INDEX IF NOT EXISTS events_creator ON events(_creator_lc)',
  'CREATE INDEX IF NOT EXISTS events_title ON events("title")',
  'CREATE INDEX IF NOT EXISTS events_volume ON events("volume")',
  'CREATE INDEX IF NOT EXISTS events_volume24hr ON events("volume24hr")',
  'CREATE INDEX IF NOT EXISTS events_volume1wk ON events("volume1wk")',
  'CREATE INDEX IF NOT EXISTS events_liquidity ON events("liquidity")',
  'CREATE INDEX IF NOT EXISTS events_start ON events(_start_ts)',
  'CREATE INDEX IF NOT EXISTS events_end ON events(_end_ts)',
  'CREATE INDEX IF NOT EXISTS events_created ON events(_created_ts)',
  'CREATE INDEX IF NOT EXISTS events_updated ON events(_updated_ts)',
  'CREATE INDEX IF NOT EXISTS events_closed_ts ON events(_closed_ts)',
  'CREATE INDEX IF NOT EXISTS events_status_volume ON events("closed", "volume", "active", "archived")',
  'CREATE INDEX IF NOT EXISTS events_status_volume24hr ON events("closed", "volume24hr", "active", "archived")',
  'CREATE INDEX IF NOT EXISTS events_status_liquidity ON events("closed", "liquidity", "active", "archived")',
  'CREATE INDEX IF NOT EXISTS events_status_end ON events("closed", _end_ts, "active", "archived")',
  'CREATE INDEX IF NOT EXISTS events_status_title ON events("closed", "title", "active", "archived")',
  // As the markets' (closed, active, key) and (id, status) indexes above, for `/events`.
  'CREATE INDEX IF NOT EXISTS events_closed_active_volume ON events("closed", "active", "volume")',
  'CREATE INDEX IF NOT EXISTS events_closed_active_volume24hr ON events("closed", "active", "volume24hr")',
  'CREATE INDEX IF NOT EXISTS events_closed_active_liquidity ON events("closed", "active", "liquidity")',
  'CREATE INDEX IF NOT EXISTS events_closed_active_end ON events("closed", "active", _end_ts)',
  'CREATE INDEX IF NOT EXISTS events_closed_active_start ON events("closed", "active", _start_ts)',
  'CREATE INDEX IF NOT EXISTS events_closed_active_created ON events("closed", "active", _created_ts)',
  // The leader's chance, 24h change and its size (move-keys.ts), as the markets' above.
  'CREATE INDEX IF NOT EXISTS events_chance ON events(_chance)',
  'CREATE INDEX IF NOT EXISTS events_change ON events(_change)',
  'CREATE INDEX IF NOT EXISTS events_change_size ON events(_change_size)',
  'CREATE INDEX IF NOT EXISTS events_status_chance ON events("closed", _chance, "active", "archived")',
  'CREATE INDEX IF NOT EXISTS events_status_change ON events("closed", _change, "active", "archived")',
  'CREATE INDEX IF NOT EXISTS events_status_change_size ON events("closed", _change_size, "active", "archived")',
  'CREATE INDEX IF NOT EXISTS events_closed_active_chance ON events("closed", "active", _chance)',
  'CREATE INDEX IF NOT EXISTS events_closed_active_change ON events("closed", "active", _change)',
  'CREATE INDEX IF NOT EXISTS events_closed_active_change_size ON events("closed", "active", _change_size)',
  'CREATE INDEX IF NOT EXISTS events_id_status ON events(id, "closed", "active", "archived")',
  'CREATE INDEX IF NOT EXISTS events_screen_ranges ON events(_end_ts, "volume", "volume24hr", "liquidity", "closed", "active", "archived")',
];

/**
 * Indexes an earlier build made that ENTITY_INDEXES replaced; dropped at open (they lead with the
 * same columns, so the planner would keep picking them).
 */
const SUPERSEDED_INDEXES = ['volume', 'volume24hr', 'liquidity', 'end', 'question', 'title'].flatMap((k) => [
  `markets_closed_${k}`,
  `events_closed_${k}`,
]);

/** The migrations are frozen once shipped (migrations.ts): a schema change is a new one. */
export const SCHEMA_VERSION = MIGRATIONS.length;

export function schemaVersion(db: Database): number {
  const r = db.exec('PRAGMA user_version');
  return Number(r[0]?.values[0]?.[0] ?? 0);
}

/** Throws when the database is not one this build can use (so the caller moves it aside). */
export function probeSchema(db: Database): void {
  const v = schemaVersion(db);
  if (v > SCHEMA_VERSION) throw new Error(`cache schema version ${v} is newer than this build's ${SCHEMA_VERSION}`);
  // Touching each table (its root and last leaf) catches a garbled file at open, not on the first
  // request. (count(*) read whole indexes: 25-100 ms of start at 100k. A full quick_check reads
  // the whole file; writes are atomic, so a torn file is not expected.)
  if (v > 0) db.exec('SELECT max(id) FROM markets; SELECT max(id) FROM events; SELECT max(id) FROM tags');
}

/** Creates missing entity indexes; true when any was missing (the file should then be saved). */
export function ensureIndexes(db: Database): boolean {
  const count = () => Number(db.exec("SELECT count(*) FROM sqlite_master WHERE type = 'index'")[0]?.values[0]?.[0] ?? 0);
  const before = count();
  const present = new Set(db.exec("SELECT name FROM sqlite_master WHERE type = 'index'")[0]?.values.map((r) => r[0] as string));
  const superseded = SUPERSEDED_INDEXES.filter((n) => present.has(n));
  for (const name of superseded) db.exec(`DROP INDEX ${name}`);
  for (const sql of ENTITY_INDEXES) db.exec(sql);
  return superseded.length > 0 || count() !== before;
}

/**
 * Builds the entity indexes of a bulk load one by one, calling `between` after each and letting
 * the event loop turn (the search index's worker is fed so: search-build.ts).
 */
export async function buildEntityIndexes(db: Database, between: () => void): Promise<void> {
  for (const sql of ENTITY_INDEXES) {
    db.exec(sql);
    between();
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

export function dropEntityIndexes(db: Database): void {
  for (const sql of ENTITY_INDEXES) {
    const name = /IF NOT EXISTS (\w+)/.exec(sql)?.[1];
    if (name) db.exec(`DROP INDEX IF EXISTS ${name}`);
  }
}

/**
 * Page size of a new cache. A market row is about 2 KB, so with 4 KiB pages most pages held
 * one row and a quarter of the file was slack; 16 KiB pages pack them (the file is 12%
 * smaller at 100k markets, and queries run as fast). Only an empty database can take it.
 */
export const PAGE_SIZE = 16384;

/**
 * Work a migration needs beyond its SQL text, by the version it reaches: run after the text, in its
 * transaction, so a kill leaves the version before. Each reads only columns its version has.
 */
const AFTER_MIGRATION: Readonly<Record<number, (db: Database) => void>> = {
  // v8: the wrong trading ids of the markets already cached.
  8: (db) => void backfillWrongTradingIds(db),
  // v9: the move keys (chance, 24h change) of the markets and events already cached.
  9: backfillMoveKeys,
};

export function migrate(db: Database): void {
  let v = schemaVersion(db);
  if (v === 0 && db.exec('SELECT 1 FROM sqlite_master LIMIT 1').length === 0) db.exec(`PRAGMA page_size = ${PAGE_SIZE}`);
  while (v < SCHEMA_VERSION) {
    db.exec('BEGIN');
    try {
      db.exec(MIGRATIONS[v]!);
      AFTER_MIGRATION[v + 1]?.(db);
      db.exec(`PRAGMA user_version = ${v + 1}`);
      db.exec('COMMIT');
    } catch (e) {
      db.exec('ROLLBACK');
      throw e;
    }
    v++;
  }
}
