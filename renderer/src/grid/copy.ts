/**
 * Rows as tab-separated text for the clipboard (a spreadsheet pastes it as cells): a header
 * line, then one line per row, with each column's plain value.
 */
import type { GridColumn } from './types.ts';

function plain<T>(col: GridColumn<T>, row: T): string | undefined {
  if (col.text) return col.text(row);
  const c = col.cell(row);
  return typeof c === 'string' || typeof c === 'number' ? String(c) : undefined;
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
