/**
 * The catalog's memory (issue 16): price and activity snapshots, revisions of rules and titles,
 * and the change feed, in the cache file so they survive restarts and answer offline.
 *
 * Recording runs inside the writer's upsert: TEMP triggers (per connection, never persisted)
 * compare the incoming row with the stored one before `INSERT OR REPLACE` replaces it. They act
 * only while `_hist_clock` holds a time, which the recorder sets per batch (history-recorder.ts):
 * a bulk load into an empty cache, or a cache with recording off, leaves it empty and records
 * nothing. Prices are integers in 1/10,000, money whole dollars, times epoch seconds. The tables:
 * migrations.ts v6.
 */
import type { Database } from 'sql.js';

/** First outcome's price (Gamma's outcomePrices[0], a JSON string of strings) in 1/10,000. */
const px = (r: string) =>
  `(CASE WHEN json_valid(${r}."outcomePrices") THEN ` +
  `CAST(round(CAST(json_extract(${r}."outcomePrices", '$[0]') AS REAL) * 10000) AS INTEGER) END)`;
const p4 = (v: string) => `CAST(round(${v} * 10000) AS INTEGER)`;
const whole = (v: string) => `CAST(round(${v}) AS INTEGER)`;
/** Resolved: UMA says so, or the market closed with an outcome at exactly 1 (never NULL, so NOT works). */
export const resolved = (r: string) =>
  `(${r}."umaResolutionStatus" IS 'resolved' OR (${r}."closed" IS 1 AND coalesce(${r}."outcomePrices" LIKE '%"1"%', 0)))`;
const winner = (r: string) =>
  `(SELECT o.value FROM json_each(CASE WHEN json_valid(${r}."outcomes") THEN ${r}."outcomes" ELSE '[]' END) o, ` +
  `json_each(CASE WHEN json_valid(${r}."outcomePrices") THEN ${r}."outcomePrices" ELSE '[]' END) p ` +
  'WHERE o.key = p.key AND CAST(p.value AS REAL) = 1 LIMIT 1)';
/**
 * A change worth a snapshot: prices by 0.1 point, money by 5%, at most every MIN_GAP_S per market
 * (a busy market would otherwise take one a minute); a price jump of BIG_MOVE, or a liquidity move
 * as large as a reported one (history-recorder.ts), is kept at once.
 */
const MIN_GAP_S = 300;
const BIG_MOVE = 200;
const moved = (a: string, b: string, t: number) => `(${a} IS NOT ${b} AND (${a} IS NULL OR ${b} IS NULL OR abs(${a} - ${b}) >= ${t}))`;
const movedRel = (a: string, b: string) => `(${a} IS NOT ${b} AND (${a} IS NULL OR ${b} IS NULL OR abs(${a} - ${b}) * 20 >= abs(${b})))`;

const SNAP_COLS = ['price', 'bid', 'ask', 'last', 'vol24', 'liq'] as const;
const snapExprs = (r: string) => [
  px(r),
  p4(`${r}."bestBid"`),
  p4(`${r}."bestAsk"`),
  p4(`${r}."lastTradePrice"`),
  whole(`${r}."volume24hr"`),
  whole(`${r}._liquidity`),
];
const snapValues = (r: string) => snapExprs(r).join(', ');

/** Whether new values `v` are worth a snapshot after the market's last one `l` (absent: NULLs), at time `now`. */
const snapshotDue = (now: string) =>
  `(l.ts IS NULL
      OR abs(v.price - l.price) >= ${BIG_MOVE} OR abs(v.liq - l.liq) >= max(1000, abs(l.liq) / 4)
      OR (${now} - l.ts >= ${MIN_GAP_S} AND (${['price', 'bid', 'ask', 'last'].map((k) => moved(`v.${k}`, `l.${k}`, 10)).join(' OR ')}
        OR ${movedRel('v.vol24', 'l.vol24')} OR ${movedRel('v.liq', 'l.liq')}))
      OR (${now} - l.ts >= 3600 AND (${SNAP_COLS.map((k) => `v.${k} IS NOT l.${k}`).join(' OR ')})))`;

/**
 * A live price (src/service/live-history.ts) as a snapshot, by the rule the sync's snapshots follow
 * (snapshotDue): ?1 market id, ?2 time (epoch s), ?3..?6 price, bid, ask and last trade in
 * 1/10,000. Live moves extend a market's history: the first snapshots come from the catalog (its
 * stored values as the baseline), so a market without one, closed, or snapshotted this second
 * gets none. Money stays the last snapshot's (the stream carries none).
 */
export const LIVE_SNAPSHOT =
  `WITH l AS (SELECT ts, ${SNAP_COLS.join(', ')} FROM market_history WHERE market_id = ?1 ORDER BY ts DESC LIMIT 1), ` +
  'v AS (SELECT ?3 AS price, ?4 AS bid, ?5 AS ask, ?6 AS last, (SELECT vol24 FROM l) AS vol24, (SELECT liq FROM l) AS liq) ' +
  `INSERT INTO market_history (market_id, ts, ${SNAP_COLS.join(', ')}) ` +
  'SELECT ?1, ?2, v.price, v.bid, v.ask, v.last, v.vol24, v.liq FROM v JOIN l ON l.ts < ?2 ' +
  `WHERE EXISTS (SELECT 1 FROM markets o WHERE o.id = ?1 AND o."closed" IS NOT 1) AND ${snapshotDue('?2')}`;

/**
 * `move_refs` kinds beside the price (0) and liquidity (1) references: a resolution the live layer
 * reported (history-recorder.ts `resolvedLive`), so the sync's trigger does not report it again.
 */
export const RESOLVED_LIVE_REF = 2;

const NEWLY_RESOLVED = ` OR (${resolved('NEW')} AND NOT ${resolved('o')})`;
/**
 * A field edited: a value that differs. A value gone (NULL) is not an edit: a partial copy (an
 * event nested in a market) leaves fields out.
 */
const edited = (f: string) => `(NEW."${f}" IS NOT NULL AND o."${f}" IS NOT NEW."${f}")`;

const MARKET_REVISED = ['question', 'description', 'resolutionSource', 'endDate', 'outcomes'];
const EVENT_REVISED = ['title', 'description', 'resolutionSource', 'endDate'];

function revisionInsert(entity: 0 | 1, table: string, fields: readonly string[]): string {
  const parts = fields.map(
    (f) => `SELECT '${f}' AS f, o."${f}" AS b, NEW."${f}" AS a FROM ${table} o WHERE o.id = NEW.id AND ${edited(f)}`,
  );
  return (
    `INSERT INTO revisions (entity, ref_id, at, field, before, after) SELECT ${entity}, NEW.id, c.now, x.f, x.b, x.a ` +
    `FROM _hist_clock c, (${parts.join(' UNION ALL ')}) x;`
  );
}

/** Change rows for edits of the rules, the end date and closing, shared by markets and events. */
function editChanges(entity: 0 | 1, table: string): string {
  const from = `FROM ${table} o, _hist_clock c WHERE o.id = NEW.id`;
  const ins = 'INSERT INTO changes (at, kind, entity, ref_id, before, after)';
  return `
  ${ins} SELECT c.now, 'rule_edit', ${entity}, NEW.id,
    json_object('description', o."description", 'resolutionSource', o."resolutionSource"),
    json_object('description', NEW."description", 'resolutionSource', NEW."resolutionSource")
    ${from} AND (${edited('description')} OR ${edited('resolutionSource')});
  ${ins} SELECT c.now, 'end_date', ${entity}, NEW.id, json_quote(o."endDate"), json_quote(NEW."endDate")
    ${from} AND ${edited('endDate')};
  ${ins} SELECT c.now, 'closed', ${entity}, NEW.id, 'false', 'true' ${from} AND o."closed" IS NOT 1 AND NEW."closed" = 1;`;
}

const editedWhen = (table: string, fields: readonly string[], extra: string) =>
  `EXISTS (SELECT 1 FROM _hist_clock) AND EXISTS (SELECT 1 FROM ${table} o WHERE o.id = NEW.id AND (` +
  `${fields.map(edited).join(' OR ')} OR (o."closed" IS NOT 1 AND NEW."closed" = 1)${extra}))`;

const HISTORY_TRIGGERS: Record<string, string> = {
  hist_market_snap: `BEFORE INSERT ON main.markets WHEN NEW."closed" IS NOT 1 AND EXISTS (SELECT 1 FROM _hist_clock) BEGIN
  -- The first snapshot of a market already cached: its stored values, as of its last update.
  INSERT INTO market_history (market_id, ts, ${SNAP_COLS.join(', ')})
    SELECT o.id, min(coalesce(o._updated_ts / 1000, c.now - 1), c.now - 1), ${snapValues('o')}
    FROM markets o, _hist_clock c
    WHERE o.id = NEW.id AND o."closed" IS NOT 1 AND NOT EXISTS (SELECT 1 FROM market_history h WHERE h.market_id = NEW.id);
  INSERT INTO market_history (market_id, ts, ${SNAP_COLS.join(', ')})
    SELECT NEW.id, c.now, v.price, v.bid, v.ask, v.last, v.vol24, v.liq
    FROM _hist_clock c, (SELECT ${snapExprs('NEW')
      .map((e, i) => `${e} AS ${SNAP_COLS[i]}`)
      .join(', ')}) v
    LEFT JOIN (SELECT * FROM market_history WHERE market_id = NEW.id ORDER BY ts DESC LIMIT 1) l
    WHERE ${snapshotDue('c.now')};
  -- changes(): rows the snapshot insert just above wrote.
  INSERT INTO _hist_touched (id) SELECT NEW.id WHERE changes() > 0;
END`,
  hist_market_new: `BEFORE INSERT ON main.markets WHEN NEW."closed" IS NOT 1 AND EXISTS (SELECT 1 FROM _hist_clock)
    AND NOT EXISTS (SELECT 1 FROM markets o WHERE o.id = NEW.id) BEGIN
  INSERT INTO changes (at, kind, entity, ref_id, before, after)
    SELECT c.now, 'new_market', 0, NEW.id, NULL, json_object('price', ${px('NEW')} / 10000.0) FROM _hist_clock c;
END`,
  hist_market_edit: `BEFORE INSERT ON main.markets WHEN ${editedWhen('markets', MARKET_REVISED, NEWLY_RESOLVED)} BEGIN
  ${revisionInsert(0, 'markets', MARKET_REVISED)}
  ${editChanges(0, 'markets')}
  INSERT INTO changes (at, kind, entity, ref_id, before, after)
    SELECT c.now, 'resolved', 0, NEW.id, NULL, json_object('winner', ${winner('NEW')}, 'outcomePrices',
      CASE WHEN json_valid(NEW."outcomePrices") THEN json(NEW."outcomePrices") END)
    FROM markets o, _hist_clock c WHERE o.id = NEW.id AND ${resolved('NEW')} AND NOT ${resolved('o')}
      AND NOT EXISTS (SELECT 1 FROM move_refs r WHERE r.market_id = NEW.id AND r.kind = ${RESOLVED_LIVE_REF});
END`,
  hist_event_new: `BEFORE INSERT ON main.events WHEN NEW."closed" IS NOT 1 AND EXISTS (SELECT 1 FROM _hist_clock)
    AND NOT EXISTS (SELECT 1 FROM events o WHERE o.id = NEW.id) BEGIN
  INSERT INTO changes (at, kind, entity, ref_id, before, after) SELECT c.now, 'new_event', 1, NEW.id, NULL, NULL FROM _hist_clock c;
END`,
  hist_event_edit: `BEFORE INSERT ON main.events WHEN ${editedWhen('events', EVENT_REVISED, '')} BEGIN
  ${revisionInsert(1, 'events', EVENT_REVISED)}
  ${editChanges(1, 'events')}
END`,
};

/** Creates the per-connection recording objects; idempotent. */
export function installHistoryTriggers(db: Database): void {
  db.exec('CREATE TEMP TABLE IF NOT EXISTS _hist_clock (now INTEGER NOT NULL)');
  db.exec('CREATE TEMP TABLE IF NOT EXISTS _hist_touched (id INTEGER PRIMARY KEY)');
  for (const [name, body] of Object.entries(HISTORY_TRIGGERS)) db.exec(`CREATE TEMP TRIGGER IF NOT EXISTS ${name} ${body}`);
}

/** Removes the triggers (recording off: the upsert then costs exactly what it did before). */
export function dropHistoryTriggers(db: Database): void {
  for (const name of Object.keys(HISTORY_TRIGGERS)) db.exec(`DROP TRIGGER IF EXISTS temp.${name}`);
}
