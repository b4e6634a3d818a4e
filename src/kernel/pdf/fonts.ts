/**
 * The fonts every PDF draws with, and which one draws each character.
 *
 * A text style (serif bold for a certificate's title, sans for body text, a handwriting script for
 * a signatory's name...) is a chain of faces tried in order for each character: Noto Serif or
 * Noto Sans (Latin with every diacritic, Greek, Cyrillic, Vietnamese; Sans adds Devanagari), then
 * Noto Sans Arabic, Noto Sans Hebrew, and Noto Sans SC, JP and KR for Chinese, Japanese and
 * Korean. All are SIL Open Font License 1.1, from the `@fontsource/*` packages, so no font file of
 * ours is committed and nothing is downloaded at run time.
 *
 * A Fontsource face is split into files by Unicode range (`unicode.json` in the package: "latin",
 * "latin-ext", "greek", ..., and about a hundred numbered files for each CJK face). A character
 * is looked up in the ranges first, so only the few files a text needs are ever read. A file is
 * read and parsed once per process (per worker thread), on first use, unpacked from WOFF (see
 * woff.ts); a range only says what a file may hold, so its character map decides. pdfkit embeds
 * only the glyphs drawn.
 *
 * Parsed once: pdfkit parses a font anew for every document it is registered on, and fontkit (its
 * font engine) decodes the layout tables (kerning, Arabic joining) again on each, about 15 ms a
 * font, most of a certificate's render. So the parsed font is kept, and a document registers a
 * small token instead of the bytes; a font format registered with fontkit (its `registerFormat`,
 * the way it is extended) recognises the token and answers the parsed font. fontkit is loaded with
 * `require`, as pdfkit loads it, so both use the one instance that holds the registration.
 *
 * Han characters are shared by Chinese, Japanese and Korean with regional shapes: a text with kana
 * takes them from the Japanese face first, one with Hangul from the Korean one, any other from
 * the Simplified Chinese one; the others cover what the first lacks.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { LRUCache } from 'lru-cache';
import { woffToSfnt } from './woff.ts';

/** How a text is drawn; each style is a chain of faces (see the file's comment). */
export type TextStyle = 'serif-bold' | 'serif-italic' | 'sans' | 'sans-bold' | 'sans-italic' | 'script';

/** One font file, parsed and ready to register on a document. */
export interface FontFile {
  /** Its name on a document: the file's name, unique across faces. */
  name: string;
  /** What a document registers: the token of the parsed font (see the file's comment). */
  source: Buffer;
  has(codePoint: number): boolean;
}

/** What of a fontkit font is used here. */
interface ParsedFont {
  characterSet: number[];
  glyphForCodePoint(codePoint: number): unknown;
  hasGlyphForCodePoint(codePoint: number): boolean;
  layout(text: string, features?: unknown, ...rest: unknown[]): GlyphRun;
}

/** A fontkit glyph run, as pdfkit reads it (it scales `positions` in place). */
interface GlyphRun {
  glyphs: unknown[];
  positions: object[];
}

interface Fontkit {
  create(buffer: Uint8Array): ParsedFont;
  registerFormat(format: unknown): void;
}

interface FaceSpec {
  /** The Fontsource package, e.g. `@fontsource/noto-sans`. */
  package: string;
  weight: 400 | 700;
  italic: boolean;
}

interface Slice {
  ranges: Array<[number, number]>;
  path: string;
  /** undefined until read; null when it could not be read (then it covers nothing). */
  file?: FontFile | null;
}

const face = (name: string, weight: 400 | 700, italic = false): FaceSpec => ({
  package: `@fontsource/${name}`,
  weight,
  italic,
});

/** Faces for the scripts the Latin ones lack, at a weight. */
function scriptFaces(weight: 400 | 700): Record<'arabic' | 'hebrew' | 'sc' | 'jp' | 'kr', FaceSpec> {
  return {
    arabic: face('noto-sans-arabic', weight),
    hebrew: face('noto-sans-hebrew', weight),
    sc: face('noto-sans-sc', weight),
    jp: face('noto-sans-jp', weight),
    kr: face('noto-sans-kr', weight),
  };
}

const LATIN_FACES: Record<TextStyle, FaceSpec[]> = {
  // Noto Serif lacks Devanagari, which Noto Sans has: the sans of the same weight follows it.
  'serif-bold': [face('noto-serif', 700), face('noto-sans', 700)],
  'serif-italic': [face('noto-serif', 400, true), face('noto-sans', 400, true)],
  sans: [face('noto-sans', 400)],
  'sans-bold': [face('noto-sans', 700)],
  'sans-italic': [face('noto-sans', 400, true)],
  // Great Vibes (SIL OFL 1.1) covers Latin, Cyrillic and Vietnamese; the rest is the serif italic.
  script: [face('great-vibes', 400), face('noto-serif', 400, true), face('noto-sans', 400, true)],
};

/** Which CJK face comes first for a text (see the file's comment). */
export type HanOrder = 'sc' | 'jp' | 'kr';

/** The order of a text's CJK faces: by the kana or Hangul it holds. */
export function hanOrder(text: string): HanOrder {
  if (/[\p{Script=Hiragana}\p{Script=Katakana}]/u.test(text)) return 'jp';
  if (/\p{Script=Hangul}/u.test(text)) return 'kr';
  return 'sc';
}

const CJK_ORDERS: Record<HanOrder, Array<'sc' | 'jp' | 'kr'>> = {
  sc: ['sc', 'jp', 'kr'],
  jp: ['jp', 'sc', 'kr'],
  kr: ['kr', 'sc', 'jp'],
};

function chainSpecs(style: TextStyle, order: HanOrder): FaceSpec[] {
  const scripts = scriptFaces(style === 'serif-bold' || style === 'sans-bold' ? 700 : 400);
  return [
    ...LATIN_FACES[style],
    scripts.arabic,
    scripts.hebrew,
    ...CJK_ORDERS[order].map((key) => scripts[key]),
  ];
}

// Per process: the faces' slices (read from their packages on first use), the files read, and
// the font chosen for each character of each chain.
const slicesByFace = new Map<string, Slice[]>();
const fontByChar = new Map<string, Map<number, FontFile | null>>();
const requireFrom = createRequire(import.meta.url);
const fontkit = requireFrom('fontkit') as Fontkit;
/** Parsed fonts by the token documents register for them. */
const parsedByToken = new WeakMap<Uint8Array, ParsedFont>();

/**
 * The "font format" of a token: fontkit asks each registered format in turn whether a buffer is
 * its own (TrueType, WOFF... come first and refuse a token) and builds the font with the one that
 * says yes; this one answers the font parsed before.
 */
class ParsedFontToken {
  static probe(buffer: Uint8Array): boolean {
    return parsedByToken.has(buffer);
  }

  constructor(stream: { buffer: Uint8Array }) {
    // fontkit builds a font with `new format(stream)`; this format's font already exists.
    // biome-ignore lint/correctness/noConstructorReturn: see above
    return parsedByToken.get(stream.buffer)!;
  }
}
fontkit.registerFormat(ParsedFontToken);

/**
 * The OpenType features every run is laid out with (pdfkit's `features` option). Two reasons:
 * - Without `ccmp`. The Noto fonts build some letters from parts (Noto Sans Arabic: a dotless base
 *   and its dots, so reh and zain, seen and sheen share a base; Noto Sans: "ị" as "i" and a dot).
 *   A PDF maps each glyph back to one text, so readers (copy and paste, search, pdf.js) would get
 *   wrong letters or stray marks. The fonts have every letter, and Arabic's joined forms, whole
 *   (the text is NFC): without `ccmp` each glyph is one letter, drawn the same.
 * - Any `features` makes pdfkit lay the run out whole; without, it lays out word by word, and
 *   fontkit would reverse each word of a right-to-left run but not their order.
 * fontkit takes an object of feature -> on/off, which pdfkit passes through; pdfkit's types only
 * know the list form.
 */
export const LAYOUT_FEATURES = { ccmp: false } as unknown as PDFKit.Mixins.OpenTypeFeatures[];

/**
 * Laid-out runs by font and text, for every document of the process. fontkit lays a text out anew
 * on each call (about 0.5 ms for a short one with kerning), and pdfkit calls it twice for each run
 * it draws; the same texts come back in every certificate of an edition and on every badge.
 * Bounded.
 */
const layouts = new LRUCache<string, GlyphRun>({ max: 20_000 });

/**
 * `font.layout` answering from `layouts` for runs laid out with LAYOUT_FEATURES: a copy each time,
 * since pdfkit scales the positions of the run it is given in place.
 */
function memoizeLayout(font: ParsedFont, name: string): void {
  const layout = font.layout.bind(font);
  font.layout = (text, features, ...rest) => {
    if (features !== LAYOUT_FEATURES || rest.length > 0) return layout(text, features, ...rest);
    const key = `${name}\u0000${text}`;
    let run = layouts.get(key);
    if (run === undefined) {
      run = layout(text, features);
      layouts.set(key, run);
    }
    return Object.assign(Object.create(Object.getPrototypeOf(run) as object) as GlyphRun, run, {
      glyphs: [...run.glyphs],
      positions: run.positions.map((position) => ({ ...position })),
    });
  };
}

/** `U+0000-00FF,U+0131,U+4??` as ranges (a `?` stands for any hex digit). */
function parseRanges(value: string): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  for (const part of value.split(',')) {
    const match = /^\s*U\+([0-9a-f?]+)(?:-([0-9a-f]+))?\s*$/i.exec(part);
    if (match === null) continue;
    const start = Number.parseInt(match[1]!.replaceAll('?', '0'), 16);
    const end = Number.parseInt(match[2] ?? match[1]!.replaceAll('?', 'f'), 16);
    ranges.push([start, end]);
  }
  return ranges;
}

function slicesOf(spec: FaceSpec): Slice[] {
  const key = `${spec.package}-${spec.weight}-${spec.italic}`;
  let slices = slicesByFace.get(key);
  if (slices !== undefined) return slices;
  slices = [];
  try {
    const directory = dirname(requireFrom.resolve(`${spec.package}/package.json`));
    const id = spec.package.replace('@fontsource/', '');
    const ranges = JSON.parse(readFileSync(join(directory, 'unicode.json'), 'utf8')) as Record<
      string,
      string
    >;
    for (const [subset, range] of Object.entries(ranges)) {
      const fileName = `${id}-${subset.replace(/^\[(\d+)\]$/, '$1')}-${spec.weight}-${spec.italic ? 'italic' : 'normal'}.woff`;
      slices.push({ ranges: parseRanges(range), path: join(directory, 'files', fileName) });
    }
  } catch {
    // A package that cannot be read covers nothing; the chain goes on to the next face.
  }
  slicesByFace.set(key, slices);
  return slices;
}

function load(slice: Slice): FontFile | null {
  if (slice.file === undefined) {
    try {
      const font = fontkit.create(woffToSfnt(readFileSync(slice.path)));
      const name = slice.path.slice(slice.path.lastIndexOf('/') + 1, -'.woff'.length);
      // fontkit keeps one glyph object per glyph, with the characters it was first asked for, and
      // pdfkit maps each glyph back to those characters for readers. Embedding a subset asks for
      // the parts of composite glyphs ("u" of "ú") with none; in a font shared by every document,
      // a later "u" would then read as nothing. Asking for every mapped character first gives
      // each glyph its own (the lowest, where several share one: the space, not the no-break space).
      // Compatibility characters (Arabic presentation forms, ligatures such as "ﬁ") are left out:
      // their glyphs are the joined forms and ligatures of letters, which shaping names best.
      for (const codePoint of font.characterSet) {
        const char = String.fromCodePoint(codePoint);
        if (char.normalize('NFKC') === char) font.glyphForCodePoint(codePoint);
      }
      memoizeLayout(font, name);
      const source = Buffer.from(`parsed font ${name}`);
      parsedByToken.set(source, font);
      slice.file = { name, source, has: (codePoint) => font.hasGlyphForCodePoint(codePoint) };
    } catch {
      slice.file = null;
    }
  }
  return slice.file;
}

/** The first file of the chain that maps this code point, or null when none does. */
function lookUp(style: TextStyle, order: HanOrder, codePoint: number): FontFile | null {
  for (const spec of chainSpecs(style, order)) {
    for (const slice of slicesOf(spec)) {
      if (!slice.ranges.some(([start, end]) => codePoint >= start && codePoint <= end)) continue;
      const file = load(slice);
      if (file?.has(codePoint) === true) return file;
    }
  }
  return null;
}

/** The font that draws `codePoint` in this style, or null when no face has it (cached). */
export function fontFor(style: TextStyle, order: HanOrder, codePoint: number): FontFile | null {
  const key = `${style}/${order}`;
  let chosen = fontByChar.get(key);
  if (chosen === undefined) {
    chosen = new Map();
    fontByChar.set(key, chosen);
  }
  let file = chosen.get(codePoint);
  if (file === undefined) {
    file = lookUp(style, order, codePoint);
    chosen.set(codePoint, file);
  }
  return file;
}

/**
 * The style's own font for what no face has: the file that draws its space. pdfkit draws such a
 * character as that font's missing-glyph box (never as `?`). Throws when not even that file can
 * be read: the fonts are not installed.
 */
export function primaryFont(style: TextStyle): FontFile {
  const file = fontFor(style, 'sc', 0x20);
  if (file === null)
    throw new Error(`no font for the ${style} text style: are the @fontsource packages installed?`);
  return file;
}

const registered = new WeakMap<PDFKit.PDFDocument, Set<string>>();

/** Makes `file` the document's current font, registering it on first use on this document. */
export function useFont(doc: PDFKit.PDFDocument, file: FontFile): void {
  let names = registered.get(doc);
  if (names === undefined) {
    names = new Set();
    registered.set(doc, names);
  }
  if (!names.has(file.name)) {
    doc.registerFont(file.name, file.source);
    names.add(file.name);
  }
  doc.font(file.name);
}
