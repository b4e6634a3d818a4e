/**
 * The issuer's DID document, served at `/.well-known/did.json` (docs/reference/attendance.md), which is
 * where a did:web resolver looks for `did:web:<host>`.
 *
 * The key is a `Multikey` verification method (W3C Controlled Identifiers v1.0, "Multikey") with
 * `publicKeyMultibase`: the standard type today, and one that `did-jwt` (what `did-jwt-vc` verifies
 * with) accepts for EdDSA. Of the types did-jwt 8 lists for EdDSA (`ED25519SignatureVerification`,
 * `Ed25519VerificationKey2018`, `Ed25519VerificationKey2020`, `JsonWebKey2020`, `Multikey`), the
 * others are superseded community drafts, and did-jwt does not know the Recommendation's
 * `JsonWebKey` type at all, so Multikey is the one choice that is both current and verifiable there.
 */
import type { IssuerKey } from '../../../../kernel/vc-issuer/issuer-key.ts';

export interface DidVerificationMethod {
  id: string;
  type: 'Multikey';
  controller: string;
  publicKeyMultibase: string;
}

export interface DidDocument {
  '@context': string[];
  id: string;
  verificationMethod: DidVerificationMethod[];
  assertionMethod: string[];
}

/** DID v1.0 core terms, plus the vocabulary that defines `Multikey` and `publicKeyMultibase`. */
const DID_CONTEXT = ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/multikey/v1'];

export function didDocument(key: IssuerKey): DidDocument {
  return {
    '@context': DID_CONTEXT,
    id: key.did,
    verificationMethod: [
      { id: key.kid, type: 'Multikey', controller: key.did, publicKeyMultibase: ed25519Multikey(key) },
    ],
    // Credentials are assertions by the issuer; listing the key here is what lets a verifier that
    // checks the proof purpose (did-jwt's `proofPurpose: 'assertionMethod'`) accept it.
    assertionMethod: [key.kid],
  };
}

/** The multicodec prefix of an Ed25519 public key (`ed25519-pub`, 0xed, as an unsigned varint). */
const ED25519_PUB = [0xed, 0x01];

/**
 * Multikey encoding of an Ed25519 public key: `z` (base58btc) + base58btc(0xed 0x01 || 32 key bytes),
 * which is why every such key starts `z6Mk`.
 */
function ed25519Multikey(key: IssuerKey): string {
  const { x } = key.publicJwk;
  const raw = typeof x === 'string' ? Buffer.from(x, 'base64url') : Buffer.alloc(0);
  if (raw.length !== 32) throw new Error('the issuer key is not an Ed25519 public key');
  return `z${base58btc(Uint8Array.from([...ED25519_PUB, ...raw]))}`;
}

const BASE58_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** Bitcoin base58: the bytes as one big-endian number in base 58, a `1` for each leading zero byte. */
function base58btc(bytes: Uint8Array): string {
  let value = 0n;
  for (const byte of bytes) value = (value << 8n) | BigInt(byte);
  let digits = '';
  while (value > 0n) {
    digits = BASE58_ALPHABET[Number(value % 58n)] + digits;
    value /= 58n;
  }
  const leadingZeros = bytes.findIndex((byte) => byte !== 0);
  return '1'.repeat(leadingZeros === -1 ? bytes.length : leadingZeros) + digits;
}
