/**
 * Mercado Pago notification signatures (docs/reference/webhooks.md step 1), pure: no I/O, the clock passed
 * in.
 *
 * Mercado Pago sends `x-signature: ts=<ts>,v1=<hex>` and `x-request-id`; `v1` is the hex
 * HMAC-SHA256, keyed with the application's webhook secret, of the manifest
 * `id:<data.id>;request-id:<x-request-id>;ts:<ts>;`. As its documentation prescribes, a part whose
 * value the notification lacks is left out of the manifest. An alphanumeric `data.id` is
 * lower-cased by the guide, while the official SDK's validator (`mercadopago` 3.6.1,
 * `WebhookSignatureValidator`) signs it as sent; either form is accepted (docs/reference/webhooks.md), no
 * other casing. The resource id the service later acts on is the one signed here, so a notification cannot be
 * pointed at another payment without the secret. `ts` bounds replays: one more than five minutes away from
 * now is refused (Mercado Pago has sent it in seconds and in milliseconds).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** How far `ts` may be from now, either way. */
export const SIGNATURE_TOLERANCE_MS = 5 * 60_000;

/** Timestamps at or above this are milliseconds (as seconds it would be the year 5138). */
const MILLISECONDS_FROM = 100_000_000_000;

export interface SignedNotification {
  /** The `x-signature` header as received. */
  signature: string | undefined;
  /** The `x-request-id` header. */
  requestId: string | undefined;
  /** `data.id` as received (query string, else body). */
  dataId: string | undefined;
}

export type SignatureVerdict =
  | { ok: true }
  | { ok: false; reason: 'missing' | 'malformed' | 'expired' | 'mismatch' };

export interface SignatureHeader {
  ts: string;
  v1: string;
}

/** `ts=<digits>,v1=<64 hex>` in any order, spaces tolerated; undefined when either is absent or malformed. */
export function parseSignatureHeader(header: string): SignatureHeader | undefined {
  const parts = new Map<string, string>();
  for (const part of header.split(',')) {
    const at = part.indexOf('=');
    if (at === -1) continue;
    const key = part.slice(0, at).trim();
    if (!parts.has(key)) parts.set(key, part.slice(at + 1).trim());
  }
  const ts = parts.get('ts');
  const v1 = parts.get('v1');
  if (ts === undefined || !/^\d{1,16}$/.test(ts)) return undefined;
  if (v1 === undefined || !/^[0-9a-fA-F]{64}$/.test(v1)) return undefined;
  return { ts, v1: v1.toLowerCase() };
}

/** How `data.id` enters the manifest: lower-cased when alphanumeric (the guide), or as sent (the SDK). */
export type IdForm = 'lower-cased' | 'as-sent';

/** Both forms, each always tried: see `verifyMercadoPagoSignature`. */
const ID_FORMS: readonly IdForm[] = ['lower-cased', 'as-sent'];

/** The signed manifest; absent values leave their part out, the id is in the form asked. */
export function signatureManifest(
  input: { dataId?: string | undefined; requestId?: string | undefined; ts: string },
  idForm: IdForm = 'lower-cased',
) {
  const id =
    idForm === 'lower-cased' && input.dataId !== undefined && /^[0-9a-zA-Z]+$/.test(input.dataId)
      ? input.dataId.toLowerCase()
      : input.dataId;
  return (
    (id === undefined || id === '' ? '' : `id:${id};`) +
    (input.requestId === undefined || input.requestId === '' ? '' : `request-id:${input.requestId};`) +
    `ts:${input.ts};`
  );
}

/** `ts` in milliseconds, whichever unit it was sent in. */
export function timestampMs(ts: string): number {
  const value = Number(ts);
  return value >= MILLISECONDS_FROM ? value : value * 1000;
}

export function verifyMercadoPagoSignature(
  secret: string,
  notification: SignedNotification,
  now: number,
): SignatureVerdict {
  if (notification.signature === undefined || notification.signature.trim() === '') {
    return { ok: false, reason: 'missing' };
  }
  const header = parseSignatureHeader(notification.signature);
  if (header === undefined) return { ok: false, reason: 'malformed' };
  // The clock first: it is cheaper than the HMAC and refuses a replayed capture outright.
  if (Math.abs(now - timestampMs(header.ts)) > SIGNATURE_TOLERANCE_MS) {
    return { ok: false, reason: 'expired' };
  }
  // Every form is computed and compared, whatever the id and whichever matches (the same HMACs and
  // compares for every request; the results are combined without short-circuit), so the time taken
  // tells nothing about which form, if any, the signature covers. Both digests are 32 bytes (the
  // header was checked to hold 64 hex digits), as timingSafeEqual requires.
  const given = Buffer.from(header.v1, 'hex');
  let matches = 0;
  for (const form of ID_FORMS) {
    const manifest = signatureManifest({ ...notification, ts: header.ts }, form);
    const expected = createHmac('sha256', secret).update(manifest, 'utf8').digest();
    matches |= Number(timingSafeEqual(expected, given));
  }
  return matches === 1 ? { ok: true } : { ok: false, reason: 'mismatch' };
}
