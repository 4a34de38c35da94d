/**
 * The listings' pages: a page's ids in its order (off an index, a kept sorted id list, a merge of
 * closed arms, or from an id-order checkpoint when deep), then its rows by id.
 */
import type { Query } from './listing-plans.ts';
import { UntilWrite, placeholders, type Row, type Statements } from './statements.ts';

/** The table a listing pages: `from` is `<table> <alias>`, `idCol` `<alias>.id`, `cols` its whole row. */
export interface PagedTable {
  table: string;
  alias: string;
  from: string;
  idCol: string;
  cols: string;
}

/** The largest member set whose sorted ids are kept (8 bytes an id: 400 KB each, SORTED_MEMOS of them). */
const MAX_COLLECT = 50_000;
const SORTED_MEMOS = 16;
/** Id-order listings whose checkpoints are kept (a few KB each at a million rows). */
const ID_MARK_MEMOS = 16;
/** The arms of a closed-split page: every value `closed` holds (a boolean field Gamma left out is NULL). */
const CLOSED_ARMS = ['= 0', '= 1', 'IS NULL'];

export class ListingPages {
  /** Whole sorted id lists of collected listings (Query.collect), by SQL and bindings, until the next write. */
  private readonly sorted_: UntilWrite<string, number[]>;
  /** Id-order checkpoints (idMarks) by listing, until the next write. */
  private readonly idMarks_: UntilWrite<string, { ids: number[]; end: boolean }>;
  /**
   * Rows between two id-order checkpoints. A deep page in id order starts at the checkpoint before it
   * and skips at most this many rows (a setting for tests: the fixtures are small).
   */
  idMarkStep = 1024;

  constructor(private readonly st: Statements) {
    this.sorted_ = new UntilWrite(st, SORTED_MEMOS);
    this.idMarks_ = new UntilWrite(st, ID_MARK_MEMOS);
  }

  /**
   * One page of rows. The page is found by id first (`SELECT id ... ORDER BY ... LIMIT`), and
   * only its rows are read whole: where the plan sorts (no index walk fits the filters), the
   * sorter then holds ids and keys, not 2 KB rows. A popular tag sorted by end date at offset
   * 10,000 took a second the one-query way.
   */
  page(t: PagedTable, q: Query, sort: string[] | null, ascending: boolean, limit: number, offset: number): Row[] {
    return this.rowsById(t, this.ids(t, q, sort, ascending, limit, offset));
  }

  /**
   * One page's ids in `sort` order with nulls last and ties broken by id. A single sort column reads
   * straight off its index: descending puts NULLs last already; ascending reads the non-null
   * part first and continues into the NULL part only when the page runs past it.
   */
  ids(t: PagedTable, q: Query, sort: string[] | null, ascending: boolean, limit: number, offset: number): number[] {
    const { from, idCol } = t;
    const c = sort?.length === 1 ? sort[0]! : undefined;
    const split = q.split && c !== undefined && c !== idCol ? q.split : undefined;
    const terms = (extra?: string) => (extra ? [...q.where, extra] : q.where);
    const where = (all: string[]) => (all.length ? ` WHERE ${all.join(' AND ')}` : '');
    const src = q.index ? `${from} INDEXED BY ${q.index}` : from;
    /** The page's ids; `order` names the key as `$k` and the id as `$id`. */
    const ids = (extra: string | undefined, order: string, n: number, skip: number): number[] => {
      if (!split) {
        const orderBy = order.replaceAll('$k', c ?? idCol).replaceAll('$id', idCol);
        const sql = `SELECT ${idCol} FROM ${src}${where(terms(extra))} ORDER BY ${orderBy}`;
        if (q.collect !== undefined && q.collect <= MAX_COLLECT) {
          // The plan reads every member and sorts them for any page: keep the order for the next ones.
          const all = this.sorted_.get(`${sql}\u0000${JSON.stringify(q.bind)}`, () => this.st.all(sql, q.bind).map((r) => r[0] as number));
          return all.slice(skip, skip + n);
        }
        return this.st.all(`${sql} LIMIT ? OFFSET ?`, [...q.bind, n, skip]).map((r) => r[0] as number);
      }
      // The index decides the arms' order, so their status tests must be able to seek it: no `+`.
      const armTerms = terms(extra).map((w) => w.replace(/^\+/, ''));
      const closed = `${t.alias}."closed"`;
      const arms = CLOSED_ARMS.map(
        (cmp) => `SELECT ${idCol}, ${c} FROM ${from} INDEXED BY ${split}${where([...armTerms, `${closed} ${cmp}`])}`,
      );
      const sql = `${arms.join(' UNION ALL ')} ORDER BY ${order.replaceAll('$k', '2').replaceAll('$id', '1')} LIMIT ? OFFSET ?`;
      return this.st.all(sql, [...q.bind, ...q.bind, ...q.bind, n, skip]).map((r) => r[0] as number);
    };
    const idOrder = !sort || (sort.length === 1 && c === idCol);
    // Not for a screen's own index (q.index): it leads with the end date, so no hop could seek an id.
    if (idOrder && !split && q.collect === undefined && q.index === undefined && offset >= this.idMarkStep) {
      // The narrow (id, status) index, never the table's 2 KB rows (without a status test the planner reads the table by rowid).
      const narrow = `${from} INDEXED BY ${t.table}_id_status`;
      return this.deepIdPage(narrow, idCol, q, !sort || ascending ? 'ASC' : 'DESC', limit, offset);
    }
    if (!sort) return ids(undefined, '$id ASC', limit, offset);
    const dir = ascending ? 'ASC' : 'DESC';
    if (sort.length > 1) {
      const order = sort.map((k) => `(${k} IS NULL), ${k} ${dir}`).join(', ');
      return ids(undefined, `${order}, $id ${dir}`, limit, offset);
    }
    if (c === idCol || !ascending) return ids(undefined, `$k ${dir}, $id ${dir}`, limit, offset);
    // `+`: the test must not pick the key's own index as a range (key > NULL) over the status index, which
    // reads a row per entry for its status: `closed=true` by 24h volume ascending, 400 ms at 100k with no match.
    const first = ids(`+${c} IS NOT NULL`, '$k ASC, $id ASC', limit, offset);
    if (first.length === limit) return first;
    let nullOffset = 0;
    if (first.length === 0 && offset > 0) {
      const nonNull = Number(this.st.value(`SELECT count(*) FROM ${src}${where(terms(`${c} IS NOT NULL`))}`, q.bind) ?? 0);
      nullOffset = Math.max(0, offset - nonNull);
    }
    return first.concat(ids(`${c} IS NULL`, '$id ASC', limit - first.length, nullOffset));
  }

  /**
   * A deep page in id order (the default, and what scripts page through by offset). OFFSET skips
   * rows one by one, so every page at offset 700,000 read 700,000 index entries (about 20 ms at a
   * million markets), and paging through the whole catalog cost the square of its size. Instead the
   * ids at every idMarkStep-th place of the listing are kept until the next write, found as far as
   * pages have asked (each one hop of idMarkStep rows from the one before); a page starts at the
   * checkpoint before it (`id >= mark`) and skips fewer than idMarkStep rows. (A window function's
   * row_number() found them all in one statement, but took 1.8 s at a million markets.)
   */
  private deepIdPage(src: string, idCol: string, q: Query, dir: 'ASC' | 'DESC', limit: number, offset: number): number[] {
    const step = this.idMarkStep;
    const after = dir === 'ASC' ? '>' : '<';
    const where = (seek?: string) => {
      const all = seek ? [...q.where, `${idCol} ${seek}`] : q.where;
      return all.length ? ` WHERE ${all.join(' AND ')}` : '';
    };
    const order = ` ORDER BY ${idCol} ${dir} LIMIT 1 OFFSET`;
    // marks.ids[k - 1] is the id at place k * step (0-based), k >= 1.
    const marks = this.idMarks_.get(`${step}\u0000${src}${where()}\u0000${dir}\u0000${JSON.stringify(q.bind)}`, () => ({
      ids: [],
      end: false,
    }));
    const k = Math.floor(offset / step);
    if (marks.ids.length < k && !marks.end) {
      // The missing hops in one statement (a recursive CTE): SQLite runs them without a call from JS each.
      const last = marks.ids.at(-1);
      const [first, firstBind] =
        last === undefined
          ? [`SELECT ${idCol} FROM ${src}${where()}${order} ${step}`, q.bind]
          : [`SELECT ${idCol} FROM ${src}${where(`${after} ?`)}${order} ${step - 1}`, [...q.bind, last]];
      const next = `SELECT ${idCol} FROM ${src}${where(`${after} hop.id`)}${order} ${step - 1}`;
      const found = this.st
        .all(
          `WITH RECURSIVE hop(id, n) AS (SELECT (${first}), 1 UNION ALL SELECT (${next}), n + 1 FROM hop WHERE id IS NOT NULL AND n < ?) ` +
            'SELECT id FROM hop',
          [...firstBind, ...q.bind, k - marks.ids.length],
        )
        .map((r) => r[0]);
      for (const id of found) {
        if (id === null) marks.end = true;
        else marks.ids.push(id as number);
      }
    }
    // The listing ends before place k * step.
    if (k > marks.ids.length) return [];
    const sql = `SELECT ${idCol} FROM ${src}${where(`${after}= ?`)} ORDER BY ${idCol} ${dir} LIMIT ? OFFSET ?`;
    return this.st.all(sql, [...q.bind, marks.ids[k - 1]!, limit, offset - k * step]).map((r) => r[0] as number);
  }

  /** The rows of `ids`, whole, in that order. */
  rowsById(t: PagedTable, ids: number[]): Row[] {
    if (ids.length === 0) return [];
    const byId = new Map(
      this.st.all(`SELECT ${t.cols} FROM ${t.from} WHERE ${t.idCol} IN (${placeholders(ids.length)})`, ids).map((r) => [r[0] as number, r]),
    );
    const rows: Row[] = [];
    for (const id of ids) {
      const r = byId.get(id);
      if (r) rows.push(r);
    }
    return rows;
  }
}
