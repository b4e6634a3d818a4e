/**
 * The files a mail carries: the badge's QR code as a PNG (shown inline: mail clients block remote
 * images, and a data: URL is dropped by most), and the edition as an iCalendar event
 * (`ical-generator`) that calendar applications add with one click.
 */
import ical, { ICalCalendarMethod } from 'ical-generator';
import QRCode from 'qrcode';

/** The QR code of a badge URL, 400 px, with the quiet zone scanners need. */
export function badgeQrPng(url: string): Promise<Buffer> {
  return QRCode.toBuffer(url, { type: 'png', width: 400, margin: 4, errorCorrectionLevel: 'M' });
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
