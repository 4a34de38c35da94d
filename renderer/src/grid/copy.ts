/**
 * Rows as tab-separated text for the clipboard (a spreadsheet pastes it as cells): a header
 * line, then one line per row, with each column's plain value, by the CSV export's rule
 * (contract/plain-cells.ts): numbers without units, ISO dates, formulas defused.
 */
import { plainCell } from '../../../src/contract/plain-cells.ts';
import type { GridColumn } from './types.ts';

/** The cell's placeholder for "no value" (format.ts DASH) is an empty cell in a spreadsheet. */
const NONE = '—';

function plain<T>(col: GridColumn<T>, row: T): string | undefined {
  const v = col.text ? col.text(row) : col.cell(row);
  if (typeof v === 'number') return plainCell(v);
  if (typeof v !== 'string') return col.text ? '' : undefined;
  return v === NONE ? '' : plainCell(v);
}

/** Tabs and line breaks inside a value would split cells: they become spaces. */
const clean = (s: string) => s.replace(/[\t\r\n]+/g, ' ');

export function toTsv<T>(columns: readonly GridColumn<T>[], rows: readonly T[]): string {
  const cols = columns.filter((c) => rows.length === 0 || rows.some((r) => plain(c, r) !== undefined));
  const lines = [cols.map((c) => c.header).join('\t')];
  for (const r of rows) lines.push(cols.map((c) => clean(plain(c, r) ?? '')).join('\t'));
  return `${lines.join('\n')}\n`;
}

export async function copyText(text: string): Promise<void> {
  await navigator.clipboard.writeText(text);
}
