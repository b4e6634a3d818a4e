/**
 * Printable badges (contract 5.5, `GET /editions/{edition_id}/badges/print.pdf`): the print data of
 * `GET .../badges/print` rendered as a PDF, one A6 portrait page per badge.
 *
 * A page, top to bottom: a band in the accent colour with the optional `title` and the event name;
 * the edition name; the holder's e-mail (names are not stored, so the e-mail is the holder line);
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
import QRCode from 'qrcode';

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
const QR_QUIET_MODULES = 4;
const DEFAULT_ACCENT = '#1d4ed8';
const INK = '#111827';
const MUTED = '#4b5563';
const TITLE_MAX_CHARS = 60;
const PAGES_PER_YIELD = 20;

type TextFont = 'Helvetica' | 'Helvetica-Bold';

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
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

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
  const holder = toWinAnsi(vars.holder_email);
  const ticket =
    toWinAnsi(vars.ticket_name ?? item.ticket_name) || (item.origin === 'staff' ? 'Staff' : 'Participant');
  doc.addPage();

  // 1. Band: optional title label, then the event name centred in what is left of the band.
  doc.rect(0, 0, PAGE_WIDTH, BAND_HEIGHT).fill(hints.accent);
  let bandTop = 16;
  if (hints.title !== null) {
    drawFitted(doc, hints.title, {
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
  drawFitted(doc, eventName, {
    font: 'Helvetica-Bold',
    sizes: [22, 20, 18, 16, 14, 13, 12, 11, 10],
    maxLines: bandTop === 16 ? 3 : 2,
    y: bandTop,
    boxHeight: BAND_HEIGHT - 10 - bandTop,
    color: hints.onAccent,
    verticalCenter: true,
  });

  // 2. Edition name and holder: the e-mail prefers one line, shrinking before it wraps.
  if (editionName !== '') {
    drawFitted(doc, editionName, {
      font: 'Helvetica',
      sizes: [13, 12, 11, 10, 9],
      maxLines: 2,
      y: 110,
      boxHeight: 32,
      color: MUTED,
    });
  }
  drawFitted(doc, holder, {
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

interface FitOptions {
  font: TextFont;
  /** Font sizes to try, largest first; the first at which the text fits in maxLines wins. */
  sizes: number[];
  maxLines: number;
  /** Used when no size fits: this size and line count, cut with an ellipsis beyond that. */
  fallback?: { size: number; maxLines: number };
  y: number;
  boxHeight: number;
  color: string;
  characterSpacing?: number;
  verticalCenter?: boolean;
}

/** Draws centred text at the largest size that fits; never taller than its box. */
function drawFitted(doc: PDFKit.PDFDocument, text: string, options: FitOptions): void {
  const lineGap = 1;
  const base = { width: CONTENT_WIDTH, align: 'center' as const, lineGap };
  const spacing =
    options.characterSpacing === undefined ? {} : { characterSpacing: options.characterSpacing };
  doc.font(options.font);
  let chosen: { size: number; maxLines: number } | null = null;
  for (const size of options.sizes) {
    doc.fontSize(size);
    const lineHeight = doc.currentLineHeight(true) + lineGap;
    const lines = Math.round(doc.heightOfString(text, { ...base, ...spacing }) / lineHeight);
    if (lines <= options.maxLines && lines * lineHeight <= options.boxHeight + 0.5) {
      chosen = { size, maxLines: options.maxLines };
      break;
    }
  }
  chosen ??= options.fallback ?? {
    size: options.sizes[options.sizes.length - 1] ?? 10,
    maxLines: options.maxLines,
  };
  doc.fontSize(chosen.size);
  const lineHeight = doc.currentLineHeight(true) + lineGap;
  const boxLines = Math.max(1, Math.min(chosen.maxLines, Math.floor((options.boxHeight + 0.5) / lineHeight)));
  const height = boxLines * lineHeight;
  const used = Math.min(height, doc.heightOfString(text, { ...base, ...spacing }));
  const y = options.verticalCenter === true ? options.y + (options.boxHeight - used) / 2 : options.y;
  doc.fillColor(options.color);
  // `height` + `ellipsis` make pdfkit stop (and cut the last line) at the box bottom.
  doc.text(text, MARGIN, y, { ...base, ...spacing, height: height + 0.5, ellipsis: true });
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

/** The module matrix (row-major, true = dark), or null when the text cannot be a QR code. */
function qrMatrix(text: unknown): boolean[][] | null {
  if (typeof text !== 'string' || text === '') return null;
  let modules: QRCode.BitMatrix;
  try {
    modules = QRCode.create(text, { errorCorrectionLevel: 'M' }).modules;
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
 * One rectangle per horizontal run of dark modules, all in one path filled once: far fewer
 * operators than one square per module, and no hairline seams between adjacent squares.
 */
function drawQr(doc: PDFKit.PDFDocument, matrix: boolean[][], x: number, y: number, box: number): void {
  const count = matrix.length + 2 * QR_QUIET_MODULES;
  const module = box / count;
  const originX = x + QR_QUIET_MODULES * module;
  const originY = y + QR_QUIET_MODULES * module;
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

function readDesignHints(designData: unknown): DesignHints {
  let accent = DEFAULT_ACCENT;
  let title: string | null = null;
  if (typeof designData === 'object' && designData !== null && !Array.isArray(designData)) {
    const accentValue = ownValue(designData, 'accent_color');
    const normalized = typeof accentValue === 'string' ? normalizeHex(accentValue) : null;
    if (normalized !== null) accent = normalized;
    const titleValue = ownValue(designData, 'title');
    if (typeof titleValue === 'string') {
      const cleaned = toWinAnsi(titleValue).slice(0, TITLE_MAX_CHARS).trim();
      if (cleaned !== '') title = cleaned;
    }
  }
  return { accent, onAccent: isLight(accent) ? INK : '#ffffff', title };
}

/** An own data property only: no getters run, no prototype lookups. */
function ownValue(target: object, key: string): unknown {
  const descriptor = Object.getOwnPropertyDescriptor(target, key);
  return descriptor !== undefined && 'value' in descriptor ? descriptor.value : undefined;
}

function normalizeHex(value: string): string | null {
  const match = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(value.trim());
  if (match === null) return null;
  const hex = match[1]!.toLowerCase();
  return hex.length === 3 ? `#${[...hex].map((d) => d + d).join('')}` : `#${hex}`;
}

/** Relative luminance above ~0.55: dark text reads better than white on it. */
function isLight(hex: string): boolean {
  const channel = (offset: number): number => {
    const v = Number.parseInt(hex.slice(offset, offset + 2), 16) / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5) > 0.55;
}

/** Characters above Latin-1 that WinAnsi (and so pdfkit's standard fonts) can show. */
const WIN_ANSI_EXTRA = new Set([
  0x152, 0x153, 0x160, 0x161, 0x178, 0x17d, 0x17e, 0x192, 0x2c6, 0x2dc, 0x2013, 0x2014, 0x2018, 0x2019,
  0x201a, 0x201c, 0x201d, 0x201e, 0x2020, 0x2021, 0x2022, 0x2026, 0x2030, 0x2039, 0x203a, 0x20ac, 0x2122,
]);

/** Latin letters with a stroke have no Unicode decomposition: their plain letter. */
const STROKED: Record<string, string> = {
  Ł: 'L',
  ł: 'l',
  Đ: 'D',
  đ: 'd',
  Ħ: 'H',
  ħ: 'h',
  ı: 'i',
  Ŧ: 'T',
  ŧ: 't',
};

function isWinAnsi(code: number): boolean {
  return (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRA.has(code);
}

/**
 * Text the standard fonts can show. pdfkit writes each UTF-16 unit as hex, so anything outside
 * WinAnsi would corrupt the string: reduce to a base letter when one exists, else `?`. Control
 * characters and runs of whitespace become one space (a newline would start a new line).
 */
function toWinAnsi(value: unknown): string {
  if (typeof value !== 'string') return '';
  let out = '';
  for (const char of value.normalize('NFC')) {
    const code = char.codePointAt(0)!;
    if (/\s/u.test(char) || code < 0x20 || (code >= 0x7f && code < 0xa0)) {
      out += ' ';
    } else if (isWinAnsi(code)) {
      out += char;
    } else {
      const base = STROKED[char] ?? char.normalize('NFD').replace(/\p{M}/gu, '');
      out += base !== '' && [...base].every((c) => isWinAnsi(c.codePointAt(0)!)) ? base : '?';
    }
  }
  return out.replace(/ {2,}/g, ' ').trim();
}
