/**
 * Text that fits its box: the largest of a list of sizes at which it takes at most `maxLines`
 * lines, else a fallback size and line count with the last line cut by an ellipsis. Nothing is
 * ever drawn below the box, whatever the text's length.
 */

export interface FitOptions {
  /** A standard font name or one registered on the document. */
  font: string;
  /** Font sizes to try, largest first; the first at which the text fits in maxLines wins. */
  sizes: number[];
  maxLines: number;
  /** Used when no size fits: this size and line count, cut with an ellipsis beyond that. */
  fallback?: { size: number; maxLines: number };
  /** Left edge and width of the box. */
  x: number;
  width: number;
  y: number;
  boxHeight: number;
  color: string;
  /** Default centre. */
  align?: 'left' | 'center' | 'right';
  characterSpacing?: number;
  /** Centre the drawn lines vertically in the box instead of starting at its top. */
  verticalCenter?: boolean;
}

interface FitLayout {
  /** pdfkit text options (width, align, line gap, spacing) shared by measuring and drawing. */
  textOptions: PDFKit.Mixins.TextOptions;
  /** The box height pdfkit may fill: whole lines only, at most the box. */
  height: number;
  /** The height the text takes: `height` or less. */
  used: number;
}

/** Picks the size (and leaves the document's font and size set to it) and the lines the text gets. */
function layoutFitted(doc: PDFKit.PDFDocument, text: string, options: FitOptions): FitLayout {
  const lineGap = 1;
  const base = { width: options.width, align: options.align ?? ('center' as const), lineGap };
  const spacing =
    options.characterSpacing === undefined ? {} : { characterSpacing: options.characterSpacing };
  doc.font(options.font);
  let chosen: { size: number; maxLines: number } | null = null;
  for (const size of options.sizes) {
    doc.fontSize(size);
    const lineHeight = doc.currentLineHeight(true) + lineGap;
    const lines = Math.round(doc.heightOfString(text, { ...base, ...spacing }) / lineHeight);
    if (lines <= options.maxLines && lines * lineHeight <= options.boxHeight + 0.5) {
      chosen = { size, maxLines: options.maxLines };
      break;
    }
  }
  chosen ??= options.fallback ?? {
    size: options.sizes[options.sizes.length - 1] ?? 10,
    maxLines: options.maxLines,
  };
  doc.fontSize(chosen.size);
  const lineHeight = doc.currentLineHeight(true) + lineGap;
  const boxLines = Math.max(1, Math.min(chosen.maxLines, Math.floor((options.boxHeight + 0.5) / lineHeight)));
  const height = boxLines * lineHeight;
  const textOptions = { ...base, ...spacing };
  return { textOptions, height, used: Math.min(height, doc.heightOfString(text, textOptions)) };
}

/** The height drawFitted would take for this text, without drawing it. */
export function measureFitted(doc: PDFKit.PDFDocument, text: string, options: FitOptions): number {
  return layoutFitted(doc, text, options).used;
}

/** Draws the text at the largest size that fits; returns the height it took (never over the box). */
export function drawFitted(doc: PDFKit.PDFDocument, text: string, options: FitOptions): number {
  const { textOptions, height, used } = layoutFitted(doc, text, options);
  const y = options.verticalCenter === true ? options.y + (options.boxHeight - used) / 2 : options.y;
  doc.fillColor(options.color);
  // `height` + `ellipsis` make pdfkit stop (and cut the last line) at the box bottom.
  doc.text(text, options.x, y, { ...textOptions, height: height + 0.5, ellipsis: true });
  return used;
}
