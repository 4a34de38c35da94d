/**
 * The Since view's groups, from the change feed's records (newest first) and the markets' rows:
 * one item per market or event in a group, the user's own (watchlist, open orders) first, then
 * the group's order: new markets by 24h volume, movers by the size of the move, resolutions and
 * edits newest first. Pure, so the order rules are tested without a service.
 */
import type { ChangeRecord } from '../../../src/contract/history-ops.ts';
import type { WatchKind } from '../../../src/contract/enums.ts';
import { marketChance } from '../../../src/contract/market-rules.ts';
import type { Market } from '../api.ts';
import { num } from '../format.ts';

/** A feed item is a market or an event, as the watchlist holds them. */
export type ItemKind = WatchKind;
export type MarketRow = Pick<Market, 'id' | 'question' | 'volume24hr' | 'outcomePrices' | 'events'>;

export interface Marks {
  /** On the watchlist: the item itself, or for a market its event. */
  watched: boolean;
  /** A market with an open order of the user's. */
  orders: boolean;
}

interface Base extends Marks {
  kind: ItemKind;
  id: string;
  title: string;
  /** The newest change's time (ISO 8601). */
  at: string;
}
export interface NewItem extends Base {
  volume24hr: number | undefined;
  price: number | undefined;
}
export interface ResolvedItem extends Base {
  winner: string | undefined;
}
export interface MoverItem extends Base {
  before: number;
  after: number;
}
export interface EditItem extends Base {
  rules: boolean;
  endDate?: { before: string | null; after: string | null };
}

export interface FeedRecords {
  newMarkets: ChangeRecord[];
  resolved: ChangeRecord[];
  moves: ChangeRecord[];
  edits: ChangeRecord[];
}

export interface Context {
  rows: ReadonlyMap<string, MarketRow>;
  watched(kind: ItemKind, id: string): boolean;
  withOrders: ReadonlySet<string>;
}

export interface Groups {
  newMarkets: NewItem[];
  resolved: ResolvedItem[];
  movers: MoverItem[];
  edits: EditItem[];
}

const refOf = (c: ChangeRecord): { kind: ItemKind; id: string; title: string } | undefined => {
  if (c.market) return { kind: 'market', id: c.market.id, title: c.market.question ?? c.market.slug ?? c.market.id };
  if (c.event) return { kind: 'event', id: c.event.id, title: c.event.title ?? c.event.slug ?? c.event.id };
  return undefined;
};

/** The records per item, in feed order (newest first); items in the order of their newest record. */
export function byItem(changes: readonly ChangeRecord[]): { key: string; records: ChangeRecord[] }[] {
  const out = new Map<string, ChangeRecord[]>();
  for (const c of changes) {
    const ref = refOf(c);
    if (!ref) continue;
    const key = `${ref.kind}:${ref.id}`;
    const list = out.get(key);
    if (list) list.push(c);
    else out.set(key, [c]);
  }
  return [...out].map(([key, records]) => ({ key, records }));
}

export function marksOf(kind: ItemKind, id: string, ctx: Context): Marks {
  if (kind === 'event') return { watched: ctx.watched('event', id), orders: false };
  const events = ctx.rows.get(id)?.events ?? [];
  return {
    watched: ctx.watched('market', id) || events.some((e) => ctx.watched('event', e.id)),
    orders: ctx.withOrders.has(id),
  };
}

/** The user's own items first (watched or with orders), then `by`; a stable sort keeps feed order on ties. */
export function ownFirst<T extends Marks>(items: readonly T[], by: (a: T, b: T) => number = () => 0): T[] {
  const own = (x: T) => (x.watched || x.orders ? 0 : 1);
  return [...items].sort((a, b) => own(a) - own(b) || by(a, b));
}

function base(records: ChangeRecord[], ctx: Context): Base {
  const newest = records[0]!;
  const ref = refOf(newest)!;
  // The row's question is current; the record's is what the cache had when it was read.
  const title = (ref.kind === 'market' ? ctx.rows.get(ref.id)?.question : undefined) ?? ref.title;
  return { ...ref, title, at: newest.at, ...marksOf(ref.kind, ref.id, ctx) };
}

export function newMarketItems(changes: readonly ChangeRecord[], ctx: Context): NewItem[] {
  const items = byItem(changes.filter((c) => c.market)).map(({ records }): NewItem => {
    const b = base(records, ctx);
    const row = ctx.rows.get(b.id);
    return { ...b, volume24hr: num(row?.volume24hr), price: row ? marketChance(row) : undefined };
  });
  return ownFirst(items, (a, b) => (b.volume24hr ?? -1) - (a.volume24hr ?? -1));
}

export function resolvedItems(changes: readonly ChangeRecord[], ctx: Context): ResolvedItem[] {
  const items = byItem(changes.filter((c) => c.market)).map(({ records }): ResolvedItem => {
    const after = records[0]!.after as { winner?: unknown } | null;
    const winner = after && typeof after.winner === 'string' ? after.winner : undefined;
    return { ...base(records, ctx), winner };
  });
  return ownFirst(items);
}

/** One mover per market: from the oldest record's before to the newest one's after, biggest first. */
export function moverItems(changes: readonly ChangeRecord[], ctx: Context): MoverItem[] {
  const items = byItem(changes.filter((c) => c.market)).flatMap(({ records }): MoverItem[] => {
    const before = num(records[records.length - 1]!.before);
    const after = num(records[0]!.after);
    return before === undefined || after === undefined ? [] : [{ ...base(records, ctx), before, after }];
  });
  return ownFirst(items, (a, b) => Math.abs(b.after - b.before) - Math.abs(a.after - a.before));
}

const dateText = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** Rule edits and end-date changes, one item per market or event. */
export function editItems(changes: readonly ChangeRecord[], ctx: Context): EditItem[] {
  const items = byItem(changes).map(({ records }): EditItem => {
    const ends = records.filter((r) => r.kind === 'end_date');
    const item: EditItem = { ...base(records, ctx), rules: records.some((r) => r.kind === 'rule_edit') };
    if (ends.length > 0) item.endDate = { before: dateText(ends[ends.length - 1]!.before), after: dateText(ends[0]!.after) };
    return item;
  });
  return ownFirst(items);
}

export function buildGroups(feed: FeedRecords, ctx: Context): Groups {
  return {
    newMarkets: newMarketItems(feed.newMarkets, ctx),
    resolved: resolvedItems(feed.resolved, ctx),
    movers: moverItems(feed.moves, ctx),
    edits: editItems(feed.edits, ctx),
  };
}

/** Every market id the groups need a row for (prices, volume, events), without repeats. */
export function marketIds(feed: FeedRecords): string[] {
  const ids = new Set<string>();
  for (const list of [feed.newMarkets, feed.resolved, feed.moves, feed.edits]) {
    for (const c of list) if (c.market) ids.add(c.market.id);
  }
  return [...ids];
}
