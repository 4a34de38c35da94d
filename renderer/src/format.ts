/**
 * Locale formatting for numbers, money, prices and dates. Gamma's JSON-text lists (`outcomes`,
 * `outcomePrices`, `clobTokenIds`) are decoded by the contract's market-rules.ts.
 */
import { num } from '../../src/contract/market-rules.ts';

export { num };

const locale = undefined; // the user's (navigator.language)

/** Grids' money: one decimal at every scale from a thousand up ("$4.0K", "$20.3K", "$1.2M"), whole dollars below. */
const moneyCompact = new Intl.NumberFormat(locale, {
  style: 'currency',
  currency: 'USD',
  notation: 'compact',
  minimumFractionDigits: 1,
  maximumFractionDigits: 1,
});
const moneyFull = new Intl.NumberFormat(locale, { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });
const moneyExact = new Intl.NumberFormat(locale, {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});
const integer = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 });
const decimal = new Intl.NumberFormat(locale, { maximumFractionDigits: 4 });
const dateShort = new Intl.DateTimeFormat(locale, { year: 'numeric', month: 'short', day: 'numeric' });
const dateTime = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
const timeOnly = new Intl.DateTimeFormat(locale, { timeStyle: 'medium' });
const relative = new Intl.RelativeTimeFormat(locale, { numeric: 'auto', style: 'short' });

export const DASH = '—';

/** Compact money with one precision everywhere: "$592", "$4.0K", "$20.3K", "$1.2M" (never "$591.8" beside "$4K"). */
export const fmtMoney = (v: unknown): string => {
  const n = num(v);
  if (n === undefined) return DASH;
  // Below a thousand once rounded to whole dollars ($999.6 would read "$1,000").
  if (Math.abs(Math.round(n)) < 1000) return moneyFull.format(n);
  return moneyCompact.format(Math.abs(n) < 1000 ? Math.round(n) : n);
};
export const fmtMoneyFull = (v: unknown): string => {
  const n = num(v);
  return n === undefined ? DASH : Math.abs(n) < 100 ? moneyExact.format(n) : moneyFull.format(n);
};
export const fmtInt = (v: unknown): string => {
  const n = num(v);
  return n === undefined ? DASH : integer.format(n);
};
export const fmtDecimal = (v: unknown): string => {
  const n = num(v);
  return n === undefined ? DASH : decimal.format(n);
};
export const fmtSignedMoney = (v: unknown): string => {
  const n = num(v);
  if (n === undefined) return DASH;
  return (n > 0 ? '+' : '') + fmtMoney(n);
};
/** The minus sign, not a hyphen: as wide as "+", so signed columns line up. */
export const MINUS = '\u2212';
/**
 * A price change (Gamma's `oneDayPriceChange`, a fraction of $1) in points of chance with its
 * sign: 0.032 -> "+3.2", -0.015 -> "−1.5", 0 -> "0.0".
 */
export const fmtChange = (v: unknown): string => {
  const n = num(v);
  if (n === undefined) return DASH;
  const points = Math.round(n * 1000) / 10;
  if (points === 0) return '0.0';
  return (points > 0 ? '+' : MINUS) + Math.abs(points).toFixed(1);
};

function time(v: unknown): number | undefined {
  if (typeof v !== 'string' || v === '') return undefined;
  // Gamma mixes "2026-05-27T00:00:00Z", "2025-07-24 00:08:28+00" and date-only forms.
  const t = Date.parse(v.includes(' ') && !v.includes('T') ? v.replace(' ', 'T').replace(/([+-]\d{2})$/, '$1:00') : v);
  return Number.isNaN(t) ? undefined : t;
}
export const fmtDate = (v: unknown): string => {
  const t = time(v);
  return t === undefined ? DASH : dateShort.format(t);
};
export const fmtDateTime = (v: unknown): string => {
  const t = time(v);
  return t === undefined ? DASH : dateTime.format(t);
};
export const fmtClock = (t: number): string => timeOnly.format(t);

export function fmtAgo(v: string | number | null | undefined, now = Date.now()): string {
  const t = typeof v === 'number' ? v : time(v ?? undefined);
  if (t === undefined) return 'never';
  const s = Math.round((t - now) / 1000);
  const abs = Math.abs(s);
  if (abs < 45) return 'just now';
  if (abs < 3600) return relative.format(Math.round(s / 60), 'minute');
  if (abs < 86_400) return relative.format(Math.round(s / 3600), 'hour');
  return relative.format(Math.round(s / 86_400), 'day');
}

export type Status = 'open' | 'ended' | 'closed' | 'archived' | 'inactive';
/** What statusOf reads: Gamma's flags and the end date. */
export type StatusFields = { active?: boolean; closed?: boolean; archived?: boolean; endDate?: unknown };
/** When an open market's or event's end date passed (epoch ms), else undefined: it awaits resolution. */
export function pastEnd(x: StatusFields, now = Date.now()): number | undefined {
  if (x.archived || x.closed || !x.active) return undefined;
  const t = time(x.endDate);
  return t !== undefined && t < now ? t : undefined;
}
/** 'ended': Gamma still calls it open, but its end date has passed and it awaits resolution. */
export function statusOf(x: StatusFields, now = Date.now()): Status {
  if (x.archived) return 'archived';
  if (x.closed) return 'closed';
  if (!x.active) return 'inactive';
  return pastEnd(x, now) === undefined ? 'open' : 'ended';
}
export const STATUS_LABEL: Record<Status, string> = {
  open: 'Open',
  ended: 'Ended',
  closed: 'Closed',
  archived: 'Archived',
  inactive: 'Inactive',
};
/** The status in words, for a tooltip: an ended one says since when and what it waits for. */
export function statusTitle(x: StatusFields, now = Date.now()): string {
  const ended = pastEnd(x, now);
  if (ended === undefined) return STATUS_LABEL[statusOf(x, now)];
  return `Past its end date (${dateShort.format(ended)}), awaiting resolution; not yet settled`;
}

export function shortAddress(a: string | undefined): string {
  if (!a) return DASH;
  return a.length > 12 ? `${a.slice(0, 6)}…${a.slice(-4)}` : a;
}
