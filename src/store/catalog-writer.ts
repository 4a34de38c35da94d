/**
 * Writes upstream objects into the cache. Everything in one batch is one transaction, so a
 * crash leaves the previous state; links (market-event, event-tag, event-series) and the
 * denormalised market_tags table are kept in step inside the same transaction.
 */
import type { GammaEvent, GammaMarket, GammaSeries, GammaTag } from '../contract/gamma.ts';
import { EVENT_FIELDS, MARKET_FIELDS, SERIES_FIELDS, TAG_FIELDS, columnList, toColumns, type FieldSpec } from './fields.ts';
import { parseTs } from '../logger.ts';
import { marketMoveKeys, refreshEventMoveKeys } from './move-keys.ts';
import { flushSearchIndex } from './search-index.ts';
import { placeholders, type Row, type Statements } from './statements.ts';
import { replaceWrongIds, tradingColumns, wrongIdsOf, wrongIdsOfRow } from './trading-id-index.ts';

export interface BatchInput {
  events?: readonly GammaEvent[];
  markets?: readonly GammaMarket[];
  tags?: readonly GammaTag[];
}

export interface BatchResult {
  markets: number;
  events: number;
  tags: number;
  /** Items whose id is not a decimal integer; they cannot be cached. */
  rejected: number;
}

/** Position given to a link whose place inside the event is unknown (it came from the market side). */
const UNKNOWN_POSITION = 1_000_000;

export function numericId(id: unknown): number | null {
  if (typeof id === 'number' && Number.isSafeInteger(id) && id >= 0) return id;
  if (typeof id !== 'string' || !/^\d{1,15}$/.test(id)) return null;
  return Number(id);
}

function num(v: unknown): number | null {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v.trim() !== '') {
    const n = Number(v);
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

function lower(v: unknown): string | null {
  return typeof v === 'string' && v !== '' ? v.toLowerCase() : null;
}

function upsertSql(table: string, specs: readonly FieldSpec[], derived: readonly string[]): string {
  const cols = ['id', columnList(specs), '_extra', ...derived].join(', ');
  const n = 1 + specs.length + 1 + derived.length;
  return `INSERT OR REPLACE INTO ${table} (${cols}) VALUES (${placeholders(n)})`;
}

const MARKET_DERIVED = [
  '_volume',
  '_liquidity',
  '_start_ts',
  '_end_ts',
  '_created_ts',
  '_updated_ts',
  '_closed_ts',
  '_condition_lc',
  '_creator_lc',
  '_chance',
  '_change_size',
];
const EVENT_DERIVED = ['_start_ts', '_end_ts', '_created_ts', '_updated_ts', '_closed_ts', '_slug_lc', '_creator_lc'];
const MARKET_UPSERT = upsertSql('markets', MARKET_FIELDS, MARKET_DERIVED);
const EVENT_UPSERT = upsertSql('events', EVENT_FIELDS, EVENT_DERIVED);
const TAG_UPSERT = upsertSql('tags', TAG_FIELDS, ['_slug_lc']);
const SERIES_UPSERT = upsertSql('series', SERIES_FIELDS, ['_slug_lc']);
/** A market's stored row as the writer reads it: `_updated_ts`, then what its wrong trading ids are made of. */
const MARKET_STORED = `SELECT m._updated_ts, ${tradingColumns('m')} FROM markets m WHERE m.id = ?`;

/** Told of each batch inside its transaction (history-recorder.ts records the catalog's changes). */
export interface WriteHooks {
  begin(): void;
  end(): void;
  tagsChanged(eventId: number, before: readonly number[], after: readonly number[]): void;
}

export class CatalogWriter {
  /** Markets whose tag set may have changed in the current batch. */
  private dirtyMarkets = new Set<number>();
  private dirtyEvents = new Set<number>();
  /** Markets and events whose rows or links were written: their events' move keys are recomputed (move-keys.ts). */
  private movedMarkets = new Set<number>();
  private movedEvents = new Set<number>();
  private result: BatchResult = { markets: 0, events: 0, tags: 0, rejected: 0 };

  constructor(
    private readonly st: Statements,
    private readonly hooks?: WriteHooks,
  ) {}

  apply(batch: BatchInput): BatchResult {
    this.result = { markets: 0, events: 0, tags: 0, rejected: 0 };
    this.dirtyMarkets.clear();
    this.dirtyEvents.clear();
    this.movedMarkets.clear();
    this.movedEvents.clear();
    try {
      this.writeBatch(batch);
    } catch (e) {
      this.tagSeen.clear(); // rolled back: what it remembered writing was not written
      throw e;
    }
    return this.result;
  }

  private writeBatch(batch: BatchInput): void {
    this.st.transaction(() => {
      this.hooks?.begin();
      for (const t of batch.tags ?? []) this.tag(t);
      for (const e of batch.events ?? []) this.event(e, true);
      for (const m of batch.markets ?? []) this.market(m, true);
      this.refreshMarketTags();
      refreshEventMoveKeys(this.st, this.movedMarkets, this.movedEvents);
      this.hooks?.end();
      flushSearchIndex(this.st);
    });
  }

  /**
   * The stored row's state against an incoming copy: absent (a new row, so it has no links to
   * compare either), current (stored is at least as new: keep it), or stale (overwrite).
   */
  private stored(table: 'markets' | 'events', id: number, updatedAt: unknown): 'absent' | 'current' | 'stale' {
    return this.staleness(this.st.first(`SELECT _updated_ts FROM ${table} WHERE id = ?`, [id]), updatedAt);
  }

  /** The state of a stored row whose first column is `_updated_ts` (see stored). */
  private staleness(row: Row | undefined, updatedAt: unknown): 'absent' | 'current' | 'stale' {
    if (!row) return 'absent';
    const incoming = parseTs(updatedAt);
    const stored = row[0];
    return incoming !== null && typeof stored === 'number' && stored >= incoming ? 'current' : 'stale';
  }

  private has(table: 'event_tags' | 'event_series', eventId: number): boolean {
    return this.st.first(`SELECT 1 FROM ${table} WHERE event_id = ? LIMIT 1`, [eventId]) !== undefined;
  }

  /** Tags repeat on every event that carries them: rewrite a tag only when its content changed. */
  private readonly tagSeen = new Map<number, string>();

  private tag(t: GammaTag): number | null {
    const id = numericId(t.id);
    if (id === null) {
      this.result.rejected++;
      return null;
    }
    const { values, extra } = toColumns(t, TAG_FIELDS);
    const key = JSON.stringify(values) + (extra ?? '');
    if (this.tagSeen.get(id) === key) return id;
    // Events carry snapshots of their tags of various ages: keep the newest.
    const incoming = parseTs(t.updatedAt);
    const stored = parseTs(this.st.value('SELECT "updatedAt" FROM tags WHERE id = ?', [id]));
    if (stored !== null && (incoming === null || incoming < stored)) return id;
    this.st.run(TAG_UPSERT, [id, ...values, extra, lower(t.slug)]);
    this.tagSeen.set(id, key);
    this.result.tags++;
    return id;
  }

  private series(s: GammaSeries): number | null {
    const id = numericId(s.id);
    if (id === null) return null;
    const { values, extra } = toColumns(s, SERIES_FIELDS);
    this.st.run(SERIES_UPSERT, [id, ...values, extra, lower(s.slug)]);
    return id;
  }

  /** `topLevel`: the event came from an event listing, so its `markets` list is complete. */
  private event(e: GammaEvent, topLevel: boolean): number | null {
    const id = numericId(e.id);
    if (id === null) {
      this.result.rejected++;
      return null;
    }
    const state = this.stored('events', id, e.updatedAt);
    if (state !== 'current') {
      const { values, extra } = toColumns(e, EVENT_FIELDS);
      this.st.run(EVENT_UPSERT, [
        id,
        ...values,
        extra,
        parseTs(e.startDate),
        parseTs(e.endDate),
        parseTs(e.createdAt),
        parseTs(e.updatedAt),
        parseTs(e.closedTime),
        lower(e.slug),
        lower(e['creator']),
      ]);
      // The row was replaced, its move keys with it.
      this.movedEvents.add(id);
      this.result.events++;
    }
    // An older copy's tags and series only fill in what the cache lacks; a newer copy's replace.
    if (Array.isArray(e.tags) && (state !== 'current' || !this.has('event_tags', id))) {
      const tagIds: number[] = [];
      for (const t of e.tags) {
        const tid = this.tag(t);
        if (tid !== null) tagIds.push(tid);
      }
      this.replaceEventTags(id, tagIds, state === 'absent');
    }
    if (Array.isArray(e.series) && (state !== 'current' || !this.has('event_series', id))) {
      if (state !== 'absent') this.st.run('DELETE FROM event_series WHERE event_id = ?', [id]);
      for (const s of e.series) {
        const sid = this.series(s);
        if (sid !== null) this.st.run('INSERT OR IGNORE INTO event_series (event_id, series_id) VALUES (?, ?)', [id, sid]);
      }
    }
    if (topLevel && Array.isArray(e.markets)) {
      const keep: number[] = [];
      const linked = new Set(
        state === 'absent' ? [] : this.st.all('SELECT market_id FROM market_events WHERE event_id = ?', [id]).map((r) => r[0] as number),
      );
      e.markets.forEach((m, position) => {
        const mid = this.market(m, false);
        if (mid === null) return;
        keep.push(mid);
        if (!linked.has(mid)) this.dirtyMarkets.add(mid);
        this.st.run(
          'INSERT INTO market_events (market_id, event_id, position) VALUES (?, ?, ?) ' +
            'ON CONFLICT (market_id, event_id) DO UPDATE SET position = excluded.position',
          [mid, id, position],
        );
      });
      // Markets that left the event lose the link (and so its tags).
      const gone =
        state === 'absent'
          ? []
          : this.st.all(
              `SELECT market_id FROM market_events WHERE event_id = ? AND market_id NOT IN (${placeholders(keep.length) || 'NULL'})`,
              [id, ...keep],
            );
      for (const [mid] of gone) {
        this.st.run('DELETE FROM market_events WHERE market_id = ? AND event_id = ?', [mid as number, id]);
        this.dirtyMarkets.add(mid as number);
      }
      if (gone.length > 0) this.movedEvents.add(id);
    }
    return id;
  }

  /** `topLevel`: the market came from a market listing, so its `events` list is complete. */
  private market(m: GammaMarket, topLevel: boolean): number | null {
    const id = numericId(m.id);
    if (id === null) {
      this.result.rejected++;
      return null;
    }
    // One read of the stored row: its age, and the ids its wrong-trading-id entries were made of.
    const row = this.st.first(MARKET_STORED, [id]);
    const state = this.staleness(row, m.updatedAt);
    if (state !== 'current') {
      const { values, extra } = toColumns(m, MARKET_FIELDS);
      const creator = lower(m['creator']) ?? lower(m['submitted_by']);
      this.st.run(MARKET_UPSERT, [
        id,
        ...values,
        extra,
        num(m.volumeNum) ?? num(m.volume),
        num(m.liquidityNum) ?? num(m.liquidity),
        parseTs(m['startDate']),
        parseTs(m['endDate']),
        parseTs(m.createdAt),
        parseTs(m.updatedAt),
        parseTs(m.closedTime),
        lower(m.conditionId),
        creator,
        ...marketMoveKeys(m),
      ]);
      this.movedMarkets.add(id);
      // The wrong trading ids follow the row (trading-id-index.ts): a new market has no entries to drop.
      replaceWrongIds(this.st, id, row ? wrongIdsOfRow(row.slice(1)) : [], wrongIdsOf(m));
      this.result.markets++;
    }
    if (topLevel && Array.isArray(m.events)) {
      const eventIds: number[] = [];
      for (const e of m.events) {
        const eid = this.event(e, false);
        if (eid !== null) eventIds.push(eid);
      }
      const current =
        state === 'absent' ? [] : this.st.all('SELECT event_id FROM market_events WHERE market_id = ?', [id]).map((r) => r[0] as number);
      const same = current.length === eventIds.length && eventIds.every((e) => current.includes(e));
      if (!same) {
        this.st.run(`DELETE FROM market_events WHERE market_id = ? AND event_id NOT IN (${placeholders(eventIds.length) || 'NULL'})`, [
          id,
          ...eventIds,
        ]);
        for (const eid of eventIds) {
          this.st.run('INSERT OR IGNORE INTO market_events (market_id, event_id, position) VALUES (?, ?, ?)', [id, eid, UNKNOWN_POSITION]);
        }
        this.dirtyMarkets.add(id);
        // Its old events lose it: their leader may change.
        for (const eid of current) this.movedEvents.add(eid);
        this.movedMarkets.add(id);
      }
    }
    return id;
  }

  private replaceEventTags(eventId: number, tagIds: number[], isNew: boolean): void {
    if (!isNew) {
      const current = this.st
        .all('SELECT tag_id FROM event_tags WHERE event_id = ? ORDER BY position', [eventId])
        .map((r) => r[0] as number);
      if (current.length === tagIds.length && current.every((t, i) => t === tagIds[i])) return;
      this.hooks?.tagsChanged(eventId, current, tagIds);
      this.st.run('DELETE FROM event_tags WHERE event_id = ?', [eventId]);
    }
    tagIds.forEach((tid, position) => {
      this.st.run('INSERT OR IGNORE INTO event_tags (event_id, tag_id, position) VALUES (?, ?, ?)', [eventId, tid, position]);
    });
    this.dirtyEvents.add(eventId);
  }

  /** Recomputes market_tags for markets whose links or whose events' tags changed. */
  private refreshMarketTags(): void {
    if (this.dirtyEvents.size > 0) {
      this.st.run('CREATE TEMP TABLE IF NOT EXISTS _dirty_events (id INTEGER PRIMARY KEY)');
      this.st.run('DELETE FROM _dirty_events');
      for (const id of this.dirtyEvents) this.st.run('INSERT INTO _dirty_events (id) VALUES (?)', [id]);
      for (const [mid] of this.st.all('SELECT DISTINCT market_id FROM market_events WHERE event_id IN (SELECT id FROM _dirty_events)')) {
        this.dirtyMarkets.add(mid as number);
      }
    }
    if (this.dirtyMarkets.size === 0) return;
    this.st.run('CREATE TEMP TABLE IF NOT EXISTS _dirty_markets (id INTEGER PRIMARY KEY)');
    this.st.run('DELETE FROM _dirty_markets');
    for (const id of this.dirtyMarkets) this.st.run('INSERT INTO _dirty_markets (id) VALUES (?)', [id]);
    this.st.run('DELETE FROM market_tags WHERE market_id IN (SELECT id FROM _dirty_markets)');
    this.st.run(
      'INSERT OR IGNORE INTO market_tags (tag_id, market_id) ' +
        'SELECT et.tag_id, me.market_id FROM market_events me JOIN event_tags et ON et.event_id = me.event_id ' +
        'WHERE me.market_id IN (SELECT id FROM _dirty_markets)',
    );
  }
}
