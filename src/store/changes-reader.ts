/**
 * The change feed (history-schema.ts `changes`): newest first since a time, optionally of some
 * kinds, answered from the (at, kind) index. The market or event ref is joined from the cache
 * (an item pruned since keeps its id only).
 */
import type { ChangeKind, ChangeRecord } from '../contract/history-ops.ts';
import { WATCHING_KEY } from './history-recorder.ts';
import { placeholders, type Statements } from './statements.ts';

function parse(v: unknown): unknown {
  if (typeof v !== 'string') return null;
  try {
    return JSON.parse(v);
  } catch {
    return v;
  }
}

export class ChangesReader {
  constructor(private readonly st: Statements) {}

  /**
   * Since when the feed has watched the catalog (epoch seconds; null: no sync recorded yet): the first
   * recorded batch, or an older change kept from before that time was noted.
   */
  watchingSince(): number | null {
    const noted = this.st.value('SELECT value FROM meta WHERE key = ?', [WATCHING_KEY]);
    const oldest = this.st.value('SELECT min(at) FROM changes');
    const times = [noted, oldest].map(Number).filter((t) => Number.isFinite(t) && t > 0);
    return times.length ? Math.min(...times) : null;
  }

  /** `since`: epoch seconds; `kinds` empty = all. */
  list(since: number, kinds: readonly ChangeKind[], limit: number, offset: number): { total: number; changes: ChangeRecord[] } {
    const where = `c.at >= ?${kinds.length ? ` AND c.kind IN (${placeholders(kinds.length)})` : ''}`;
    const bind = [since, ...kinds];
    const total = Number(this.st.value(`SELECT count(*) FROM changes c WHERE ${where}`, bind) ?? 0);
    // The page is cut from the index alone (the sort carries only (at, seq)); only its rows are read and joined.
    const rows = this.st.all(
      'SELECT c.at, c.kind, c.entity, c.ref_id, c.before, c.after, m."slug", m."question", e."slug", e."title" ' +
        `FROM (SELECT c.seq FROM changes c WHERE ${where} ORDER BY c.at DESC, c.seq DESC LIMIT ? OFFSET ?) p ` +
        'JOIN changes c ON c.seq = p.seq ' +
        'LEFT JOIN markets m ON c.entity = 0 AND m.id = c.ref_id LEFT JOIN events e ON c.entity = 1 AND e.id = c.ref_id ' +
        'ORDER BY c.at DESC, c.seq DESC',
      [...bind, limit, offset],
    );
    const changes = rows.map(([at, kind, entity, id, before, after, mSlug, question, eSlug, title]): ChangeRecord => {
      const ref =
        entity === 0
          ? { market: { id: String(id), slug: (mSlug as string | null) ?? null, question: (question as string | null) ?? null } }
          : { event: { id: String(id), slug: (eSlug as string | null) ?? null, title: (title as string | null) ?? null } };
      return {
        kind: kind as ChangeKind,
        at: new Date((at as number) * 1000).toISOString(),
        ...ref,
        before: parse(before),
        after: parse(after),
      };
    });
    return { total, changes };
  }
}
