/**
 * Printable badges (docs/reference/tickets.md, `GET /editions/{edition_id}/badges/print.pdf`): the print data
 * of `GET .../badges/print` rendered as a PDF, one A6 portrait page per badge.
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
 * Text is in any script, in Noto Sans and the fonts that cover what it lacks (kernel/pdf/fonts.ts:
 * Arabic and Hebrew right to left and joined, Chinese, Japanese, Korean); pdfkit embeds only the
 * glyphs used. Long texts shrink, then wrap, then are cut with an ellipsis inside their box;
 * nothing overflows the page.
 */
import PDFDocument from 'pdfkit';
import { isLight } from '../../../kernel/pdf/colors.ts';
import { collectPdf, EMBEDDED_FONTS_ONLY } from '../../../kernel/pdf/document.ts';
import {
  ASCENT_EM,
  drawFitted,
  type FitOptions,
  LINE_HEIGHT_EM,
  textWidth,
} from '../../../kernel/pdf/fit.ts';
import { colorHint, hintRecord, textHint } from '../../../kernel/pdf/hints.ts';
import { drawQr, qrMatrix } from '../../../kernel/pdf/qr.ts';
import { cleanText } from '../../../kernel/pdf/text.ts';
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
/** Names and labels are cut here before they are fitted (they shrink, wrap, then get an ellipsis). */
const TEXT_MAX_CHARS = 300;
const PAGES_PER_YIELD = 20;

interface DesignHints {
  accent: string;
  onAccent: string;
  title: string | null;
}

/** The worker thread that renders badges (documents.worker.ts `badgesPdf`), as the routes name it. */
export interface BadgesPdfRenderer {
  run(task: 'badgesPdf', items: BadgePrintItem[]): Promise<Uint8Array>;
}

export async function renderBadgesPdf(items: BadgePrintItem[]): Promise<Buffer> {
  const doc = new PDFDocument({
    ...EMBEDDED_FONTS_ONLY,
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
  drawCentered(doc, 'No active badges to print', {
    font: 'sans-bold',
    sizes: [16],
    maxLines: 2,
    y: PAGE_HEIGHT / 2 - 30,
    boxHeight: 40,
    color: INK,
  });
  drawCentered(doc, 'The selection holds no active badge emissions.', {
    font: 'sans',
    sizes: [10],
    maxLines: 2,
    y: PAGE_HEIGHT / 2,
    boxHeight: 26,
    color: MUTED,
  });
}

function drawBadge(doc: PDFKit.PDFDocument, item: BadgePrintItem): void {
  const hints = readDesignHints(item.design_data);
  const vars = item.variables ?? ({} as Partial<BadgePrintItem['variables']>);
  const eventName = cleanText(vars.event_name, TEXT_MAX_CHARS) || 'Event';
  const editionName = cleanText(vars.edition_name, TEXT_MAX_CHARS);
  const holder = cleanText(publicHolderName(vars.holder_name, vars.holder_email ?? ''), TEXT_MAX_CHARS);
  const ticket =
    cleanText(vars.ticket_name ?? item.ticket_name, TEXT_MAX_CHARS) ||
    (item.origin === 'staff' ? 'Staff' : 'Participant');
  doc.addPage();

  // 1. Band: optional title label, then the event name centred in what is left of the band.
  doc.rect(0, 0, PAGE_WIDTH, BAND_HEIGHT).fill(hints.accent);
  let bandTop = 16;
  if (hints.title !== null) {
    drawCentered(doc, hints.title, {
      font: 'sans-bold',
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
    font: 'sans-bold',
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
      font: 'sans',
      sizes: [13, 12, 11, 10, 9],
      maxLines: 2,
      y: 110,
      boxHeight: 32,
      color: MUTED,
    });
  }
  drawCentered(doc, holder, {
    font: 'sans-bold',
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
  const caption = { font: 'sans', maxLines: 1, color: MUTED } as const;
  if (matrix === null) {
    drawCentered(doc, 'QR code unavailable', {
      ...caption,
      sizes: [9],
      y: QR_TOP + QR_BOX / 2,
      boxHeight: 12,
    });
  } else {
    drawQr(doc, matrix, (PAGE_WIDTH - QR_BOX) / 2, QR_TOP, QR_BOX);
    drawCentered(doc, 'Scan to check this badge', {
      ...caption,
      sizes: [7],
      y: QR_TOP + QR_BOX + 2,
      boxHeight: 10,
    });
  }
}

/** drawFitted across the badge's content width, centred. */
function drawCentered(doc: PDFKit.PDFDocument, text: string, options: Omit<FitOptions, 'x' | 'width'>): void {
  drawFitted(doc, text, { ...options, x: MARGIN, width: CONTENT_WIDTH });
}

function drawPill(doc: PDFKit.PDFDocument, label: string, hints: DesignHints, top: number): void {
  const maxText = CONTENT_WIDTH - 24;
  let size = 12;
  for (; size > 8; size -= 1) if (textWidth(doc, label, 'sans-bold', size) <= maxText) break;
  const textWide = Math.min(textWidth(doc, label, 'sans-bold', size), maxText);
  const height = 24;
  const width = textWide + 24;
  const x = (PAGE_WIDTH - width) / 2;
  doc.roundedRect(x, top, width, height, height / 2).fill(hints.accent);
  // The baseline half a cap height below the pill's middle: capitals sit centred in it.
  const baseline = top + height / 2 + 0.36 * size;
  drawFitted(doc, label, {
    font: 'sans-bold',
    sizes: [size],
    maxLines: 1,
    x: x + 12,
    width: textWide + 0.5,
    y: baseline - ASCENT_EM * size,
    boxHeight: size * LINE_HEIGHT_EM + 1,
    color: hints.onAccent,
  });
}

function readDesignHints(designData: unknown): DesignHints {
  const hints = hintRecord(designData);
  const accent = colorHint(hints, 'accent_color') ?? DEFAULT_ACCENT;
  const title = textHint(hints, 'title', TITLE_MAX_CHARS);
  return { accent, onAccent: isLight(accent) ? INK : '#ffffff', title };
}
