/**
 * The plain TrueType (sfnt) font a WOFF file wraps, for fontkit (pdfkit's font engine). It reads
 * WOFF too, but inflates a table on every access, which cost each certificate about 25 ms of CPU;
 * from TrueType, 2 ms. The WOFF2 files are not used: fontkit fails subsetting them on their
 * composite glyphs (accented capitals).
 */
import { inflateSync } from 'node:zlib';

/**
 * The TrueType (sfnt) font a WOFF 1.0 file wraps: the same tables, inflated where compressed,
 * behind an sfnt table directory (WOFF keeps the tables sorted by tag, as sfnt wants them).
 * Throws on a file that is not WOFF or whose tables lie outside it.
 */
export function woffToSfnt(woff: Buffer): Buffer {
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
