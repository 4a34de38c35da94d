/**
 * One rule for a value leaving the app as data, shared by the CSV export (service/export-csv.ts)
 * and the grids' copy (renderer/src/grid/copy.ts), so a pasted row and an exported one read the
 * same in a spreadsheet: numbers as plain numbers (ASCII minus, '.' decimals, no grouping, no
 * unit: a chance or price as 0..1, money in dollars), dates as ISO 8601, text defused.
 */

export type Cell = string | number | boolean | null | undefined;

/** ISO 8601 as it is (Gamma's are); another date text the platform reads, as ISO; else the text unchanged. */
const ISO = /^\d{4}-\d\d-\d\d(?:[T ]\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:Z|[+-]\d\d:?\d\d)?)?$/;

export function isoDate(v: unknown): string | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return new Date(v).toISOString();
  if (typeof v !== 'string' || v.trim() === '') return undefined;
  const s = v.trim();
  if (ISO.test(s)) return s;
  const t = Date.parse(s);
  return Number.isNaN(t) ? s : new Date(t).toISOString();
}

/**
 * One cell's text. A number as JavaScript writes it (String(-0.05) is "-0.05", with the ASCII
 * minus); not finite, empty. A text starting with `= + - @` (or a tab or CR, which some
 * spreadsheets strip before evaluating) gets a leading `'`, so a spreadsheet shows it instead of
 * running it as a formula.
 */
export function plainCell(v: Cell): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '';
  const s = String(v);
  return typeof v === 'string' && /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
}
