/** What the certificate's drawing modules share: the page, the colours, text cleaning. */

/** A string to draw (any script), at most `maxChars` code points: see `cleanText`. */
export { cleanText as plainText } from '../../../kernel/pdf/text.ts';

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
