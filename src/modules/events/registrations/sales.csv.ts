/**
 * The CSV of the registrations' export (docs/reference/tickets.md, "Sales"): RFC 4180 (fields with a
 * comma, quote, CR or LF quoted, quotes doubled, lines ending CRLF), protected against formula
 * injection: a spreadsheet runs a cell starting with `=`, `+`, `-` or `@` (or a tab or CR, which
 * some strip first) as a formula, so such a text cell is written with a leading `'` (OWASP, "CSV
 * Injection"). A registrant's name is theirs to choose, hence this.
 */

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** One text cell: neutralised when a spreadsheet would read it as a formula, then quoted when needed. */
export function csvCell(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One line: the cells joined, ended by CRLF. */
export function csvLine(values: ReadonlyArray<string | number | null>): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}
