/**
 * Mercado Pago notification signatures: the header format, the manifest (absent parts left out,
 * alphanumeric ids lower-cased as the guide says, or as sent as the official SDK validator signs),
 * the five-minute window in seconds or milliseconds, and the HMAC against vectors computed outside
 * Node (`openssl dgst -sha256 -hmac`).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  parseSignatureHeader,
  SIGNATURE_TOLERANCE_MS,
  signatureManifest,
  timestampMs,
  verifyMercadoPagoSignature,
} from './mercadopago.signature.ts';

const SECRET = 'mp-webhook-secret';
const REQUEST_ID = 'bb56a2f1-6aae-46ac-982e-9dcd3581d08e';
const TS = '1763805600';
const NOW = 1_763_805_600_000;
// printf 'id:1234567890;request-id:<REQUEST_ID>;ts:1763805600;' | openssl dgst -sha256 -hmac "$SECRET"
const V1 = '4b6601aa6925ccf7094d3bda70a38cf0cbb1df5648e85e433561d61dc4ac93a3';
// printf 'id:abc123def;request-id:<REQUEST_ID>;ts:1763805600000;' | openssl dgst …
const V1_MS_ALNUM = 'f284b9e77b44621ac2330ddd5b4955ca546cbe8f308c2f9d1b8c9fd7e9acf1fd';
// printf 'ts:1763805600;' | openssl dgst …
const V1_TS_ONLY = 'cc1d4ba088decf4fa85087714dea3de3fc2fffa15a4b56ace7472c2ec1cd89fa';
// printf 'id:<id>;request-id:<REQUEST_ID>;ts:1763805600;' | openssl dgst …, for an alphanumeric id
// as sent (what mercadopago 3.6.1's WebhookSignatureValidator signs, and accepts), lower-cased (the
// guide's form) and in some other casing (neither form).
const ALNUM_ID = 'ABC123xyz';
const V1_AS_SENT = 'f91e370983fb0fd684d9e74354f959c726dcb4c39f898d98a8b30b151202bcb9';
const V1_LOWER_CASED = 'fefd9d9a12594aa95c6dda9bd62e844813d7fcef00842526281c74c21b0f1e9b';
const V1_OTHER_CASING = '029e09bb4236de59ac114c62086a355ccfc7b4f881c3d1e59380d87ff87abcb8'; // Abc123XYZ

const verify = (
  signature: string | undefined,
  dataId: string | undefined,
  now = NOW,
  requestId = REQUEST_ID,
) => verifyMercadoPagoSignature(SECRET, { signature, requestId, dataId }, now);

describe('mercadopago signature header', () => {
  it('reads ts and v1 in any order, with spaces, lower-casing the hex', () => {
    assert.deepEqual(parseSignatureHeader(`ts=${TS},v1=${V1}`), { ts: TS, v1: V1 });
    assert.deepEqual(parseSignatureHeader(` v1=${V1.toUpperCase()} , ts=${TS} `), { ts: TS, v1: V1 });
    assert.deepEqual(parseSignatureHeader(`ts=${TS},v1=${V1},v2=zzz`), { ts: TS, v1: V1 });
  });

  it('refuses a header without ts or v1, or with malformed values', () => {
    for (const header of [
      '',
      `ts=${TS}`,
      `v1=${V1}`,
      `ts=,v1=${V1}`,
      `ts=12a,v1=${V1}`,
      `ts=-5,v1=${V1}`,
      `ts=${'9'.repeat(17)},v1=${V1}`,
      `ts=${TS},v1=${V1.slice(1)}`,
      `ts=${TS},v1=${V1}00`,
      `ts=${TS},v1=${'g'.repeat(64)}`,
      `ts ${TS} v1 ${V1}`,
    ]) {
      assert.equal(parseSignatureHeader(header), undefined, header);
    }
  });
});

describe('mercadopago signature manifest', () => {
  it('is id, request-id and ts, each ended by a semicolon', () => {
    assert.equal(
      signatureManifest({ dataId: '1234567890', requestId: REQUEST_ID, ts: TS }),
      `id:1234567890;request-id:${REQUEST_ID};ts:${TS};`,
    );
  });

  it('lower-cases an alphanumeric id only', () => {
    assert.equal(signatureManifest({ dataId: 'ABC123def', ts: TS }), `id:abc123def;ts:${TS};`);
    assert.equal(signatureManifest({ dataId: 'ABC-123', ts: TS }), `id:ABC-123;ts:${TS};`);
  });

  it('keeps the id as sent in the SDK form', () => {
    assert.equal(signatureManifest({ dataId: 'ABC123def', ts: TS }, 'as-sent'), `id:ABC123def;ts:${TS};`);
    assert.equal(signatureManifest({ dataId: 'ABC-123', ts: TS }, 'as-sent'), `id:ABC-123;ts:${TS};`);
  });

  it('leaves out the parts the notification lacks', () => {
    assert.equal(signatureManifest({ requestId: REQUEST_ID, ts: TS }), `request-id:${REQUEST_ID};ts:${TS};`);
    assert.equal(signatureManifest({ dataId: '', requestId: '', ts: TS }), `ts:${TS};`);
  });

  it('takes ts in seconds or in milliseconds', () => {
    assert.equal(timestampMs('1763805600'), NOW);
    assert.equal(timestampMs('1763805600000'), NOW);
    assert.equal(timestampMs('0'), 0);
  });
});

describe('mercadopago signature verification', () => {
  it('accepts the signature Mercado Pago computes', () => {
    assert.deepEqual(verify(`ts=${TS},v1=${V1}`, '1234567890'), { ok: true });
    assert.deepEqual(verify(`ts=${TS}000,v1=${V1_MS_ALNUM}`, 'ABC123DEF'), { ok: true });
    assert.deepEqual(verify(`ts=${TS},v1=${V1_TS_ONLY}`, undefined, NOW, ''), { ok: true });
  });

  it('accepts an alphanumeric id signed as sent (the SDK) or lower-cased (the guide), no other casing', () => {
    assert.deepEqual(verify(`ts=${TS},v1=${V1_AS_SENT}`, ALNUM_ID), { ok: true });
    assert.deepEqual(verify(`ts=${TS},v1=${V1_LOWER_CASED}`, ALNUM_ID), { ok: true });
    const mismatch = { ok: false, reason: 'mismatch' };
    assert.deepEqual(verify(`ts=${TS},v1=${V1_OTHER_CASING}`, ALNUM_ID), mismatch);
    // A signature over the id as sent covers that casing only: sent lower-cased, it is refused.
    assert.deepEqual(verify(`ts=${TS},v1=${V1_AS_SENT}`, ALNUM_ID.toLowerCase()), mismatch);
    assert.deepEqual(verify(`ts=${TS},v1=${V1_LOWER_CASED}`, ALNUM_ID.toLowerCase()), { ok: true });
  });

  it('refuses a missing or malformed header', () => {
    assert.deepEqual(verify(undefined, '1234567890'), { ok: false, reason: 'missing' });
    assert.deepEqual(verify('  ', '1234567890'), { ok: false, reason: 'missing' });
    assert.deepEqual(verify(`v1=${V1}`, '1234567890'), { ok: false, reason: 'malformed' });
  });

  it('refuses a signature over anything else: id, request id, ts or secret', () => {
    const mismatch = { ok: false, reason: 'mismatch' };
    assert.deepEqual(verify(`ts=${TS},v1=${V1}`, '1234567891'), mismatch);
    assert.deepEqual(verify(`ts=${TS},v1=${V1}`, undefined), mismatch);
    assert.deepEqual(verify(`ts=${TS},v1=${V1}`, '1234567890', NOW, 'another-request'), mismatch);
    assert.deepEqual(verify(`ts=${Number(TS) + 1},v1=${V1}`, '1234567890'), mismatch);
    assert.deepEqual(
      verifyMercadoPagoSignature(
        'another-secret',
        { signature: `ts=${TS},v1=${V1}`, requestId: REQUEST_ID, dataId: '1234567890' },
        NOW,
      ),
      mismatch,
    );
  });

  it('accepts ts up to five minutes either side of now and refuses beyond', () => {
    const header = `ts=${TS},v1=${V1}`;
    assert.deepEqual(verify(header, '1234567890', NOW + SIGNATURE_TOLERANCE_MS), { ok: true });
    assert.deepEqual(verify(header, '1234567890', NOW - SIGNATURE_TOLERANCE_MS), { ok: true });
    const expired = { ok: false, reason: 'expired' };
    assert.deepEqual(verify(header, '1234567890', NOW + SIGNATURE_TOLERANCE_MS + 1), expired);
    assert.deepEqual(verify(header, '1234567890', NOW - SIGNATURE_TOLERANCE_MS - 1), expired);
    assert.deepEqual(verify(header, '1234567890', NOW + 6 * 60_000), expired);
  });
});
