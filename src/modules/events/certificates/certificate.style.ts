/** What the certificate's drawing modules share: the page, the colours, text reduction. */
import { toWinAnsi } from '../../../kernel/pdf/winansi.ts';

/** A4 landscape in points (297 x 210 mm). */
export const PAGE_WIDTH = 841.89;
export const PAGE_HEIGHT = 595.28;

export interface CertificatePalette {
  background: string;
  text: string;
  accent: string;
  /** Secondary text: the text colour mixed towards the background. */
  muted: string;
  /** Rules: further towards the background. */
  faint: string;
}

/**
 * A string for the standard fonts (see `toWinAnsi`), at most `maxChars` characters. The input is
 * cut before it is reduced, so a megabyte of text costs what `maxChars` do.
 */
export function plainText(value: unknown, maxChars: number): string {
  if (typeof value !== 'string') return '';
  return toWinAnsi(value.slice(0, maxChars * 2))
    .slice(0, maxChars)
    .trim();
}
