/**
 * Tests read the service's CSV exports back with this RFC 4180 reader (quoted cells, doubled
 * quotes, CRLF records): a reader of its own, so a writer bug is not mirrored by the check.
 */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  // The service ends every record, the last one too, with CRLF.
  if (cell !== '' || row.length > 0) throw new Error('the CSV does not end with a line break');
  return rows;
}
