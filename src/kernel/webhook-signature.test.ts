/** The signer is checked against the official Standard Webhooks verifier, not against itself. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { newWebhookSecret, signWebhook } from './webhook-signature.ts';

const now = () => Math.floor(Date.now() / 1000);

function headersOf(id: string, timestamp: number, signature: string) {
  return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signature };
}

describe('webhook signature', () => {
  it('makes whsec_ secrets of 32 random bytes', () => {
    const secret = newWebhookSecret();
    assert.match(secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    assert.equal(Buffer.from(secret.slice(6), 'base64').length, 32);
    assert.notEqual(newWebhookSecret(), secret);
  });

  it('is accepted by the standardwebhooks verifier for each of two signing secrets', () => {
    const current = newWebhookSecret();
    const previous = newWebhookSecret();
    const body = JSON.stringify({ type: 'payment.succeeded', data: { amount_cents: 5000, note: 'ção' } });
    const timestamp = now();
    const signature = signWebhook({ id: 'msg_1', timestamp, body }, [current, previous]);
    assert.equal(signature.split(' ').length, 2);
    for (const secret of [current, previous]) {
      assert.deepEqual(
        new Webhook(secret).verify(body, headersOf('msg_1', timestamp, signature)),
        JSON.parse(body),
      );
    }
    // A secret that did not sign is refused.
    assert.throws(() =>
      new Webhook(newWebhookSecret()).verify(body, headersOf('msg_1', timestamp, signature)),
    );
  });

  it('matches the reference signer byte for byte', () => {
    const secret = newWebhookSecret();
    const timestamp = now();
    const expected = new Webhook(secret).sign('msg_2', new Date(timestamp * 1000), '{"a":1}');
    assert.equal(signWebhook({ id: 'msg_2', timestamp, body: '{"a":1}' }, [secret]), expected);
  });

  it('is refused for a tampered body, another id, or a stale timestamp', () => {
    const secret = newWebhookSecret();
    const body = '{"type":"payment.succeeded"}';
    const timestamp = now();
    const signature = signWebhook({ id: 'msg_3', timestamp, body }, [secret]);
    const verifier = new Webhook(secret);
    assert.throws(() =>
      verifier.verify('{"type":"payment.refunded"}', headersOf('msg_3', timestamp, signature)),
    );
    assert.throws(() => verifier.verify(body, headersOf('msg_4', timestamp, signature)));
    const stale = now() - 3600;
    const staleSignature = signWebhook({ id: 'msg_3', timestamp: stale, body }, [secret]);
    assert.throws(() => verifier.verify(body, headersOf('msg_3', stale, staleSignature)), /timestamp/i);
  });
});
