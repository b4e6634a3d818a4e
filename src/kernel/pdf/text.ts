/**
 * Text as the PDFs draw it: any script (the fonts cover it, see fonts.ts), on one line per
 * string (a newline would start a new line), with nothing a reader cannot see.
 */

/** Whitespace, controls and line or paragraph separators: each becomes one space. */
const SPACE_LIKE = /[\s\p{Cc}\p{Zl}\p{Zp}]+/gu;
/**
 * Format characters (bidirectional overrides and isolates, zero-width spaces, soft hyphens, byte
 * order marks) are dropped: an override would let a name display as another, and the drawing
 * orders right-to-left text itself. The zero-width joiner and non-joiner stay: they change how
 * Arabic (and other joined scripts) connect their letters.
 */
const INVISIBLE = /(?![\u200c\u200d])\p{Cf}/gu;

/**
 * `value` ready to draw: NFC-normalised (precomposed letters, which the fonts map), whitespace
 * and controls as single spaces, format characters dropped, trimmed, at most `maxChars` code
 * points. The input is cut before it is cleaned, so a megabyte of text costs what `maxChars` do.
 * Anything but a string is ''.
 */
export function cleanText(value: unknown, maxChars: number): string {
  if (typeof value !== 'string') return '';
  const cleaned = value
    .slice(0, maxChars * 2)
    .normalize('NFC')
    .replace(INVISIBLE, '')
    .replace(SPACE_LIKE, ' ')
    .trim();
  const codePoints = [...cleaned];
  return codePoints.length <= maxChars ? cleaned : codePoints.slice(0, maxChars).join('').trim();
}

/**
 * `text` as a bidirectional isolate (first-strong isolate ... pop directional isolate): inside a
 * sentence of ours, a name in another direction keeps its own order and does not pull the words
 * or numbers after it into its direction ("of <Arabic name>, 12–14 March" keeps the dates after
 * the name). The two marks are drawn as nothing. Use it on cleaned text (which has none of its own).
 */
export function isolate(text: string): string {
  return text === '' ? '' : `\u2068${text}\u2069`;
}
