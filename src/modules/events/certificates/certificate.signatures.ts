/**
 * The certificate's signature row: per signature, a mark above a rule, then the signatory's name
 * and title under it.
 *
 * The mark is the signature image when `image_url` is a `data:image/png;base64,...` URL holding a
 * PNG that passes kernel/pdf/png.ts (scaled into its box, aspect kept, standing on the rule).
 * Any other URL, or a PNG that fails the checks, gives the signatory's name in the `script` text
 * style (kernel/pdf/fonts.ts: Great Vibes, and for the letters it lacks, such as Greek, Arabic or
 * Chinese, the serif italic and the other scripts' fonts). A URL is never fetched: strings never
 * reach pdfkit's `image()`, which would read a path from disk.
 *
 * At most MAX_SIGNATURES are drawn, the first ones in the order given (the caller's order is the
 * edition's): five keep names legible beside the QR code, and a certificate with more signatories
 * than that is better served by choosing which ones sign it than by shrinking them all. No
 * signatures, no row. The row is centred on the page when it fits there beside the QR code, else
 * moved left only as far as needed.
 */
import { ASCENT_EM, drawFitted, textWidth } from '../../../kernel/pdf/fit.ts';
import { pngFromDataUrl } from '../../../kernel/pdf/png.ts';
import { type CertificatePalette, PAGE_WIDTH, plainText } from './certificate.style.ts';

export const MAX_SIGNATURES = 5;

const SLOT_WIDTH = 190;
const SLOT_PADDING = 10;
const MARK_HEIGHT = 44;
const RULE_GAP = 4;
const MAX_RULE = 160;
/** Script sizes to try, largest first; the smallest is still cut with an ellipsis if needed. */
const SCRIPT_SIZES = [30, 28, 26, 24, 22, 20, 18, 16, 14];
/** Distance from the script's baseline down to the rule: room for its descenders. */
const BASELINE_ABOVE_RULE = 7;

export interface SignatureArea {
  /** The row stays between these x coordinates. */
  left: number;
  right: number;
  /** Top of the marks. */
  top: number;
}

interface Signature {
  name: string;
  title: string;
  imageUrl: unknown;
}

export function drawSignatures(
  doc: PDFKit.PDFDocument,
  signatures: readonly unknown[],
  palette: CertificatePalette,
  area: SignatureArea,
): void {
  const shown = signatures.slice(0, MAX_SIGNATURES).map(readSignature);
  if (shown.length === 0) return;
  const available = area.right - area.left;
  const rowWidth = Math.min(shown.length * SLOT_WIDTH, available);
  const centred = PAGE_WIDTH / 2 - rowWidth / 2;
  const rowLeft = Math.max(area.left, Math.min(centred, area.right - rowWidth));
  const slot = rowWidth / shown.length;
  for (const [index, signature] of shown.entries()) {
    drawSignature(
      doc,
      signature,
      palette,
      rowLeft + index * slot + SLOT_PADDING,
      slot - 2 * SLOT_PADDING,
      area.top,
    );
  }
}

function readSignature(value: unknown): Signature {
  const record = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  return {
    name: typeof record.signatory_name === 'string' ? record.signatory_name : '',
    title: typeof record.signatory_title === 'string' ? record.signatory_title : '',
    imageUrl: record.image_url,
  };
}

function drawSignature(
  doc: PDFKit.PDFDocument,
  signature: Signature,
  palette: CertificatePalette,
  x: number,
  width: number,
  top: number,
): void {
  const ruleY = top + MARK_HEIGHT + RULE_GAP;
  const name = plainText(signature.name, 120);
  if (!drawImage(doc, signature.imageUrl, x, width, top))
    drawScriptName(doc, signature.name, palette, x, width, ruleY);

  const ruleWidth = Math.min(width, MAX_RULE);
  doc.lineWidth(0.75);
  doc
    .moveTo(x + (width - ruleWidth) / 2, ruleY)
    .lineTo(x + (width + ruleWidth) / 2, ruleY)
    .stroke(palette.muted);

  let y = ruleY + 5;
  if (name !== '') {
    y += drawFitted(doc, name, {
      font: 'sans-bold',
      sizes: [10.5, 10, 9.5, 9, 8.5, 8],
      maxLines: 1,
      fallback: { size: 7.5, maxLines: 2 },
      x,
      width,
      y,
      boxHeight: 20,
      color: palette.text,
    });
  }
  const title = plainText(signature.title, 160);
  if (title !== '') {
    drawFitted(doc, title, {
      font: 'sans',
      sizes: [9, 8.5, 8],
      maxLines: 2,
      fallback: { size: 7.5, maxLines: 2 },
      x,
      width,
      y: y + 1,
      boxHeight: 20,
      color: palette.muted,
    });
  }
}

/** The signature image standing on the rule; false when there is none that may be drawn. */
function drawImage(doc: PDFKit.PDFDocument, url: unknown, x: number, width: number, top: number): boolean {
  const png = pngFromDataUrl(url);
  if (png === null) return false;
  try {
    doc.image(png.bytes, x, top, { fit: [width, MARK_HEIGHT], align: 'center', valign: 'bottom' });
    return true;
  } catch {
    return false;
  }
}

/** The name in the script style, as large as fits the slot, its baseline just above the rule. */
function drawScriptName(
  doc: PDFKit.PDFDocument,
  rawName: string,
  palette: CertificatePalette,
  x: number,
  width: number,
  ruleY: number,
): void {
  const text = plainText(rawName, 120);
  if (text === '') return;
  const size =
    SCRIPT_SIZES.find((candidate) => textWidth(doc, text, 'script', candidate) <= width) ??
    SCRIPT_SIZES[SCRIPT_SIZES.length - 1]!;
  drawFitted(doc, text, {
    font: 'script',
    sizes: [size],
    maxLines: 1,
    x,
    width,
    y: ruleY - BASELINE_ABOVE_RULE - ASCENT_EM * size,
    boxHeight: size * 1.3,
    color: palette.text,
  });
}
