/**
 * The certificate renderer (docs/reference/attendance.md, PDF): one A4 landscape page with the holder, the
 * template's title, the edition, event and dates, the signatures and a QR code of verify_url.
 * Pages are read back with test/pdf.ts: pdf.js extracts the text and where it sits, and jsqr
 * decodes the QR code from the rendered pixels. Hostile inputs must still give a valid page with
 * nothing outside the frame or over the QR code, and no URL is ever fetched or read.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import {
  pdfToText,
  type ReadPdf,
  readPdf,
  signaturePng,
  type TextBox,
  WORLD_NAMES,
} from '../../../../test/pdf.ts';
import { type CertificatePdfData, renderCertificatePdf } from './certificate.pdf.ts';

const A4_LANDSCAPE = { width: 841.89, height: 595.28 };
/** The inner frame: no text may leave it. */
const FRAME = 28;
/** The QR code's square (certificate.pdf.ts: 104 pt, 48 pt from the right edge, 410 pt down). */
const QR = { left: A4_LANDSCAPE.width - 48 - 104, top: 410, right: A4_LANDSCAPE.width - 48, bottom: 514 };

/** The signature PNG of every test here (made once, at load). */
const SQUIGGLE = await signaturePng();
const pngDataUrl = (bytes: Buffer) => `data:image/png;base64,${bytes.toString('base64')}`;

function certificate(overrides: Partial<CertificatePdfData> = {}): CertificatePdfData {
  return {
    certificate_id: '0197a3c2-0000-7000-8000-00000000c001',
    holder_name: 'José Ñúñez',
    template: {
      name: 'Attendance',
      description: 'Three days of talks and workshops on systems programming.',
      kind: 'edition_attendance',
      design_data: { accent_color: '#1e3a5f' },
    },
    edition: {
      name: 'Spring edition',
      starts_at: new Date('2026-03-12T09:00:00Z'),
      ends_at: new Date('2026-03-14T18:00:00Z'),
      location_name: 'Lisbon',
    },
    event: { name: 'RustConf' },
    programs: [],
    issued_at: new Date('2026-03-15T10:00:00Z'),
    verification_code: 'K7Q2-9XMP-4TZB',
    verify_url: 'https://convene.example/verify/K7Q2-9XMP-4TZB',
    signatures: [
      {
        signatory_name: 'Ana Lima',
        signatory_title: 'Programme chair',
        image_url: pngDataUrl(SQUIGGLE),
      },
      {
        signatory_name: 'Marco Rossi',
        signatory_title: 'Director, Convene Foundation',
        image_url: 'https://signatures.example/marco.png',
      },
    ],
    ...overrides,
  };
}

/** All text of a page as one string with single spaces, so wrapped lines read as one. */
const pageText = (read: ReadPdf) => read.lines[0]!.join(' ').replace(/\s+/g, ' ');
const imageCount = (pdf: Buffer) => pdf.toString('latin1').match(/\/Subtype \/Image/g)?.length ?? 0;

const overlaps = (a: Omit<TextBox, 'text'>, b: Omit<TextBox, 'text'>, slack = 0.5) =>
  a.left < b.right - slack &&
  b.left < a.right - slack &&
  a.top < b.bottom - slack &&
  b.top < a.bottom - slack;

/** One A4 landscape page, its text inside the frame, none over the QR code or over other text. */
async function readValid(pdf: Buffer): Promise<ReadPdf> {
  assert.equal(pdf.subarray(0, 5).toString('latin1'), '%PDF-');
  const read = await readPdf(pdf);
  assert.equal(read.pageCount, 1);
  assert.deepEqual(read.pageSizes[0], A4_LANDSCAPE);
  const boxes = read.boxes[0]!;
  for (const box of boxes) {
    const inside =
      box.left >= FRAME &&
      box.right <= A4_LANDSCAPE.width - FRAME &&
      box.top >= FRAME &&
      box.bottom <= A4_LANDSCAPE.height - FRAME;
    assert.ok(inside, `inside the frame: ${JSON.stringify(box)}`);
    assert.ok(!overlaps(box, QR), `clear of the QR code: ${JSON.stringify(box)}`);
  }
  for (const [i, a] of boxes.entries()) {
    for (const b of boxes.slice(i + 1)) {
      assert.ok(!overlaps(a, b), `no overlap: ${JSON.stringify(a)} / ${JSON.stringify(b)}`);
    }
  }
  return read;
}

describe('certificate PDF', { timeout: 120_000 }, () => {
  it('renders one A4 landscape page with the holder, title, edition, event, dates, signatures and QR code', async () => {
    const data = certificate();
    const pdf = await renderCertificatePdf(data);
    const read = await readValid(pdf);
    const text = pageText(read);
    for (const expected of [
      'Certificate of Attendance',
      'This certifies that',
      'José Ñúñez',
      'attended Spring edition of RustConf, 12–14 March 2026, Lisbon.',
      'Three days of talks and workshops on systems programming.',
      'Ana Lima',
      'Programme chair',
      'Marco Rossi',
      'Director, Convene Foundation',
      'Issued on 15 March 2026',
      `Verify at ${data.verify_url}`,
      'Verification code K7Q2-9XMP-4TZB',
    ]) {
      assert.ok(text.includes(expected), `shows "${expected}": ${text}`);
    }
    assert.equal(await read.qr(0), data.verify_url);
    assert.equal(read.info.Title, 'Certificate — Attendance');
    assert.equal(read.info.Creator, 'Convene');
    assert.equal(read.info.Producer, 'Convene');
  });

  it('draws a data:image/png signature as the image and another URL as the name in the script font', async () => {
    const pdf = await renderCertificatePdf(certificate());
    // The squiggle has an alpha channel: its colour and its mask are the two image objects.
    assert.equal(imageCount(pdf), 2, 'the PNG signature is embedded once');
    assert.equal(pdf.toString('latin1').match(/\/SMask/g)?.length, 1);
    assert.match(pdf.toString('latin1'), /\/BaseFont \/[A-Z]{6}\+GreatVibes/, 'Great Vibes is embedded');
    // The https signature shows its name twice: in script above the rule and in print below it.
    const read = await readPdf(pdf);
    assert.equal(read.texts[0]!.filter((item) => item === 'Marco Rossi').length, 2);
    assert.equal(read.texts[0]!.filter((item) => item === 'Ana Lima').length, 1);
  });

  it('prints names in any script: pdf.js and pdftotext read each back exactly', async () => {
    for (const name of Object.values(WORLD_NAMES)) {
      const pdf = await renderCertificatePdf(
        certificate({
          holder_name: name,
          signatures: [{ signatory_name: name, signatory_title: name, image_url: 'https://x.example/s.png' }],
        }),
      );
      const read = await readValid(pdf);
      // The holder; the signatory in print and the title; and in the script style above the rule,
      // where a reader may take a wide kerning gap of the handwriting font ("K h") for a space.
      const lines = read.lines[0]!;
      assert.equal(
        lines.filter((line) => line === name).length >= 3,
        true,
        `${name}: ${JSON.stringify(lines)}`,
      );
      const unspaced = (line: string) => line.replaceAll(' ', '');
      assert.equal(
        lines.filter((line) => unspaced(line) === unspaced(name)).length,
        4,
        `${name}: ${JSON.stringify(lines)}`,
      );
      assert.ok(!pageText(read).includes('?'), `no glyph printed as "?": ${pageText(read)}`);
      const poppler = await pdfToText(pdf);
      if (poppler !== null) {
        const popplerLines = poppler.split('\n').map((line) => line.trim());
        assert.ok(popplerLines.includes(name), `pdftotext reads ${name}: ${poppler}`);
      }
      assert.ok(pdf.length < 150_000, `only the glyphs used are embedded: ${pdf.length} bytes for ${name}`);
    }
  });

  it('prints titles, edition, event, place, programs and description in any script', async () => {
    const data = certificate({
      holder_name: WORLD_NAMES.arabic,
      template: {
        name: 'Attendance',
        description: `${WORLD_NAMES.korean} · ${WORLD_NAMES.hebrew}`,
        kind: 'program_attendance',
        design_data: { title: 'Πιστοποιητικό συμμετοχής', subtitle: 'Свидетельство' },
      },
      edition: { ...certificate().edition, name: 'Весенний выпуск', location_name: '東京' },
      event: { name: 'مؤتمر الربيع' },
      programs: ['日本語セッション', 'Łódź'],
    });
    const read = await readValid(await renderCertificatePdf(data));
    // A line may break between two Chinese or Japanese characters, which have no space between.
    const cjk = '[\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}]';
    const text = pageText(read).replace(new RegExp(`(?<=${cjk}) (?=${cjk})`, 'gu'), '');
    for (const expected of [
      'Πιστοποιητικό συμμετοχής',
      'Свидетельство',
      WORLD_NAMES.arabic,
      'took part in 日本語セッション and Łódź at Весенний выпуск of مؤتمر الربيع, 12–14 March 2026, 東京.',
      `${WORLD_NAMES.korean} · ${WORLD_NAMES.hebrew}`,
    ]) {
      assert.ok(text.includes(expected), `shows "${expected}": ${text}`);
    }
  });

  it('orders a right-to-left name with numbers as it reads: the number left of the words before it', async () => {
    // "Spring conference 2026" in Arabic: read right to left, the year comes last, so at the left.
    const read = await readValid(
      await renderCertificatePdf(certificate({ holder_name: 'مؤتمر الربيع 2026', signatures: [] })),
    );
    const boxes = read.boxes[0]!;
    const year = boxes.find((box) => box.text.includes('2026') && !box.text.includes('March'));
    const words = boxes.find((box) => box.text.includes('الربيع'));
    assert.ok(year !== undefined && words !== undefined, JSON.stringify(boxes));
    assert.ok(year.right <= words.left + 0.5, `the year at the left: ${JSON.stringify([year, words])}`);
    assert.ok(Math.abs(year.bottom - words.bottom) < 0.5, 'on one line');
  });

  it('names the programs of a program_attendance certificate, with dates across months', async () => {
    const data = certificate({
      template: { ...certificate().template, kind: 'program_attendance', design_data: {} },
      edition: { ...certificate().edition, name: 'RustConf 2026', ends_at: new Date('2026-04-02T18:00:00Z') },
      programs: ['Async Rust in Practice', 'Embedded Rust'],
    });
    const read = await readValid(await renderCertificatePdf(data));
    const text = pageText(read);
    assert.ok(text.includes('Certificate of Participation'), text);
    // The edition's name holds the event's: "RustConf 2026 of RustConf" would say it twice.
    const sentence =
      'took part in Async Rust in Practice and Embedded Rust at RustConf 2026, 12 March – 2 April 2026, Lisbon.';
    assert.ok(text.includes(sentence), text);
  });

  it('follows the design_data hints: title, subtitle, body with the details line, no description', async () => {
    const data = certificate({
      template: {
        ...certificate().template,
        design_data: {
          title: 'Certificate of Excellence',
          subtitle: 'Volunteer programme',
          body: 'for outstanding work as a volunteer.',
          show_description: false,
          accent_color: '#b45309',
          text_color: '#0f172a',
          background_color: '#fffbeb',
        },
      },
    });
    const read = await readValid(await renderCertificatePdf(data));
    const text = pageText(read);
    for (const expected of [
      'Certificate of Excellence',
      'Volunteer programme',
      'for outstanding work as a volunteer.',
      'Spring edition of RustConf · 12–14 March 2026 · Lisbon',
    ]) {
      assert.ok(text.includes(expected), `shows "${expected}": ${text}`);
    }
    assert.ok(!text.includes('attended'), 'the body replaces the sentence');
    assert.ok(!text.includes('Three days'), 'show_description: false hides the description');
    assert.equal(await read.qr(0), data.verify_url);
  });

  it('renders without signatures: no row, no image, no script font', async () => {
    const pdf = await renderCertificatePdf(certificate({ signatures: [] }));
    const read = await readValid(pdf);
    assert.equal(imageCount(pdf), 0);
    assert.doesNotMatch(pdf.toString('latin1'), /GreatVibes/);
    assert.ok(pageText(read).includes('José Ñúñez'));
    assert.equal(await read.qr(0), certificate().verify_url);
  });

  describe('never fetches or reads a signature URL', () => {
    let requests = 0;
    const server = createServer((_request, response) => {
      requests += 1;
      response.writeHead(200, { 'content-type': 'image/png' }).end(SQUIGGLE);
    });
    let directory = '';
    before(async () => {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      directory = mkdtempSync(join(tmpdir(), 'certificate-'));
    });
    after(() => {
      server.close();
      rmSync(directory, { recursive: true, force: true });
    });

    it('draws the name for http(s), file and path URLs that point at real PNGs', async () => {
      const { port } = server.address() as AddressInfo;
      const file = join(directory, 'signature.png');
      writeFileSync(file, SQUIGGLE);
      const urls = [`http://127.0.0.1:${port}/signature.png`, pathToFileURL(file).href, file];
      const pdf = await renderCertificatePdf(
        certificate({
          signatures: urls.map((image_url, n) => ({
            signatory_name: `Signatory ${n + 1}`,
            signatory_title: null,
            image_url,
          })),
        }),
      );
      assert.equal(requests, 0, 'the local server was never asked');
      assert.equal(imageCount(pdf), 0, 'no file was read as an image');
      const read = await readValid(pdf);
      for (const n of [1, 2, 3]) {
        assert.equal(read.texts[0]!.filter((item) => item === `Signatory ${n}`).length, 2, `Signatory ${n}`);
      }
    });
  });

  it('renders hostile inputs as one valid page with nothing out of place', async () => {
    const longName = `Maria ${'Guadalupe Fernández de la Concepción '.repeat(200)}Ortega`;
    const notPng = `data:image/png;base64,${Buffer.from('GIF89a\x01\x00\x01\x00 not a png').toString('base64')}`;
    // A real PNG with its image data cut short: pdfkit would fail on it asynchronously.
    const png = SQUIGGLE;
    const truncated = pngDataUrl(png.subarray(0, png.length - 40));
    const signatures = [
      { signatory_name: 'Ana Lima', signatory_title: 'Chair', image_url: notPng },
      { signatory_name: 'Łucja Żółkiewska 東京', signatory_title: null, image_url: 'javascript:alert(1)' },
      {
        signatory_name: 'Sir Bartholomew Featherstonehaugh-Wolfeschlegelsteinhausenbergerdorff the Third',
        signatory_title: 'Honorary President of the International Society of Exceedingly Long Titles '.repeat(
          5,
        ),
        image_url: truncated,
      },
      { signatory_name: 'Kim', signatory_title: 'Organiser', image_url: '' },
      {
        signatory_name: 'Šárka Ždánská ƒ†',
        signatory_title: 'Treasurer',
        image_url: 42 as unknown as string,
      },
      {
        signatory_name: 'Sixth Signatory',
        signatory_title: 'Left out',
        image_url: 'https://x.example/6.png',
      },
    ];
    const hostileDesigns: unknown[] = [
      {
        title: 42,
        subtitle: null,
        body: ['x'],
        accent_color: 'red',
        text_color: '#12345',
        background_color: {},
        show_description: 'no',
      },
      null,
      [1, 2, 3],
      'a string',
      Object.create({ title: 'from the prototype' }),
    ];
    for (const design_data of hostileDesigns) {
      const data = certificate({
        holder_name: longName,
        template: {
          name: 'Attendance\u0000\n\u202e',
          description: 'Łódź 東京 🎉 Summit\nline two '.repeat(100),
          kind: 'edition_attendance',
          design_data: design_data as Record<string, unknown>,
        },
        edition: { ...certificate().edition, name: 'E'.repeat(5000), location_name: null },
        programs: null as unknown as string[],
        signatures,
      });
      const pdf = await renderCertificatePdf(data);
      const read = await readValid(pdf);
      const text = pageText(read);
      assert.ok(text.includes('Certificate of Attendance'), `default title: ${text.slice(0, 200)}`);
      assert.ok(text.includes('Maria Guadalupe'), 'the name starts');
      assert.ok(text.includes('…'), 'and is cut with an ellipsis');
      assert.ok(text.includes('Łódź 東京'), `every script prints: ${text.slice(0, 400)}`);
      assert.ok(text.includes('Summit line two'), 'a newline is a space');
      // In print under the rule; above it in the script style (its fallbacks for the rest), cut
      // with an ellipsis where the slot is too narrow even at its smallest size.
      const lines = read.lines[0]!;
      assert.ok(lines.includes('Łucja Żółkiewska 東京'), JSON.stringify(lines));
      assert.equal(lines.filter((line) => line.startsWith('Łucja Żółkiewska')).length, 2);
      assert.equal(lines.filter((line) => line === 'Šárka Ždánská ƒ†').length, 2);
      assert.ok(!text.includes('?'), 'no glyph printed as "?"');
      assert.ok(!text.includes('Sixth Signatory'), 'five signatures at most');
      assert.equal(imageCount(pdf), 0, 'neither the GIF nor the truncated PNG is embedded');
      assert.equal(await read.qr(0), data.verify_url);
      assert.equal(read.info.Title, 'Certificate — Attendance');
    }
  });

  it('renders when the QR payload cannot be encoded and the dates are invalid', async () => {
    const data = certificate({
      verify_url: '',
      issued_at: new Date(Number.NaN),
      edition: { ...certificate().edition, starts_at: new Date(Number.NaN) },
    });
    const read = await readValid(await renderCertificatePdf(data));
    assert.equal(await read.qr(0), '');
    const text = pageText(read);
    assert.ok(text.includes('attended Spring edition of RustConf, Lisbon.'), text);
    assert.ok(!text.includes('Issued on'), text);
  });
});
