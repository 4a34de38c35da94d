/**
 * The keyset routes' `after_cursor` / `next_cursor`: opaque to clients (base64url JSON, as
 * Gamma's). Gamma's cursor means "after this item"; this one holds the item (its id) and its
 * position in the listing's order. Pages are read with the /markets and /events query itself, so
 * every filter and order works alike, and a sync that adds or removes items before the position
 * between two pages neither repeats nor skips one (the item is found again near its position).
 */
import { badRequest } from '../contract/index.ts';

interface Cursor {
  /** Items of the listing before the next page. */
  o: number;
  /** The id of the page's last item: where the next page starts after, should the listing shift. */
  id: string;
}

/** How far around its position the last item is looked for when the listing shifted under a walk. */
const DRIFT = 100;

export function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify(c)).toString('base64url');
}

/** The cursor's position and last id (none for a first page); a malformed one is refused. */
export function decodeCursor(s: string | undefined): Cursor | undefined {
  if (s === undefined || s === '') return undefined;
  let c: Partial<Cursor> | undefined;
  try {
    c = JSON.parse(Buffer.from(s, 'base64url').toString('utf8')) as Partial<Cursor>;
  } catch {
    c = undefined;
  }
  const o = c?.o;
  const id = c?.id;
  if (typeof o !== 'number' || !Number.isSafeInteger(o) || o < 1 || typeof id !== 'string' || !/^\d{1,15}$/.test(id)) {
    throw badRequest('catalog', 'after_cursor is invalid');
  }
  return { o, id };
}

/**
 * Where the page after `c` starts: right after its last item. That item is normally the one just
 * before the position (one extra row read tells); when a sync added or removed items before it
 * since, it is looked for nearby, and failing that the position is kept (the walk still ends).
 */
function startAfter<T extends { id: string }>(
  list: (offset: number, limit: number) => T[],
  c: Cursor,
  limit: number,
): { start: number; rows: T[] } {
  const near = list(c.o - 1, limit + 2);
  if (near[0]?.id === c.id) return { start: c.o, rows: near.slice(1) };
  const from = Math.max(0, c.o - 1 - DRIFT);
  const wide = list(from, c.o - 1 - from + DRIFT + limit + 2);
  const at = wide.findIndex((x) => x.id === c.id);
  if (at >= 0) return { start: from + at + 1, rows: wide.slice(at + 1, at + 2 + limit) };
  return { start: c.o, rows: list(c.o, limit + 1) };
}

/**
 * One keyset page: `list(offset, n)` reads n items from offset; one more than `limit` is read to
 * tell whether a next page exists, so the last page carries no `next_cursor` (a client stops).
 */
export function keysetPage<T extends { id: string }>(
  list: (offset: number, limit: number) => T[],
  p: { after_cursor?: string; offset?: number; limit: number },
): { items: T[]; next?: string } {
  if (p.offset !== undefined) throw badRequest('catalog', 'offset is not allowed on keyset endpoints');
  const c = decodeCursor(p.after_cursor);
  const { start, rows } = c ? startAfter(list, c, p.limit) : { start: 0, rows: list(0, p.limit + 1) };
  if (rows.length <= p.limit) return { items: rows };
  const items = rows.slice(0, p.limit);
  return { items, next: encodeCursor({ o: start + items.length, id: items[items.length - 1]!.id }) };
}
