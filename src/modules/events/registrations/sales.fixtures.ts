/**
 * Helpers of the tests that read the registrations' CSV export (docs/reference/tickets.md, "Sales"):
 * the sales tests and the console's browser test.
 */
import assert from 'node:assert/strict';

/** RFC 4180 as a spreadsheet reads it: quoted fields may hold commas, quotes (doubled) and line breaks. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        cell += '"';
        index++;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(cell);
      cell = '';
    } else if (char === '\r' && text[index + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      index++;
    } else cell += char;
  }
  assert.equal(cell, '', 'the last line ends with CRLF');
  return rows;
}
