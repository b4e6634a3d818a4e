/**
 * PNG images from `data:` URLs, checked before pdfkit sees them.
 *
 * pdfkit (through png-js) trusts the file: a corrupt deflate stream or an unknown row filter in an
 * image with an alpha channel throws inside an asynchronous zlib callback, which no caller can
 * catch (the process dies), and a failure half-way through embedding leaves the document waiting
 * forever for its end. So a PNG is read fully here first, synchronously and within limits, and
 * only the shapes pdfkit reads correctly pass:
 * - the signature, then well-formed chunks with correct CRCs, IHDR first, IDAT, IEND last;
 * - 8 bits per sample, colour type grey, RGB, palette, grey + alpha or RGBA, not interlaced
 *   (what canvases and signature pads write);
 * - a palette only for a palette image (pdfkit would draw an RGB image through it), transparency
 *   (tRNS) only for a palette image (pdfkit masks the wrong colour for grey and RGB), text chunks
 *   of at most 16 KiB;
 * - the image data inflates to exactly the bytes its size calls for, every row with a known
 *   filter (0-4).
 * Anything else is null, and the caller draws without the image.
 */
import { crc32, inflateSync } from 'node:zlib';

export interface PngLimits {
  /** Bytes of the decoded file. */
  maxBytes: number;
  /** Pixels on the longer side. */
  maxSide: number;
  /** Width times height: bounds the memory an image takes once inflated. */
  maxPixels: number;
}

/** Generous for a signature (a 2000 x 1000 RGBA image inflates to 8 MB), small for a server. */
export const PNG_LIMITS: PngLimits = { maxBytes: 1024 * 1024, maxSide: 4096, maxPixels: 2_000_000 };

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** Channels per pixel by colour type (0 grey, 2 RGB, 3 palette, 4 grey + alpha, 6 RGBA). */
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
const MAX_TEXT_CHUNK = 16 * 1024;
const DATA_URL = /^data:image\/png;base64,/i;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

export interface CheckedPng {
  bytes: Buffer;
  width: number;
  height: number;
}

/** The PNG of a `data:image/png;base64,...` URL when it passes the checks above, else null. */
export function pngFromDataUrl(url: unknown, limits: PngLimits = PNG_LIMITS): CheckedPng | null {
  if (typeof url !== 'string') return null;
  const prefix = DATA_URL.exec(url);
  if (prefix === null) return null;
  const payload = url.slice(prefix[0].length);
  // Checked before decoding: Buffer.from skips characters that are not base64 instead of failing.
  if (payload.length > Math.ceil(limits.maxBytes / 3) * 4 || !BASE64.test(payload)) return null;
  return checkPng(Buffer.from(payload, 'base64'), limits);
}

/** The PNG with its size when it passes the checks above, else null. */
export function checkPng(bytes: Buffer, limits: PngLimits = PNG_LIMITS): CheckedPng | null {
  if (bytes.length > limits.maxBytes || bytes.length < SIGNATURE.length) return null;
  if (!bytes.subarray(0, SIGNATURE.length).equals(SIGNATURE)) return null;
  let header: { width: number; height: number; colorType: number } | null = null;
  let paletteEntries = 0;
  let ended = false;
  const idat: Buffer[] = [];
  let pos = SIGNATURE.length;
  while (!ended) {
    if (pos + 12 > bytes.length) return null;
    const length = bytes.readUInt32BE(pos);
    const type = bytes.toString('latin1', pos + 4, pos + 8);
    const end = pos + 8 + length;
    if (!/^[A-Za-z]{4}$/.test(type) || end + 4 > bytes.length) return null;
    if (crc32(bytes.subarray(pos + 4, end)) !== bytes.readUInt32BE(end)) return null;
    const data = bytes.subarray(pos + 8, end);
    if (type === 'IHDR') {
      if (header !== null) return null; // only once
      header = readHeader(data, limits);
      if (header === null) return null;
    } else if (header === null) {
      return null; // IHDR comes first
    } else if (type === 'PLTE') {
      const isValid =
        header.colorType === 3 && paletteEntries === 0 && length > 0 && length <= 768 && length % 3 === 0;
      if (!isValid) return null;
      paletteEntries = length / 3;
    } else if (type === 'tRNS') {
      if (header.colorType !== 3 || paletteEntries === 0 || length > paletteEntries) return null;
    } else if (type === 'tEXt') {
      // png-js spreads a text chunk into one function call's arguments: a long one overflows.
      if (length > MAX_TEXT_CHUNK) return null;
    } else if (type === 'IDAT') {
      idat.push(data);
    } else if (type === 'IEND') {
      ended = true;
    }
    pos = end + 4;
  }
  if (header === null || idat.length === 0 || (header.colorType === 3 && paletteEntries === 0)) return null;
  const rowBytes = 1 + header.width * CHANNELS[header.colorType]!;
  const expected = rowBytes * header.height;
  let pixels: Buffer;
  try {
    pixels = inflateSync(Buffer.concat(idat), { maxOutputLength: expected + 1 });
  } catch {
    return null;
  }
  if (pixels.length !== expected) return null;
  for (let row = 0; row < expected; row += rowBytes) if (pixels[row]! > 4) return null;
  return { bytes, width: header.width, height: header.height };
}

function readHeader(
  data: Buffer,
  limits: PngLimits,
): { width: number; height: number; colorType: number } | null {
  if (data.length !== 13) return null;
  const width = data.readUInt32BE(0);
  const height = data.readUInt32BE(4);
  const [bitDepth, colorType, compression, filter, interlace] = [8, 9, 10, 11, 12].map((i) => data[i]!);
  if (width < 1 || height < 1 || width > limits.maxSide || height > limits.maxSide) return null;
  if (width * height > limits.maxPixels) return null;
  if (bitDepth !== 8 || CHANNELS[colorType!] === undefined) return null;
  if (compression !== 0 || filter !== 0 || interlace !== 0) return null;
  return { width, height, colorType: colorType! };
}
