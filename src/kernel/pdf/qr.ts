/**
 * QR codes drawn as vectors: sharp at any zoom or printer resolution, a few hundred bytes, and no
 * raster image to embed.
 */
import QRCode from 'qrcode';

/** The quiet zone the QR specification asks for around the symbol, in modules. */
const QUIET_MODULES = 4;

/** The module matrix (row-major, true = dark), or null when the text cannot be a QR code. */
export function qrMatrix(text: unknown): boolean[][] | null {
  if (typeof text !== 'string' || text === '') return null;
  let modules: QRCode.BitMatrix;
  try {
    // One byte-mode segment: the texts are links, which byte mode holds whole. Given the bare
    // string, the library searches the cheapest mix of modes through a graph of every split (a
    // shortest-path search, about half of a symbol's CPU) to save a few modules at most.
    modules = QRCode.create([{ data: new TextEncoder().encode(text), mode: 'byte' }], {
      errorCorrectionLevel: 'M',
    }).modules;
  } catch {
    return null;
  }
  const rows: boolean[][] = [];
  for (let r = 0; r < modules.size; r += 1) {
    const row: boolean[] = [];
    for (let c = 0; c < modules.size; c += 1) row.push(modules.get(r, c) === 1);
    rows.push(row);
  }
  return rows;
}

/**
 * Draws the symbol in black inside a `box` x `box` square at (x, y), quiet zone included (the
 * caller leaves the square light). One rectangle per horizontal run of dark modules, all in one
 * path filled once: far fewer operators than one square per module, and no hairline seams
 * between adjacent squares.
 */
export function drawQr(
  doc: PDFKit.PDFDocument,
  matrix: boolean[][],
  x: number,
  y: number,
  box: number,
): void {
  const count = matrix.length + 2 * QUIET_MODULES;
  const module = box / count;
  const originX = x + QUIET_MODULES * module;
  const originY = y + QUIET_MODULES * module;
  for (let r = 0; r < matrix.length; r += 1) {
    const row = matrix[r]!;
    let c = 0;
    while (c < row.length) {
      if (!row[c]) {
        c += 1;
        continue;
      }
      const start = c;
      while (c < row.length && row[c]) c += 1;
      doc.rect(originX + start * module, originY + r * module, (c - start) * module, module);
    }
  }
  doc.fill('#000000');
}
