/**
 * A signature image brought to one bounded, compact form, once, when it is given (and, for images
 * stored before this existed, when one is first drawn).
 *
 * Why: pdfkit decodes a PNG with an alpha channel in JavaScript to split the alpha out, so the
 * cost of drawing a signature grows with its pixels. Five 614 x 614 RGBA signatures made one
 * certificate cost seconds of CPU. A signature is drawn at most 190 x 44 points on a
 * certificate, so nothing is lost by keeping at most SIGNATURE_BOX pixels (about 250 dpi at that
 * size, and the same 3:1 shape).
 *
 * The form:
 * - the image passes kernel/pdf/png.ts first (well-formed, 8-bit, at most 2 million pixels), so
 *   a hostile file is refused before any pixel is decoded;
 * - scaled down, aspect kept, to fit within SIGNATURE_BOX (never up): each new pixel is the
 *   average of the source area it covers, weighted by coverage, in premultiplied alpha (so the
 *   colour of transparent pixels does not bleed into the strokes' edges);
 * - re-encoded as an 8-bit PNG of the smallest colour type that holds it: grey when every visible
 *   pixel is grey (black or grey ink), colour otherwise; with an alpha channel only when some
 *   pixel is not opaque. Ancillary chunks (text, colour profiles) are dropped.
 * Normalising a normalised image gives the same image back (idempotent).
 */
import { PNG } from 'pngjs';
import { checkPng, PNG_LIMITS, pngFromDataUrl } from './png.ts';

/** The largest signature kept, in pixels. */
export const SIGNATURE_BOX = { width: 600, height: 200 } as const;

const PNG_DATA_URL = 'data:image/png;base64,';
/** A pixel whose channels differ by at most this much is grey (rounding of the resampling). */
const GREY_TOLERANCE = 2;

/** The image as a normalised PNG, or null when it is not a PNG that kernel/pdf/png.ts accepts. */
export function normaliseSignaturePng(bytes: Buffer): Buffer | null {
  const checked = checkPng(bytes, PNG_LIMITS);
  if (checked === null) return null;
  let decoded: PNG;
  try {
    decoded = PNG.sync.read(checked.bytes);
  } catch {
    return null;
  }
  const { width, height } = decoded;
  const scale = Math.min(1, SIGNATURE_BOX.width / width, SIGNATURE_BOX.height / height);
  const targetWidth = Math.max(1, Math.round(width * scale));
  const targetHeight = Math.max(1, Math.round(height * scale));
  const rgba =
    targetWidth === width && targetHeight === height
      ? decoded.data
      : resample(decoded.data, width, height, targetWidth, targetHeight);
  return encode(rgba, targetWidth, targetHeight);
}

/**
 * A `data:image/png;base64,` URL with its image normalised; null when the URL holds no PNG that
 * kernel/pdf/png.ts accepts.
 */
export function normaliseSignatureDataUrl(url: string): string | null {
  const png = pngFromDataUrl(url);
  const normalised = png === null ? null : normaliseSignaturePng(png.bytes);
  return normalised === null ? null : toDataUrl(normalised);
}

/**
 * A signature's `image_url` as it may be drawn: a PNG within SIGNATURE_BOX as it is (what was
 * normalised when given, cheap to draw), a larger one normalised now (stored before signatures
 * were normalised), anything else unchanged (the renderer draws the signatory's name instead).
 */
export function drawableSignatureUrl(url: string): string {
  const png = pngFromDataUrl(url);
  if (png === null) return url;
  if (png.width <= SIGNATURE_BOX.width && png.height <= SIGNATURE_BOX.height) return url;
  const normalised = normaliseSignaturePng(png.bytes);
  return normalised === null ? url : toDataUrl(normalised);
}

const toDataUrl = (png: Buffer) => `${PNG_DATA_URL}${png.toString('base64')}`;

/** RGBA pixels scaled down to the target size by area averaging, in premultiplied alpha. */
function resample(
  source: Buffer,
  width: number,
  height: number,
  targetWidth: number,
  targetHeight: number,
): Buffer {
  // Premultiplied floats: colour times alpha, so averaging weighs each pixel by its opacity.
  const premultiplied = new Float32Array(width * height * 4);
  for (let i = 0; i < premultiplied.length; i += 4) {
    const alpha = source[i + 3]! / 255;
    premultiplied[i] = source[i]! * alpha;
    premultiplied[i + 1] = source[i + 1]! * alpha;
    premultiplied[i + 2] = source[i + 2]! * alpha;
    premultiplied[i + 3] = source[i + 3]!;
  }
  // Along the rows first (the width shrinks), then along the columns.
  const narrowed = shrinkAxis(premultiplied, width, height, targetWidth, 'rows');
  const both = shrinkAxis(narrowed, targetWidth, height, targetHeight, 'columns');
  const out = Buffer.alloc(targetWidth * targetHeight * 4);
  for (let i = 0; i < out.length; i += 4) {
    const alpha = both[i + 3]!;
    const unmultiply = alpha > 0 ? 255 / alpha : 0;
    out[i] = clampByte(both[i]! * unmultiply);
    out[i + 1] = clampByte(both[i + 1]! * unmultiply);
    out[i + 2] = clampByte(both[i + 2]! * unmultiply);
    out[i + 3] = clampByte(alpha);
  }
  return out;
}

/**
 * One axis of the resampling, on a `width` x `height` image of premultiplied RGBA floats: along
 * `rows`, the width becomes `target`; along `columns`, the height does. Each output pixel covers
 * `span` source pixels of its line; a source pixel cut by the edge of that span counts for the
 * part of it inside.
 */
function shrinkAxis(
  source: Float32Array,
  width: number,
  height: number,
  target: number,
  axis: 'rows' | 'columns',
): Float32Array {
  const alongRows = axis === 'rows';
  const length = alongRows ? width : height;
  const lines = alongRows ? height : width;
  const outWidth = alongRows ? target : width;
  const out = new Float32Array(target * lines * 4);
  const span = length / target;
  for (let t = 0; t < target; t++) {
    const start = t * span;
    const end = start + span;
    const last = Math.min(length - 1, Math.ceil(end) - 1);
    for (let line = 0; line < lines; line++) {
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      for (let s = Math.floor(start); s <= last; s++) {
        const weight = Math.min(end, s + 1) - Math.max(start, s);
        const at = (alongRows ? line * width + s : s * width + line) * 4;
        r += source[at]! * weight;
        g += source[at + 1]! * weight;
        b += source[at + 2]! * weight;
        a += source[at + 3]! * weight;
      }
      const to = (alongRows ? line * outWidth + t : t * outWidth + line) * 4;
      out[to] = r / span;
      out[to + 1] = g / span;
      out[to + 2] = b / span;
      out[to + 3] = a / span;
    }
  }
  return out;
}

const clampByte = (value: number) => Math.min(255, Math.max(0, Math.round(value)));

/** RGBA pixels as an 8-bit PNG of the smallest colour type that holds them. */
function encode(rgba: Buffer, width: number, height: number): Buffer {
  let hasAlpha = false;
  let hasColour = false;
  for (let i = 0; i < rgba.length && !(hasAlpha && hasColour); i += 4) {
    const alpha = rgba[i + 3]!;
    if (alpha < 255) hasAlpha = true;
    if (alpha === 0) continue; // an invisible pixel's colour does not matter
    const [r, g, b] = [rgba[i]!, rgba[i + 1]!, rgba[i + 2]!];
    if (Math.max(r, g, b) - Math.min(r, g, b) > GREY_TOLERANCE) hasColour = true;
  }
  // PNG colour types: bit 1 colour, bit 2 alpha (0 grey, 2 RGB, 4 grey + alpha, 6 RGBA).
  const colorType = ((hasColour ? 2 : 0) | (hasAlpha ? 4 : 0)) as 0 | 2 | 4 | 6;
  const png = new PNG({ width, height });
  rgba.copy(png.data);
  return PNG.sync.write(png, {
    colorType,
    inputColorType: 6,
    inputHasAlpha: true,
    bitDepth: 8,
    deflateLevel: 9,
  });
}
