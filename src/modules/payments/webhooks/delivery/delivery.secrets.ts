/**
 * The signing secrets of an attempt, unsealed once and remembered: opening a sealed secret is an
 * AES-GCM decryption per attempt otherwise. Bounded (`lru-cache`); keyed by the sealed text, so a
 * rotated secret is a new key and the old entry simply ages out.
 */
import { LRUCache } from 'lru-cache';
import { open } from '../../../../kernel/secret-box.ts';
import type { ClaimedDelivery } from './delivery-queue.repository.ts';

const SECRET_CACHE_LIMIT = 1_000;

export class SigningSecrets {
  private readonly unsealed = new LRUCache<string, string>({ max: SECRET_CACHE_LIMIT });

  constructor(private readonly secretsKey: Buffer | undefined) {}

  /** The current secret, plus the previous one while its rotation window lasts (docs/reference/payments.md). */
  of(delivery: ClaimedDelivery, now = Date.now()): string[] {
    const secrets = [this.unseal(delivery.secret)];
    const expires = delivery.previous_secret_expires_at;
    if (delivery.previous_secret !== null && expires !== null && new Date(expires).getTime() > now) {
      secrets.push(this.unseal(delivery.previous_secret));
    }
    return secrets;
  }

  private unseal(sealed: string): string {
    let secret = this.unsealed.get(sealed);
    if (secret === undefined) {
      if (this.secretsKey === undefined) throw new Error('SECRETS_KEY is not configured');
      secret = open(this.secretsKey, sealed);
      this.unsealed.set(sealed, secret);
    }
    return secret;
  }
}
