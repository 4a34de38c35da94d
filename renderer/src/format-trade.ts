/**
 * Formatting for the trading views (orders, leaderboard) beyond format.ts and chance.ts: order
 * prices in cents as Polymarket shows them, whole-dollar money that tells close values apart,
 * and rows as tab-separated text for the clipboard.
 */
import { fmtCents } from './chance.ts';
import { DASH, fmtSignedMoney, num } from './format.ts';

/** An order's price (a decimal string in dollars) in cents: "91¢", "37.5¢", "0.1¢". */
export function fmtOrderPrice(price: unknown): string {
  const p = num(price);
  return p === undefined ? DASH : fmtCents(p);
}

const wholeDollars = new Intl.NumberFormat(undefined, { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });

/** |n| in whole dollars, or with cents under $1 so a small value does not read "$0". */
const dollars = (n: number): string => (Math.abs(n) < 1 && n !== 0 ? `$${Math.abs(n).toFixed(2)}` : wholeDollars.format(Math.abs(n)));

/**
 * Signed whole dollars ("+$2,143,552", "-$12,040"): compact "+$2M" makes neighbouring ranks
 * look tied.
 */
export function fmtSignedDollars(v: unknown): string {
  const n = num(v);
  if (n === undefined) return DASH;
  return `${n > 0 ? '+' : n < 0 ? '-' : ''}${dollars(n)}`;
}

/** Whole dollars without a sign (volumes). */
export function fmtDollars(v: unknown): string {
  const n = num(v);
  return n === undefined ? DASH : dollars(n);
}

/** The compact form, for a tooltip beside the full one. */
export const fmtSignedCompact = fmtSignedMoney;

/** Rows as TSV (a header first): tabs and line breaks inside a cell become spaces, so the grid stays a grid when pasted. */
export function toTsv(rows: readonly (readonly (string | number | null | undefined)[])[]): string {
  return rows.map((r) => r.map((c) => (c === null || c === undefined ? '' : String(c)).replace(/[\t\r\n]+/g, ' ')).join('\t')).join('\n');
}
