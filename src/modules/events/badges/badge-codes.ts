/**
 * Badge codes (docs/reference/attendance.md): what a badge's QR code carries, `PUBLIC_BASE_URL/b/<code>`, and
 * what a scanner sends to check the holder in.
 *
 * A code is 43 base64url characters: the emission id (16 bytes) followed by a 128-bit tag,
 * HMAC-SHA256 of the id under a key derived from SECRETS_KEY (HKDF, its own `info`, so the key is
 * used for nothing else), cut to 16 bytes. Only the service can make a code; without the key a
 * valid one cannot be guessed or derived from an id (2^-128 per try), and a forged, truncated or
 * altered code is simply unknown. Nothing is stored: the code is recomputed for printing and
 * checked by recomputing the tag (constant-time comparison), so the database holds neither codes
 * nor anything a code could be derived from, and every emission, old or new, has its code from the
 * moment it exists. The price: a new SECRETS_KEY changes every code, so printed badges must be
 * printed again (ARCHITECTURE.md, "Where this differs").
 */
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

const ID_BYTES = 16;
const TAG_BYTES = 16;
const CODE_LENGTH = 43; // base64url of 32 bytes, unpadded
const CODE_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export interface BadgeCodes {
  /** The code of an emission. */
  codeOf(emissionId: string): string;
  /** `PUBLIC_BASE_URL/b/<code>`: the badge's QR code and print `action_url`. */
  urlOf(emissionId: string): string;
  /**
   * The emission a scanned value names, or null when it is not a code this service made. Takes
   * the code itself or a whole badge URL (`…/b/<code>`, any host, query or fragment ignored).
   */
  emissionIdOf(scanned: string): string | null;
}

export function createBadgeCodes(secretsKey: Buffer, publicBaseUrl: string): BadgeCodes {
  const key = Buffer.from(hkdfSync('sha256', secretsKey, Buffer.alloc(0), 'convene badge codes v1', 32));
  const tagOf = (id: Buffer) => createHmac('sha256', key).update(id).digest().subarray(0, TAG_BYTES);
  const codeOf = (emissionId: string) => {
    const id = Buffer.from(emissionId.replaceAll('-', ''), 'hex');
    return Buffer.concat([id, tagOf(id)]).toString('base64url');
  };
  return {
    codeOf,
    urlOf: (emissionId) => `${publicBaseUrl}/b/${codeOf(emissionId)}`,
    emissionIdOf(scanned) {
      const code = codeFromScan(scanned);
      if (code === null) return null;
      const bytes = Buffer.from(code, 'base64url');
      // The last character carries 2 unused bits: only the canonical spelling of a code is one.
      if (bytes.toString('base64url') !== code) return null;
      const id = bytes.subarray(0, ID_BYTES);
      if (!timingSafeEqual(bytes.subarray(ID_BYTES), tagOf(id))) return null;
      const hex = id.toString('hex');
      return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
    },
  };
}

/** The code in a scanned value: the value itself, or the path segment after `/b/` of a URL. */
function codeFromScan(scanned: string): string | null {
  let value = scanned.trim();
  const marker = value.lastIndexOf('/b/');
  if (marker !== -1) value = value.slice(marker + 3).split(/[/?#]/, 1)[0] ?? '';
  return value.length === CODE_LENGTH && CODE_PATTERN.test(value) ? value : null;
}
