/**
 * The wrong trading ids (issue 25): every id the catalog names for a market's outcomes that the
 * CLOB does not trade that market by, with its market. A market's trading ids are chosen by its
 * `version` (contract/market-rules.ts tradingIds): "v2" trades by `positionIds`, so its
 * `clobTokenIds` (CTF token ids) are wrong; "v1" trades by `clobTokenIds`, so its `positionIds`
 * (a third of live v1 markets carry them: CTF markets with Combos) are wrong: the CLOB has no
 * book for either. The clob face refuses them before they reach the upstream
 * (service/trading-id-guard.ts). A market without a known version names no wrong id.
 *
 * Table `wrong_trading_ids (h INTEGER PRIMARY KEY, market INTEGER NOT NULL)` (migration v8):
 * - keyed by a hash of the id's text, not the text: an id is a uint256 in decimal (up to 78
 *   digits), so a text key would take about 90 bytes a row, where an integer key takes about 16,
 *   and a cache of a million markets holds some 700,000 wrong ids (about 11 MB instead of 60).
 *   The key is the rowid, so the table is one B-tree and no index beside it.
 * - 53 bits of hash, not 64: the store binds JS numbers, exact up to 2^53 (the engine's binder has
 *   no BigInt). Two of a million ids share a key with a chance of about 6 in 100,000, and then the
 *   table keeps one of them: a missed refusal (the upstream answers as before), never a wrong one,
 *   because every hit is confirmed against the market's own fields (lookupWrongTradingId).
 * - no column or index for the market side: the writer drops a market's entries by recomputing
 *   them from the row it replaces or deletes (it reads that row anyway), so nothing more is kept.
 *   An id two markets both name wrongly is kept for the last one written.
 */
import type { Database } from 'sql.js';
import { TRADING_ID_FIELD, jsonList, type ProtocolVersion } from '../contract/market-rules.ts';
import { MARKET_FIELDS, projection } from './fields.ts';
import type { Row, Statements } from './statements.ts';

/** A wrong trading id, as lookupWrongTradingId finds it. */
export interface WrongTradingId {
  /** The market that names it (its id). */
  market: string;
  /** The market's protocol version. */
  version: ProtocolVersion;
  /** The field the id is in, which this version does not trade by. */
  field: 'clobTokenIds' | 'positionIds';
  /** The field the market trades by (TRADING_ID_FIELD). */
  tradeBy: 'clobTokenIds' | 'positionIds';
  /** The id at the same outcome in `tradeBy`, when the market has one. */
  instead: string | undefined;
}

/** What the rule reads of a market (the fields as served: JSON text or arrays). */
interface TradingFields {
  version?: unknown;
  clobTokenIds?: unknown;
  positionIds?: unknown;
}

const DECIMAL_ID = /^[0-9]{1,100}$/;
const WRONG_FIELD = { v1: 'positionIds', v2: 'clobTokenIds' } as const satisfies Record<ProtocolVersion, keyof TradingFields>;

const idsIn = (v: unknown): string[] => jsonList(v).filter((t): t is string => typeof t === 'string' && DECIMAL_ID.test(t));

/**
 * The ids market `m` names in the field its version does not trade by (less any that are also in
 * the field it does trade by), each once; [] without a known version.
 */
export function wrongIdsOf(m: TradingFields): string[] {
  const v = m.version;
  if (v !== 'v1' && v !== 'v2') return [];
  const wrong = idsIn(m[WRONG_FIELD[v]]);
  if (wrong.length === 0) return wrong;
  const right = new Set(idsIn(m[TRADING_ID_FIELD[v]]));
  return [...new Set(wrong)].filter((t) => !right.has(t));
}

/**
 * A 53-bit hash of an id's text (cyrb53, public domain: two 32-bit multiply-xor lanes, mixed at
 * the end): the table's key. Changing it changes every key: that needs a migration rebuilding
 * the table.
 */
export function idHash(id: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < id.length; i++) {
    const c = id.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

const FIELDS = projection(MARKET_FIELDS, ['version', 'clobTokenIds', 'positionIds']);

/** The columns a row needs for wrongIdsOfRow, of the markets table as `alias`: the id first, `_extra` last. */
export const tradingColumns = (alias: string): string =>
  [`${alias}.id`, ...FIELDS.specs.map((s) => `${alias}."${s.name}"`), `${alias}._extra`].join(', ');

/** The number of columns tradingColumns selects. */
export const TRADING_COLUMN_COUNT = FIELDS.specs.length + 2;

/** The wrong ids of a stored row (tradingColumns), read as the market is served (values kept in `_extra` included). */
export const wrongIdsOfRow = (row: Row): string[] => wrongIdsOf(FIELDS.map(row) as TradingFields);

const INSERT = 'INSERT OR REPLACE INTO wrong_trading_ids (h, market) VALUES (?, ?)';
const DELETE = 'DELETE FROM wrong_trading_ids WHERE h = ? AND market = ?';

/**
 * Replaces market `market`'s entries: `before` were its wrong ids as stored, `after` are the new
 * row's. Nothing is written when they are the same, as they are for nearly every update (prices
 * move, ids do not), nor for a new market without wrong ids.
 */
export function replaceWrongIds(st: Statements, market: number, before: readonly string[], after: readonly string[]): void {
  if (before.length === after.length && before.every((t, i) => t === after[i])) return;
  for (const t of before) st.run(DELETE, [idHash(t), market]);
  for (const t of after) st.run(INSERT, [idHash(t), market]);
}

/** Drops the entries of markets about to be deleted, given their rows (tradingColumns). */
export function forgetWrongIds(st: Statements, rows: readonly Row[]): void {
  for (const row of rows) for (const t of wrongIdsOfRow(row)) st.run(DELETE, [idHash(t), row[0] as number]);
}

/** Migration v8's fill: the entries of every market already cached. Returns how many were written. */
export function backfillWrongTradingIds(db: Database): number {
  const select = db.prepare(`SELECT ${tradingColumns('m')} FROM markets m WHERE m."version" IN ('v1', 'v2')`);
  const insert = db.prepare(INSERT);
  let n = 0;
  try {
    while (select.step()) {
      const row = select.get();
      for (const t of wrongIdsOfRow(row)) {
        insert.run([idHash(t), row[0] as number]);
        n++;
      }
    }
  } finally {
    select.free();
    insert.free();
  }
  return n;
}

/**
 * The market that names `id` as a wrong trading id, read back from its fields (a hash hit that the
 * market's fields do not confirm is no answer); undefined for any other id.
 */
export function lookupWrongTradingId(st: Statements, id: string): WrongTradingId | undefined {
  if (!DECIMAL_ID.test(id)) return undefined;
  const market = st.value('SELECT market FROM wrong_trading_ids WHERE h = ?', [idHash(id)]);
  if (typeof market !== 'number') return undefined;
  const row = st.first(`SELECT ${tradingColumns('m')} FROM markets m WHERE m.id = ?`, [market]);
  if (!row) return undefined;
  const m = FIELDS.map(row) as TradingFields;
  if (!wrongIdsOf(m).includes(id)) return undefined;
  const version = m.version as ProtocolVersion;
  const field = WRONG_FIELD[version];
  const tradeBy = TRADING_ID_FIELD[version];
  const at = jsonList(m[field]).indexOf(id);
  const other = jsonList(m[tradeBy])[at];
  return {
    market: String(market),
    version,
    field,
    tradeBy,
    instead: typeof other === 'string' && DECIMAL_ID.test(other) ? other : undefined,
  };
}
