/**
 * A signature's image is normalised once, when it is given: a PNG of any accepted size is stored
 * scaled down to fit 600 x 200 px and re-encoded as a compact 8-bit PNG, so that drawing it on
 * certificates is cheap. A PNG that cannot be read is refused (400) and nothing is stored.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { PNG } from 'pngjs';
import { expectOk } from '../../../../test/assertions.ts';
import { hostileSignaturePng, signaturePng } from '../../../../test/pdf.ts';
import {
  expectInvalid,
  PNG_DATA_URL,
  pngDataUrl,
  pngHeader,
  signatureHelpers,
  useWorld,
} from './signatures.fixtures.ts';

describe('signature images', () => {
  const w = useWorld();
  const h = signatureHelpers(() => w);

  it('stores a hostile-size PNG scaled to fit 600 x 200 and re-encoded', async () => {
    const planted = pngDataUrl(hostileSignaturePng(614));
    const given = pngHeader(planted);
    assert.ok(given.bytes > 400 * 1024, `the planted image is large (${given.bytes} bytes)`);
    const created = await h.createRequest();
    const signature = expectOk(await h.fulfil(created.token, planted), 201);
    const stored = (await h.storedSignature(signature.id)).image_url;
    assert.equal(signature.image_url, stored, 'the answer shows what is stored');
    const header = pngHeader(stored);
    assert.deepEqual(
      { width: header.width, height: header.height, bitDepth: header.bitDepth },
      { width: 200, height: 200, bitDepth: 8 },
      'scaled down, aspect kept, to fit 600 x 200',
    );
    assert.ok([0, 2, 4, 6].includes(header.colorType!), `grey or colour, no palette (${header.colorType})`);
    assert.deepEqual(
      header.chunks.filter((type) => !['IHDR', 'IDAT', 'IEND'].includes(type)),
      [],
      'only the image',
    );
    assert.ok(header.bytes < given.bytes / 3, `smaller (${header.bytes} of ${given.bytes} bytes)`);
    // Still the same picture: the mean opacity of noise survives averaging.
    const decoded = PNG.sync.read(Buffer.from(stored.slice('data:image/png;base64,'.length), 'base64'));
    let alpha = 0;
    for (let i = 3; i < decoded.data.length; i += 4) alpha += decoded.data[i]!;
    const mean = alpha / (decoded.width * decoded.height);
    assert.ok(mean > 85 && mean < 106, `the mean opacity is kept (${mean.toFixed(1)})`);
  });

  it('keeps a pad-sized signature at its size and its colour, and a wide one in the box', async () => {
    const pad = pngDataUrl(await signaturePng()); // 240 x 80, a slate stroke on transparency
    const small = expectOk(await h.fulfil((await h.createRequest()).token, pad), 201);
    assert.deepEqual(
      (({ width, height, colorType }) => ({ width, height, colorType }))(pngHeader(small.image_url)),
      { width: 240, height: 80, colorType: 6 },
    );
    const wide = new PNG({ width: 1800, height: 300 });
    wide.data.fill(0);
    for (let i = 0; i < wide.data.length; i += 4 * 7) wide.data[i + 3] = 255; // black dots
    const given = pngDataUrl(PNG.sync.write(wide, { colorType: 6 }));
    const stored = expectOk(await h.fulfil((await h.createRequest()).token, given), 201);
    const header = pngHeader(stored.image_url);
    assert.deepEqual(
      { width: header.width, height: header.height, colorType: header.colorType },
      { width: 600, height: 100, colorType: 4 },
      'black ink on transparency: grey + alpha',
    );
  });

  it('refuses a PNG it cannot read (400 image_url) and stores nothing', async () => {
    const interlaced = Buffer.from(PNG_DATA_URL.slice('data:image/png;base64,'.length), 'base64');
    interlaced[28] = 1; // IHDR interlace method: Adam7 (its CRC is now wrong too)
    const sixteenBit = PNG.sync.write(Object.assign(new PNG({ width: 4, height: 4 }), {}), {
      colorType: 6,
      bitDepth: 16,
    });
    for (const [label, png] of [
      ['a broken header', interlaced],
      ['16 bits per channel', sixteenBit],
    ] as const) {
      const created = await h.createRequest();
      expectInvalid(await h.fulfil(created.token, pngDataUrl(png)), label, 'image_url');
      assert.equal((await h.storedRequest(created.id)).status, 'pending', `${label}: still pending`);
      assert.equal(
        await h.count(sql`select count(*)::int as n from signatures where request_id = ${created.id}`),
        0,
      );
    }
  });
});
