/**
 * Reads the PDFs the service renders the way a person's viewer does: pdf.js (pdfjs-dist) parses
 * the document and extracts each page's text, and renders a page onto a canvas (@napi-rs/canvas,
 * pdf.js's own choice in Node) whose pixels jsqr decodes, so a test proves the QR code scans,
 * not just that some squares were drawn. `pdfToText` asks poppler's pdftotext too, where it is
 * installed (Debian's poppler-utils): a second reader, which places text by where it sits. It also
 * makes the signature images tests and benches draw (a pad's stroke, a hostile large one).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import jsQRModule from 'jsqr';
import { getDocument, type PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { PNG } from 'pngjs';

type RenderParameters = Parameters<PDFPageProxy['render']>[0];

type JsQr = typeof jsQRModule.default;
/**
 * jsqr is CommonJS typed with `export default`: under NodeNext the default import is the module
 * object in the types, while at run time it is the function itself (which also has `.default`).
 */
const jsQR: JsQr = (jsQRModule as unknown as { default?: JsQr }).default ?? (jsQRModule as unknown as JsQr);

// pdf.js loads the 14 standard fonts' metrics from here instead of warning on every page.
const STANDARD_FONTS = `${join(dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts')}/`;

// Pixels per PDF point when rendering for the QR code: a badge's modules are a few points wide.
const QR_SCALE = 4;

export interface ReadPdf {
  pageCount: number;
  /** Per page, its size in points (the media box). */
  pageSizes: Array<{ width: number; height: number }>;
  /** Per page, the text items pdf.js extracts, in drawing order. */
  texts: string[][];
  /**
   * Per page, its lines as a reader copies them: the items of a line joined as pdf.js gives them
   * (it adds the spaces it sees between them), a new line where pdf.js reports one. A line drawn
   * in several fonts (one per script, or per file of a font split by script) is several items.
   */
  lines: string[][];
  /**
   * Per page, where each text item sits, in points from the page's top-left corner: from its
   * baseline up by the font size (descenders below the baseline are not counted).
   */
  boxes: TextBox[][];
  /** The document information dictionary (Title, Creator, Producer...). */
  info: Record<string, string>;
  /** The payload of the QR code on page `index` (0-based), or '' when it holds none that scans. */
  qr(index: number): Promise<string>;
  /** `qr` of every page. */
  qrs(): Promise<string[]>;
  /** Page `index` (0-based) as a PNG at `scale` pixels per point, to look at. */
  png(index: number, scale: number): Promise<Buffer>;
}

export interface TextBox {
  text: string;
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/**
 * Text drawn with character spacing (a badge's title) comes out of pdf.js with a space between
 * letters ("A t t e n d e e"); a reader sees the word.
 */
function unspaced(text: string): string {
  return /^(\S )+\S$/.test(text) ? text.replaceAll(' ', '') : text;
}

/** Items joined into lines: '' between the items of a line, a new line at each `hasEOL`. */
function linesOf(items: ReadonlyArray<object>): string[] {
  const lines: string[] = [];
  let line = '';
  for (const item of items) {
    if (!('str' in item)) continue;
    line += unspaced(String(item.str));
    if ('hasEOL' in item && item.hasEOL === true) {
      lines.push(line);
      line = '';
    }
  }
  if (line !== '') lines.push(line);
  return lines;
}

export async function readPdf(pdf: Buffer): Promise<ReadPdf> {
  const document = await getDocument({
    data: new Uint8Array(pdf),
    standardFontDataUrl: STANDARD_FONTS,
    isEvalSupported: false,
    verbosity: 0,
  }).promise;
  const texts: string[][] = [];
  const lines: string[][] = [];
  const pageSizes: ReadPdf['pageSizes'] = [];
  const boxes: TextBox[][] = [];
  for (let number = 1; number <= document.numPages; number += 1) {
    const page = await document.getPage(number);
    const [x1, y1, x2, y2] = page.view;
    pageSizes.push({ width: x2! - x1!, height: y2! - y1! });
    const content = await page.getTextContent();
    texts.push(
      content.items.flatMap((item) => ('str' in item && item.str !== '' ? [unspaced(item.str)] : [])),
    );
    lines.push(linesOf(content.items));
    boxes.push(
      content.items.flatMap((item) => {
        if (!('str' in item) || item.str.trim() === '') return [];
        const [, , , , x, baseline] = item.transform as number[];
        const bottom = y2! - baseline!;
        return [{ text: item.str, left: x!, top: bottom - item.height, right: x! + item.width, bottom }];
      }),
    );
  }
  const { info } = await document.getMetadata();
  /** Page `index` drawn on a canvas at `scale` pixels per point, as a viewer shows it. */
  const draw = async (index: number, scale: number) => {
    const page = await document.getPage(index + 1);
    const viewport = page.getViewport({ scale });
    const { createCanvas } = await import('@napi-rs/canvas');
    const canvas = createCanvas(Math.ceil(viewport.width), Math.ceil(viewport.height));
    const context = canvas.getContext('2d');
    await page.render({
      // pdf.js types the browser's canvas; @napi-rs/canvas implements the same drawing API.
      canvas: canvas as unknown as RenderParameters['canvas'],
      canvasContext: context as unknown as RenderParameters['canvasContext'],
      viewport,
    }).promise;
    return { canvas, context };
  };
  const qr = async (index: number): Promise<string> => {
    const { canvas, context } = await draw(index, QR_SCALE);
    const image = context.getImageData(0, 0, canvas.width, canvas.height);
    return jsQR(image.data, image.width, image.height)?.data ?? '';
  };
  return {
    pageCount: document.numPages,
    pageSizes,
    texts,
    lines,
    boxes,
    info: Object.fromEntries(
      Object.entries(info as Record<string, unknown>).filter(
        (entry): entry is [string, string] => typeof entry[1] === 'string',
      ),
    ),
    qr,
    png: async (index, scale) => (await draw(index, scale)).canvas.toBuffer('image/png'),
    qrs: async () => {
      const payloads: string[] = [];
      for (let index = 0; index < document.numPages; index += 1) payloads.push(await qr(index));
      return payloads;
    },
  };
}

/** A small real PNG as a signature pad saves it: a dark stroke on a transparent canvas. */
export async function signaturePng(): Promise<Buffer> {
  const { createCanvas } = await import('@napi-rs/canvas');
  const canvas = createCanvas(240, 80);
  const context = canvas.getContext('2d');
  context.strokeStyle = '#1e293b';
  context.lineWidth = 3;
  context.beginPath();
  context.moveTo(10, 50);
  for (let x = 10; x <= 230; x += 5) context.lineTo(x, 45 + Math.sin(x / 12) * 20);
  context.stroke();
  return canvas.toBuffer('image/png');
}

const run = promisify(execFile);

/**
 * The text poppler's pdftotext reads from the PDF (UTF-8, its reading order), or null when
 * pdftotext is not installed. pdftotext wraps a right-to-left line in directional embedding marks
 * (U+202B ... U+202C), invisible formatting of its own: they are removed.
 */
export async function pdfToText(pdf: Buffer): Promise<string | null> {
  const directory = await mkdtemp(join(tmpdir(), 'pdftotext-'));
  try {
    const file = join(directory, 'document.pdf');
    await writeFile(file, pdf);
    const { stdout } = await run('pdftotext', ['-enc', 'UTF-8', file, '-'], { maxBuffer: 16 * 1024 * 1024 });
    return stdout.replace(/[\u202a-\u202e\u2066-\u2069]/g, '');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

/**
 * Names in the scripts a certificate or a badge must print (docs/features.md, "PDFs"): each is read back
 * exactly. Arabic and Hebrew are written in logical order, as typed; the PDF draws them right to
 * left, joined, and a reader gives back the logical string.
 */
export const WORLD_NAMES = {
  /** Latin Extended with a CJK part: what used to print as "Lukasz Zólc (??)". */
  polishAndJapanese: 'Łukasz Żółć (田中)',
  vietnamese: 'Nguyễn Thị Minh Khai',
  greek: 'Γιώργος Παπαδόπουλος',
  cyrillic: 'Юлия Щербакова',
  /** Joined letters, a lam-alef, reh and zain (one shape but for a dot in some fonts). */
  arabic: 'عبد السلام الزهراني',
  hebrew: 'יעל כהן',
  chinese: '张晓明',
  japanese: '山田 さくら',
  korean: '김민준',
  mixedLatinChinese: 'Chen 陈伟 Wei',
} as const;

/**
 * A signature as an attacker plants it: `size` x `size` RGBA whose alpha is noise (64..127, which
 * deflate cannot shrink much): a 614 x 614 one is about 490 KiB, near the 512 KiB the API takes.
 * `seed` varies it.
 */
export function hostileSignaturePng(size = 614, seed = 1): Buffer {
  const png = new PNG({ width: size, height: size });
  let state = seed;
  for (let i = 0; i < png.data.length; i += 4) {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    png.data[i] = 20;
    png.data[i + 1] = 30;
    png.data[i + 2] = 90;
    png.data[i + 3] = 64 + ((state >> 16) & 0x3f);
  }
  return PNG.sync.write(png, { colorType: 6 });
}

/** The text of the QR code in a PNG image (a badge's QR code, as a mail carries it). */
export function decodeQrPng(png: Buffer): string {
  const image = PNG.sync.read(png);
  return jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data ?? '';
}
