/**
 * Series (GET /series, /series/{id}) and a market's or event's tags (GET /markets/{id}/tags,
 * /events/{id}/tags), answered from the cache: the series table, event_series, and the tag links.
 */
import { badRequest, type ParamsOf, type Series, type Tag } from '../contract/index.ts';
import { SERIES_FIELDS, TAG_FIELDS, col, rowMapper } from './fields.ts';
import { placeholders, type Bind, type Statements } from './statements.ts';

const SERIES_COLS = `s.id, ${SERIES_FIELDS.map((f) => `s.${col(f.name)}`).join(', ')}, s._extra`;
const TAG_COLS = `t.id, ${TAG_FIELDS.map((f) => `t.${col(f.name)}`).join(', ')}, t._extra`;
const mapSeries = rowMapper(SERIES_FIELDS) as (row: unknown[]) => Series;
const mapTag = rowMapper(TAG_FIELDS) as (row: unknown[]) => Tag;

/** `order` name -> column (gamma-extra-ops.ts SERIES_ORDER_FIELDS). */
const SERIES_SORT: Record<string, string> = {
  id: 's.id',
  slug: 's._slug_lc',
  title: 's."title"',
  ticker: 's."ticker"',
  createdAt: 's."createdAt"',
  updatedAt: 's."updatedAt"',
};

export class SeriesReader {
  constructor(private readonly st: Statements) {}

  listSeries(p: ParamsOf<'series.list'>): Series[] {
    const where: string[] = [];
    const bind: Bind = [];
    for (const k of ['active', 'closed', 'archived'] as const) {
      const v = p[k];
      if (v !== undefined) {
        where.push(`s."${k}" = ?`);
        bind.push(v ? 1 : 0);
      }
    }
    if (p.slug !== undefined) {
      where.push('s._slug_lc = ?');
      bind.push(p.slug.toLowerCase());
    }
    if (p.recurrence !== undefined) {
      where.push('s."recurrence" = ?');
      bind.push(p.recurrence);
    }
    const dir = p.ascending ? 'ASC' : 'DESC';
    let order = 's.id ASC';
    if (p.order !== undefined && p.order.trim() !== '') {
      const cols = p.order.split(',').map((name) => {
        const c = Object.hasOwn(SERIES_SORT, name.trim()) ? SERIES_SORT[name.trim()] : undefined;
        if (!c) throw badRequest('catalog', 'order fields are not valid');
        return `(${c} IS NULL), ${c} ${dir}`;
      });
      order = `${cols.join(', ')}, s.id ${dir}`;
    }
    const rows = this.st.all(
      `SELECT ${SERIES_COLS} FROM series s${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY ${order} LIMIT ? OFFSET ?`,
      [...bind, p.limit, p.offset],
    );
    return this.withEvents(rows.map(mapSeries));
  }

  getSeries(id: number): Series | undefined {
    const row = this.st.first(`SELECT ${SERIES_COLS} FROM series s WHERE s.id = ?`, [id]);
    return row ? this.withEvents([mapSeries(row)])[0] : undefined;
  }

  /**
   * Adds each series' events as references (id, ticker, slug, title), as markets carry theirs:
   * a series can hold hundreds of events, and each is a fetch away at /events/{id}.
   */
  private withEvents(series: Series[]): Series[] {
    if (series.length === 0) return series;
    const byId = new Map<string, Series>();
    for (const s of series) {
      s.events = [];
      byId.set(s.id, s);
    }
    const ids = series.map((s) => Number(s.id));
    const rows = this.st.all(
      `SELECT es.series_id, e.id, e."ticker", e."slug", e."title" FROM event_series es JOIN events e ON e.id = es.event_id ` +
        `WHERE es.series_id IN (${placeholders(ids.length)}) ORDER BY es.series_id, e.id`,
      ids,
    );
    for (const [sid, id, ticker, slug, title] of rows) {
      const ref: NonNullable<Series['events']>[number] = { id: String(id) };
      if (typeof ticker === 'string') ref.ticker = ticker;
      if (typeof slug === 'string') ref.slug = slug;
      if (typeof title === 'string') ref.title = title;
      byId.get(String(sid))?.events?.push(ref);
    }
    return series;
  }

  /**
   * A market's or event's tags, or undefined when the item is not cached (a 404, not `[]`).
   * A market's tags are its events' (market_tags keeps that union); an event's keep its order.
   */
  tagsOf(kind: 'market' | 'event', id: number): Tag[] | undefined {
    const table = kind === 'market' ? 'markets' : 'events';
    if (this.st.value(`SELECT 1 FROM ${table} WHERE id = ?`, [id]) === undefined) return undefined;
    const sql =
      kind === 'market'
        ? `SELECT ${TAG_COLS} FROM market_tags l JOIN tags t ON t.id = l.tag_id WHERE l.market_id = ? ORDER BY t.id`
        : `SELECT ${TAG_COLS} FROM event_tags l JOIN tags t ON t.id = l.tag_id WHERE l.event_id = ? ORDER BY l.position`;
    return this.st.all(sql, [id]).map(mapTag);
  }
}
