/**
 * The mails of a paid registration (docs/mail.md), through the Mercado Pago simulator and a real SMTP
 * server: the confirmation carries what was paid and the payment reference, and a refund tells the
 * holder the amount, the organiser's reason and what happened to the ticket.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectOk } from '../../../../test/assertions.ts';
import { type SmtpSink, startSmtpSink } from '../../../../test/smtp-sink.ts';
import { checkoutHelpers, useCheckoutBench } from '../registrations/checkout.fixtures.ts';
import { mailTo } from './mails.fixtures.ts';

/** A checkout bench sending its mail to a local SMTP server; `env` is added to the app's. */
function useMailedCheckout(env: Record<string, string> = {}) {
  let sink: SmtpSink;
  before(async () => {
    sink = await startSmtpSink();
  });
  after(() => sink.close());
  const bench = useCheckoutBench({
    get MAIL_URL() {
      return sink.url;
    },
    ...env,
  });
  /** The first mail to `to` whose subject matches (mails.fixtures.ts `mailTo`), explained if it never comes. */
  const mailFor = (to: string, subject: RegExp, timeoutMs?: number) =>
    mailTo(sink, to, subject, { timeoutMs, db: bench().t.db });
  return { bench, fx: checkoutHelpers(bench), mailFor };
}

describe('the mails of a paid registration', () => {
  const { bench, fx, mailFor } = useMailedCheckout();

  it('registration_confirmed shows the amount and the payment reference; refund_issued the refund', async () => {
    const { registration, payer } = await fx.paidRegistration();
    const confirmed = await mailFor(payer.email, /You are registered/);
    assert.match(confirmed.text ?? '', /R\$\s?50\.50/);
    assert.ok(
      (confirmed.text ?? '').includes(registration.intent_id ?? 'no intent'),
      'the payment reference',
    );

    const { t, admin } = bench();
    expectOk(
      await t.post(`/registrations/${registration.id}/refund`, {
        token: admin.token,
        body: { reason: 'Workshop cancelled' },
      }),
    );
    const refund = await mailFor(payer.email, /Refund issued/);
    assert.match(refund.text ?? '', /R\$\s?50\.50 was refunded/);
    assert.match(refund.text ?? '', /Workshop cancelled/);
    assert.match(refund.text ?? '', /no longer admits you/);
  });
});

describe('a paid registration wakes the mail sender', () => {
  // The job runner's own look (and so the sender's) comes a minute apart here: only the wake-up
  // after the provider's notification is applied sends the confirmation at once.
  const { fx, mailFor } = useMailedCheckout({ JOBS_POLL_MS: '60000' });

  it('sends the confirmation once the payment is applied, not at the next poll', async () => {
    const { payer } = await fx.paidRegistration();
    await mailFor(payer.email, /You are registered/, 5_000);
  });
});
