/**
 * Inbound provider notifications (docs/reference/webhooks.md, `POST /webhooks/{provider}`): what is refused,
 * and that a refusal reads and writes nothing. A missing, malformed or wrong signature and a timestamp more
 * than five minutes away are 401 before any lookup; an unknown provider 404; no webhook secret 503 (fail
 * closed); malformed JSON 400. Also: the route is public and documented.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { expectError } from '../../../../../test/assertions.ts';
import { createTestApp, type OpenApiDocument } from '../../../../../test/harness.ts';
import { signNotification } from '../../../../../test/mercadopago-simulator.ts';
import { MALFORMED_JSON, simulatorEnv } from '../../payments.fixtures.ts';
import {
  type NotifyOptions,
  notificationBody,
  notificationHelpers,
  useNotificationsBench,
  WEBHOOK_SECRET,
} from './notifications.fixtures.ts';
import type { NotificationReceipt } from './notifications.schemas.ts';
import { providerNotifications } from './notifications.table.ts';

describe('POST /webhooks/{provider}: refusals', () => {
  const bench = useNotificationsBench();
  const { intentWithPayment, notify, counts, intentNow, receiptOf } = notificationHelpers(bench);

  it('refuses a missing, malformed or wrong signature with 401, before any lookup or write', async () => {
    const { sim } = bench();
    const { intent, paymentId } = await intentWithPayment({ status: 'approved' });
    const other = await intentWithPayment({ status: 'approved' });
    const before = await counts();
    const lookups = sim.paymentLookups;
    const ts = Math.floor(Date.now() / 1000);
    const cases: Array<[string, NotifyOptions]> = [
      ['no x-signature', { signature: null }],
      ['an empty x-signature', { signature: '' }],
      ['no v1', { signature: `ts=${ts}` }],
      ['a short v1', { signature: `ts=${ts},v1=abc` }],
      ['a wrong v1', { signature: `ts=${ts},v1=${'0'.repeat(64)}` }],
      ['another secret', { secret: 'not-the-secret' }],
      ['a signature over another payment', { signedId: other.paymentId }],
      [
        'a signature for another request id',
        {
          signature: signNotification({ secret: WEBHOOK_SECRET, dataId: paymentId, requestId: 'other', ts }),
        },
      ],
    ];
    for (const [label, options] of cases) {
      const response = await notify(paymentId, options);
      assert.equal(response.status, 401, `${label}: ${response.text}`);
      expectError(response, 401, 'UNAUTHORIZED');
    }
    // The query's data.id is the one checked (and acted on): a signature over the body's id does
    // not cover it.
    expectError(
      await notify(paymentId, {
        body: notificationBody(other.paymentId),
        signedId: other.paymentId,
      }),
      401,
      'UNAUTHORIZED',
    );
    assert.deepEqual(await counts(), before);
    assert.equal(sim.paymentLookups, lookups);
    assert.equal((await intentNow(intent.id)).status, 'pending');
    assert.equal((await intentNow(other.intent.id)).status, 'pending');
  });

  it('refuses a ts more than five minutes from now, in seconds or milliseconds (401)', async () => {
    const { intent, paymentId } = await intentWithPayment({ status: 'approved' });
    const before = await counts();
    const now = Date.now();
    for (const ts of [
      Math.floor(now / 1000) - 6 * 60,
      Math.floor(now / 1000) + 6 * 60,
      now - 6 * 60_000,
      now + 6 * 60_000,
    ]) {
      const error = expectError(await notify(paymentId, { ts }), 401, 'UNAUTHORIZED');
      assert.match(error.message, /5 minutes/);
    }
    assert.deepEqual(await counts(), before);
    assert.equal((await intentNow(intent.id)).status, 'pending');
    // Four minutes ago is within the window.
    assert.equal(
      receiptOf(await notify(paymentId, { ts: Math.floor(now / 1000) - 4 * 60 })).outcome,
      'applied',
    );
  });

  it('answers 404 for an unknown provider, recording nothing', async () => {
    const { paymentId } = await intentWithPayment({ status: 'approved' });
    const before = await counts();
    for (const provider of ['stripe', 'MercadoPago']) {
      const response = await notify(paymentId, { provider });
      expectError(response, 404, 'NOT_FOUND');
      assert.equal(response.body.module, 'payments');
    }
    assert.deepEqual(await counts(), before);
  });

  it('refuses malformed JSON (400) and a body of the wrong shape (400)', async () => {
    const { t } = bench();
    const { paymentId } = await intentWithPayment({ status: 'approved' });
    const before = await counts();
    const headers = {
      'x-request-id': 'r',
      'x-signature': signNotification({ secret: WEBHOOK_SECRET, dataId: paymentId, requestId: 'r' }),
    };
    const url = `/webhooks/mercadopago?data.id=${paymentId}&type=payment`;
    const malformed = await t.post<NotificationReceipt>(url, {
      headers,
      payload: MALFORMED_JSON,
      contentType: 'application/json',
    });
    expectError(malformed, 400, 'BAD_REQUEST');
    assert.equal(malformed.body.module, 'payments');
    expectError(
      await t.post<NotificationReceipt>(url, { headers, body: { type: 42 } }),
      400,
      'VALIDATION_ERROR',
    );
    expectError(await t.post<NotificationReceipt>(url, { headers, body: [1, 2] }), 400, 'VALIDATION_ERROR');
    assert.deepEqual(await counts(), before);
  });

  it('answers 503 without MERCADOPAGO_WEBHOOK_SECRET (fail closed), recording nothing', async () => {
    const { sim } = bench();
    const bare = await createTestApp(simulatorEnv(sim));
    try {
      const response = await bare.post('/webhooks/mercadopago?data.id=1&type=payment', {
        headers: {
          'x-request-id': 'r',
          'x-signature': signNotification({ secret: WEBHOOK_SECRET, dataId: '1', requestId: 'r' }),
        },
        body: notificationBody('1'),
      });
      const error = expectError(response, 503, 'SERVICE_UNAVAILABLE');
      assert.match(error.message, /MERCADOPAGO_WEBHOOK_SECRET/);
      assert.equal(await bare.db.$count(providerNotifications), 0);
    } finally {
      await bare.close();
    }
  });

  it('is public and documented with its outcomes', async () => {
    const { t } = bench();
    const doc = JSON.parse((await t.get('/docs/openapi.json')).text) as OpenApiDocument;
    const operation = doc.paths['/webhooks/{provider}'].post;
    // Public, said explicitly: no security requirement.
    assert.deepEqual(operation.security, []);
    assert.match(operation.description ?? '', /503/);
    const example = operation.responses['200']?.content?.['application/json']?.example as
      | { data: NotificationReceipt }
      | undefined;
    assert.equal(example?.data.outcome, 'applied');
    assert.ok(operation.responses['401'] && operation.responses['502'] && operation.responses['503']);
  });
});
