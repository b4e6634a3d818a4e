/**
 * The casing of an alphanumeric `data.id` in a signed notification (docs/reference/webhooks.md step 1).
 * Mercado Pago's guide lower-cases such an id in the manifest; its official SDK validator
 * (`mercadopago` 3.6.1, `WebhookSignatureValidator`) signs it as sent. A notification either one
 * accepts is accepted, end to end (signature, payment fetched, intent moved); a signature over any
 * other casing is 401 and writes nothing.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { expectError } from '../../../../../test/assertions.ts';
import {
  type NotificationSignatureInput,
  signNotification,
} from '../../../../../test/mercadopago-simulator.ts';
import { notificationHelpers, useNotificationsBench, WEBHOOK_SECRET } from './notifications.fixtures.ts';

let idCount = 0;
/** An alphanumeric payment id in mixed case, like `ABC123xyz`, new for each call. */
const mixedCaseId = () => `ABC${process.pid}${++idCount}xyz`;

describe('POST /webhooks/mercadopago: the casing of an alphanumeric data.id', () => {
  const bench = useNotificationsBench();
  const { notify, counts, intentNow, receiptOf, intentWithPayment } = notificationHelpers(bench);

  /** A pending test intent whose transaction id is `paymentId`, approved at the simulator. */
  const intentPaidAs = async (paymentId: string) =>
    (await intentWithPayment({ id: paymentId, status: 'approved' })).intent;

  /** Notifies about `paymentId` (sent as is) with a signature over `signed`. */
  const notifySigned = (paymentId: string, signed: Partial<NotificationSignatureInput>) => {
    const requestId = `req-${paymentId}`;
    const signature = signNotification({ secret: WEBHOOK_SECRET, dataId: paymentId, requestId, ...signed });
    return notify(paymentId, { requestId, signature });
  };

  it('accepts an id signed as sent, as the official SDK validator signs it', async () => {
    const paymentId = mixedCaseId();
    const intent = await intentPaidAs(paymentId);
    const response = await notifySigned(paymentId, { idForm: 'as-sent' });
    assert.equal(response.status, 200, response.text);
    assert.equal(receiptOf(response).outcome, 'applied');
    assert.equal((await intentNow(intent.id)).status, 'succeeded');
  });

  it("accepts an id signed lower-cased, as Mercado Pago's guide says", async () => {
    const paymentId = mixedCaseId();
    const intent = await intentPaidAs(paymentId);
    const response = await notifySigned(paymentId, { idForm: 'lower-cased' });
    assert.equal(response.status, 200, response.text);
    assert.equal(receiptOf(response).outcome, 'applied');
    assert.equal((await intentNow(intent.id)).status, 'succeeded');
  });

  it('refuses an id signed in any other casing (401), writing nothing', async () => {
    const paymentId = mixedCaseId();
    const intent = await intentPaidAs(paymentId);
    const before = await counts();
    const lookups = bench().sim.paymentLookups;
    const otherCasings = [
      paymentId.toUpperCase(),
      `a${paymentId.slice(1)}`, // one letter lowered: neither as sent nor all lower-cased
      paymentId.replace('xyz', 'XYZ'),
    ];
    for (const casing of otherCasings) {
      // Signed as sent over a different casing: the manifest names an id that was not sent.
      expectError(await notifySigned(paymentId, { dataId: casing, idForm: 'as-sent' }), 401, 'UNAUTHORIZED');
    }
    assert.deepEqual(await counts(), before);
    assert.equal(bench().sim.paymentLookups, lookups);
    assert.equal((await intentNow(intent.id)).status, 'pending');
  });
});
