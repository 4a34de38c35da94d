/**
 * Prepared-statement cache over a sql.js database. Preparing costs more than running a small
 * indexed query, so each distinct SQL text is prepared once and reused.
 */
import type { Database, SqlValue, Statement } from 'sql.js';
import { fastBind } from './engine/fast-bind.ts';

export type Bind = SqlValue[];
export type Row = SqlValue[];

export class Statements {
  private readonly cache = new Map<string, Statement>();

  /** Sees every read (SQL and bindings); the benchmark replays them in native SQLite. */
  trace: ((sql: string, bind: Bind) => void) | undefined;
  /** Told of each write that reached the file (a COMMIT, or a statement outside a transaction), and of each that failed. */
  writes: { committed(): void; failed(e: unknown): void } | undefined;
  private depth = 0;
  /** Set by beginGroup: transactions are savepoints of one transaction that commits every `every` of them. */
  private grouping: { every: number; pending: number; open: boolean } | undefined;

  constructor(readonly db: Database) {}

  private prepared(sql: string): Statement {
    let st = this.cache.get(sql);
    if (!st) {
      st = this.db.prepare(sql);
      this.cache.set(sql, st);
    }
    return st;
  }

  /** Binds through engine/fast-bind.ts when it is on (strings cost sql.js most), else through sql.js. */
  private bind(st: Statement, bind: Bind): void {
    if (!fastBind()?.bind(st, bind)) st.bind(bind);
  }

  /** All rows as arrays (faster than objects; callers map columns by position). */
  all(sql: string, bind: Bind = []): Row[] {
    this.trace?.(sql, bind);
    const st = this.prepared(sql);
    try {
      this.bind(st, bind);
      const rows: Row[] = [];
      while (st.step()) rows.push(st.get());
      return rows;
    } finally {
      st.reset();
    }
  }

  first(sql: string, bind: Bind = []): Row | undefined {
    this.trace?.(sql, bind);
    const st = this.prepared(sql);
    try {
      this.bind(st, bind);
      return st.step() ? st.get() : undefined;
    } finally {
      st.reset();
    }
  }

  /** The first column of the first row, or undefined. */
  value(sql: string, bind: Bind = []): SqlValue | undefined {
    return this.first(sql, bind)?.[0];
  }

  run(sql: string, bind: Bind = []): void {
    const st = this.prepared(sql);
    try {
      this.bind(st, bind);
      st.step();
    } catch (e) {
      if (this.depth === 0) this.writes?.failed(e);
      throw e;
    } finally {
      st.reset();
    }
    // Inside an open group the statement is written at the group's COMMIT.
    if (this.depth === 0 && !this.grouping?.open) this.writes?.committed();
  }

  /**
   * Group commit, for a bulk load into an empty cache: from now until endGroup, each transaction()
   * is a savepoint (still all or nothing) of one transaction that commits every `every` of them.
   * A COMMIT per page of 100 markets writes the pages every batch shares (link tables, the search
   * index's segments, the tree's inner pages) to the WAL again each time; a kill loses at most the
   * open group, which a cut-short first load reads again anyway.
   */
  beginGroup(every: number): void {
    this.grouping = { every, pending: 0, open: false };
  }

  /** Commits what the group holds and goes back to one COMMIT per transaction. */
  endGroup(): void {
    const g = this.grouping;
    if (g?.open) this.commitGroup(g);
    this.grouping = undefined;
  }

  private commitGroup(g: { pending: number; open: boolean }): void {
    g.pending = 0;
    g.open = false;
    try {
      this.db.exec('COMMIT');
    } catch (e) {
      try {
        this.db.exec('ROLLBACK');
      } catch {
        // A failed COMMIT rolled back already.
      }
      this.writes?.failed(e);
      throw e;
    }
    this.writes?.committed();
  }

  private groupedTransaction<T>(g: { every: number; pending: number; open: boolean }, fn: () => T): T {
    if (!g.open) {
      this.db.exec('BEGIN');
      g.open = true;
    }
    const out = this.atomic(fn, 'SAVEPOINT batch', 'RELEASE batch', 'ROLLBACK TO batch; RELEASE batch', () => {
      // SQLite rolled the whole transaction back (SQLITE_FULL, SQLITE_IOERR): the group is gone.
      g.open = false;
      g.pending = 0;
    });
    if (++g.pending >= g.every) this.commitGroup(g);
    return out;
  }

  /** fn between `begin` and `end`; on error `undo`, or `undone` when there is nothing left to undo. */
  private atomic<T>(fn: () => T, begin: string, end: string, undo: string, undone: () => void): T {
    this.db.exec(begin);
    this.depth++;
    let out: T;
    try {
      out = fn();
      this.depth--;
      this.db.exec(end);
    } catch (e) {
      if (this.depth > 0) this.depth--;
      try {
        this.db.exec(undo);
      } catch {
        undone();
      }
      this.writes?.failed(e);
      throw e;
    }
    return out;
  }

  /**
   * Runs fn inside one transaction; rolls back and rethrows on error. The COMMIT is the write to
   * disk: when it fails (a full disk), SQLite has already rolled back, and the file keeps the
   * state before the transaction.
   */
  transaction<T>(fn: () => T): T {
    if (this.grouping && this.depth === 0) return this.groupedTransaction(this.grouping, fn);
    // A failed COMMIT (SQLITE_FULL, SQLITE_IOERR) rolled back already: no transaction is left to undo.
    const out = this.atomic(fn, 'BEGIN', 'COMMIT', 'ROLLBACK', () => undefined);
    this.writes?.committed();
    return out;
  }

  changes(): number {
    return this.db.getRowsModified();
  }

  close(): void {
    for (const st of this.cache.values()) st.free();
    this.cache.clear();
  }
}

/**
 * A memo valid until the database is next written: SQLite's total_changes() counts every row
 * this connection has changed, so when it moves the memo is emptied. Bounded in size.
 */
export class UntilWrite<K, V> {
  private stamp = -1;
  private readonly map = new Map<K, V>();
  constructor(
    private readonly st: Statements,
    private readonly max = 10_000,
  ) {}

  /** The memo's entries, emptied first if the database changed since they were made. */
  current(): Map<K, V> {
    const now = Number(this.st.value('SELECT total_changes()'));
    if (now !== this.stamp || this.map.size >= this.max) {
      this.map.clear();
      this.stamp = now;
    }
    return this.map;
  }

  get(key: K, compute: () => V): V {
    const map = this.current();
    let v = map.get(key);
    if (v === undefined) {
      v = compute();
      map.set(key, v);
    }
    return v;
  }
}

/** `?, ?, ?` for an IN list of n values. */
export function placeholders(n: number): string {
  return n === 0 ? '' : `?${', ?'.repeat(n - 1)}`;
}
