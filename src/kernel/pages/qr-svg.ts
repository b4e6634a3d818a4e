/**
 * A QR code as inline SVG for a page (docs/reference/pages.md): the module matrix of `pdf/qr.ts`
 * (the encoder the printed badges use), one path of horizontal runs, black on a white square with
 * the quiet zone the QR specification asks for. Inline SVG markup is neither script nor style, so
 * the pages' CSP allows it; it scales to any screen without blurring.
 */
import { qrMatrix } from '../pdf/qr.ts';
import { type Html, html } from './html.ts';

const QUIET_MODULES = 4;

/** The symbol of `text` labelled `label` for screen readers; empty when `text` cannot be a QR code. */
export function qrSvg(text: string, label: string): Html | '' {
  const matrix = qrMatrix(text);
  if (matrix === null) return '';
  const size = matrix.length + 2 * QUIET_MODULES;
  let path = '';
  matrix.forEach((row, r) => {
    let c = 0;
    while (c < row.length) {
      if (!row[c]) {
        c += 1;
        continue;
      }
      const start = c;
      while (c < row.length && row[c]) c += 1;
      path += `M${start + QUIET_MODULES} ${r + QUIET_MODULES}h${c - start}v1h-${c - start}z`;
    }
  });
  return html`<svg class="qr" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${size} ${size}" role="img" aria-label="${label}" shape-rendering="crispEdges"><rect width="${size}" height="${size}" fill="#fff"/><path d="${path}" fill="#000"/></svg>`;
}
