/**
 * CSV rows for the exports (catalog.export): RFC 4180 quoting, formula-leading cells defused,
 * and each listing's columns. Chance and leader follow the renderer's rules (renderer/src/chance.ts):
 * a market's chance is its Yes price (else its highest-priced outcome); an event's leader is its
 * highest-"Yes" open market (for a one-market event, its likeliest outcome), placeholders left out.
 */
import type { Event, LeaderboardEntry, Market } from '../contract/index.ts';

export type Cell = string | number | boolean | null | undefined;

/**
 * One cell. A text starting with `= + - @` (or a tab or CR, which some spreadsheets strip before
 * evaluating) gets a leading `'` so a spreadsheet shows it instead of running it; numbers are
 * written as numbers. Quoted when it holds a comma, quote, CR or LF (RFC 4180 2.6, 2.7).
 */
export function csvCell(v: Cell): string {
  if (v === null || v === undefined) return '';
  let s = typeof v === 'number' ? (Number.isFinite(v) ? String(v) : '') : String(v);
  if (typeof v === 'string' && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** One record with its CRLF line break (RFC 4180 2.1). */
export function csvRow(cells: readonly Cell[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

function jsonList(v: unknown): unknown[] {
  if (Array.isArray(v)) return v;
  if (typeof v !== 'string') return [];
  try {
    const parsed: unknown = JSON.parse(v);
    return Array.isArray(parsed) ? parsed : [];
  } catch {
    return [];
  }
}

function num(v: unknown): number | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : Number.NaN;
  return Number.isFinite(n) ? n : undefined;
}

const prices = (m: Market): (number | undefined)[] => jsonList(m.outcomePrices).map(num);
const isPlaceholder = (m: Market): boolean => !prices(m).some((p) => p !== undefined);

/** The outcomes that have a price, with their names. */
function pricedOutcomes(m: Market): { name: string; price: number }[] {
  const names = jsonList(m.outcomes);
  return prices(m).flatMap((p, i) => (p === undefined ? [] : [{ name: String(names[i] ?? ''), price: p }]));
}

/** A market's chance as Polymarket's list shows it: the Yes price, else the highest-priced outcome (two named sides). */
export function marketLeader(m: Market): { name: string; price: number } | undefined {
  const priced = pricedOutcomes(m);
  return (
    priced.find((o) => o.name.toLowerCase() === 'yes') ??
    priced.reduce<(typeof priced)[number] | undefined>((a, o) => (!a || o.price > a.price ? o : a), undefined)
  );
}

/** The event's leader, as the renderer's `eventLeader` ranks it. */
export function eventLeader(e: Event): { label: string; price: number } | undefined {
  const vol = (m: Market) => num(m.volumeNum) ?? num(m.volume) ?? 0;
  const ranked = (e.markets ?? [])
    .filter((m) => !isPlaceholder(m))
    .sort((a, b) => Number(!!a.closed) - Number(!!b.closed) || (prices(b)[0] ?? -1) - (prices(a)[0] ?? -1) || vol(b) - vol(a));
  if (ranked.length === 1) {
    // One market: its outcomes are the choices, and the leader is the likeliest of them.
    const best = pricedOutcomes(ranked[0]!).sort((a, b) => b.price - a.price)[0];
    if (best) return { label: best.name, price: best.price };
  }
  const top = ranked[0];
  const price = top ? prices(top)[0] : undefined;
  if (!top || price === undefined) return undefined;
  const title = typeof top['groupItemTitle'] === 'string' && top['groupItemTitle'].trim() ? top['groupItemTitle'].trim() : undefined;
  return { label: title ?? top.question ?? top.id, price };
}

export const MARKET_COLUMNS = [
  'id',
  'question',
  'slug',
  'event',
  'outcomes',
  'outcome_prices',
  'chance',
  'one_day_price_change',
  'best_bid',
  'best_ask',
  'spread',
  'volume',
  'volume_24hr',
  'liquidity',
  'end_date',
  'active',
  'closed',
  'archived',
] as const;

const joined = (v: unknown): string => jsonList(v).map(String).join(' | ');

export function marketCells(m: Market): Cell[] {
  return [
    m.id,
    m.question,
    m.slug,
    m.events?.[0]?.title,
    joined(m.outcomes),
    joined(m.outcomePrices),
    marketLeader(m)?.price,
    num(m['oneDayPriceChange']),
    num(m.bestBid),
    num(m.bestAsk),
    num(m['spread']),
    num(m.volumeNum) ?? num(m.volume),
    num(m.volume24hr),
    num(m.liquidityNum) ?? num(m.liquidity),
    m.endDate,
    m.active,
    m.closed,
    m.archived,
  ];
}

export const EVENT_COLUMNS = [
  'id',
  'title',
  'slug',
  'leading',
  'chance',
  'markets',
  'volume',
  'volume_24hr',
  'liquidity',
  'start_date',
  'end_date',
  'active',
  'closed',
  'archived',
  'tags',
] as const;

export function eventCells(e: Event): Cell[] {
  const leader = eventLeader(e);
  return [
    e.id,
    e.title,
    e.slug,
    leader?.label,
    leader?.price,
    e.markets?.length ?? 0,
    num(e.volume),
    num(e['volume24hr']),
    num(e.liquidity),
    e.startDate,
    e.endDate,
    e.active,
    e.closed,
    e.archived,
    (e.tags ?? []).map((t) => t.label ?? t.slug ?? t.id).join(' | '),
  ];
}

/** The spec's fields first, then any other field the entries carry (in the order first seen). */
const LEADERBOARD_KNOWN = { rank: 'rank', proxyWallet: 'proxy_wallet', userName: 'user_name', vol: 'vol', pnl: 'pnl' } as const;

export function leaderboardColumns(entries: readonly LeaderboardEntry[]): { header: string[]; cells: (e: LeaderboardEntry) => Cell[] } {
  const extra: string[] = [];
  for (const e of entries) for (const k of Object.keys(e)) if (!(k in LEADERBOARD_KNOWN) && !extra.includes(k)) extra.push(k);
  const known = Object.keys(LEADERBOARD_KNOWN) as (keyof typeof LEADERBOARD_KNOWN)[];
  const snake = (k: string) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  return {
    header: [...known.map((k) => LEADERBOARD_KNOWN[k]), ...extra.map(snake)],
    cells: (e) => {
      const r = e as unknown as Record<string, unknown>;
      return [...known, ...extra].map((k) => {
        const v = r[k];
        return v === null || v === undefined || typeof v === 'object' ? (v == null ? v : JSON.stringify(v)) : (v as Cell);
      });
    },
  };
}
