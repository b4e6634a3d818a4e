/**
 * The PNG checks in front of pdfkit (kernel/pdf/png.ts): what a canvas writes passes; anything
 * pdfkit would misdraw, choke on asynchronously (and so crash the process) or spend memory on is
 * refused. The crafted files are built chunk by chunk here so each case breaks one thing.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { crc32, deflateSync } from 'node:zlib';
import { createCanvas } from '@napi-rs/canvas';
import PDFDocument from 'pdfkit';
import { collectPdf } from './document.ts';
import { checkPng, pngFromDataUrl } from './png.ts';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Buffer, badCrc = false): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE((crc32(body) + (badCrc ? 1 : 0)) >>> 0);
  return Buffer.concat([length, body, crc]);
}

interface Shape {
  width?: number;
  height?: number;
  bitDepth?: number;
  colorType?: number;
  interlace?: number;
  /** Raw scanlines (filter byte + samples); default all filter 0 and zero samples. */
  rows?: Buffer;
  idat?: Buffer;
  extra?: Buffer[];
  badCrc?: boolean;
  noEnd?: boolean;
}

function png(shape: Shape = {}): Buffer {
  const { width = 4, height = 3, bitDepth = 8, colorType = 6, interlace = 0 } = shape;
  const channels = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 }[colorType] ?? 4;
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([bitDepth, colorType, 0, 0, interlace], 8);
  const rows = shape.rows ?? Buffer.alloc((1 + width * channels) * height);
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', header, shape.badCrc),
    ...(shape.extra ?? []),
    chunk('IDAT', shape.idat ?? deflateSync(rows)),
    ...(shape.noEnd ? [] : [chunk('IEND', Buffer.alloc(0))]),
  ]);
}

const dataUrl = (bytes: Buffer) => `data:image/png;base64,${bytes.toString('base64')}`;

describe('PNG checks', () => {
  it('accepts what a canvas writes, and reads its size', () => {
    const canvas = createCanvas(120, 40);
    const context = canvas.getContext('2d');
    context.fillRect(10, 10, 50, 5);
    const checked = pngFromDataUrl(dataUrl(canvas.toBuffer('image/png')));
    assert.ok(checked !== null);
    assert.equal(checked.width, 120);
    assert.equal(checked.height, 40);
  });

  it('accepts 8-bit grey, RGB, grey + alpha, RGBA and palette images', () => {
    for (const colorType of [0, 2, 4, 6]) assert.ok(checkPng(png({ colorType })), `colour type ${colorType}`);
    const palette = chunk('PLTE', Buffer.from([0, 0, 0, 255, 255, 255]));
    const transparency = chunk('tRNS', Buffer.from([0, 255]));
    assert.ok(checkPng(png({ colorType: 3, extra: [palette] })));
    assert.ok(checkPng(png({ colorType: 3, extra: [palette, transparency] })));
  });

  it('passes only files pdfkit embeds: every accepted shape renders', async () => {
    const palette = chunk('PLTE', Buffer.from([0, 0, 0, 255, 255, 255]));
    const transparency = chunk('tRNS', Buffer.from([0, 255]));
    const shapes = [0, 2, 4, 6].map((colorType) => png({ colorType }));
    shapes.push(png({ colorType: 3, extra: [palette, transparency] }));
    for (const file of shapes) {
      const checked = checkPng(file);
      assert.ok(checked);
      const doc = new PDFDocument({ size: 'A6' });
      const done = collectPdf(doc);
      doc.image(checked.bytes, 10, 10, { fit: [100, 40] });
      doc.end();
      assert.match((await done).toString('latin1'), /\/Subtype \/Image/);
    }
  });

  it('refuses what is not a PNG data URL', () => {
    const good = dataUrl(png());
    for (const url of [
      undefined,
      42,
      '',
      'https://example.com/signature.png',
      'javascript:alert(1)',
      good.replace('image/png', 'image/svg+xml'),
      `data:image/png;base64,${Buffer.from('GIF89a not a png at all').toString('base64')}`,
      `${good.slice(0, 40)}!!${good.slice(40)}`, // Buffer.from would skip the bad characters
      'data:image/png;base64,',
    ]) {
      assert.equal(pngFromDataUrl(url), null, String(url).slice(0, 60));
    }
    assert.ok(pngFromDataUrl(good.replace('data:image/png', 'DATA:image/PNG')));
  });

  it('refuses broken files: bad CRC, truncated, no IEND, corrupt or short image data, unknown filters', () => {
    const bytes = png();
    const cases: Record<string, Buffer> = {
      'bad CRC': png({ badCrc: true }),
      truncated: bytes.subarray(0, bytes.length - 20),
      'no IEND': png({ noEnd: true }),
      'corrupt deflate': png({ idat: Buffer.from([0x78, 0x9c, 1, 2, 3, 4, 5, 6]) }),
      'too little data': png({ rows: Buffer.alloc(10) }),
      'too much data': png({ rows: Buffer.alloc(1000) }),
      'filter 5': png({ rows: Buffer.concat([Buffer.from([5]), Buffer.alloc(16 + 17 * 2)]) }),
      'chunk before IHDR': Buffer.concat([SIGNATURE, chunk('tEXt', Buffer.from('a\0b')), bytes.subarray(8)]),
    };
    for (const [name, file] of Object.entries(cases)) assert.equal(checkPng(file), null, name);
  });

  it('refuses shapes pdfkit misdraws: 16-bit, interlaced, a palette on RGB, tRNS on RGB', () => {
    const palette = chunk('PLTE', Buffer.from([0, 0, 0]));
    assert.equal(checkPng(png({ bitDepth: 16, colorType: 2, rows: Buffer.alloc((1 + 4 * 6) * 3) })), null);
    assert.equal(checkPng(png({ interlace: 1 })), null);
    assert.equal(checkPng(png({ colorType: 2, extra: [palette] })), null);
    assert.equal(checkPng(png({ colorType: 2, extra: [chunk('tRNS', Buffer.alloc(6))] })), null);
    assert.equal(checkPng(png({ colorType: 3 })), null, 'a palette image needs its palette');
  });

  it('refuses images too large to inflate, whatever their compressed size', () => {
    // 3000 x 3000 zero pixels deflate to a few kilobytes but would take 36 MB.
    assert.equal(checkPng(png({ width: 3000, height: 3000 })), null);
    assert.equal(checkPng(png({ width: 5000, height: 1 })), null);
    assert.equal(checkPng(png(), { maxBytes: 50, maxSide: 4096, maxPixels: 1000 }), null);
  });
});
