/**
 * Text that fits its box: the largest of a list of sizes at which it takes at most `maxLines`
 * lines, else a fallback size and line count with the last line cut by an ellipsis. Nothing is
 * ever drawn below the box, whatever the text's length.
 *
 * The text is any script, in runs of several fonts and directions (runs.ts), so the lines are
 * made here rather than by pdfkit (whose wrapping knows one font): a line may break after a
 * space, after a hyphen within a word, and between two Chinese, Japanese or Korean characters
 * (which need no space) unless that would start a line with closing punctuation or end one with
 * an opening bracket; a word longer than the line breaks between its characters. Widths come
 * from the fonts at size 1 and scale.
 */
import { LAYOUT_FEATURES, type TextStyle, useFont } from './fonts.ts';
import { lineRuns, runWidth, type ShapedText, shapeText } from './runs.ts';

/** A line's height, over its font size (plus LINE_GAP points). */
export const LINE_HEIGHT_EM = 1.15;
/** Where the baseline sits below a line's top, over the font size. */
export const ASCENT_EM = 0.76;
const LINE_GAP = 1;

export interface FitOptions {
  /** The text style (fonts.ts): a chain of fonts that together have every script. */
  font: TextStyle;
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

interface Line {
  start: number;
  /** Trailing spaces excluded. */
  end: number;
  ellipsis: boolean;
}

/** Text between two break opportunities, trailing spaces included; widths at size 1. */
interface Token {
  start: number;
  /** Where its trailing spaces start. */
  end: number;
  next: number;
  width: number;
  trailing: number;
  chars: number;
  trailingChars: number;
}

interface Layout {
  shaped: ShapedText;
  size: number;
  lineHeight: number;
  lines: Line[];
  /** The height the text takes. */
  used: number;
}

const WIDE =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3000-\u303f\uff01-\uff60]/u;
const NO_BREAK_BEFORE =
  /[\p{Pe}\p{Pf}\p{M}、。，．・：；！？ーぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ…‥々]/u;
const NO_BREAK_AFTER = /[\p{Ps}\p{Pi}]/u;
const HYPHEN = /^[-\u2010]$/u;
const LETTER = /\p{L}/u;

/** The width of the characters [start, end) at size 1: their font runs measured one by one. */
function widthAt1(doc: PDFKit.PDFDocument, shaped: ShapedText, start: number, end: number): number {
  let width = 0;
  let from = start;
  for (let index = start; index <= end; index += 1) {
    if (index < end && shaped.fonts[index] === shaped.fonts[from]) continue;
    const font = shaped.fonts[from];
    if (font !== null && font !== undefined && from < index) {
      width += runWidth(doc, shaped.text.slice(from, index), font, 1, 0);
    }
    from = index;
  }
  return width;
}

const codePointCount = (text: string) => [...text].length;

function tokensOf(doc: PDFKit.PDFDocument, shaped: ShapedText): Token[] {
  const { text } = shaped;
  const starts: number[] = [];
  let previous = '';
  let index = 0;
  for (const char of text) {
    const space = char === ' ';
    const previousSpace = previous === ' ';
    if (
      index === 0 ||
      (previousSpace && !space) ||
      (HYPHEN.test(previous) && LETTER.test(char)) ||
      (!space &&
        !previousSpace &&
        (WIDE.test(previous) || WIDE.test(char)) &&
        !NO_BREAK_BEFORE.test(char) &&
        !NO_BREAK_AFTER.test(previous))
    ) {
      starts.push(index);
    }
    previous = char;
    index += char.length;
  }
  return starts.map((start, n) => {
    const next = starts[n + 1] ?? text.length;
    let end = next;
    while (end > start && text[end - 1] === ' ') end -= 1;
    return {
      start,
      end,
      next,
      width: widthAt1(doc, shaped, start, end),
      trailing: widthAt1(doc, shaped, end, next),
      chars: codePointCount(text.slice(start, end)),
      trailingChars: next - end,
    };
  });
}

/** A token wider than a line, cut into pieces that fit, between grapheme clusters. */
function splitToken(
  doc: PDFKit.PDFDocument,
  shaped: ShapedText,
  token: Token,
  size: number,
  spacing: number,
  width: number,
): Line[] {
  const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  const lines: Line[] = [];
  let start = token.start;
  let used = 0;
  for (const { index, segment } of segmenter.segment(shaped.text.slice(token.start, token.end))) {
    const at = token.start + index;
    const cluster = widthAt1(doc, shaped, at, at + segment.length) * size + spacing * codePointCount(segment);
    if (used > 0 && used + cluster > width) {
      lines.push({ start, end: at, ellipsis: false });
      start = at;
      used = 0;
    }
    used += cluster;
  }
  lines.push({ start, end: token.end, ellipsis: false });
  return lines;
}

/** The lines at this size: greedy, as many tokens per line as fit. */
function wrap(
  doc: PDFKit.PDFDocument,
  shaped: ShapedText,
  tokens: Token[],
  size: number,
  spacing: number,
  width: number,
): Line[] {
  const lines: Line[] = [];
  let line: Line | null = null;
  let lineWidth = 0; // trailing spaces included
  for (const token of tokens) {
    const content = token.width * size + spacing * token.chars;
    const trailing = token.trailing * size + spacing * token.trailingChars;
    if (line !== null && lineWidth + content <= width + 0.01) {
      line.end = token.end;
      lineWidth += content + trailing;
      continue;
    }
    if (line !== null) lines.push(line);
    if (content > width + 0.01) {
      const pieces = splitToken(doc, shaped, token, size, spacing, width);
      lines.push(...pieces.slice(0, -1));
      line = pieces[pieces.length - 1]!;
      lineWidth = widthAt1(doc, shaped, line.start, line.end) * size + trailing;
    } else {
      line = { start: token.start, end: token.end, ellipsis: false };
      lineWidth = content + trailing;
    }
  }
  if (line !== null) lines.push(line);
  return lines;
}

/** The last line cut (between grapheme clusters) so that it and "…" fit the width. */
function withEllipsis(
  doc: PDFKit.PDFDocument,
  shaped: ShapedText,
  line: Line,
  size: number,
  spacing: number,
  width: number,
): Line {
  const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  const boundaries = [...segmenter.segment(shaped.text.slice(line.start))].map(
    ({ index }) => line.start + index,
  );
  let end = line.end;
  for (;;) {
    while (end > line.start && shaped.text[end - 1] === ' ') end -= 1;
    const cut = { start: line.start, end, ellipsis: true };
    if (end <= line.start || lineRuns(doc, shaped, cut, size, spacing).width <= width + 0.01) return cut;
    end = boundaries.filter((boundary) => boundary < end).pop() ?? line.start;
  }
}

/** Picks the size and the lines the text gets. */
function layoutFitted(doc: PDFKit.PDFDocument, text: string, options: FitOptions): Layout {
  const shaped = shapeText(text, options.font);
  const tokens = tokensOf(doc, shaped);
  const spacing = options.characterSpacing ?? 0;
  const layout = (size: number, lines: Line[]): Layout => {
    const lineHeight = size * LINE_HEIGHT_EM + LINE_GAP;
    return { shaped, size, lineHeight, lines, used: lines.length * lineHeight };
  };
  for (const size of options.sizes) {
    const lines = wrap(doc, shaped, tokens, size, spacing, options.width);
    const lineHeight = size * LINE_HEIGHT_EM + LINE_GAP;
    if (lines.length <= options.maxLines && lines.length * lineHeight <= options.boxHeight + 0.5) {
      return layout(size, lines);
    }
  }
  const fallback = options.fallback ?? {
    size: options.sizes[options.sizes.length - 1] ?? 10,
    maxLines: options.maxLines,
  };
  const lineHeight = fallback.size * LINE_HEIGHT_EM + LINE_GAP;
  const boxLines = Math.max(
    1,
    Math.min(fallback.maxLines, Math.floor((options.boxHeight + 0.5) / lineHeight)),
  );
  const lines = wrap(doc, shaped, tokens, fallback.size, spacing, options.width);
  if (lines.length <= boxLines) return layout(fallback.size, lines);
  const kept = lines.slice(0, boxLines);
  kept[boxLines - 1] = withEllipsis(doc, shaped, kept[boxLines - 1]!, fallback.size, spacing, options.width);
  return layout(fallback.size, kept);
}

/** The height drawFitted would take for this text, without drawing it. */
export function measureFitted(doc: PDFKit.PDFDocument, text: string, options: FitOptions): number {
  return layoutFitted(doc, text, options).used;
}

/** Draws the text at the largest size that fits; returns the height it took (never over the box). */
export function drawFitted(doc: PDFKit.PDFDocument, text: string, options: FitOptions): number {
  const { shaped, size, lineHeight, lines, used } = layoutFitted(doc, text, options);
  const top = options.verticalCenter === true ? options.y + (options.boxHeight - used) / 2 : options.y;
  const spacing = options.characterSpacing ?? 0;
  doc.fillColor(options.color);
  for (const [index, line] of lines.entries()) {
    const { runs, width } = lineRuns(doc, shaped, line, size, spacing);
    const align = options.align ?? 'center';
    const free = options.width - width;
    const left = options.x + (align === 'left' ? 0 : align === 'right' ? free : free / 2);
    const baseline = top + index * lineHeight + ASCENT_EM * size;
    for (const run of runs) {
      useFont(doc, run.font);
      doc.fontSize(size);
      doc.text(run.text, left + run.offset, baseline, {
        lineBreak: false,
        baseline: 'alphabetic',
        ...(spacing === 0 ? {} : { characterSpacing: spacing }),
        features: LAYOUT_FEATURES,
      });
    }
  }
  return used;
}

/** The width of `text` on one line in this style and size (no wrapping, no cut). */
export function textWidth(doc: PDFKit.PDFDocument, text: string, style: TextStyle, size: number): number {
  const shaped = shapeText(text, style);
  return lineRuns(doc, shaped, { start: 0, end: text.length, ellipsis: false }, size, 0).width;
}
