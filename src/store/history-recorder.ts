/**
 * Drives the recording of history-schema.ts around each write batch: sets the batch's time
 * before the upserts (the triggers record then), and after them, inside the same transaction,
 * reports price and liquidity moves of the markets just snapshotted, records tag edits (the
 * writer tells), and once an hour thins old snapshots. Recording is off while a bulk load fills
 * an empty cache: the first load is not "new". The live side writes here too (`recordLive`,
 * `resolvedLive`): live prices under the same snapshot rule, and resolutions heard on the channel.
 */
import type { Database } from 'sql.js';
import { dropHistoryTriggers, installHistoryTriggers, LIVE_SNAPSHOT, RESOLVED_LIVE_REF, resolved } from './history-schema.ts';
import type { Statements } from './statements.ts';

/** A price move worth a change record: 5 points (in 1/10,000) against the price 24 h before. */
export const PRICE_MOVE = 500;
/** A liquidity move: a quarter of the earlier value, and at least $1,000. */
export const LIQUIDITY_MOVE = { ratio: 0.25, min: 1000 };
const DAY_S = 86_400;
const HOUR_S = 3_600;
/** Full detail this long, hourly until THIN_DAILY_S, daily after. */
export const FULL_DETAIL_S = 7 * DAY_S;
export const THIN_DAILY_S = 90 * DAY_S;
const THINNED_KEY = 'history.thinnedAt';
/** meta: epoch seconds of the first batch the recorder watched. */
export const WATCHING_KEY = 'history.watchingSince';

/** A market's live prices (dollars, 0..1) to record: its first outcome's price, best bid and ask, and last trade. */
export interface LivePricePoint {
  marketId: number;
  price: number;
  bid: number | null;
  ask: number | null;
  last: number | null;
}

const p4 = (v: number | null) => (v === null ? null : Math.round(v * 10_000));

export class HistoryRecorder {
  /** False during a bulk load into an empty cache. */
  private active = true;
  private enabled = true;
  private batchAt: number | null = null;

  constructor(
    private readonly db: Database,
    private readonly st: Statements,
    /** Epoch ms (tests and the bench move it). */
    public now: () => number = Date.now,
  ) {
    try {
      installHistoryTriggers(db);
    } catch {
      // A cache that cannot take even TEMP objects is only read: nothing to record.
      this.enabled = false;
    }
  }

  /** Turns recording on or off (the bench's "without" run: the triggers are dropped). */
  setEnabled(on: boolean): void {
    this.enabled = on;
    if (on) installHistoryTriggers(this.db);
    else dropHistoryTriggers(this.db);
  }

  /**
   * Runs `fn` without recording (a bulk load into an empty cache). The triggers are dropped for it:
   * even with nothing to record, testing their conditions on every upsert took the market upsert
   * of a 100k-market load from 2.0 to 3.8 s.
   */
  async suspended<T>(fn: () => Promise<T>): Promise<T> {
    this.active = false;
    if (this.enabled) dropHistoryTriggers(this.db);
    try {
      const out = await fn();
      // The load is the feed's baseline: it watches from its end (changes-reader.ts watchingSince).
      if (this.enabled) this.noteWatching(Math.floor(this.now() / 1000));
      return out;
    } finally {
      this.active = true;
      if (this.enabled) installHistoryTriggers(this.db);
    }
  }

  /** Inside the batch's transaction, before its upserts. */
  begin(): void {
    this.batchAt = null;
    if (!this.enabled || !this.active) return;
    this.batchAt = Math.floor(this.now() / 1000);
    this.st.run('DELETE FROM _hist_clock');
    this.st.run('INSERT INTO _hist_clock (now) VALUES (?)', [this.batchAt]);
  }

  /** The first recorded batch (or bulk load): the feed knows the changes from then on (changes-reader.ts watchingSince). */
  private noteWatching(at: number): void {
    this.st.run('INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)', [WATCHING_KEY, String(at)]);
  }

  /** Inside the batch's transaction, after its upserts. */
  end(): void {
    const at = this.batchAt;
    if (at === null) return;
    this.st.run('DELETE FROM _hist_clock');
    this.batchAt = null;
    this.noteWatching(at);
    this.reportMoves(at);
    this.st.run('DELETE FROM _hist_touched');
    const thinned = Number(this.st.value('SELECT value FROM meta WHERE key = ?', [THINNED_KEY]) ?? 0);
    if (at - thinned >= HOUR_S) this.thin(at, thinned);
  }

  /**
   * Live prices (src/service/live-history.ts), in one transaction: each a snapshot when the
   * snapshot rule takes it (history-schema.ts LIVE_SNAPSHOT), then, as after a batch, the moves
   * of the markets snapshotted are reported and old snapshots thinned once an hour. Returns the
   * snapshots written. Nothing while recording is off.
   */
  recordLive(points: readonly LivePricePoint[]): number {
    if (!this.enabled || !this.active || points.length === 0) return 0;
    const at = Math.floor(this.now() / 1000);
    let written = 0;
    this.st.transaction(() => {
      for (const p of points) {
        this.st.run(LIVE_SNAPSHOT, [p.marketId, at, p4(p.price), p4(p.bid), p4(p.ask), p4(p.last)]);
        if (this.st.changes() === 0) continue;
        written++;
        this.st.run('INSERT OR IGNORE INTO _hist_touched (id) VALUES (?)', [p.marketId]);
      }
      if (written === 0) return;
      this.reportMoves(at);
      this.st.run('DELETE FROM _hist_touched');
      const thinned = Number(this.st.value('SELECT value FROM meta WHERE key = ?', [THINNED_KEY]) ?? 0);
      if (at - thinned >= HOUR_S) this.thin(at, thinned);
    });
    return written;
  }

  /**
   * A resolution the live layer heard (`market_resolved`): a `resolved` change as the sync's trigger
   * writes it, at once, unless the cache already knew it resolved or it was reported. The market is
   * remembered (move_refs), so the sync's trigger does not report it again when the catalog follows.
   */
  resolvedLive(marketId: number, winner: string | null, outcomePrices: string | null): boolean {
    if (!this.enabled || !this.active) return false;
    const at = Math.floor(this.now() / 1000);
    let wrote = false;
    this.st.transaction(() => {
      const known =
        this.st.value('SELECT 1 FROM move_refs WHERE market_id = ? AND kind = ?', [marketId, RESOLVED_LIVE_REF]) !== undefined ||
        this.st.value(`SELECT 1 FROM markets m WHERE m.id = ? AND ${resolved('m')}`, [marketId]) !== undefined;
      if (known) return;
      this.st.run(
        "INSERT INTO changes (at, kind, entity, ref_id, before, after) VALUES (?, 'resolved', 0, ?, NULL, " +
          "json_object('winner', ?, 'outcomePrices', json(?)))",
        [at, marketId, winner, outcomePrices],
      );
      this.st.run('INSERT OR REPLACE INTO move_refs (market_id, kind, at, value) VALUES (?, ?, ?, NULL)', [
        marketId,
        RESOLVED_LIVE_REF,
        at,
      ]);
      wrote = true;
    });
    return wrote;
  }

  /** An event's tag list changed (writer): a revision and a `tags` change, as tag slugs. */
  tagsChanged(eventId: number, before: readonly number[], after: readonly number[]): void {
    if (this.batchAt === null) return;
    const slugs = (ids: readonly number[]) =>
      JSON.stringify(ids.map((id) => String(this.st.value('SELECT coalesce("slug", "label", id) FROM tags WHERE id = ?', [id]) ?? id)));
    const b = slugs(before);
    const a = slugs(after);
    if (b === a) return;
    this.st.run('INSERT INTO revisions (entity, ref_id, at, field, before, after) VALUES (1, ?, ?, ?, ?, ?)', [
      eventId,
      this.batchAt,
      'tags',
      b,
      a,
    ]);
    this.st.run('INSERT INTO changes (at, kind, entity, ref_id, before, after) VALUES (?, ?, 1, ?, ?, ?)', [
      this.batchAt,
      'tags',
      eventId,
      b,
      a,
    ]);
  }

  /**
   * For each market snapshotted in this batch: its price and liquidity against the reference,
   * which is the last move reported within 24 h, else the snapshot 24 h before (or the oldest
   * since). Past the threshold, a change record, and the new value becomes the reference.
   */
  private reportMoves(at: number): void {
    const dayAgo = at - DAY_S;
    // The reference snapshot: the last one at or before 24 h ago, else the oldest since.
    const ts0 =
      'coalesce((SELECT max(x.ts) FROM market_history x WHERE x.market_id = t.id AND x.ts <= ?1), ' +
      '(SELECT min(x.ts) FROM market_history x WHERE x.market_id = t.id AND x.ts > ?1))';
    const rows = this.st.all(
      'SELECT q.id, h.price, coalesce(r0.value, old.price), h.liq, coalesce(r1.value, old.liq) ' +
        `FROM (SELECT t.id, ${ts0} AS ts0 FROM _hist_touched t) q ` +
        // CROSS JOIN keeps this order: the planner would rather scan the whole history for the few touched ids.
        'CROSS JOIN market_history h ON h.market_id = q.id AND h.ts = ?2 ' +
        'LEFT JOIN market_history old ON old.market_id = q.id AND old.ts = q.ts0 ' +
        'LEFT JOIN move_refs r0 ON r0.market_id = q.id AND r0.kind = 0 AND r0.at > ?1 ' +
        'LEFT JOIN move_refs r1 ON r1.market_id = q.id AND r1.kind = 1 AND r1.at > ?1',
      [dayAgo, at],
    );
    for (const [id, price, refPrice, liq, refLiq] of rows as [number, number | null, number | null, number | null, number | null][]) {
      if (price !== null && refPrice !== null && Math.abs(price - refPrice) >= PRICE_MOVE) {
        this.move(at, id, 0, 'price_move', refPrice / 10_000, price / 10_000, price);
      }
      if (
        liq !== null &&
        refLiq !== null &&
        Math.abs(liq - refLiq) >= Math.max(LIQUIDITY_MOVE.min, LIQUIDITY_MOVE.ratio * Math.abs(refLiq))
      ) {
        this.move(at, id, 1, 'liquidity_move', refLiq, liq, liq);
      }
    }
  }

  private move(at: number, id: number, kind: number, name: string, before: number, after: number, value: number): void {
    this.st.run('INSERT INTO changes (at, kind, entity, ref_id, before, after) VALUES (?, ?, 0, ?, ?, ?)', [
      at,
      name,
      id,
      JSON.stringify(before),
      JSON.stringify(after),
    ]);
    this.st.run('INSERT OR REPLACE INTO move_refs (market_id, kind, at, value) VALUES (?, ?, ?, ?)', [id, kind, at, value]);
  }

  /**
   * Keeps the first snapshot of each hour once older than 7 days, and of each day once older
   * than 90. Only the span that aged past a boundary since the last thinning is looked at.
   */
  thin(at: number, since = 0): void {
    const span = (age: number, bucket: number) => {
      const hi = at - age;
      const lo = Math.max(0, since - age - bucket);
      if (hi <= lo) return;
      this.st.run(
        'DELETE FROM market_history WHERE ts > ? AND ts <= ? AND EXISTS (SELECT 1 FROM market_history p ' +
          'WHERE p.market_id = market_history.market_id ' +
          'AND p.ts >= market_history.ts - market_history.ts % ? AND p.ts < market_history.ts)',
        [lo, hi, bucket],
      );
    };
    span(FULL_DETAIL_S, HOUR_S);
    span(THIN_DAILY_S, DAY_S);
    this.st.run('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)', [THINNED_KEY, String(at)]);
  }
}
