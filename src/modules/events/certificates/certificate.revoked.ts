/**
 * The mark a revoked certificate's PDF carries (docs/features.md, "Attendance and certificates"): a red stamp
 * across the middle of the page, tilted like a rubber stamp, reading "REVOKED", "Revoked on <date>"
 * and the reason. It is drawn last, over everything, on a translucent white ground so it reads on
 * any design while what lies under it (the holder's name) still shows through: a reader sees what
 * was revoked.
 */
import { drawFitted } from '../../../kernel/pdf/fit.ts';
import { formatDate } from './certificate.dates.ts';
import { PAGE_HEIGHT, PAGE_WIDTH, plainText } from './certificate.style.ts';

export interface Revocation {
  at: Date;
  reason: string | null;
}

const RED = '#b91c1c';
const STAMP_WIDTH = 500;
const STAMP_HEIGHT = 150;
/** Degrees, counter-clockwise as a stamp pressed by a right hand tends to sit. */
const TILT = -8;
const PADDING = 18;

export function drawRevokedMark(doc: PDFKit.PDFDocument, revocation: Revocation): void {
  const left = (PAGE_WIDTH - STAMP_WIDTH) / 2;
  const top = (PAGE_HEIGHT - STAMP_HEIGHT) / 2;
  const inner = { x: left + PADDING, width: STAMP_WIDTH - 2 * PADDING };
  doc.save();
  doc.rotate(TILT, { origin: [PAGE_WIDTH / 2, PAGE_HEIGHT / 2] });
  doc.fillOpacity(0.8).roundedRect(left, top, STAMP_WIDTH, STAMP_HEIGHT, 10).fill('#ffffff');
  doc.fillOpacity(1).lineWidth(4).roundedRect(left, top, STAMP_WIDTH, STAMP_HEIGHT, 10).stroke(RED);
  doc
    .lineWidth(1.5)
    .roundedRect(left + 7, top + 7, STAMP_WIDTH - 14, STAMP_HEIGHT - 14, 6)
    .stroke(RED);
  let y = top + 16;
  y += drawFitted(doc, 'REVOKED', {
    font: 'sans-bold',
    sizes: [50],
    maxLines: 1,
    ...inner,
    y,
    boxHeight: 50,
    color: RED,
  });
  const date = formatDate(revocation.at);
  y += drawFitted(doc, date === '' ? 'Revoked' : `Revoked on ${date}`, {
    font: 'sans-bold',
    sizes: [13],
    maxLines: 1,
    ...inner,
    y: y + 2,
    boxHeight: 16,
    color: RED,
  });
  const reason = plainText(revocation.reason, 300);
  if (reason !== '') {
    drawFitted(doc, reason, {
      font: 'sans',
      sizes: [12, 11, 10, 9],
      maxLines: 2,
      fallback: { size: 8.5, maxLines: 3 },
      ...inner,
      y: y + 6,
      boxHeight: STAMP_HEIGHT - (y + 6 - top) - 12,
      color: RED,
    });
  }
  doc.restore();
}
