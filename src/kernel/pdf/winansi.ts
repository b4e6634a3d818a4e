/**
 * Text for pdfkit's standard fonts (Helvetica, Times...). They can show WinAnsi (Windows-1252)
 * only, and pdfkit writes each UTF-16 unit of a string as hex, so anything outside WinAnsi would
 * come out as the wrong glyphs rather than fail: every string drawn with them is reduced first.
 */

/** Characters above Latin-1 that WinAnsi (and so pdfkit's standard fonts) can show. */
const WIN_ANSI_EXTRA = new Set([
  0x152, 0x153, 0x160, 0x161, 0x178, 0x17d, 0x17e, 0x192, 0x2c6, 0x2dc, 0x2013, 0x2014, 0x2018, 0x2019,
  0x201a, 0x201c, 0x201d, 0x201e, 0x2020, 0x2021, 0x2022, 0x2026, 0x2030, 0x2039, 0x203a, 0x20ac, 0x2122,
]);

/** Latin letters with a stroke have no Unicode decomposition: their plain letter. */
const STROKED: Record<string, string> = {
  Ł: 'L',
  ł: 'l',
  Đ: 'D',
  đ: 'd',
  Ħ: 'H',
  ħ: 'h',
  ı: 'i',
  Ŧ: 'T',
  ŧ: 't',
};

export function isWinAnsi(code: number): boolean {
  return (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRA.has(code);
}

/**
 * Text the standard fonts can show: a character outside WinAnsi becomes its base letter when one
 * exists (accents dropped: "Ł" -> "L", "ő" -> "o"), else `?`. Control characters and runs of
 * whitespace become one space (a newline would start a new line); the result is trimmed. Anything
 * but a string is ''.
 */
export function toWinAnsi(value: unknown): string {
  if (typeof value !== 'string') return '';
  let out = '';
  for (const char of value.normalize('NFC')) {
    const code = char.codePointAt(0)!;
    if (/\s/u.test(char) || code < 0x20 || (code >= 0x7f && code < 0xa0)) {
      out += ' ';
    } else if (isWinAnsi(code)) {
      out += char;
    } else {
      const base = STROKED[char] ?? char.normalize('NFD').replace(/\p{M}/gu, '');
      out += base !== '' && [...base].every((c) => isWinAnsi(c.codePointAt(0)!)) ? base : '?';
    }
  }
  return out.replace(/ {2,}/g, ' ').trim();
}
