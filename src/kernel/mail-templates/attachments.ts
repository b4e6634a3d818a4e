/**
 * Files a mail carries that are drawn from a few facts, in the mail thread (modules/mail's
 * mail.worker.ts) rather than by the renderer on the event loop: a QR code as a PNG (shown inline:
 * mail clients block remote images, and a data: URL is dropped by most; the events' badges), and an
 * iCalendar event (`ical-generator`) that calendar applications add with one click.
 *
 * The PNG is written here from the symbol's modules, whole pixels per module, one bit per pixel:
 * about 1 ms with the symbol, where `qrcode`'s own 400 px PNG took 17 ms per mail (docs/mail.md,
 * "Figures").
 */

import { crc32, deflateSync } from 'node:zlib';
import ical, { ICalCalendarMethod } from 'ical-generator';
import { qrMatrix } from '../pdf/qr.ts';

/** Pixels per module: a badge URL's symbol (37 modules and the quiet zone) is 270 px square. */
const MODULE_PX = 6;
/** The quiet zone scanners need around the symbol, in modules. */
const QUIET_MODULES = 4;

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/**
 * The QR code of a URL (a badge's) as a PNG, with its quiet zone: one bit per pixel (0 dark, 1 light),
 * rows unfiltered, deflated: the file format written directly, a fraction of a millisecond.
 */
export function qrCodePng(url: string): Buffer {
  const matrix = qrMatrix(url);
  if (matrix === null) throw new Error('the text is too long for a QR code');
  const modules = matrix.length + 2 * QUIET_MODULES;
  const side = modules * MODULE_PX;
  const rowBytes = 1 + Math.ceil(side / 8);
  const raw = Buffer.alloc(rowBytes * side, 0xff);
  // Each module row is drawn once as a row of pixels (filter byte 0, then the bits), then copied
  // for the module's height.
  matrix.forEach((row, r) => {
    const first = (r + QUIET_MODULES) * MODULE_PX * rowBytes;
    raw[first] = 0;
    row.forEach((dark, c) => {
      if (!dark) return;
      const left = (c + QUIET_MODULES) * MODULE_PX;
      for (let x = left; x < left + MODULE_PX; x += 1) {
        const at = first + 1 + (x >> 3);
        raw[at] = (raw[at] ?? 0) & ~(0x80 >> (x & 7));
      }
    });
    for (let copy = 1; copy < MODULE_PX; copy += 1)
      raw.copy(raw, first + copy * rowBytes, first, first + rowBytes);
  });
  for (let y = 0; y < side; y += 1) raw[y * rowBytes] = 0; // filter: none, on every row
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header[8] = 1; // bit depth
  header[9] = 0; // greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

export interface CalendarEntry {
  /** A stable UID: the same registration's file updates the same calendar entry. */
  id: string;
  summary: string;
  startsAt: Date;
  endsAt: Date;
  location: string;
  url: string;
  description: string;
}

export function calendarFile(entry: CalendarEntry): Buffer {
  const calendar = ical({ prodId: { company: 'Convene', product: 'Convene', language: 'EN' } });
  calendar.method(ICalCalendarMethod.PUBLISH);
  calendar.createEvent({
    id: entry.id,
    start: entry.startsAt,
    end: entry.endsAt,
    // UTC times, like every time the service gives (a `Z` suffix in the file).
    timezone: null,
    summary: entry.summary,
    location: entry.location === '' ? null : entry.location,
    url: entry.url,
    description: entry.description,
  });
  return Buffer.from(calendar.toString(), 'utf8');
}
