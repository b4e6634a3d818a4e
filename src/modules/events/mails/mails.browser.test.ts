/**
 * The five mails as a person sees them, in Chromium (docs/mail.md): each kind, caused through the API
 * (a paid registration refunded through the Mercado Pago simulator among them)
 * and kept by the development mailbox, opened as its HTML part with its inline image loaded, with no
 * serious accessibility problem (axe-core) and no console error. With `SCREENSHOTS=docs/screenshots`
 * each is saved as `mail-<kind>` at phone and desktop width.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { expectOk } from '../../../../test/assertions.ts';
import { accessibilityProblems, screenshot, sharedBrowser } from '../../../../test/browser.ts';
import { EVENT_MAIL_KINDS } from '../../mail/index.ts';
import { certificateFixtures } from '../certificates/certificates.fixtures.ts';
import { checkoutHelpers, useCheckoutBench } from '../registrations/checkout.fixtures.ts';

interface LogEntry {
  id: string;
  kind: string;
  status: string;
}

describe('the mails in a browser', () => {
  const browsers = sharedBrowser();
  after(() => browsers.close());
  // The checkout bench (a Mercado Pago simulator) for a paid registration's refund; no MAIL_URL,
  // so the development mailbox keeps every mail.
  const bench = useCheckoutBench();
  const certificates = certificateFixtures(bench);
  const checkout = checkoutHelpers(bench);

  /** Every mail of the event once all are sent (the development mailbox keeps them). */
  async function sentMails(eventId: string, count: number): Promise<LogEntry[]> {
    const { t, owner } = bench();
    const deadline = Date.now() + 20_000;
    for (;;) {
      const log = expectOk(
        await t.get<LogEntry[]>(`/events/${eventId}/emails?limit=100`, { token: owner.token }),
      );
      if (log.length >= count && log.every((mail) => mail.status === 'sent')) return log;
      assert.ok(Date.now() < deadline, `the event's ${count} mails are sent`);
      await sleep(50);
    }
  }

  it('each kind renders accessibly with its inline image and no console error', async (context) => {
    const browser = await browsers.get(context);
    if (browser === undefined) return;
    const { t, owner, admin } = bench();
    // A paid registration refunded: its confirmation and its refund.
    const paid = await checkout.paidRegistration();
    expectOk(
      await t.post(`/registrations/${paid.registration.id}/refund`, {
        token: admin.token,
        body: { reason: 'The workshop was cancelled' },
      }),
    );
    const paidMails = await sentMails(paid.event.id, 2);
    // The other kinds in one event: a certificate (a registration, its check-in, a run), a
    // signature request, an invitation.
    const { event, edition, certificate } = await certificates.certifiedAttendee('Ana Souza');
    assert.ok(certificate.id);
    expectOk(
      await t.post(`/editions/${edition.id}/signature-requests`, {
        token: owner.token,
        body: { signatory_name: 'Marta Díaz', signatory_email: 'marta@example.com' },
      }),
      201,
    );
    expectOk(
      await t.post(`/events/${event.id}/invitations`, {
        token: owner.token,
        body: { email: 'bea@example.com', role: 'staff' },
      }),
      201,
    );
    const mails = [...(await sentMails(event.id, 4)), ...paidMails];
    const kinds = new Set(mails.map((mail) => mail.kind));
    assert.deepEqual([...kinds].sort(), [...EVENT_MAIL_KINDS].sort());

    const page = await (await browser.newContext()).newPage();
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    for (const kind of kinds) {
      const mail = mails.find((entry) => entry.kind === kind)!;
      await page.goto(`${bench().t.baseUrl}/dev/mail/${mail.id}/html`);
      await page.locator('h1').waitFor();
      for (const image of await page.locator('img').all()) {
        const width = await image.evaluate(
          (element) => (element as unknown as { naturalWidth: number }).naturalWidth,
        );
        assert.ok(width > 0, `${kind}: its inline image loaded`);
      }
      assert.deepEqual(await accessibilityProblems(page), [], `${kind}: no serious accessibility problem`);
      await screenshot(page, `mail-${kind.replaceAll('_', '-')}`);
    }
    assert.deepEqual(problems, []);
  });
});
