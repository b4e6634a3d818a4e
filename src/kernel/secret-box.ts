/**
 * Encryption at rest with SECRETS_KEY (AES-256-GCM): provider credentials, PKCE verifiers, webhook
 * signing secrets and the answers kept for Idempotency-Key. A sealed value is
 * `v1.<iv>.<ciphertext>.<tag>` in base64url: a fresh 12-byte IV per value, and the tag makes any
 * tampering or a wrong key an error rather than garbage.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

export function seal(key: Buffer, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v1', iv, ciphertext, cipher.getAuthTag()]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}

export function open(key: Buffer, sealed: string): string {
  const [version, iv, ciphertext, tag] = sealed.split('.');
  if (version !== 'v1' || iv === undefined || ciphertext === undefined || tag === undefined) {
    throw new Error('not a sealed value');
  }
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString(
    'utf8',
  );
}
