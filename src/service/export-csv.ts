/**
 * CSV rows for the exports (catalog.export): RFC 4180 quoting, formula-leading cells defused,
 * and each listing's columns. Chance and leader are the grids' (contract/market-rules.ts): a
 * market's chance is its Yes price (else its highest-priced outcome); an event's leader is its
 * highest-"Yes" open market (for a one-market event, its likeliest outcome), placeholders left out.
 */
import type { Event, LeaderboardEntry, Market } from '../contract/index.ts';
import { eventLeader, marketLeader, num, textList } from '../contract/market-rules.ts';
import { isoDate, plainCell, type Cell } from '../contract/plain-cells.ts';

export type { Cell };

/**
 * One cell: the shared rule's text (contract/plain-cells.ts: plain numbers, ISO dates, formulas
 * defused, the same as a grid's copy), quoted when it holds a comma, quote, CR or LF (RFC 4180
 * 2.6, 2.7).
 */
export function csvCell(v: Cell): string {
  const s = plainCell(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** One record with its CRLF line break (RFC 4180 2.1). */
export function csvRow(cells: readonly Cell[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
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
  'version',
] as const;

const joined = (v: unknown): string => textList(v).join(' | ');

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
    isoDate(m.endDate),
    m.active,
    m.closed,
    m.archived,
    // The protocol version that chooses the outcomes' trading ids (market-rules.ts tradingIds), as Gamma sent it.
    typeof m.version === 'string' ? m.version : undefined,
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
  const leader = eventLeader(e.markets ?? []);
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
    isoDate(e.startDate),
    isoDate(e.endDate),
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
