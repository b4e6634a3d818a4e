/**
 * A handwriting font for names drawn where a signature would be: Great Vibes (SIL Open Font
 * License 1.1), from the `@fontsource/great-vibes` package, so no font file of ours is committed
 * and nothing is downloaded at run time.
 *
 * Its Latin subset is the file used, as WOFF (fontkit, pdfkit's font engine, fails subsetting the
 * WOFF2 file on its composite glyphs, the accented capitals). The file is read once per process,
 * on first use, and unpacked to the plain TrueType it wraps: fontkit reads WOFF too, but inflates
 * a table on every access, which cost each certificate about 25 ms of CPU; from TrueType, 2 ms.
 * The bytes are registered on each document that draws with them; pdfkit embeds only the glyphs
 * drawn.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { toWinAnsi } from './winansi.ts';

const FONT_NAME = 'GreatVibes';
const FONT_FILE = 'files/great-vibes-latin-400-normal.woff';

/** undefined until first read; null when the file could not be read (the caller falls back). */
let fontBytes: Buffer | null | undefined;
const registered = new WeakSet<PDFKit.PDFDocument>();

function readFont(): Buffer | null {
  if (fontBytes === undefined) {
    try {
      const packageJson = createRequire(import.meta.url).resolve('@fontsource/great-vibes/package.json');
      fontBytes = woffToSfnt(readFileSync(join(dirname(packageJson), FONT_FILE)));
    } catch {
      fontBytes = null;
    }
  }
  return fontBytes;
}

/**
 * The TrueType (sfnt) font a WOFF 1.0 file wraps: the same tables, inflated where compressed,
 * behind an sfnt table directory (WOFF keeps the tables sorted by tag, as sfnt wants them).
 * Throws on a file that is not WOFF or whose tables lie outside it.
 */
function woffToSfnt(woff: Buffer): Buffer {
  if (woff.toString('latin1', 0, 4) !== 'wOFF') throw new Error('not a WOFF file');
  const flavor = woff.readUInt32BE(4);
  const count = woff.readUInt16BE(12);
  const tables: { tag: number; checksum: number; data: Buffer }[] = [];
  for (let index = 0; index < count; index += 1) {
    const entry = 44 + index * 20;
    const [tag, offset, compressed, original, checksum] = [0, 4, 8, 12, 16].map((at) =>
      woff.readUInt32BE(entry + at),
    ) as [number, number, number, number, number];
    if (offset + compressed > woff.length) throw new Error('WOFF table outside the file');
    const raw = woff.subarray(offset, offset + compressed);
    const data = compressed < original ? inflateSync(raw) : raw;
    if (data.length !== original) throw new Error('WOFF table of the wrong length');
    tables.push({ tag, checksum, data });
  }
  const entrySelector = Math.floor(Math.log2(count));
  const searchRange = 2 ** entrySelector * 16;
  const directory = Buffer.alloc(12 + 16 * count);
  directory.writeUInt32BE(flavor, 0);
  directory.writeUInt16BE(count, 4);
  directory.writeUInt16BE(searchRange, 6);
  directory.writeUInt16BE(entrySelector, 8);
  directory.writeUInt16BE(count * 16 - searchRange, 10);
  const parts: Buffer[] = [directory];
  let offset = directory.length;
  for (const [index, table] of tables.entries()) {
    const record = 12 + index * 16;
    directory.writeUInt32BE(table.tag, record);
    directory.writeUInt32BE(table.checksum, record + 4);
    directory.writeUInt32BE(offset, record + 8);
    directory.writeUInt32BE(table.data.length, record + 12);
    const padding = (4 - (table.data.length % 4)) % 4; // tables start on 4-byte boundaries
    parts.push(table.data, Buffer.alloc(padding));
    offset += table.data.length + padding;
  }
  return Buffer.concat(parts);
}

/**
 * The font's name on this document (registered on first call), or null when the font is not
 * available or fontkit cannot read it: the caller uses a standard italic instead.
 */
export function scriptFont(doc: PDFKit.PDFDocument): string | null {
  if (registered.has(doc)) return FONT_NAME;
  const bytes = readFont();
  if (bytes === null) return null;
  try {
    doc.registerFont(FONT_NAME, bytes);
    doc.font(FONT_NAME); // parses the file now, so a bad one fails here and not mid-drawing
  } catch {
    fontBytes = null;
    return null;
  }
  registered.add(doc);
  return FONT_NAME;
}

/**
 * The glyphs the Latin subset lacks although WinAnsi has them: their plain letters, the soft
 * hyphen dropped, and `?` for the few symbols without one (as `toWinAnsi` does).
 */
const MISSING_GLYPHS: Record<string, string> = {
  Š: 'S',
  š: 's',
  Ÿ: 'Y',
  Ž: 'Z',
  ž: 'z',
  ƒ: 'f',
  '\u00ad': '',
  '†': '?',
  '‡': '?',
  '‰': '?',
};

/** Text the script font can draw: WinAnsi (see `toWinAnsi`) less the glyphs the subset lacks. */
export function toScriptText(value: unknown): string {
  return [...toWinAnsi(value)].map((char) => MISSING_GLYPHS[char] ?? char).join('');
}
