/**
 * Outbound webhook signing per the Standard Webhooks specification (docs/reference/webhooks.md). A secret is
 * `whsec_` + base64 of 32 random bytes; the key is the decoded bytes. During a rotation both the
 * current and the previous secret sign, and the header carries both signatures, space-separated,
 * so a subscriber holding either secret accepts the message.
 */
import { createHmac, randomBytes } from 'node:crypto';

const PREFIX = 'whsec_';

export function newWebhookSecret(): string {
  return `${PREFIX}${randomBytes(32).toString('base64')}`;
}

export interface SignedMessage {
  id: string;
  /** Unix seconds. */
  timestamp: number;
  /** The exact body bytes sent (as a string). */
  body: string;
}

function keyOf(secret: string): Buffer {
  return Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
}

/** The `webhook-signature` header value: one `v1,<base64>` per secret, space-separated. */
export function signWebhook(message: SignedMessage, secrets: string[]): string {
  const content = `${message.id}.${message.timestamp}.${message.body}`;
  return secrets
    .map((secret) => `v1,${createHmac('sha256', keyOf(secret)).update(content, 'utf8').digest('base64')}`)
    .join(' ');
}
