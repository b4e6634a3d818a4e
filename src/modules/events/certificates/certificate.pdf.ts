/**
 * A certificate as a PDF (docs/reference/attendance.md, `GET /certificates/{certificate_id}/pdf`): one A4
 * landscape page drawn from the template's `design_data`.
 *
 * The page, top to bottom, inside a double frame in the accent colour: the title; the optional
 * subtitle; a small ornament; "This certifies that", the holder's name large, a rule; the sentence
 * naming what was attended ("attended <edition> of <event>, <dates>, <location>.", or "took part
 * in <programs> at <edition> of <event>, ..." when programs are given; the event name is left out
 * when the edition's name already contains it); the template's description. At the bottom: the
 * signatures in a row (certificate.signatures.ts), the QR code of `verify_url` at the right with
 * "Verify at <verify_url>" and the verification code under it, and the issue date at the left.
 * A revoked certificate has the revoked mark over the middle (certificate.revoked.ts).
 *
 * `design_data` hints (all optional; anything else is ignored; a hint of the wrong type or shape
 * falls back to its default, so design_data can never break rendering):
 * - `title`: string, cut at 120 characters (default "Certificate of Attendance" for
 *   `edition_attendance`, "Certificate of Participation" for `program_attendance`);
 * - `subtitle`: string under the title, cut at 160 characters (default: none);
 * - `body`: string drawn instead of the attendance sentence, cut at 600 characters; the edition,
 *   event, dates and location then follow it on a smaller line, so the certificate always names
 *   them (default: the sentence);
 * - `show_description`: boolean, false hides the template's description (default true);
 * - `accent_color`, `text_color`, `background_color`: `#RGB` or `#RRGGBB` (defaults: white
 *   background, near-black text, navy accent; on a dark background the default text is near-white
 *   and the default accent gold). Muted text and rules are the text colour mixed towards the
 *   background. The QR code always sits on a white square so it scans on any background.
 *
 * Text is in any script: Noto Serif for the title and the holder, Noto Sans for the rest, and for
 * what they lack the Arabic, Hebrew and CJK fonts, per character (kernel/pdf/fonts.ts), right to
 * left where it reads so (kernel/pdf/runs.ts). Names inside the sentence are isolated, so an Arabic
 * event name does not carry the dates after it into its direction. Every text has a box: it
 * shrinks, then wraps, then is cut with an ellipsis; nothing overflows. Inputs are cut to a few
 * hundred characters before measuring, so a huge string costs no more than a long one. The
 * renderer does no I/O but reading the fonts from their packages (once per process); it never
 * fetches a URL.
 */
import PDFDocument from 'pdfkit';
import { isLight, mixHex } from '../../../kernel/pdf/colors.ts';
import { collectPdf, EMBEDDED_FONTS_ONLY } from '../../../kernel/pdf/document.ts';
import { drawFitted, type FitOptions, measureFitted } from '../../../kernel/pdf/fit.ts';
import { booleanHint, colorHint, hintRecord, textHint } from '../../../kernel/pdf/hints.ts';
import { drawQr, qrMatrix } from '../../../kernel/pdf/qr.ts';
import { isolate } from '../../../kernel/pdf/text.ts';
import { formatDate, formatDateRange } from './certificate.dates.ts';
import { drawRevokedMark, type Revocation } from './certificate.revoked.ts';
import { drawSignatures } from './certificate.signatures.ts';
import { type CertificatePalette, PAGE_HEIGHT, PAGE_WIDTH, plainText } from './certificate.style.ts';

export interface CertificatePdfData {
  certificate_id: string;
  /** The person's name, or their e-mail when no name is known. */
  holder_name: string;
  template: {
    name: string;
    description: string | null;
    kind: 'edition_attendance' | 'program_attendance';
    design_data: Record<string, unknown>;
  };
  edition: { name: string; starts_at: Date; ends_at: Date; location_name: string | null };
  event: { name: string };
  /** Names of the programs a program_attendance certificate covers (may be empty). */
  programs: string[];
  issued_at: Date;
  verification_code: string;
  /** The QR code's payload. */
  verify_url: string;
  /** In the order to draw them; see certificate.signatures.ts for images and how many fit. */
  signatures: Array<{ signatory_name: string; signatory_title: string | null; image_url: string }>;
  /** Set for a revoked certificate: its PDF carries the mark of certificate.revoked.ts. */
  revoked?: Revocation | null;
}

const CONTENT_X = 72;
const CONTENT_WIDTH = PAGE_WIDTH - 2 * CONTENT_X;
/** Where the bottom zone (signatures, QR code) starts: the middle block is centred above it. */
const BOTTOM_TOP = 404;
const QR_BOX = 104;
const QR_X = PAGE_WIDTH - 48 - QR_BOX;
const QR_Y = 410;
const FOOTER_Y = QR_Y + QR_BOX + 6;
/** Programs named in the sentence; more are counted ("and 3 more"). */
const MAX_PROGRAMS = 8;

interface Design {
  title: string;
  subtitle: string | null;
  body: string | null;
  showDescription: boolean;
  palette: CertificatePalette;
}

/** The worker thread that renders certificates (documents.worker.ts `certificatePdf`). */
export interface CertificatePdfRenderer {
  run(task: 'certificatePdf', data: CertificatePdfData): Promise<Uint8Array>;
}

export async function renderCertificatePdf(data: CertificatePdfData): Promise<Buffer> {
  const design = readDesign(data.template?.design_data, data.template?.kind);
  const doc = new PDFDocument({
    ...EMBEDDED_FONTS_ONLY,
    size: [PAGE_WIDTH, PAGE_HEIGHT],
    margin: 0,
    info: {
      Title: `Certificate — ${documentName(data.template?.name)}`,
      Subject: `Certificate ${plainText(data.certificate_id, 80)}`,
      Creator: 'Convene',
      Producer: 'Convene',
    },
  });
  const done = collectPdf(doc);
  drawFrame(doc, design.palette);
  const signatures = Array.isArray(data.signatures) ? data.signatures : [];
  const middleTop = drawHeading(doc, design);
  drawMiddle(doc, data, design, middleTop, signatures.length > 0);
  drawSignatures(doc, signatures, design.palette, {
    left: CONTENT_X - 16,
    right: QR_X - 16,
    top: BOTTOM_TOP + 6,
  });
  drawVerification(doc, data, design.palette);
  if (data.revoked) drawRevokedMark(doc, data.revoked);
  doc.end();
  return done;
}

function readDesign(designData: unknown, kind: unknown): Design {
  const hints = hintRecord(designData);
  const background = colorHint(hints, 'background_color') ?? '#ffffff';
  const isDark = !isLight(background);
  const text = colorHint(hints, 'text_color') ?? (isDark ? '#f3f4f6' : '#1f2937');
  const accent = colorHint(hints, 'accent_color') ?? (isDark ? '#d4af37' : '#1e3a5f');
  const defaultTitle =
    kind === 'program_attendance' ? 'Certificate of Participation' : 'Certificate of Attendance';
  return {
    title: textHint(hints, 'title', 120) ?? defaultTitle,
    subtitle: textHint(hints, 'subtitle', 160),
    body: textHint(hints, 'body', 600),
    showDescription: booleanHint(hints, 'show_description') ?? true,
    palette: {
      background,
      text,
      accent,
      muted: mixHex(text, background, 0.35),
      faint: mixHex(text, background, 0.7),
    },
  };
}

/** The template name for the document title: any Unicode (PDF info strings are UTF-16), no controls. */
function documentName(name: unknown): string {
  if (typeof name !== 'string') return 'Certificate';
  const cleaned = name
    .slice(0, 200)
    .replace(/[\p{Cc}\p{Cf}\s]+/gu, ' ')
    .trim();
  return cleaned === '' ? 'Certificate' : cleaned;
}

function drawFrame(doc: PDFKit.PDFDocument, palette: CertificatePalette): void {
  doc.rect(0, 0, PAGE_WIDTH, PAGE_HEIGHT).fill(palette.background);
  doc
    .lineWidth(3)
    .rect(20, 20, PAGE_WIDTH - 40, PAGE_HEIGHT - 40)
    .stroke(palette.accent);
  doc
    .lineWidth(0.75)
    .rect(28, 28, PAGE_WIDTH - 56, PAGE_HEIGHT - 56)
    .stroke(palette.accent);
  for (const [x, y] of [
    [28, 28],
    [PAGE_WIDTH - 28, 28],
    [28, PAGE_HEIGHT - 28],
    [PAGE_WIDTH - 28, PAGE_HEIGHT - 28],
  ] as const) {
    diamond(doc, x, y, 6, palette.accent);
  }
}

function diamond(doc: PDFKit.PDFDocument, x: number, y: number, radius: number, color: string): void {
  doc.polygon([x, y - radius], [x + radius, y], [x, y + radius], [x - radius, y]).fill(color);
}

/** Title, subtitle and ornament; returns where the middle block may start. */
function drawHeading(doc: PDFKit.PDFDocument, design: Design): number {
  const { palette } = design;
  let y = 62;
  y += drawFitted(doc, design.title, {
    font: 'serif-bold',
    sizes: [36, 34, 32, 30, 28, 26, 24, 22],
    maxLines: 1,
    fallback: { size: 19, maxLines: 2 },
    x: CONTENT_X,
    width: CONTENT_WIDTH,
    y,
    boxHeight: 46,
    color: palette.accent,
  });
  if (design.subtitle !== null) {
    y += 4;
    y += drawFitted(doc, design.subtitle, {
      font: 'serif-italic',
      sizes: [15, 14, 13, 12],
      maxLines: 1,
      fallback: { size: 11, maxLines: 2 },
      x: CONTENT_X,
      width: CONTENT_WIDTH,
      y,
      boxHeight: 28,
      color: palette.muted,
    });
  }
  // Ornament: a rule either side of a small diamond.
  y += 14;
  const centre = PAGE_WIDTH / 2;
  doc.lineWidth(0.75);
  doc
    .moveTo(centre - 90, y)
    .lineTo(centre - 12, y)
    .stroke(palette.accent);
  doc
    .moveTo(centre + 12, y)
    .lineTo(centre + 90, y)
    .stroke(palette.accent);
  diamond(doc, centre, y, 4, palette.accent);
  return y + 12;
}

type MiddleItem =
  | { kind: 'text'; text: string; options: Omit<FitOptions, 'y' | 'x' | 'width'>; gapAfter: number }
  | { kind: 'rule'; width: number; gapAfter: number };

/**
 * "This certifies that", the name, a rule, the sentence (or the body hint and the details line)
 * and the description, centred as one block between the heading and the bottom zone: measured
 * first, then drawn, so a short certificate does not leave all its space at the bottom.
 */
function drawMiddle(
  doc: PDFKit.PDFDocument,
  data: CertificatePdfData,
  design: Design,
  top: number,
  hasSignatures: boolean,
): void {
  const { palette } = design;
  const holder = plainText(data.holder_name, 200) || 'Certificate holder';
  const items: MiddleItem[] = [
    {
      kind: 'text',
      text: 'This certifies that',
      options: { font: 'serif-italic', sizes: [16], maxLines: 1, boxHeight: 19, color: palette.muted },
      gapAfter: 8,
    },
    {
      kind: 'text',
      text: holder,
      options: {
        font: 'serif-bold',
        sizes: [44, 42, 40, 38, 36, 34, 32, 30, 28, 26, 24],
        maxLines: 1,
        fallback: { size: 21, maxLines: 2 },
        boxHeight: 52,
        color: palette.text,
      },
      gapAfter: 8,
    },
    { kind: 'rule', width: 360, gapAfter: 16 },
  ];
  const body = { font: 'sans', color: palette.text } as const;
  const sentence = {
    ...body,
    sizes: [14, 13, 12, 11, 10],
    maxLines: 3,
    fallback: { size: 9, maxLines: 4 },
    boxHeight: 52,
  };
  if (design.body === null) {
    items.push({ kind: 'text', text: attendanceSentence(data), options: sentence, gapAfter: 12 });
  } else {
    items.push({ kind: 'text', text: design.body, options: sentence, gapAfter: 6 });
    items.push({
      kind: 'text',
      text: detailsLine(data),
      options: { font: 'sans', sizes: [11, 10, 9], maxLines: 2, boxHeight: 26, color: palette.muted },
      gapAfter: 10,
    });
  }
  const description = design.showDescription ? plainText(data.template?.description, 600) : '';
  if (description !== '') {
    items.push({
      kind: 'text',
      text: description,
      options: {
        font: 'sans-italic',
        sizes: [11, 10.5, 10, 9.5, 9],
        maxLines: 3,
        fallback: { size: 8, maxLines: 4 },
        boxHeight: 40,
        color: palette.muted,
      },
      gapAfter: 0,
    });
  }

  const box = { x: CONTENT_X + 20, width: CONTENT_WIDTH - 40 };
  const heights = items.map((item) =>
    item.kind === 'rule' ? 1 : measureFitted(doc, item.text, { ...item.options, ...box, y: 0 }),
  );
  const total = items.reduce((sum, item, index) => sum + heights[index]! + item.gapAfter, 0);
  // The marks of the signatures stand on their rules, lower than BOTTOM_TOP: centring on a point a
  // little below it balances the white space the eye sees above and below the block. Without
  // signatures the bottom is empty but for the QR code: lower still, though never beside the QR.
  const centred = (BOTTOM_TOP + (hasSignatures ? 10 : 50) - top - total) / 2;
  let y = top + Math.max(0, Math.min(centred, BOTTOM_TOP - 4 - top - total));
  for (const item of items) {
    if (item.kind === 'rule') {
      doc.lineWidth(0.5);
      doc
        .moveTo((PAGE_WIDTH - item.width) / 2, y)
        .lineTo((PAGE_WIDTH + item.width) / 2, y)
        .stroke(palette.faint);
      y += 1;
    } else {
      y += drawFitted(doc, item.text, { ...item.options, ...box, y });
    }
    y += item.gapAfter;
  }
}

/** "<edition> of <event>", or the edition alone when its name already holds the event's. */
function editionPhrase(data: CertificatePdfData): string {
  const edition = plainText(data.edition?.name, 200);
  const event = plainText(data.event?.name, 200);
  if (edition === '') return isolate(event);
  if (event === '' || edition.toLowerCase().includes(event.toLowerCase())) return isolate(edition);
  return `${isolate(edition)} of ${isolate(event)}`;
}

/** ", 12–14 March 2026, Lisbon" (each part only when known). */
function whenAndWhere(data: CertificatePdfData): string[] {
  const dates = formatDateRange(data.edition?.starts_at, data.edition?.ends_at);
  const location = isolate(plainText(data.edition?.location_name, 200));
  return [dates, location].filter((part) => part !== '');
}

function attendanceSentence(data: CertificatePdfData): string {
  const programs = (Array.isArray(data.programs) ? data.programs : [])
    .map((name) => isolate(plainText(name, 120)))
    .filter((name) => name !== '');
  const place = editionPhrase(data);
  let sentence: string;
  if (programs.length === 0) {
    sentence = `attended ${place}`;
  } else {
    sentence = `took part in ${listOf(programs)}${place === '' ? '' : ` at ${place}`}`;
  }
  return `${[sentence, ...whenAndWhere(data)].join(', ')}.`;
}

/** The line under a body hint: "<edition> of <event> · 12–14 March 2026 · Lisbon". */
function detailsLine(data: CertificatePdfData): string {
  return [editionPhrase(data), ...whenAndWhere(data)].filter((part) => part !== '').join(' · ');
}

/** "A", "A and B", "A, B and C"; past MAX_PROGRAMS, "A, B, ... and 4 more". */
function listOf(names: string[]): string {
  const shown = names.slice(0, MAX_PROGRAMS);
  const rest = names.length - shown.length;
  if (rest > 0) return `${shown.join(', ')} and ${rest} more`;
  if (shown.length === 1) return shown[0]!;
  return `${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1]}`;
}

/** The QR code of verify_url with the address and code under it; the issue date at the left. */
function drawVerification(
  doc: PDFKit.PDFDocument,
  data: CertificatePdfData,
  palette: CertificatePalette,
): void {
  const matrix = qrMatrix(data.verify_url);
  if (matrix !== null) {
    doc.rect(QR_X, QR_Y, QR_BOX, QR_BOX).fill('#ffffff');
    drawQr(doc, matrix, QR_X, QR_Y, QR_BOX);
  }
  const right = QR_X + QR_BOX;
  const width = 460;
  const url = plainText(data.verify_url, 300);
  const code = plainText(data.verification_code, 120);
  const small = { x: right - width, width, align: 'right' as const, color: palette.muted };
  let y = FOOTER_Y;
  if (url !== '') {
    y += drawFitted(doc, `Verify at ${url}`, {
      ...small,
      font: 'sans',
      sizes: [8, 7.5, 7, 6.5],
      maxLines: 1,
      fallback: { size: 6.5, maxLines: 2 },
      y,
      boxHeight: 16,
    });
  }
  if (code !== '') {
    drawFitted(doc, `Verification code ${code}`, {
      ...small,
      font: 'sans-bold',
      sizes: [8, 7.5, 7, 6.5],
      maxLines: 1,
      y: y + 1,
      boxHeight: 10,
    });
  }
  const issued = formatDate(data.issued_at);
  if (issued !== '') {
    drawFitted(doc, `Issued on ${issued}`, {
      font: 'sans',
      sizes: [8.5],
      maxLines: 1,
      x: CONTENT_X - 16,
      width: 200,
      align: 'left',
      y: FOOTER_Y,
      boxHeight: 12,
      color: palette.muted,
    });
  }
}
