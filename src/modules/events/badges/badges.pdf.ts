/**
 * Printable badges (contract 5.5, `GET /editions/{edition_id}/badges/print.pdf`): the print data of
 * `GET .../badges/print` rendered as a PDF, one A6 portrait page per badge.
 *
 * A page, top to bottom: a band in the accent colour with the optional `title` and the event name;
 * the edition name; the holder's name (their token's `name` claim, else their e-mail masked, as
 * a badge is worn in public: `holder-name.ts`);
 * a pill with the ticket name ("Staff" for a staff badge without a ticket); the QR code of
 * `variables.action_url`, drawn as vector rectangles (one per horizontal run of dark modules, all
 * in one path with one fill) inside a 4-module quiet zone; a short caption.
 *
 * `design_data` hints (anything else is ignored; a hint of the wrong type or shape falls back to
 * the default, so design_data can never break rendering):
 * - `accent_color`: `#RGB` or `#RRGGBB` string; the band and pill colour (default `#1d4ed8`).
 *   Text on it is white, or near-black when the colour is light.
 * - `title`: non-blank string, shown as a small label above the event name (trimmed, cut at 60
 *   characters; default: none).
 *
 * Zero items render a valid one-page PDF that says there are no active badges to print, so the
 * endpoint always answers a printable document rather than an empty or invalid file.
 *
 * Only the standard Helvetica fonts are used (no font files of ours). They can show WinAnsi
 * (Windows-1252) text only, so every string is reduced to it first: accents that WinAnsi lacks
 * are dropped to their base letter where possible, anything else becomes `?`. Long texts shrink,
 * then wrap, then are cut with an ellipsis inside their box; nothing overflows the page.
 */
import PDFDocument from 'pdfkit';
import { isLight } from '../../../kernel/pdf/colors.ts';
import { collectPdf } from '../../../kernel/pdf/document.ts';
import { drawFitted, type FitOptions } from '../../../kernel/pdf/fit.ts';
import { colorHint, hintRecord, textHint } from '../../../kernel/pdf/hints.ts';
import { drawQr, qrMatrix } from '../../../kernel/pdf/qr.ts';
import { toWinAnsi } from '../../../kernel/pdf/winansi.ts';
import { publicHolderName } from '../holder-name.ts';

export interface BadgePrintItem {
  emission_id: string;
  user_id: string;
  origin: 'participant' | 'staff';
  ticket_name: string | null;
  template_id: string | null;
  template_name: string | null;
  design_data: Record<string, unknown>;
  variables: {
    event_name: string;
    edition_name: string;
    ticket_name: string | null;
    holder_email: string;
    /** The holder's name, else their e-mail (print data always has it; older callers may not). */
    holder_name?: string;
    action_url: string;
  };
}

/** A6 portrait in points (105 x 148 mm). */
const PAGE_WIDTH = 297.64;
const PAGE_HEIGHT = 419.53;
const MARGIN = 20;
const CONTENT_WIDTH = PAGE_WIDTH - 2 * MARGIN;
const BAND_HEIGHT = 100;
const QR_TOP = 222;
const QR_BOX = 168;
const DEFAULT_ACCENT = '#1d4ed8';
const INK = '#111827';
const MUTED = '#4b5563';
const TITLE_MAX_CHARS = 60;
const PAGES_PER_YIELD = 20;

interface DesignHints {
  accent: string;
  onAccent: string;
  title: string | null;
}

export async function renderBadgesPdf(items: BadgePrintItem[]): Promise<Buffer> {
  const doc = new PDFDocument({
    size: [PAGE_WIDTH, PAGE_HEIGHT],
    margin: 0,
    autoFirstPage: false,
    info: { Title: 'Convene badges', Creator: 'Convene', Producer: 'Convene' },
  });
  const done = collectPdf(doc);

  if (items.length === 0) drawEmptyPage(doc);
  for (const [index, item] of items.entries()) {
    // A page costs a few milliseconds of CPU: yield now and then so a large selection does not
    // hold the event loop (and every other request) for the whole render.
    if (index > 0 && index % PAGES_PER_YIELD === 0)
      await new Promise<void>((resolve) => setImmediate(resolve));
    drawBadge(doc, item);
  }
  doc.end();
  return done;
}

function drawEmptyPage(doc: PDFKit.PDFDocument): void {
  doc.addPage();
  doc.font('Helvetica-Bold').fontSize(16).fillColor(INK);
  doc.text('No active badges to print', MARGIN, PAGE_HEIGHT / 2 - 30, {
    width: CONTENT_WIDTH,
    align: 'center',
  });
  doc.font('Helvetica').fontSize(10).fillColor(MUTED);
  doc.text('The selection holds no active badge emissions.', MARGIN, PAGE_HEIGHT / 2, {
    width: CONTENT_WIDTH,
    align: 'center',
  });
}

function drawBadge(doc: PDFKit.PDFDocument, item: BadgePrintItem): void {
  const hints = readDesignHints(item.design_data);
  const vars = item.variables ?? ({} as Partial<BadgePrintItem['variables']>);
  const eventName = toWinAnsi(vars.event_name) || 'Event';
  const editionName = toWinAnsi(vars.edition_name);
  const holder = toWinAnsi(publicHolderName(vars.holder_name, vars.holder_email ?? ''));
  const ticket =
    toWinAnsi(vars.ticket_name ?? item.ticket_name) || (item.origin === 'staff' ? 'Staff' : 'Participant');
  doc.addPage();

  // 1. Band: optional title label, then the event name centred in what is left of the band.
  doc.rect(0, 0, PAGE_WIDTH, BAND_HEIGHT).fill(hints.accent);
  let bandTop = 16;
  if (hints.title !== null) {
    drawCentered(doc, hints.title, {
      font: 'Helvetica-Bold',
      sizes: [9, 7],
      maxLines: 1,
      y: 14,
      boxHeight: 12,
      color: hints.onAccent,
      characterSpacing: 1.2,
    });
    bandTop = 32;
  }
  drawCentered(doc, eventName, {
    font: 'Helvetica-Bold',
    sizes: [22, 20, 18, 16, 14, 13, 12, 11, 10],
    maxLines: bandTop === 16 ? 3 : 2,
    y: bandTop,
    boxHeight: BAND_HEIGHT - 10 - bandTop,
    color: hints.onAccent,
    verticalCenter: true,
  });

  // 2. Edition name and holder: the holder line prefers one line, shrinking before it wraps.
  if (editionName !== '') {
    drawCentered(doc, editionName, {
      font: 'Helvetica',
      sizes: [13, 12, 11, 10, 9],
      maxLines: 2,
      y: 110,
      boxHeight: 32,
      color: MUTED,
    });
  }
  drawCentered(doc, holder, {
    font: 'Helvetica-Bold',
    sizes: [16, 15, 14, 13, 12, 11, 10, 9],
    maxLines: 1,
    fallback: { size: 8, maxLines: 3 },
    y: 146,
    boxHeight: 34,
    color: INK,
    verticalCenter: true,
  });

  // 3. Ticket pill.
  drawPill(doc, ticket, hints, 188);

  // 4. QR code of action_url, or a note when it cannot be encoded (empty or over capacity).
  const matrix = qrMatrix(vars.action_url);
  if (matrix === null) {
    doc.font('Helvetica').fontSize(9).fillColor(MUTED);
    doc.text('QR code unavailable', MARGIN, QR_TOP + QR_BOX / 2, { width: CONTENT_WIDTH, align: 'center' });
  } else {
    drawQr(doc, matrix, (PAGE_WIDTH - QR_BOX) / 2, QR_TOP, QR_BOX);
    doc.font('Helvetica').fontSize(7).fillColor(MUTED);
    doc.text('Scan to check this badge', MARGIN, QR_TOP + QR_BOX + 2, {
      width: CONTENT_WIDTH,
      align: 'center',
      lineBreak: false,
    });
  }
}

/** drawFitted across the badge's content width, centred. */
function drawCentered(doc: PDFKit.PDFDocument, text: string, options: Omit<FitOptions, 'x' | 'width'>): void {
  drawFitted(doc, text, { ...options, x: MARGIN, width: CONTENT_WIDTH });
}

function drawPill(doc: PDFKit.PDFDocument, label: string, hints: DesignHints, top: number): void {
  doc.font('Helvetica-Bold');
  let size = 12;
  const maxText = CONTENT_WIDTH - 24;
  for (; size > 8; size -= 1) {
    doc.fontSize(size);
    if (doc.widthOfString(label) <= maxText) break;
  }
  doc.fontSize(size);
  const textWidth = Math.min(doc.widthOfString(label), maxText);
  const height = 24;
  const width = textWidth + 24;
  const x = (PAGE_WIDTH - width) / 2;
  doc.roundedRect(x, top, width, height, height / 2).fill(hints.accent);
  doc.fillColor(hints.onAccent);
  const textTop = top + (height - doc.currentLineHeight(false)) / 2 + 1;
  doc.text(label, x + 12, textTop, {
    width: textWidth + 0.5,
    align: 'center',
    lineBreak: false,
    height: doc.currentLineHeight(true),
    ellipsis: true,
  });
}

function readDesignHints(designData: unknown): DesignHints {
  const hints = hintRecord(designData);
  const accent = colorHint(hints, 'accent_color') ?? DEFAULT_ACCENT;
  const title = textHint(hints, 'title', TITLE_MAX_CHARS);
  return { accent, onAccent: isLight(accent) ? INK : '#ffffff', title };
}
