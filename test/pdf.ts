/**
 * A small PDF reader for tests: enough of PDF to check what the service renders with pdfkit
 * (page count, the text shown on each page, the QR code drawn on each page), with no dependency
 * beyond node:zlib and jsqr.
 *
 * It walks the page tree from the catalog, inflates FlateDecode content streams, and interprets
 * the content operators that matter: `q`/`Q`/`cm` (the transformation matrix: pdfkit flips the
 * y axis with `1 0 0 -1 0 h cm`), the fill colour operators, `re` and the fill operators (dark
 * filled rectangles), and the text-showing operators `Tj`, `TJ`, `'` and `"`. Strings are decoded
 * as WinAnsi, which is what pdfkit's standard fonts (Helvetica etc.) use.
 *
 * The QR code is rebuilt from the dark rectangles whose shorter side is the module size (the most
 * common shorter side on the page; runs of modules are multiples of it), rasterised with a quiet
 * zone at a few pixels per module and decoded with jsqr: the test proves the code scans, not just
 * that some squares were drawn.
 */

import { inflateSync } from 'node:zlib';
import jsQRModule from 'jsqr';

type JsQr = typeof jsQRModule.default;
/**
 * jsqr is CommonJS typed with `export default`: under NodeNext the default import is the module
 * object in the types, while at run time it is the function itself (which also has `.default`).
 */
const jsQR: JsQr = (jsQRModule as unknown as { default?: JsQr }).default ?? (jsQRModule as unknown as JsQr);

export interface ReadPdf {
  pageCount: number;
  /** Per page, the strings shown, one entry per text-showing operator, in drawing order. */
  texts: string[][];
  /** Per page, the decoded QR payload, or '' when the page holds no decodable QR code. */
  qrPayloads: string[];
  /** The document information dictionary (Title, Creator, Producer...), strings decoded. */
  info: Record<string, string>;
}

export function readPdf(pdf: Buffer): ReadPdf {
  const source = pdf.toString('latin1');
  assertPdf(source.startsWith('%PDF-'), 'no %PDF- header');
  const objects = parseObjects(pdf, source);
  const pages = pageObjects(objects, source);
  const texts: string[][] = [];
  const qrPayloads: string[] = [];
  for (const page of pages) {
    const content = pageContent(page, objects);
    const result = interpret(content);
    texts.push(result.texts);
    qrPayloads.push(decodeQr(result.darkRects));
  }
  return { pageCount: pages.length, texts, qrPayloads, info: documentInfo(objects, source) };
}

function assertPdf(condition: boolean, message: string): asserts condition {
  if (!condition) throw new Error(`readPdf: ${message}`);
}

// ---------------------------------------------------------------------------------------------
// Objects and the page tree

interface PdfObject {
  /** The text between `obj` and `stream`/`endobj` (a dictionary, array, number, string...). */
  body: string;
  /** Raw (still encoded) stream bytes, when the object is a stream. */
  stream: Buffer | null;
}

/**
 * Objects in file order. The scan skips over stream data by its /Length, so bytes inside a
 * compressed stream can never be mistaken for an object header; a later definition of the same
 * object number (an incremental update) replaces the earlier one.
 */
function parseObjects(pdf: Buffer, source: string): Map<number, PdfObject> {
  const objects = new Map<number, PdfObject>();
  const header = /(\d+)\s+(\d+)\s+obj\b/g;
  let match = header.exec(source);
  while (match !== null) {
    const bodyStart = match.index + match[0].length;
    const endobj = source.indexOf('endobj', bodyStart);
    const streamAt = findStreamKeyword(source, bodyStart);
    let next: number;
    if (streamAt !== -1 && (endobj === -1 || streamAt < endobj)) {
      const body = source.slice(bodyStart, streamAt);
      let dataStart = streamAt + 'stream'.length;
      if (source[dataStart] === '\r') dataStart += 1;
      if (source[dataStart] === '\n') dataStart += 1;
      const length = /\/Length\s+(\d+)(?!\s+\d+\s+R)/.exec(body);
      let dataEnd: number;
      if (length !== null && source.startsWith('endstream', skipEol(source, dataStart + Number(length[1])))) {
        dataEnd = dataStart + Number(length[1]);
      } else {
        // An indirect or wrong /Length: fall back to the endstream keyword.
        const endstream = source.indexOf('endstream', dataStart);
        assertPdf(endstream !== -1, `object ${match[1]}: stream without endstream`);
        dataEnd = endstream;
        while (dataEnd > dataStart && (source[dataEnd - 1] === '\n' || source[dataEnd - 1] === '\r'))
          dataEnd -= 1;
      }
      objects.set(Number(match[1]), { body, stream: pdf.subarray(dataStart, dataEnd) });
      const after = source.indexOf('endobj', dataEnd);
      next = after === -1 ? dataEnd : after + 'endobj'.length;
    } else {
      assertPdf(endobj !== -1, `object ${match[1]}: no endobj`);
      objects.set(Number(match[1]), { body: source.slice(bodyStart, endobj), stream: null });
      next = endobj + 'endobj'.length;
    }
    header.lastIndex = next;
    match = header.exec(source);
  }
  assertPdf(objects.size > 0, 'no objects');
  return objects;
}

/** The `stream` keyword (not `endstream`) after a dictionary. */
function findStreamKeyword(source: string, from: number): number {
  const re = /(^|[^d])stream\r?\n/g;
  re.lastIndex = from;
  const match = re.exec(source);
  return match === null ? -1 : match.index + match[1]!.length;
}

function skipEol(source: string, at: number): number {
  let i = at;
  while (source[i] === '\r' || source[i] === '\n' || source[i] === ' ') i += 1;
  return i;
}

function ref(body: string, key: string): number | null {
  const match = new RegExp(`/${key}\\s+(\\d+)\\s+\\d+\\s+R`).exec(body);
  return match === null ? null : Number(match[1]);
}

/** Page objects in document order, from the trailer's /Root through /Pages and /Kids. */
function pageObjects(objects: Map<number, PdfObject>, source: string): PdfObject[] {
  const trailerRoot = [...source.matchAll(/\/Root\s+(\d+)\s+\d+\s+R/g)].pop();
  let rootPages: number | null = null;
  if (trailerRoot !== undefined) {
    const catalog = objects.get(Number(trailerRoot[1]));
    if (catalog !== undefined) rootPages = ref(catalog.body, 'Pages');
  }
  if (rootPages === null) {
    // No usable trailer: the page tree node without a parent.
    for (const [id, object] of objects) {
      if (/\/Type\s*\/Pages\b/.test(object.body) && !/\/Parent\s/.test(object.body)) rootPages = id;
    }
  }
  assertPdf(rootPages !== null, 'no page tree');
  const pages: PdfObject[] = [];
  const visit = (id: number, depth: number): void => {
    assertPdf(depth < 32, 'page tree too deep');
    const node = objects.get(id);
    assertPdf(node !== undefined, `missing page tree object ${id}`);
    if (/\/Type\s*\/Pages\b/.test(node.body)) {
      const kids = /\/Kids\s*\[([^\]]*)\]/.exec(node.body);
      assertPdf(kids !== null, `page tree node ${id} without /Kids`);
      for (const kid of kids[1]!.matchAll(/(\d+)\s+\d+\s+R/g)) visit(Number(kid[1]), depth + 1);
    } else {
      assertPdf(/\/Type\s*\/Page\b/.test(node.body), `object ${id} is not a page`);
      pages.push(node);
    }
  };
  visit(rootPages, 0);
  const count = /\/Count\s+(\d+)/.exec(objects.get(rootPages)!.body);
  assertPdf(count !== null && Number(count[1]) === pages.length, '/Count does not match the pages found');
  return pages;
}

/** The trailer's /Info dictionary; values may be direct strings or references to them. */
function documentInfo(objects: Map<number, PdfObject>, source: string): Record<string, string> {
  const infoRef = [...source.matchAll(/\/Info\s+(\d+)\s+\d+\s+R/g)].pop();
  const dictionary = infoRef === undefined ? undefined : objects.get(Number(infoRef[1]));
  const info: Record<string, string> = {};
  if (dictionary === undefined) return info;
  const entry = /\/(\w+)\s*(\d+\s+\d+\s+R|\((?:\\.|[^\\)])*\)|<[0-9a-fA-F\s]*>)/g;
  for (const [, key, raw] of dictionary.body.matchAll(entry)) {
    let value = raw!;
    const target = /^(\d+)\s+\d+\s+R$/.exec(value);
    if (target !== null) value = objects.get(Number(target[1]))?.body.trim() ?? '';
    const token = tokenize(value).next().value;
    if (token?.kind === 'operand' && typeof token.value === 'object' && 'bytes' in token.value) {
      info[key!] = decodeTextString(token.value.bytes);
    }
  }
  return info;
}

/** A PDF text string: UTF-16BE with a byte order mark, else PDFDocEncoding (read as WinAnsi). */
function decodeTextString(bytes: number[]): string {
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return Buffer.from(bytes.slice(2)).swap16().toString('utf16le');
  return decodeWinAnsi(bytes);
}

/** The page's content streams, decoded and concatenated (an array of streams is one stream). */
function pageContent(page: PdfObject, objects: Map<number, PdfObject>): string {
  const contents = /\/Contents\s*(\[[^\]]*\]|\d+\s+\d+\s+R)/.exec(page.body);
  if (contents === null) return '';
  const parts: string[] = [];
  for (const item of contents[1]!.matchAll(/(\d+)\s+\d+\s+R/g)) {
    const stream = objects.get(Number(item[1]));
    assertPdf(stream?.stream != null, `content object ${item[1]} is not a stream`);
    parts.push(decodeStream(stream.body, stream.stream).toString('latin1'));
  }
  return parts.join('\n');
}

function decodeStream(dictionary: string, data: Buffer): Buffer {
  const filter = /\/Filter\s*(\[[^\]]*\]|\/\w+)/.exec(dictionary);
  if (filter === null) return data;
  let out = data;
  for (const name of filter[1]!.matchAll(/\/(\w+)/g)) {
    assertPdf(name[1] === 'FlateDecode', `unsupported filter ${name[1]}`);
    out = inflateSync(out);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Content streams

type Operand = number | Operand[] | { name: string } | { bytes: number[] };
type Matrix = [number, number, number, number, number, number];

interface Rect {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

interface Interpreted {
  texts: string[];
  /** Dark filled rectangles in default user space (y up). */
  darkRects: Rect[];
}

function interpret(content: string): Interpreted {
  const texts: string[] = [];
  const darkRects: Rect[] = [];
  let ctm: Matrix = [1, 0, 0, 1, 0, 0];
  let fillLuminance = 0;
  const saved: { ctm: Matrix; fillLuminance: number }[] = [];
  let path: Rect[] = [];
  let operands: Operand[] = [];
  const arrays: Operand[][] = [];

  const push = (operand: Operand): void => {
    const top = arrays[arrays.length - 1];
    if (top === undefined) operands.push(operand);
    else top.push(operand);
  };
  const numbers = (): number[] => operands.filter((o): o is number => typeof o === 'number');

  for (const token of tokenize(content)) {
    if (token.kind === 'open') {
      arrays.push([]);
      continue;
    }
    if (token.kind === 'close') {
      const done = arrays.pop();
      if (done !== undefined) push(done);
      continue;
    }
    if (token.kind === 'operand') {
      push(token.value);
      continue;
    }
    const n = numbers();
    switch (token.value) {
      case 'q':
        saved.push({ ctm, fillLuminance });
        break;
      case 'Q': {
        const state = saved.pop();
        if (state !== undefined) ({ ctm, fillLuminance } = state);
        break;
      }
      case 'cm':
        if (n.length === 6) ctm = multiply(n as Matrix, ctm);
        break;
      case 'g':
        fillLuminance = n[0] ?? 0;
        break;
      case 'rg':
        fillLuminance = rgbLuminance(n[0] ?? 0, n[1] ?? 0, n[2] ?? 0);
        break;
      case 'k':
        fillLuminance = cmykLuminance(n[0] ?? 0, n[1] ?? 0, n[2] ?? 0, n[3] ?? 0);
        break;
      case 'cs':
        fillLuminance = 0; // Setting a colour space resets the colour to its initial (black).
        break;
      case 'sc':
      case 'scn':
        if (n.length === 1) fillLuminance = n[0]!;
        else if (n.length === 3) fillLuminance = rgbLuminance(n[0]!, n[1]!, n[2]!);
        else if (n.length === 4) fillLuminance = cmykLuminance(n[0]!, n[1]!, n[2]!, n[3]!);
        break;
      case 're':
        if (n.length === 4) path.push(transformRect(ctm, n[0]!, n[1]!, n[2]!, n[3]!));
        break;
      case 'f':
      case 'F':
      case 'f*':
      case 'B':
      case 'B*':
      case 'b':
      case 'b*':
        if (fillLuminance < 0.5) darkRects.push(...path);
        path = [];
        break;
      case 'n':
      case 'S':
      case 's':
        path = [];
        break;
      case 'Tj':
      case 'TJ':
      case "'":
      case '"':
        // The string (or TJ array) is always the last operand.
        texts.push(textOf(operands[operands.length - 1]));
        break;
      default:
        break;
    }
    operands = [];
  }
  return { texts, darkRects };
}

type Token =
  | { kind: 'operand'; value: Operand }
  | { kind: 'operator'; value: string }
  | { kind: 'open' }
  | { kind: 'close' };

const DELIMITERS = '()<>[]{}/%';
const isWhite = (c: string | undefined): boolean =>
  c === ' ' || c === '\n' || c === '\r' || c === '\t' || c === '\f' || c === '\0';

function* tokenize(s: string): Generator<Token> {
  let i = 0;
  while (i < s.length) {
    const c = s[i]!;
    if (isWhite(c)) {
      i += 1;
    } else if (c === '%') {
      while (i < s.length && s[i] !== '\n' && s[i] !== '\r') i += 1;
    } else if (c === '[') {
      i += 1;
      yield { kind: 'open' };
    } else if (c === ']') {
      i += 1;
      yield { kind: 'close' };
    } else if (c === '<' && s[i + 1] === '<') {
      i += 2; // Inline dictionaries (marked content properties) carry nothing we read.
      yield { kind: 'open' };
    } else if (c === '>' && s[i + 1] === '>') {
      i += 2;
      yield { kind: 'close' };
    } else if (c === '<') {
      const end = s.indexOf('>', i);
      assertPdf(end !== -1, 'unterminated hex string');
      const hex = s.slice(i + 1, end).replace(/\s+/g, '');
      const padded = hex.length % 2 === 1 ? `${hex}0` : hex;
      const bytes: number[] = [];
      for (let k = 0; k < padded.length; k += 2) bytes.push(Number.parseInt(padded.slice(k, k + 2), 16));
      i = end + 1;
      yield { kind: 'operand', value: { bytes } };
    } else if (c === '(') {
      const { bytes, end } = literalString(s, i);
      i = end;
      yield { kind: 'operand', value: { bytes } };
    } else if (c === '/') {
      let j = i + 1;
      while (j < s.length && !isWhite(s[j]) && !DELIMITERS.includes(s[j]!)) j += 1;
      yield { kind: 'operand', value: { name: s.slice(i + 1, j) } };
      i = j;
    } else {
      let j = i;
      while (j < s.length && !isWhite(s[j]) && !DELIMITERS.includes(s[j]!)) j += 1;
      if (j === i) {
        i += 1; // A stray delimiter such as ')' or '}': skip it.
        continue;
      }
      const word = s.slice(i, j);
      i = j;
      if (/^[+-]?(\d+\.?\d*|\.\d+)$/.test(word)) {
        yield { kind: 'operand', value: Number(word) };
      } else if (word === 'ID') {
        // Inline image data is binary: skip to its EI.
        const ei = s.indexOf('EI', i);
        i = ei === -1 ? s.length : ei + 2;
      } else {
        yield { kind: 'operator', value: word };
      }
    }
  }
}

function literalString(s: string, start: number): { bytes: number[]; end: number } {
  const bytes: number[] = [];
  let depth = 1;
  let i = start + 1;
  const escapes: Record<string, number> = { n: 10, r: 13, t: 9, b: 8, f: 12, '(': 40, ')': 41, '\\': 92 };
  while (i < s.length) {
    const c = s[i]!;
    if (c === '\\') {
      const next = s[i + 1] ?? '';
      if (next in escapes) {
        bytes.push(escapes[next]!);
        i += 2;
      } else if (/[0-7]/.test(next)) {
        const octal = /^[0-7]{1,3}/.exec(s.slice(i + 1, i + 4))![0];
        bytes.push(Number.parseInt(octal, 8) & 0xff);
        i += 1 + octal.length;
      } else if (next === '\r' || next === '\n') {
        i += s[i + 1] === '\r' && s[i + 2] === '\n' ? 3 : 2; // A line continuation.
      } else {
        i += 1;
      }
      continue;
    }
    if (c === '(') depth += 1;
    if (c === ')') {
      depth -= 1;
      if (depth === 0) return { bytes, end: i + 1 };
    }
    bytes.push(c.charCodeAt(0));
    i += 1;
  }
  throw new Error('readPdf: unterminated literal string');
}

/** WinAnsi bytes 0x80..0x9f that differ from Latin-1 (the rest of the table is Latin-1). */
const WIN_ANSI_HIGH: Record<number, number> = {
  128: 0x20ac,
  130: 0x201a,
  131: 0x0192,
  132: 0x201e,
  133: 0x2026,
  134: 0x2020,
  135: 0x2021,
  136: 0x02c6,
  137: 0x2030,
  138: 0x0160,
  139: 0x2039,
  140: 0x0152,
  142: 0x017d,
  145: 0x2018,
  146: 0x2019,
  147: 0x201c,
  148: 0x201d,
  149: 0x2022,
  150: 0x2013,
  151: 0x2014,
  152: 0x02dc,
  153: 0x2122,
  154: 0x0161,
  155: 0x203a,
  156: 0x0153,
  158: 0x017e,
  159: 0x0178,
};

function decodeWinAnsi(bytes: number[]): string {
  return String.fromCodePoint(...bytes.map((b) => WIN_ANSI_HIGH[b] ?? b));
}

/**
 * The text of a Tj/TJ operand. In a TJ array, numbers are adjustments in thousandths of an em;
 * a large negative one (word spacing of justified text) is read as a space.
 */
function textOf(operand: Operand | undefined): string {
  if (operand === undefined || typeof operand === 'number') return '';
  if (Array.isArray(operand)) {
    let out = '';
    for (const part of operand) {
      if (typeof part === 'number') {
        if (part < -250 && !out.endsWith(' ')) out += ' ';
      } else {
        out += textOf(part);
      }
    }
    return out;
  }
  if ('bytes' in operand) return decodeWinAnsi(operand.bytes);
  return '';
}

function multiply(m: Matrix, n: Matrix): Matrix {
  return [
    m[0] * n[0] + m[1] * n[2],
    m[0] * n[1] + m[1] * n[3],
    m[2] * n[0] + m[3] * n[2],
    m[2] * n[1] + m[3] * n[3],
    m[4] * n[0] + m[5] * n[2] + n[4],
    m[4] * n[1] + m[5] * n[3] + n[5],
  ];
}

/** The rectangle's bounding box in default user space (exact for the axis-aligned case). */
function transformRect(m: Matrix, x: number, y: number, w: number, h: number): Rect {
  const xs: number[] = [];
  const ys: number[] = [];
  for (const [px, py] of [
    [x, y],
    [x + w, y],
    [x, y + h],
    [x + w, y + h],
  ] as const) {
    xs.push(m[0] * px + m[2] * py + m[4]);
    ys.push(m[1] * px + m[3] * py + m[5]);
  }
  return { x0: Math.min(...xs), y0: Math.min(...ys), x1: Math.max(...xs), y1: Math.max(...ys) };
}

function rgbLuminance(r: number, g: number, b: number): number {
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function cmykLuminance(c: number, m: number, y: number, k: number): number {
  return rgbLuminance((1 - c) * (1 - k), (1 - m) * (1 - k), (1 - y) * (1 - k));
}

// ---------------------------------------------------------------------------------------------
// QR reconstruction

const QUIET_MODULES = 4;
const PIXELS_PER_MODULE = 4;

/**
 * Rebuilds the module grid from the dark rectangles and decodes it. The module size is the most
 * common shorter side; module rectangles are those whose shorter side is that size and whose
 * longer side is a whole number of modules (other shapes on the page, such as a colour band,
 * fail one test or the other). Returns '' when there is no decodable code.
 */
function decodeQr(rects: Rect[]): string {
  const sides = new Map<string, number>();
  for (const r of rects) {
    const side = Math.min(r.x1 - r.x0, r.y1 - r.y0);
    if (side <= 0) continue;
    const key = side.toFixed(2);
    sides.set(key, (sides.get(key) ?? 0) + 1);
  }
  const [moduleKey, moduleCount] = [...sides].sort((a, b) => b[1] - a[1])[0] ?? ['0', 0];
  // A version 1 code already has 3 finder patterns of several runs each.
  if (moduleCount < 20) return '';
  const size = Number(moduleKey);
  const near = (value: number, target: number): boolean => Math.abs(value - target) <= size * 0.1;
  const modules = rects.filter((r) => {
    const w = (r.x1 - r.x0) / size;
    const h = (r.y1 - r.y0) / size;
    return (
      Math.min(w, h) > 0.9 &&
      Math.min(w, h) < 1.1 &&
      near(w * size, Math.round(w) * size) &&
      near(h * size, Math.round(h) * size)
    );
  });
  if (modules.length < 20) return '';
  const minX = Math.min(...modules.map((r) => r.x0));
  const maxY = Math.max(...modules.map((r) => r.y1));
  const cols = Math.round((Math.max(...modules.map((r) => r.x1)) - minX) / size);
  const rows = Math.round((maxY - Math.min(...modules.map((r) => r.y0))) / size);
  const grid = Math.max(cols, rows);
  if (!Number.isFinite(grid) || grid < 21 || grid > 177) return '';

  // White image with a quiet zone; the top image row is the highest y (PDF space is y up).
  const width = (grid + 2 * QUIET_MODULES) * PIXELS_PER_MODULE;
  const pixels = new Uint8ClampedArray(width * width * 4).fill(255);
  for (const r of modules) {
    const col0 = Math.round((r.x0 - minX) / size);
    const col1 = Math.round((r.x1 - minX) / size);
    const row0 = Math.round((maxY - r.y1) / size);
    const row1 = Math.round((maxY - r.y0) / size);
    for (let row = row0; row < row1; row += 1) {
      for (let col = col0; col < col1; col += 1) paintModule(pixels, width, row, col);
    }
  }
  const code = jsQR(pixels, width, width, { inversionAttempts: 'dontInvert' });
  return code?.data ?? '';
}

function paintModule(pixels: Uint8ClampedArray, width: number, row: number, col: number): void {
  const top = (row + QUIET_MODULES) * PIXELS_PER_MODULE;
  const left = (col + QUIET_MODULES) * PIXELS_PER_MODULE;
  for (let y = top; y < top + PIXELS_PER_MODULE; y += 1) {
    for (let x = left; x < left + PIXELS_PER_MODULE; x += 1) {
      const at = (y * width + x) * 4;
      pixels[at] = 0;
      pixels[at + 1] = 0;
      pixels[at + 2] = 0;
    }
  }
}
