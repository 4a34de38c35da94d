/**
 * The sort keys of the "what moved" orders (issue 27; migrations.ts v9), derived once at write time so
 * each sort reads an index: a market's chance (market-rules.ts marketLeader, the one rule the grids
 * show) and the size of its 24h change; an event's leader's chance, 24h change and that change's size
 * (eventLeader, eventLeaderChange). An event's keys depend on its markets, which a batch may write
 * without the event (a market listing), so the writer recomputes the events of every market it wrote.
 */
import type { Database, SqlValue } from 'sql.js';
import { eventLeader, eventLeaderChange, marketLeader, type Ranked } from '../contract/market-rules.ts';
import type { Row, Statements } from './statements.ts';

type Key = number | null;

/** A market's `_chance` and `_change_size`. */
export function marketMoveKeys(m: { outcomes?: unknown; outcomePrices?: unknown; oneDayPriceChange?: unknown }): [Key, Key] {
  // A number only, as the `oneDayPriceChange` column its sign is sorted by (text goes to `_extra`: fields.ts).
  const change = m.oneDayPriceChange;
  return [marketLeader(m)?.price ?? null, typeof change === 'number' && Number.isFinite(change) ? Math.abs(change) : null];
}

/** What the leader rules read of a market, as columns: LEADER_COLS' order. */
const LEADER_COLS =
  'm.id, m."question", m."volumeNum", m."volume", m."closed", m."outcomes", m."outcomePrices", m."groupItemTitle", m."oneDayPriceChange"';

type LeaderInput = Ranked & { oneDayPriceChange?: unknown };

/** A row of LEADER_COLS (after the event id) as the rules' market; NULL columns left out. */
function leaderInput(r: Row, at: number): LeaderInput {
  const v = (i: number): SqlValue | undefined => r[at + i] ?? undefined;
  const m: Record<string, unknown> = { id: String(r[at]) };
  const names = ['question', 'volumeNum', 'volume', 'closed', 'outcomes', 'outcomePrices', 'groupItemTitle', 'oneDayPriceChange'];
  names.forEach((name, i) => {
    const x = v(i + 1);
    if (x !== undefined) m[name] = name === 'closed' ? x === 1 : x;
  });
  return m as unknown as LeaderInput;
}

/** An event's `_chance`, `_change` and `_change_size`, from its markets. */
export function eventMoveKeys(markets: readonly LeaderInput[]): [Key, Key, Key] {
  const change = eventLeaderChange(markets);
  return [eventLeader(markets)?.price ?? null, change ?? null, change === undefined ? null : Math.abs(change)];
}

/** The markets of the events `ids` (an IN subquery), event by event, in the event's order (the leader's tie-break, as served). */
const leaderRows = (ids: string) =>
  `SELECT me.event_id, ${LEADER_COLS} FROM market_events me JOIN markets m ON m.id = me.market_id ` +
  `WHERE me.event_id IN ${ids} ORDER BY me.event_id, me.position, me.market_id`;

/** Only a row whose keys changed is written: an unchanged one would still rewrite its index entries. */
const UPDATE_EVENT =
  'UPDATE events SET _chance = ?, _change = ?, _change_size = ? ' +
  'WHERE id = ? AND (_chance IS NOT ? OR _change IS NOT ? OR _change_size IS NOT ?)';

/** Groups leaderRows' rows by event; every id of `ids` is present (an event with no market: none). */
function byEvent(ids: Iterable<number>, rows: Iterable<Row>): Map<number, LeaderInput[]> {
  const out = new Map<number, LeaderInput[]>();
  for (const id of ids) out.set(id, []);
  for (const r of rows) {
    const id = r[0] as number;
    const list = out.get(id) ?? [];
    if (list.length === 0) out.set(id, list);
    list.push(leaderInput(r, 1));
  }
  return out;
}

const updateBind = (id: number, [c, ch, s]: [Key, Key, Key]) => [c, ch, s, id, c, ch, s];

/**
 * Recomputes the keys of the events of `markets` and of `events` (written in the current
 * transaction). Temp tables carry the ids, so a bulk batch is two statements, not one per event.
 */
export function refreshEventMoveKeys(st: Statements, markets: ReadonlySet<number>, events: ReadonlySet<number>): void {
  if (markets.size === 0 && events.size === 0) return;
  st.run('CREATE TEMP TABLE IF NOT EXISTS _move_events (id INTEGER PRIMARY KEY)');
  st.run('DELETE FROM _move_events');
  for (const id of events) st.run('INSERT OR IGNORE INTO _move_events (id) VALUES (?)', [id]);
  if (markets.size > 0) {
    st.run('CREATE TEMP TABLE IF NOT EXISTS _move_markets (id INTEGER PRIMARY KEY)');
    st.run('DELETE FROM _move_markets');
    for (const id of markets) st.run('INSERT INTO _move_markets (id) VALUES (?)', [id]);
    st.run('INSERT OR IGNORE INTO _move_events (id) SELECT event_id FROM market_events WHERE market_id IN (SELECT id FROM _move_markets)');
  }
  const ids = st.all('SELECT id FROM _move_events').map((r) => r[0] as number);
  const groups = byEvent(ids, st.all(leaderRows('(SELECT id FROM _move_events)')));
  for (const [id, list] of groups) st.run(UPDATE_EVENT, updateBind(id, eventMoveKeys(list)));
}

/** Fills the keys of every cached market and event (migration v9, in its transaction). */
export function backfillMoveKeys(db: Database): void {
  const markets = db.prepare('SELECT id, "outcomes", "outcomePrices", "oneDayPriceChange" FROM markets');
  const setMarket = db.prepare('UPDATE markets SET _chance = ?, _change_size = ? WHERE id = ?');
  const events = db.prepare(leaderRows('(SELECT id FROM events)'));
  const setEvent = db.prepare(UPDATE_EVENT);
  try {
    while (markets.step()) {
      const [id, outcomes, outcomePrices, oneDayPriceChange] = markets.get();
      setMarket.run([...marketMoveKeys({ outcomes, outcomePrices, oneDayPriceChange }), id as number]);
    }
    // Event by event as the rows come (ordered by event), never the whole catalog in memory.
    let id: number | undefined;
    let list: LeaderInput[] = [];
    const flush = () => id !== undefined && setEvent.run(updateBind(id, eventMoveKeys(list)));
    while (events.step()) {
      const r = events.get();
      if (r[0] !== id) {
        flush();
        id = r[0] as number;
        list = [];
      }
      list.push(leaderInput(r, 1));
    }
    flush();
  } finally {
    for (const s of [markets, setMarket, events, setEvent]) s.free();
  }
}
