/**
 * The files a mail carries: the badge's QR code as a PNG (shown inline: mail clients block remote
 * images, and a data: URL is dropped by most), and the edition as an iCalendar event
 * (`ical-generator`) that calendar applications add with one click.
 *
 * The PNG is drawn here from the symbol's modules, whole pixels per module, one grey channel, fast
 * compression: about 1 ms, where `qrcode`'s own 400 px PNG took 17 ms of the event loop per mail and
 * pushed the registrations' p99 up while confirmations were being sent (docs/mail.md, "Figures").
 */
import ical, { ICalCalendarMethod } from 'ical-generator';
import { PNG } from 'pngjs';
import { qrMatrix } from '../../../kernel/pdf/qr.ts';

/** Pixels per module: a badge URL's symbol (37 modules and the quiet zone) is 270 px square. */
const MODULE_PX = 6;
/** The quiet zone scanners need around the symbol, in modules. */
const QUIET_MODULES = 4;

/** The QR code of a badge URL as a PNG, with its quiet zone. */
export function badgeQrPng(url: string): Buffer {
  const matrix = qrMatrix(url);
  if (matrix === null) throw new Error('a badge URL is always a QR code');
  const side = (matrix.length + 2 * QUIET_MODULES) * MODULE_PX;
  const png = new PNG({ width: side, height: side, colorType: 0, inputColorType: 0, bitDepth: 8 });
  png.data = Buffer.alloc(side * side, 255);
  matrix.forEach((row, r) => {
    row.forEach((dark, c) => {
      if (!dark) return;
      const top = (r + QUIET_MODULES) * MODULE_PX;
      const left = (c + QUIET_MODULES) * MODULE_PX;
      for (let y = top; y < top + MODULE_PX; y += 1)
        png.data.fill(0, y * side + left, y * side + left + MODULE_PX);
    });
  });
  return PNG.sync.write(png, { colorType: 0, inputColorType: 0, bitDepth: 8, deflateLevel: 1 });
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
