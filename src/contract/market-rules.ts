/**
 * How a market reads, written once: Gamma's JSON-text lists decoded, a market's chance and
 * leader, and an event's leader, as Polymarket shows them. The grids and the detail panel
 * (renderer), the CSV export, the market page's token list, the orders view's outcome names and
 * the alerts' price all use these; `tradingIds` is the one rule for the ids the CLOB takes.
 * Plain data: no zod, no Node, no DOM (the renderer bundles it).
 */
import type { Market } from './types.ts';

/** A Gamma number: a finite number, or text that reads as one (Gamma sends many as text). */
export function num(v: unknown): number | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : Number.NaN;
  return Number.isFinite(n) ? n : undefined;
}

/**
 * Gamma sends `outcomes`, `outcomePrices` and `clobTokenIds` as JSON text (`"[\"Yes\",\"No\"]"`):
 * the list it holds, items as they are. A real array is taken as it is; anything else (absent,
 * null, '', malformed JSON, JSON that is not a list) is the empty list.
 */
export function jsonList(v: unknown): unknown[] {
  if (Array.isArray(v)) return v;
  if (typeof v !== 'string' || v === '') return [];
  try {
    const parsed: unknown = JSON.parse(v);
    return Array.isArray(parsed) ? parsed : [];
  } catch {
    return [];
  }
}

/** The same list, each item as text (`String(item)`: a number `0.5` reads "0.5"). */
export const textList = (v: unknown): string[] => jsonList(v).map(String);

/** The fields the rules read; each is decoded leniently, so a junk value is an empty list. */
export interface Quoted {
  outcomes?: unknown;
  outcomePrices?: unknown;
  clobTokenIds?: unknown;
  positionIds?: unknown;
  version?: unknown;
}

/** The protocol versions whose trading ids this build knows. */
export type ProtocolVersion = 'v1' | 'v2';

/** A market's outcomes' trading ids (in `outcomes` order), or why it cannot be traded. */
export type TradingIds = { ok: true; version: ProtocolVersion; ids: string[] } | { ok: false; reason: string };

/** The field that holds a version's trading ids. */
export const TRADING_ID_FIELD = { v1: 'clobTokenIds', v2: 'positionIds' } as const satisfies Record<ProtocolVersion, keyof Quoted>;

const DECIMAL_ID = /^[0-9]{1,100}$/;

/**
 * THE rule for the ids every CLOB call (book, prices, midpoint, spread, price history, the
 * WebSocket, orders) takes for a market's outcomes, chosen by `version` even when both fields are
 * present (Polymarket 2026: many "v1" markets also carry `positionIds`, for which the CLOB has no
 * book): "v2" → `positionIds` (a JSON array; JSON text tolerated), "v1" → `clobTokenIds` (JSON
 * text; an array tolerated). Not tradable, with a one-line reason: a missing or unknown version, a
 * missing or empty id list, an id that is not a decimal string, or a count other than the
 * outcomes'.
 */
export function tradingIds(m: Quoted): TradingIds {
  const v = m.version;
  if (v !== 'v1' && v !== 'v2') {
    const why =
      v === undefined || v === null || v === '' ? 'it has no protocol version' : `its protocol version ${JSON.stringify(v)} is unknown`;
    return { ok: false, reason: `Trading is off for this market: ${why}.` };
  }
  const field = TRADING_ID_FIELD[v];
  const ids = jsonList(m[field]);
  if (ids.length === 0) return { ok: false, reason: `Trading is off for this market: this ${v} market has no ${field}.` };
  if (!ids.every((t): t is string => typeof t === 'string' && DECIMAL_ID.test(t)))
    return { ok: false, reason: `Trading is off for this market: its ${field} are not all decimal ids.` };
  const outcomes = jsonList(m.outcomes);
  if (outcomes.length !== ids.length)
    return { ok: false, reason: `Trading is off for this market: ${ids.length} ${field} for ${outcomes.length} outcomes.` };
  return { ok: true, version: v, ids };
}

export interface Outcome {
  name: string;
  price: number | undefined;
  /** The outcome's trading id (tradingIds); undefined when the market cannot be traded. */
  tokenId: string | undefined;
}

/**
 * A market's outcomes, one per name in `outcomes`, with the price and trading id (tradingIds) at
 * the same place (undefined where there is none). Labels follow the names, never Yes/No by position.
 */
export function outcomesOf(m: Quoted): Outcome[] {
  const prices = textList(m.outcomePrices);
  const trading = tradingIds(m);
  const tokens = trading.ok ? trading.ids : [];
  return textList(m.outcomes).map((name, i) => ({ name, price: num(prices[i]), tokenId: tokens[i] }));
}

/** A placeholder market (e.g. "Person A") has no price at all: `outcomePrices` absent, empty or unreadable. */
export const isPlaceholder = (m: Pick<Quoted, 'outcomePrices'>): boolean => !textList(m.outcomePrices).some((p) => num(p) !== undefined);

/** A market's chance within a multi-market event, and its price in alerts and history: its first ("Yes") price. */
export const marketChance = (m: Pick<Quoted, 'outcomePrices'>): number | undefined => num(textList(m.outcomePrices)[0]);

type Priced = Outcome & { price: number };
const priced = (m: Quoted): Priced[] => outcomesOf(m).filter((o): o is Priced => o.price !== undefined);

/**
 * A market's chance as Polymarket's market list shows it: for a Yes/No market the Yes outcome's
 * price, otherwise the highest-priced outcome (two named sides, e.g. teams; the first on a tie).
 * Undefined without prices.
 */
export function marketLeader(m: Quoted): { name: string; price: number } | undefined {
  const list = priced(m);
  const best =
    list.find((o) => o.name.toLowerCase() === 'yes') ??
    list.reduce<Priced | undefined>((a, o) => (!a || o.price > a.price ? o : a), undefined);
  return best ? { name: best.name, price: best.price } : undefined;
}

/** What ranking an event's markets reads. */
export type Ranked = Pick<Market, 'id' | 'question' | 'volumeNum' | 'volume' | 'closed'> & Quoted & { groupItemTitle?: unknown };

const volumeOf = (m: Ranked): number => num(m.volumeNum) ?? num(m.volume) ?? 0;

/**
 * An event's priced markets, leader first: open before resolved (a settled 100% is not the race's
 * favourite), then by chance (first price) descending, ties by volume descending. Placeholders
 * are left out.
 */
export function rankMarkets<M extends Ranked>(markets: readonly M[]): M[] {
  return markets
    .filter((m) => !isPlaceholder(m))
    .sort(
      (a, b) => Number(!!a.closed) - Number(!!b.closed) || (marketChance(b) ?? -1) - (marketChance(a) ?? -1) || volumeOf(b) - volumeOf(a),
    );
}

export interface Leader {
  /** The leading market's short title (`groupItemTitle`, else its question, else its id), or for a one-market event its leading outcome. */
  label: string;
  price: number;
}

/**
 * An event's leader and its chance: with one priced market, that market's chance (marketLeader:
 * a Yes/No market's Yes price, so the event reads as its market does in the markets grid, never
 * "No 95%" beside "5%"); with more, the first of rankMarkets and its first price. Undefined when
 * no market has a price.
 */
export function eventLeader(markets: readonly Ranked[]): Leader | undefined {
  const ranked = rankMarkets(markets);
  if (ranked.length === 1) {
    const best = marketLeader(ranked[0]!);
    if (best) return { label: best.name, price: best.price };
  }
  const top = ranked[0];
  const price = top ? marketChance(top) : undefined;
  if (!top || price === undefined) return undefined;
  const title = typeof top.groupItemTitle === 'string' && top.groupItemTitle.trim() ? top.groupItemTitle.trim() : undefined;
  return { label: title ?? top.question ?? top.id, price };
}

/**
 * An event's leader's 24h change: the `oneDayPriceChange` of the first of rankMarkets (the move of
 * the price its chance is read from). Undefined when no market is priced or the leader has none.
 * The events grid shows it and the cache sorts events by it (store/move-keys.ts).
 */
export function eventLeaderChange(markets: readonly (Ranked & { oneDayPriceChange?: unknown })[]): number | undefined {
  const top = rankMarkets(markets)[0];
  return top ? num(top.oneDayPriceChange) : undefined;
}
