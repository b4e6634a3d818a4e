/**
 * Renders sample certificates to PNG files for looking at the layout while changing it:
 * `node --import tsx scripts/certificate-preview.ts [out-dir]` (default /tmp/certificate-preview).
 * The PDF goes through pdf.js onto a @napi-rs/canvas (dev dependencies): test/pdf.ts's `png`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import {
  type CertificatePdfData,
  renderCertificatePdf,
} from '../src/modules/events/certificates/certificate.pdf.ts';
import { readPdf } from '../test/pdf.ts';

const outDir = process.argv[2] ?? '/tmp/certificate-preview';

/** A hand-drawn looking stroke on a transparent canvas, as a signature pad would save it. */
function squiggle(): string {
  const canvas = createCanvas(360, 120);
  const context = canvas.getContext('2d');
  context.strokeStyle = '#1e293b';
  context.lineWidth = 4;
  context.lineCap = 'round';
  context.beginPath();
  context.moveTo(20, 80);
  for (let x = 20; x <= 340; x += 4) context.lineTo(x, 70 + Math.sin(x / 14) * 28 * Math.cos(x / 53));
  context.stroke();
  return `data:image/png;base64,${canvas.toBuffer('image/png').toString('base64')}`;
}

const base: CertificatePdfData = {
  certificate_id: '0197a3c2-0000-7000-8000-00000000c001',
  holder_name: 'José Ñúñez',
  template: {
    name: 'Attendance',
    description: 'Three days of talks and workshops on systems programming, tooling and the community.',
    kind: 'edition_attendance',
    design_data: {},
  },
  edition: {
    name: 'RustConf 2026',
    starts_at: new Date('2026-03-12T09:00:00Z'),
    ends_at: new Date('2026-03-14T18:00:00Z'),
    location_name: 'Lisbon, Portugal',
  },
  event: { name: 'RustConf' },
  programs: [],
  issued_at: new Date('2026-03-15T10:00:00Z'),
  verification_code: 'K7Q2-9XMP-4TZB',
  verify_url: 'https://convene.example/verify/K7Q2-9XMP-4TZB',
  signatures: [
    { signatory_name: 'Ana Lima', signatory_title: 'Programme chair', image_url: squiggle() },
    {
      signatory_name: 'Marco Rossi',
      signatory_title: 'Director, Convene Foundation',
      image_url: 'https://signatures.example/marco.png',
    },
  ],
};

const samples: Record<string, CertificatePdfData> = {
  'two-signatures': base,
  'no-signatures-long-name': {
    ...base,
    holder_name:
      'Maria Guadalupe Fernández de la Concepción Santísima Trinidad Rodríguez-Villanueva y Ortega Bustamante',
    template: {
      ...base.template,
      kind: 'program_attendance',
      design_data: { accent_color: '#7c2d12', subtitle: 'Workshops track' },
    },
    programs: ['Async Rust in Practice', 'Embedded Rust from Scratch', 'Unsafe Code Guidelines'],
    edition: { ...base.edition, ends_at: new Date('2026-04-02T18:00:00Z') },
    signatures: [],
  },
  'five-signatures-dark': {
    ...base,
    template: {
      ...base.template,
      design_data: {
        background_color: '#0f172a',
        title: 'Certificate of Excellence',
        body: 'for outstanding contributions to the conference programme as a volunteer and speaker.',
      },
    },
    signatures: Array.from({ length: 6 }, (_, n) => ({
      signatory_name: [
        'Ana Lima',
        'Marco Rossi',
        'Łucja Żółkiewska',
        'Sir Bartholomew Featherstonehaugh-Wolfeschlegel',
        'Kim',
        'Six',
      ][n]!,
      signatory_title:
        n === 3 ? 'Honorary President of the International Society of Very Long Titles' : 'Organiser',
      image_url: n === 1 ? squiggle() : 'https://x.example/s.png',
    })),
  },
  'world-scripts': {
    ...base,
    holder_name: 'عبد السلام الزهراني',
    template: {
      ...base.template,
      kind: 'program_attendance',
      description: '김민준 · יעל כהן · Γιώργος Παπαδόπουλος',
      design_data: { title: 'Πιστοποιητικό συμμετοχής', subtitle: 'Свидетельство об участии' },
    },
    edition: { ...base.edition, name: 'Весенний выпуск', location_name: '東京' },
    event: { name: 'مؤتمر الربيع 2026' },
    programs: ['日本語セッション', 'Łódź'],
    signatures: [
      {
        signatory_name: 'Łukasz Żółć (田中)',
        signatory_title: 'יעל כהן',
        image_url: 'https://x.example/a.png',
      },
      { signatory_name: 'Юлия Щербакова', signatory_title: '张晓明', image_url: squiggle() },
      {
        signatory_name: 'Nguyễn Thị Minh Khai',
        signatory_title: '山田 さくら',
        image_url: 'https://x.example/b.png',
      },
    ],
  },
  hostile: {
    ...base,
    holder_name: `Maria ${'Guadalupe Fernández de la Concepción '.repeat(200)}Ortega`,
    template: {
      name: 'x',
      description: 'Łódź 東京 🎉 Summit\nline two '.repeat(100),
      kind: 'edition_attendance',
      design_data: { title: 'T'.repeat(500), subtitle: 'S '.repeat(300), accent_color: 'red' },
    },
    edition: { ...base.edition, name: 'E'.repeat(5000), location_name: null },
    programs: Array.from({ length: 20 }, (_, n) => `Program ${n + 1}`),
    signatures: [
      { signatory_name: 'Łucja Żółkiewska 東京', signatory_title: null, image_url: 'javascript:alert(1)' },
      {
        signatory_name: 'Šárka Ždánská',
        signatory_title: 'Treasurer '.repeat(20),
        image_url: 'data:image/png;base64,AAAA',
      },
    ],
  },
};

mkdirSync(outDir, { recursive: true });
for (const [name, data] of Object.entries(samples)) {
  const pdf = await renderCertificatePdf(data);
  writeFileSync(join(outDir, `${name}.pdf`), pdf);
  const png = await (await readPdf(pdf)).png(0, 1.5);
  writeFileSync(join(outDir, `${name}.png`), png);
  console.log(join(outDir, `${name}.png`), `${pdf.length} bytes`);
}
