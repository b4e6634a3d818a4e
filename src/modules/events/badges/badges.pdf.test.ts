/**
 * The printable badge renderer (docs/reference/tickets.md, print.pdf): one page per badge with the holder,
 * event, edition and ticket, and a vector QR code that scans to the badge's action_url. Pages are
 * read back with test/pdf.ts: pdf.js extracts the text and renders each page, and jsqr decodes
 * the QR code from the pixels.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pdfToText, readPdf, WORLD_NAMES } from '../../../../test/pdf.ts';
import { type BadgePrintItem, renderBadgesPdf } from './badges.pdf.ts';

const BASE_URL = 'https://convene.example';

type BadgeOverrides = Partial<Omit<BadgePrintItem, 'variables'>> & {
  variables?: Partial<BadgePrintItem['variables']>;
};

/** A print item as GET .../badges/print returns it; action_url follows the shape of docs/reference/tickets.md. */
function badge(overrides: BadgeOverrides): BadgePrintItem {
  const { variables, ...rest } = overrides;
  const userId = overrides.user_id ?? '0197a3c2-5b1e-7c4d-9e2f-3a4b5c6d7e8f';
  const item: BadgePrintItem = {
    emission_id: '0197a3c2-0000-7000-8000-000000000001',
    user_id: userId,
    origin: 'participant',
    ticket_name: 'General admission',
    template_id: null,
    template_name: null,
    design_data: {},
    ...rest,
    variables: {
      event_name: 'RustConf',
      edition_name: '2025 edition',
      ticket_name: overrides.ticket_name === undefined ? 'General admission' : overrides.ticket_name,
      holder_email: 'ana@example.com',
      action_url: `${BASE_URL}/b/AZN6UCIicACAgAAAAAAAMKoGkQ-6n5mBvt3uPnn8y2Q`,
      ...variables,
    },
  };
  return item;
}

/** All text of a page as one string with single spaces, so wrapped lines read as one. */
function pageText(texts: string[]): string {
  return texts.join(' ').replace(/\s+/g, ' ');
}

const LONG_EVENT =
  'The International Conference on Extremely Long Event Names, Their Typesetting and Their Discontents';

const items: BadgePrintItem[] = [
  badge({
    user_id: '0197a3c2-5b1e-7c4d-9e2f-000000000001',
    ticket_name: 'VIP pass',
    design_data: { accent_color: '#0a7f5a', title: 'Attendee' },
    variables: { holder_email: 'ana@example.com' },
  }),
  badge({
    emission_id: '0197a3c2-0000-7000-8000-000000000002',
    user_id: '0197a3c2-5b1e-7c4d-9e2f-000000000002',
    origin: 'staff',
    ticket_name: null,
    template_name: 'Staff badge',
    design_data: { accent_color: '#fde047' },
    variables: { holder_email: 'crew@example.org' },
  }),
  badge({
    emission_id: '0197a3c2-0000-7000-8000-000000000003',
    user_id: '0197a3c2-5b1e-7c4d-9e2f-000000000003',
    ticket_name: 'Speaker',
    variables: { event_name: LONG_EVENT, edition_name: 'Autumn — Lisboa', holder_email: 'zoë@example.com' },
  }),
];

describe('badges: printable PDF', () => {
  it('renders one page per badge with the holder, event, edition, ticket and a QR of its action_url', async () => {
    const pdf = await renderBadgesPdf(items);
    assert.equal(pdf.subarray(0, 5).toString('latin1'), '%PDF-');
    const read = await readPdf(pdf);
    assert.equal(read.pageCount, 3);
    // No holder_name: the e-mail, masked (a printed badge is worn in public).
    const expected = [
      { email: 'a•••@e•••.com', event: 'RustConf', edition: '2025 edition', ticket: 'VIP pass' },
      { email: 'c•••@e•••.org', event: 'RustConf', edition: '2025 edition', ticket: 'Staff' },
      { email: 'z•••@e•••.com', event: LONG_EVENT, edition: 'Autumn — Lisboa', ticket: 'Speaker' },
    ];
    for (const [index, want] of expected.entries()) {
      const text = pageText(read.texts[index]!);
      assert.ok(text.includes(want.email), `page ${index + 1} shows ${want.email}: ${text}`);
      assert.ok(!text.includes('example'), `page ${index + 1} shows no address: ${text}`);
      assert.ok(text.includes(want.event), `page ${index + 1} shows the event: ${text}`);
      assert.ok(text.includes(want.edition), `page ${index + 1} shows the edition: ${text}`);
      assert.ok(text.includes(want.ticket), `page ${index + 1} shows ${want.ticket}: ${text}`);
      assert.equal(await read.qr(index), items[index]!.variables.action_url, `page ${index + 1} QR`);
    }
    // The title hint is shown; a badge without one has no title line.
    assert.ok(pageText(read.texts[0]!).includes('Attendee'));
    assert.ok(!pageText(read.texts[2]!).includes('Attendee'));
  });

  it("prints the holder's name when the print data has one, the e-mail masked otherwise", async () => {
    const pdf = await readPdf(
      await renderBadgesPdf([
        badge({ variables: { holder_name: 'Ana Souza' } }),
        badge({ variables: { holder_email: 'bo@example.com' } }),
        // The print data's holder_name falls back to the e-mail: printed masked all the same.
        badge({ variables: { holder_name: 'cy@example.org', holder_email: 'cy@example.org' } }),
      ]),
    );
    assert.ok(pageText(pdf.texts[0]!).includes('Ana Souza'));
    assert.ok(!pageText(pdf.texts[0]!).includes('ana@example.com'));
    assert.ok(pageText(pdf.texts[1]!).includes('b•••@e•••.com'));
    assert.ok(!pageText(pdf.texts[1]!).includes('bo@example.com'));
    assert.ok(pageText(pdf.texts[2]!).includes('c•••@e•••.org'));
    assert.ok(!pageText(pdf.texts[2]!).includes('cy@example.org'));
  });

  it('prints names in any script: pdf.js and pdftotext read each back exactly', async () => {
    const names = Object.values(WORLD_NAMES);
    const pdf = await renderBadgesPdf(names.map((name) => badge({ variables: { holder_name: name } })));
    const read = await readPdf(pdf);
    assert.equal(read.pageCount, names.length);
    const poppler = await pdfToText(pdf);
    for (const [index, name] of names.entries()) {
      const lines = read.lines[index]!;
      assert.ok(lines.includes(name), `page ${index + 1} shows ${name}: ${JSON.stringify(lines)}`);
      assert.ok(!lines.join(' ').includes('?'), `no glyph printed as "?": ${JSON.stringify(lines)}`);
      assert.equal(await read.qr(index), badge({}).variables.action_url, `page ${index + 1} QR`);
    }
    if (poppler !== null) {
      const pages = poppler.split('\f');
      for (const [index, name] of names.entries()) {
        const popplerLines = pages[index]!.split('\n').map((line) => line.trim());
        assert.ok(
          popplerLines.includes(name),
          `pdftotext reads ${name} on page ${index + 1}: ${pages[index]}`,
        );
      }
    }
    assert.ok(pdf.length < 60_000 * names.length, `only the glyphs used are embedded: ${pdf.length} bytes`);
  });

  it('prints the title, event, edition and ticket in any script', async () => {
    const read = await readPdf(
      await renderBadgesPdf([
        badge({
          design_data: { title: 'Ομιλητής' },
          variables: {
            event_name: 'مؤتمر الربيع',
            edition_name: 'Весенний выпуск',
            ticket_name: '一般チケット',
            holder_name: WORLD_NAMES.hebrew,
          },
        }),
      ]),
    );
    const lines = read.lines[0]!;
    for (const expected of [
      'Ομιλητής',
      'مؤتمر الربيع',
      'Весенний выпуск',
      '一般チケット',
      WORLD_NAMES.hebrew,
    ]) {
      assert.ok(lines.includes(expected), `shows "${expected}": ${JSON.stringify(lines)}`);
    }
  });

  it('keeps the content streams compressed and sets the document info', async () => {
    const pdf = await renderBadgesPdf(items.slice(0, 1));
    assert.match(pdf.toString('latin1'), /\/Filter \/FlateDecode/);
    const { info } = await readPdf(pdf);
    assert.equal(info.Title, 'Convene badges');
    assert.equal(info.Creator, 'Convene');
  });

  it('renders design_data of the wrong types, and characters of any script, with the defaults', async () => {
    const odd = [
      badge({ design_data: { accent_color: 42, title: {} } }),
      badge({ design_data: { accent_color: 'red', title: ['x'] } }),
      badge({ design_data: { accent_color: '#12345', title: '   ' } }),
      // Not what the type says, but what a JSON column might hold: never a crash.
      badge({ design_data: null as unknown as Record<string, unknown> }),
      badge({
        design_data: [1, 2] as unknown as Record<string, unknown>,
        variables: { event_name: 'Łódź 東京 🎉 Summit\nline two', holder_email: 'łukasz@example.com' },
      }),
    ];
    const read = await readPdf(await renderBadgesPdf(odd));
    assert.equal(read.pageCount, odd.length);
    for (const [index, item] of odd.entries()) {
      assert.equal(await read.qr(index), item.variables.action_url, `page ${index + 1} QR`);
    }
    const last = read.lines[4]!.join(' ');
    assert.ok(last.includes('Łódź 東京'), last);
    assert.ok(last.includes('Summit line two'), last);
    assert.ok(last.includes('ł•••@e•••.com'), last);
    assert.ok(!last.includes('?'), `no glyph printed as "?": ${last}`);
    assert.ok(!last.includes('łukasz@example.com'), last);
  });

  it('renders a badge whose action_url cannot be a QR code without one', async () => {
    const read = await readPdf(await renderBadgesPdf([badge({ variables: { action_url: '' } })]));
    assert.equal(read.pageCount, 1);
    assert.equal(await read.qr(0), '');
    assert.ok(pageText(read.texts[0]!).includes('QR code unavailable'));
  });

  it('renders zero badges as one page saying there are none', async () => {
    const read = await readPdf(await renderBadgesPdf([]));
    assert.equal(read.pageCount, 1);
    assert.ok(pageText(read.texts[0]!).includes('No active badges to print'));
    assert.equal(await read.qr(0), '');
  });

  it('renders 200 badges', async () => {
    const many = Array.from({ length: 200 }, (_, n) =>
      badge({
        user_id: `0197a3c2-5b1e-7c4d-9e2f-${String(n).padStart(12, '0')}`,
        variables: { holder_name: `Person ${n}`, holder_email: `person${n}@example.com` },
      }),
    );
    const pdf = await renderBadgesPdf(many);
    const read = await readPdf(pdf);
    assert.equal(read.pageCount, 200);
    assert.ok(pageText(read.texts[199]!).includes('Person 199'));
    assert.equal(await read.qr(199), many[199]!.variables.action_url);
  });
});
