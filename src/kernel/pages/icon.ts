/**
 * The pages' icon (docs/reference/pages.md): a white "C" on the pages' blue (#1d4ed8, the links'
 * and buttons' colour), as SVG for browsers that take one (`/assets/icon.svg`, linked by every
 * page) and as `/favicon.ico`, which browsers ask for on their own whatever a page links. Both are
 * made here in memory, from the same shape, at start-up; nothing is read from disk.
 */
import { asset } from './assets.ts';

const BLUE = [0x1d, 0x4e, 0xd8] as const;
const WHITE = [0xff, 0xff, 0xff] as const;

/** The "C": a ring of radius 9 (stroke 4) around the centre, open on the right (±40°). */
const SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#1d4ed8"/><path d="M22.9 10.2A9 9 0 1 0 22.9 21.8" fill="none" stroke="#fff" stroke-width="4" stroke-linecap="round"/></svg>
`;

/** The colour of pixel (x, y) of a `size`² icon, or null where it is transparent (outside the corners). */
function pixel(x: number, y: number, size: number): readonly [number, number, number] | null {
  const scale = 32 / size;
  const px = (x + 0.5) * scale;
  const py = (y + 0.5) * scale;
  // Rounded corners of radius 6.
  const cx = Math.min(Math.max(px, 6), 26);
  const cy = Math.min(Math.max(py, 6), 26);
  if ((px - cx) ** 2 + (py - cy) ** 2 > 36) return null;
  const dx = px - 16;
  const dy = py - 16;
  const radius = Math.hypot(dx, dy);
  const angle = Math.abs((Math.atan2(dy, dx) * 180) / Math.PI);
  return radius >= 7 && radius <= 11 && angle >= 40 ? WHITE : BLUE;
}

/**
 * An ICO file holding one 32×32 image as a 32-bit BMP (the format every browser reads): the ICO
 * header and directory entry, a BITMAPINFOHEADER with the height doubled (colour rows, then the
 * AND mask), the BGRA rows bottom-up, and an all-zero mask (the alpha channel says what shows).
 */
function iconFile(size: number): Buffer {
  const rowMaskBytes = Math.ceil(size / 32) * 4;
  const imageBytes = 40 + size * size * 4 + rowMaskBytes * size;
  const out = Buffer.alloc(6 + 16 + imageBytes);
  out.writeUInt16LE(0, 0);
  out.writeUInt16LE(1, 2); // an icon
  out.writeUInt16LE(1, 4); // one image
  out.writeUInt8(size % 256, 6);
  out.writeUInt8(size % 256, 7);
  out.writeUInt16LE(1, 10); // colour planes
  out.writeUInt16LE(32, 12); // bits per pixel
  out.writeUInt32LE(imageBytes, 14);
  out.writeUInt32LE(22, 18); // where the image starts
  out.writeUInt32LE(40, 22);
  out.writeInt32LE(size, 26);
  out.writeInt32LE(size * 2, 30);
  out.writeUInt16LE(1, 34);
  out.writeUInt16LE(32, 36);
  let offset = 22 + 40;
  for (let y = size - 1; y >= 0; y -= 1) {
    for (let x = 0; x < size; x += 1) {
      const colour = pixel(x, y, size);
      if (colour !== null) {
        out.writeUInt8(colour[2], offset);
        out.writeUInt8(colour[1], offset + 1);
        out.writeUInt8(colour[0], offset + 2);
        out.writeUInt8(0xff, offset + 3);
      }
      offset += 4;
    }
  }
  return out;
}

/** `GET /assets/icon.svg`, linked by every page. */
export const ICON_SVG_ASSET = asset('/assets/icon.svg', 'image/svg+xml', SVG);

/** `GET /favicon.ico`, at the path browsers ask for by themselves. */
export const FAVICON_ASSET = asset('/favicon.ico', 'image/x-icon', iconFile(32));
