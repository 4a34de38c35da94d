/**
 * The (closed, sort key, active, archived) indexes: a status filter plus a sort is answered from
 * the index alone, and a cache made by an earlier build has its (closed, key) indexes replaced.
 */
import { describe, expect, it } from 'vitest';
import { ENTITY_INDEXES, ensureIndexes, migrate } from './schema.ts';
import { sqlEngine } from './sqlite.ts';

const indexNames = (db: { exec(sql: string): { values: unknown[][] }[] }) =>
  new Set((db.exec("SELECT name FROM sqlite_master WHERE type = 'index'")[0]?.values ?? []).map((r) => r[0] as string));

describe('status indexes', () => {
  it('answer active + closed + a sort from a covering index', async () => {
    const SQL = await sqlEngine();
    const db = new SQL.Database();
    migrate(db);
    ensureIndexes(db);
    for (const [table, key] of [
      ['markets', '"volume24hr"'],
      ['markets', '_volume'],
      ['markets', '_end_ts'],
      ['events', '"volume"'],
    ] as const) {
      // The shape of the catalog reader's id query for `active=true&closed=false&order=...`.
      const sql =
        `SELECT t.id FROM ${table} t WHERE t."active" = 1 AND t."closed" = 0 ` + `ORDER BY t.${key} DESC, t.id DESC LIMIT 20 OFFSET 8000`;
      const plan = db.exec(`EXPLAIN QUERY PLAN ${sql}`)[0]!.values.map((r) => String(r[3]));
      // Markets have (closed, active, key) indexes for this shape too (listing-plans.test.ts).
      expect(plan.join(' | '), `${table} ${key}`).toMatch(/COVERING INDEX \w+_(status|closed_active)_\w+ \(closed=\?( AND active=\?)?\)/);
    }
    db.close();
  });

  it('replaces the (closed, key) indexes of an earlier build, and says the file changed', async () => {
    const SQL = await sqlEngine();
    const db = new SQL.Database();
    migrate(db);
    ensureIndexes(db);
    for (const name of indexNames(db)) if (name.includes('_status_')) db.exec(`DROP INDEX ${name}`);
    db.exec('CREATE INDEX markets_closed_volume24hr ON markets("closed", "volume24hr")');
    db.exec('CREATE INDEX events_closed_title ON events("closed", "title")');
    expect(ensureIndexes(db)).toBe(true);
    const names = indexNames(db);
    expect(names.has('markets_closed_volume24hr')).toBe(false);
    expect(names.has('events_closed_title')).toBe(false);
    for (const sql of ENTITY_INDEXES) expect(names.has(/IF NOT EXISTS (\w+)/.exec(sql)![1]!)).toBe(true);
    // Nothing left to do the second time.
    expect(ensureIndexes(db)).toBe(false);
    db.close();
  });
});
