/**
 * The cache's migrations: a shipped one is frozen (its text held to a digest), and the tables they
 * make hold exactly the fields of the field lists (contract/catalog-fields.ts), one column each of
 * the kind's type.
 */
import { createHash } from 'node:crypto';
import type { Database } from 'sql.js';
import { describe, expect, it } from 'vitest';
import { EVENT_FIELDS, MARKET_FIELDS, SERIES_FIELDS, TAG_FIELDS, columnType, type FieldSpec } from './fields.ts';
import { MIGRATIONS } from './migrations.ts';
import { SCHEMA_VERSION, migrate } from './schema.ts';
import { FTS_ARGS } from './search-index.ts';
import { sqlEngine } from './sqlite.ts';

/**
 * sha256 of each shipped migration's text, in order. Never change one: a schema change is a new
 * migration, whose digest is added here.
 */
const SHIPPED = [
  '83ce1b94263914963cb29c548e2324218f53e6abf9334264e48c357496c24864',
  'eef1be3cbcafebb3149db55a8f7f212dbd4439dce1f2d8d6deb64ab65b2e0f61',
  'd391692d6bfdd04986275c73f1fa2c9c770762137bcc50543a3197113f4f833d',
  '90054d8b6d83564584150b8a88cbd59275f759c549f2c11ff7e5930bcc932bf4',
  'fc8a9f48c7b3ef51b042fd0fc4531b3528cbc7c758f60008ab23864f4c216cbb',
  '2ba2f3ccaec0065515d43e1b2093b047e3e62646434bcd09ab76922d9a03341d',
  '197be6af15b11cce5ffb8ca7bb0e5fa9a9c6c0ccd0f321669fceba580266ca43',
  '0ef46e44eb3f766741d8ef3f47b214da1cf36753e51e439d323e05cab78d5af5',
  'b3d4d7a970b943d969ee2e93dd3f2265e75b88223e880fe322a42004bb5f506c',
];

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

async function migrated(): Promise<Database> {
  const db = new (await sqlEngine()).Database();
  migrate(db);
  return db;
}

describe('migrations', () => {
  it('keeps each shipped migration as it shipped', () => {
    expect(MIGRATIONS.length, 'a shipped migration was removed: shipped migrations are frozen').toBeGreaterThanOrEqual(SHIPPED.length);
    SHIPPED.forEach((digest, i) => {
      const frozen = `migration v${i + 1} (migrations.ts) changed: shipped migrations are frozen: add a new one`;
      expect(sha256(MIGRATIONS[i]!), frozen).toBe(digest);
    });
    const unrecorded = MIGRATIONS.slice(SHIPPED.length).map((sql, i) => `v${SHIPPED.length + i + 1}: '${sha256(sql)}'`);
    expect(unrecorded, 'a new migration: record its digest in SHIPPED (migrations.test.ts); from then on it is frozen').toEqual([]);
    expect(SCHEMA_VERSION).toBe(MIGRATIONS.length);
  });

  it('make the catalog tables hold exactly the fields of the field lists', async () => {
    const db = await migrated();
    const tables: [string, readonly FieldSpec[]][] = [
      ['markets', MARKET_FIELDS],
      ['events', EVENT_FIELDS],
      ['tags', TAG_FIELDS],
      ['series', SERIES_FIELDS],
    ];
    for (const [table, fields] of tables) {
      // The cache's own columns: the id and the `_` ones (`_extra`, derived keys). No field may look like one.
      for (const f of fields) expect(f.name === 'id' || f.name.startsWith('_'), `${table}.${f.name}`).toBe(false);
      const columns = Object.fromEntries(
        db
          .exec(`SELECT name, type FROM pragma_table_info('${table}')`)[0]!
          .values.filter(([name]) => name !== 'id' && !String(name).startsWith('_')),
      );
      expect(
        columns,
        `${table}: a field added to or changed in contract/catalog-fields.ts needs a new migration (migrations.ts) for its column`,
      ).toEqual(Object.fromEntries(fields.map((f) => [f.name, columnType(f.kind)])));
    }
    db.close();
  });

  it('make the search index with the options a worker builds it with (search-build.ts)', () => {
    expect(MIGRATIONS[1]).toContain(`CREATE VIRTUAL TABLE search_fts USING fts4(content="search_docs", ${FTS_ARGS});`);
  });
});
