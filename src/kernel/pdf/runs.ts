/**
 * A text cut into runs, each drawn with one font in one direction: the font per character is the
 * first of the style's chain that has it (fonts.ts), and the order on the line comes from the
 * Unicode Bidirectional Algorithm (bidi-js), so Arabic and Hebrew read right to left, numbers in
 * them left to right, and a Latin name beside them in its place.
 *
 * pdfkit lays a run out with fontkit, which shapes it (Arabic letters joined) and reverses it when
 * its script is written right to left. A run of other characters on a right-to-left level (the
 * space or parenthesis between two Arabic words, Arabic-Indic digits, which fontkit reverses)
 * is ordered here instead, so every run reaches the page in the order it is seen.
 *
 * Runs are drawn, each at its place on the line, in the order they are read (logical order):
 * readers that take text in drawing order (pdf.js) then give it back as it was typed, and those
 * that sort it by place (pdftotext) read the line as a person does.
 */
import bidiModule from 'bidi-js';
import { LRUCache } from 'lru-cache';
import {
  type FontFile,
  fontFor,
  type HanOrder,
  hanOrder,
  LAYOUT_FEATURES,
  primaryFont,
  type TextStyle,
  useFont,
} from './fonts.ts';

type BidiFactory = typeof bidiModule.default;
/**
 * bidi-js is a UMD module typed with `export default`: under NodeNext the default import is the
 * module object in the types, while at run time it is the factory itself.
 */
const bidiFactory: BidiFactory =
  (bidiModule as unknown as { default?: BidiFactory }).default ?? (bidiModule as unknown as BidiFactory);
const bidi = bidiFactory();

/** A text with the font of each UTF-16 unit (both halves of a pair share one). */
export interface ShapedText {
  text: string;
  /** null: a default-ignorable character no font has, drawn as nothing. */
  fonts: Array<FontFile | null>;
  style: TextStyle;
  order: HanOrder;
  /** The paragraph's direction: from its first strong character. */
  rtl: boolean;
}

/** One run as drawn: its text in drawing order, its font, its place among the line's runs. */
export interface DrawnRun {
  /** What pdfkit is given: reversed here when fontkit would not order it right. */
  text: string;
  font: FontFile;
  /** Its width at the size and spacing asked for, in points. */
  width: number;
  /** Left edge from the line's left edge, in points. */
  offset: number;
}

const COMMON = /[\p{Script=Common}\p{Script=Inherited}]/u;
const IGNORABLE = /\p{Default_Ignorable_Code_Point}/u;
/** Marks that only steer the bidirectional algorithm (isolates of ours, see text.ts): never drawn. */
const BIDI_CONTROL = /\p{Bidi_Control}/u;
/** The scripts fontkit lays out right to left (its list, for the scripts the fonts have). */
const RTL_SCRIPT = /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}]/u;
const UNASSIGNED = /\p{Cn}/u;

/** The font of every character: neutral ones (spaces, digits, marks) stay in the font before them when it has them. */
export function shapeText(text: string, style: TextStyle): ShapedText {
  const order = hanOrder(text);
  const fonts: Array<FontFile | null> = [];
  let previous: FontFile | null = null;
  for (const char of text) {
    const codePoint = char.codePointAt(0)!;
    let font: FontFile | null = null;
    if (!BIDI_CONTROL.test(char)) {
      font =
        previous !== null && COMMON.test(char) && previous.has(codePoint)
          ? previous
          : fontFor(style, order, codePoint);
      if (font === null && !IGNORABLE.test(char)) font = primaryFont(style);
    }
    for (let unit = 0; unit < char.length; unit += 1) fonts.push(font);
    if (font !== null) previous = font;
  }
  const { paragraphs } = bidi.getEmbeddingLevels(text, 'auto');
  return { text, fonts, style, order, rtl: (paragraphs[0]?.level ?? 0) % 2 === 1 };
}

/** The font that draws "…" after the character at `index` (that one's font when it has it). */
export function ellipsisFont(shaped: ShapedText, index: number): FontFile {
  const before = shaped.fonts[index];
  if (before?.has(0x2026) === true) return before;
  return fontFor(shaped.style, shaped.order, 0x2026) ?? primaryFont(shaped.style);
}

/** Would fontkit lay this text out right to left? (Its rule: the first character of a script.) */
function fontkitReverses(text: string): boolean {
  for (const char of text) {
    if (COMMON.test(char) || UNASSIGNED.test(char)) continue;
    return RTL_SCRIPT.test(char);
  }
  return false;
}

/** The text's grapheme clusters in reverse order, brackets mirrored: as it shows right to left. */
function reversed(text: string, mirror: boolean): string {
  const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  const clusters = [...segmenter.segment(text)].map(({ segment }) =>
    mirror ? (bidi.getMirroredCharacter(segment) ?? segment) : segment,
  );
  return clusters.reverse().join('');
}

/**
 * Widths at size 1 by font and text, for every document of the process: the same texts are
 * measured again and again (each word of a text at each size tried, the labels of every badge).
 * Bounded.
 */
const widths = new LRUCache<string, number>({ max: 50_000 });

/** The width pdfkit gives `text` in `font` at `size`, with `spacing` after every character. */
export function runWidth(
  doc: PDFKit.PDFDocument,
  text: string,
  font: FontFile,
  size: number,
  spacing: number,
): number {
  const key = `${font.name}\u0000${text}`;
  let width = widths.get(key);
  if (width === undefined) {
    useFont(doc, font);
    doc.fontSize(1);
    width = doc.widthOfString(text, { features: LAYOUT_FEATURES });
    widths.set(key, width);
  }
  return width * size + spacing * [...text].length;
}

/**
 * The runs of one line (the characters [start, end) of the text, then "…" when `ellipsis`), with
 * their widths and places, in logical order. Characters drawn as nothing are left out.
 */
export function lineRuns(
  doc: PDFKit.PDFDocument,
  shaped: ShapedText,
  line: { start: number; end: number; ellipsis: boolean },
  size: number,
  spacing: number,
): { runs: DrawnRun[]; width: number } {
  let text = shaped.text.slice(line.start, line.end);
  const fonts = shaped.fonts.slice(line.start, line.end);
  if (line.ellipsis) {
    text += '…';
    fonts.push(ellipsisFont(shaped, line.end - 1));
  }
  const { levels } = bidi.getEmbeddingLevels(text, shaped.rtl ? 'rtl' : 'ltr');
  const pieces: Array<{ text: string; font: FontFile; level: number }> = [];
  for (let index = 0; index < text.length; index += 1) {
    const font = fonts[index];
    if (font === null || font === undefined) continue;
    const last = pieces[pieces.length - 1];
    const level = levels[index]!;
    // Both halves of a surrogate pair go with the first (bidi-js gives them one level).
    if (last !== undefined && last.font === font && last.level === level) last.text += text[index];
    else pieces.push({ text: text[index]!, font, level });
  }
  const runs = pieces.map((piece) => {
    const rtl = piece.level % 2 === 1;
    const drawn = fontkitReverses(piece.text) === rtl ? piece.text : reversed(piece.text, rtl);
    return {
      text: drawn,
      font: piece.font,
      width: runWidth(doc, drawn, piece.font, size, spacing),
      offset: 0,
    };
  });
  // Rule L2 of the algorithm, on runs: from the highest level down to the lowest odd one, reverse
  // every sequence of runs at that level or above.
  const visual = runs.map((_, index) => index);
  const runLevels = pieces.map((piece) => piece.level);
  const highest = Math.max(0, ...runLevels);
  const lowestOdd = Math.min(...runLevels.filter((level) => level % 2 === 1), highest + 1);
  for (let level = highest; level >= lowestOdd; level -= 1) {
    let index = 0;
    while (index < visual.length) {
      if (runLevels[visual[index]!]! < level) {
        index += 1;
        continue;
      }
      const from = index;
      while (index < visual.length && runLevels[visual[index]!]! >= level) index += 1;
      const part = visual.slice(from, index).reverse();
      visual.splice(from, part.length, ...part);
    }
  }
  let offset = 0;
  for (const index of visual) {
    runs[index]!.offset = offset;
    offset += runs[index]!.width;
  }
  return { runs, width: offset };
}
