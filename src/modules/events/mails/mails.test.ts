/**
 * The mails people get (docs/mail.md), read back from a real SMTP server on loopback: each kind
 * reaches the right person in the language of the request that caused it, its link is followed (the
 * `/sign` link signs, the badge link opens the badge, the verify link verifies), the badge's QR code
 * is an inline image that decodes to the badge link, the `.ics` parses with DTSTART at the edition's
 * start, the certificate's PDF reads back; an event's override is what is sent.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseICS, type VEvent } from 'node-ical';
import { expectOk } from '../../../../test/assertions.ts';
import { decodeQrPng, pdfToText } from '../../../../test/pdf.ts';
import { type SmtpSink, startSmtpSink } from '../../../../test/smtp-sink.ts';
import { outboxRow, queue } from '../../mail/mail.fixtures.ts';
import { certificateFixtures } from '../certificates/certificates.fixtures.ts';
import { useTeam } from '../events.fixtures.ts';
import { PNG_DATA_URL } from '../signatures/signatures.fixtures.ts';
import { linkIn, mailTo } from './mails.fixtures.ts';

/** Call inside a `describe`: a local SMTP server, and a team whose app sends to it, its sender looking every `pollMs`. */
function useMailTeam(pollMs: number) {
  let sink: SmtpSink | undefined;
  before(async () => {
    sink = await startSmtpSink();
  });
  after(() => sink?.close());
  const team = useTeam(() => ({ MAIL_URL: sink?.url ?? '', JOBS_POLL_MS: String(pollMs) }));
  const sinkOf = () => {
    assert.ok(sink !== undefined, 'the SMTP server is up');
    return sink;
  };
  /** `who` registers for the free `ticketTypeId`; answers the registration. */
  const register = async (
    editionId: string,
    ticketTypeId: string,
    who: { token: string },
    headers: Record<string, string> = {},
  ) =>
    expectOk<{ id: string }>(
      await team.t.post(`/editions/${editionId}/registrations`, {
        token: who.token,
        body: { ticket_type_id: ticketTypeId },
        headers,
      }),
      201,
    );
  /** The first mail to `to` whose subject matches (mails.fixtures.ts `mailTo`), explained if it never comes. */
  const mailFor = (to: string, subject: RegExp, timeoutMs?: number) =>
    mailTo(sinkOf(), to, subject, { timeoutMs, db: team.t.db });
  return { team, mailFor, register, certificates: certificateFixtures(() => team) };
}

describe('the mails people get, through a real SMTP server', () => {
  const { team, mailFor, register, certificates } = useMailTeam(50);
  const { t, owner } = team;

  it('registration_confirmed: pt-BR, badge link and inline QR of it, an .ics at the start', async () => {
    const { edition, general } = await certificates.setupAttendance({ startsIn: 24 });
    const ana = await t.actor('ana', { name: 'Ana Souza' });
    await register(edition.id, general.id, ana, { 'accept-language': 'pt-BR' });
    const mail = await mailFor(ana.email, /Inscrição confirmada/);
    assert.match(mail.html || '', /<html lang="pt-BR"/);
    assert.match(mail.text ?? '', /Ana Souza/);
    assert.match(mail.messageId ?? '', /^<[0-9a-f-]{36}@/);
    const badgePath = linkIn(mail.html || '', t.baseUrl, '/b/');
    const badgePage = await t.app.inject({ method: 'GET', url: badgePath, headers: { accept: 'text/html' } });
    assert.equal(badgePage.statusCode, 200);
    assert.match(badgePage.body, /Ana Souza/);

    const qr = mail.attachments.find((file) => file.contentId === '<badge-qr>' || file.cid === 'badge-qr');
    assert.ok(qr !== undefined, 'the QR code is an inline attachment');
    // mailparser puts an inline part's bytes where its `cid:` was referenced: the HTML shows this image.
    assert.ok(qr.related, 'inline, not a download');
    assert.ok((mail.html || '').includes(`data:image/png;base64,${qr.content.toString('base64')}`));
    assert.equal(decodeQrPng(qr.content), `${t.baseUrl}${badgePath}`);

    const ics = mail.attachments.find((file) => file.filename === 'event.ics');
    assert.ok(ics !== undefined, 'an .ics is attached');
    const entries = Object.values(parseICS(ics.content.toString('utf8'))).filter(
      (entry) => entry?.type === 'VEVENT',
    ) as VEvent[];
    assert.equal(entries.length, 1);
    // iCalendar times are to the second.
    const toSecond = (iso: string) => `${iso.slice(0, 19)}.000Z`;
    assert.equal(new Date(entries[0]!.start).toISOString(), toSecond(edition.starts_at));
    assert.equal(new Date(entries[0]!.end ?? 0).toISOString(), toSecond(edition.ends_at));
  });

  it('registration_confirmed, many in one claim: each to its own person, badge and language; a gone badge fails alone', async () => {
    const { event, edition, general } = await certificates.setupAttendance({ startsIn: 24 });
    const [dora, eli] = [
      await t.actor('dora', { name: 'Dora Lima' }),
      await t.actor('eli', { name: 'Eli Ruiz' }),
    ];
    const registered = await Promise.all([dora, eli].map((who) => register(edition.id, general.id, who)));
    const firsts = await Promise.all([dora, eli].map((who) => mailFor(who.email, /You are registered/)));
    // Queued in one transaction, so one claim takes all three and drafts them together.
    const confirmation = (to: string, language: 'es' | 'pt-BR', registrationId: string) => ({
      kind: 'registration_confirmed' as const,
      to,
      language,
      eventId: event.id,
      data: { registration_id: registrationId },
    });
    const [, , goneId] = await queue(
      { db: t.db, mailer: t.mailer },
      confirmation(dora.email, 'es', registered[0]!.id),
      confirmation(eli.email, 'pt-BR', registered[1]!.id),
      confirmation('nobody@example.com', 'es', '0190aaaa-0000-7000-8000-000000000000'),
    );
    const again = [
      await mailFor(dora.email, /Inscripción confirmada/),
      await mailFor(eli.email, /Inscrição confirmada/),
    ];
    for (const [index, name] of ['Dora Lima', 'Eli Ruiz'].entries()) {
      const mail = again[index]!;
      assert.match(mail.text ?? '', new RegExp(name));
      const badgeOf = (sent: typeof mail) => linkIn(sent.html || '', t.baseUrl, '/b/');
      assert.equal(badgeOf(mail), badgeOf(firsts[index]!), `${name}'s own badge`);
      const qr = mail.attachments.find((file) => file.filename === 'badge-qr.png');
      assert.equal(decodeQrPng(qr?.content ?? Buffer.alloc(0)), `${t.baseUrl}${badgeOf(mail)}`);
    }
    const deadline = Date.now() + 10_000;
    for (;;) {
      const gone = await outboxRow(t.db, goneId ?? '');
      if (gone.status === 'failed') {
        assert.match(gone.last_error ?? '', /rendering failed: The badge of this mail no longer exists/);
        assert.equal(gone.attempts, 0, 'never handed to the server');
        break;
      }
      assert.ok(Date.now() < deadline, 'the mail with no badge fails');
      await sleep(50);
    }
  });

  it("signature_request: in the requester's language (es), its /sign link opens the page and signs", async () => {
    const { edition } = await certificates.setupAttendance();
    const email = `signer-${Date.now()}@example.com`;
    const request = expectOk(
      await t.post<{ token: string }>(`/editions/${edition.id}/signature-requests`, {
        token: owner.token,
        body: { signatory_name: 'Marta Díaz', signatory_email: email },
        headers: { 'accept-language': 'es-AR,es;q=0.9' },
      }),
      201,
    );
    const mail = await mailFor(email, /solicita tu firma/);
    assert.match(mail.html || '', /<html lang="es"/);
    const signPath = linkIn(mail.html || '', t.baseUrl, '/sign?token=');
    assert.equal(new URLSearchParams(signPath.split('?')[1]).get('token'), request.token);
    const page = await t.app.inject({ method: 'GET', url: signPath, headers: { 'accept-language': 'es' } });
    assert.equal(page.statusCode, 200);
    const token = new URLSearchParams(signPath.split('?')[1]).get('token');
    expectOk(
      await t.post(`/signature-requests/fulfill?token=${token}`, { body: { image_url: PNG_DATA_URL } }),
      201,
    );
  });

  it('certificate_issued: the PDF attached reads back, the verify link verifies', async () => {
    const { certificate, holder } = await certificates.certifiedAttendee('Bea Lima');
    const mail = await mailFor(holder.email, /Your certificate/);
    const pdf = mail.attachments.find((file) => file.contentType === 'application/pdf');
    assert.ok(pdf !== undefined, 'the PDF is attached');
    assert.equal(pdf.content.subarray(0, 5).toString(), '%PDF-');
    const text = await pdfToText(pdf.content);
    if (text !== null) assert.match(text, /Bea Lima/);
    const verifyPath = linkIn(mail.html || '', t.baseUrl, '/verify/');
    assert.equal(verifyPath, `/verify/${certificate.verification_code}`);
    const page = await t.app.inject({ method: 'GET', url: verifyPath, headers: { accept: 'text/html' } });
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /Bea Lima/);
  });

  it('event_invitation: to the invitee, naming the inviter and the role, with a sign-in link', async () => {
    const { event } = await certificates.setupAttendance();
    const email = `invitee-${Date.now()}@example.com`;
    expectOk(
      await t.post(`/events/${event.id}/invitations`, { token: owner.token, body: { email, role: 'staff' } }),
      201,
    );
    const mail = await mailFor(email, /invited you to/);
    assert.match(mail.text ?? '', /staff/);
    const signIn = linkIn(mail.html || '', t.baseUrl, '/auth/sign-in');
    assert.equal(new URLSearchParams(signIn.split('?')[1]).get('return_to'), '/me');
  });

  it("an event's override is what is sent, and the log records the mail as sent", async () => {
    const { event, edition, general } = await certificates.setupAttendance({ startsIn: 24 });
    expectOk(
      await t.put(`/events/${event.id}/email-templates/registration_confirmed`, {
        token: owner.token,
        body: {
          subject: 'Ticket for {{ recipient_name }}',
          body: '<p>{{ edition_name }}: <a href="{{ badge_url }}">badge</a> <img src="cid:badge-qr" alt="QR"></p>',
        },
      }),
    );
    const cai = await t.actor('cai', { name: 'Cai Wen' });
    await register(edition.id, general.id, cai);
    const mail = await mailFor(cai.email, /Ticket for Cai Wen/);
    assert.match(mail.text ?? '', /badge/);
    const deadline = Date.now() + 10_000;
    for (;;) {
      const log = expectOk(
        await t.get<Array<{ to: string; status: string; subject: string | null }>>(
          `/events/${event.id}/emails?to=${encodeURIComponent(cai.email)}`,
          { token: owner.token },
        ),
      );
      if (log[0]?.status === 'sent') {
        assert.equal(log[0].subject, 'Ticket for Cai Wen');
        break;
      }
      assert.ok(Date.now() < deadline, 'the log shows the mail sent');
      await sleep(50);
    }
  });
});

describe('a registration wakes the mail sender', () => {
  // The sender's own look comes a minute apart here: only the registration's wake-up sends at once.
  const { team, mailFor, register, certificates } = useMailTeam(60_000);
  const { t } = team;

  it('sends a free registration’s confirmation at once, not at the next poll', async () => {
    const { edition, general } = await certificates.setupAttendance({ startsIn: 24 });
    // After the app's first look, so that only a wake-up can find the mail.
    await sleep(500);
    const fay = await t.actor('fay', { name: 'Fay Ito' });
    await register(edition.id, general.id, fay);
    await mailFor(fay.email, /You are registered/, 5_000);
  });
});
