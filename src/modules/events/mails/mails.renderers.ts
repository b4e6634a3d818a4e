/**
 * What each mail an event sends says (docs/mail.md): the renderer of every kind, registered with the
 * mail module by index.ts. A mail's outbox row names what it is about (a registration, a signature
 * request, a certificate, an invitation); its renderer reads that as it is when the mail is sent,
 * fills the kind's variables into the event's effective template in the recipient's language
 * (email-templates/) and names the attachments: the badge's QR code as an inline image and an `.ics`
 * for a registration, the PDF for a certificate. The mail module renders that draft in a worker
 * thread (docs/mail.md): a renderer only reads.
 */
import { findActorById } from '../../../kernel/auth/actors.repository.ts';
import type { Database } from '../../../kernel/db/client.ts';
import { open } from '../../../kernel/secret-box.ts';
import {
  type DraftAttachment,
  DraftError,
  type EventMailKind,
  MailCannotBeWritten,
  type MailDraft,
  type MailRenderer,
  type OutboxMail,
} from '../../mail/index.ts';
import {
  type BadgeCodes,
  type ConfirmationFacts,
  findConfirmationFacts,
  findEditionNames,
} from '../badges/index.ts';
import { type CertificateDocuments, findCertificate, verifyUrlOf } from '../certificates/index.ts';
import { BADGE_QR_CID, eventMailDrafter, roleName } from '../email-templates/index.ts';
import { findEventWithRole } from '../events/index.ts';
import { findInvitationForMail } from '../invitations/index.ts';
import { formatDay, formatMoment, formatMoney, formatSpan } from '../page-messages.ts';
import { findRegistration } from '../registrations/index.ts';
import { findRequest, signUrl } from '../signatures/index.ts';
import { findTicketType } from '../tickets/index.ts';
import { ticketStatusText } from './mails.words.ts';

export interface MailsContext {
  db: Database;
  publicBaseUrl: string;
  secretsKey: Buffer;
  badgeCodes: BadgeCodes;
  certificatePdfs: CertificateDocuments;
}

/** A mail whose subject is gone (deleted since it was queued) can never be written: it fails at once. */
function required<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new MailCannotBeWritten(`${what} of this mail no longer exists`);
  return value;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The id the mail's payload names under `key`. */
function idIn(mail: OutboxMail, key: string): string {
  const id = mail.data[key];
  if (typeof id !== 'string' || !UUID.test(id)) throw new MailCannotBeWritten(`the mail's ${key} is missing`);
  return id;
}

/** A drafter of event mails (`eventMailDrafter`): one per claim of mails, or per mail. */
type Drafter = ReturnType<typeof eventMailDrafter>;

async function render(
  ctx: MailsContext,
  mail: OutboxMail,
  variables: Record<string, string>,
  attachments: DraftAttachment[] = [],
  drafter: Drafter = eventMailDrafter(ctx.db),
): Promise<MailDraft> {
  // These renderers are registered for the events' kinds only (eventMailRenderers).
  const kind = mail.kind as EventMailKind;
  const draft = await drafter.draft(mail.eventId ?? '', kind, mail.language, variables);
  return { ...draft, attachments };
}

/** One confirmation mail, from its registration's facts. */
function confirmation(
  ctx: MailsContext,
  mail: OutboxMail,
  registrationId: string,
  facts: ConfirmationFacts,
  drafter: Drafter,
): Promise<MailDraft> {
  const badgeUrl = ctx.badgeCodes.urlOf(facts.emission_id);
  const venue = [facts.location_name, facts.location_description].filter(Boolean).join(', ');
  const paid = facts.intent_id !== null && facts.price_cents > 0 && facts.currency !== null;
  const attachments: DraftAttachment[] = [
    { filename: 'badge-qr.png', contentType: 'image/png', qrCode: badgeUrl, cid: BADGE_QR_CID },
    {
      filename: 'event.ics',
      contentType: 'text/calendar; charset=utf-8; method=PUBLISH',
      calendar: {
        id: `${registrationId}@${new URL(ctx.publicBaseUrl).hostname}`,
        summary: `${facts.edition_name} (${facts.event_name})`,
        startsAt: facts.starts_at,
        endsAt: facts.ends_at,
        location: venue,
        url: badgeUrl,
        description: badgeUrl,
      },
    },
  ];
  return render(
    ctx,
    mail,
    {
      recipient_name: facts.holder_name ?? facts.holder_email,
      event_name: facts.event_name,
      edition_name: facts.edition_name,
      ticket_name: facts.ticket_name,
      badge_url: badgeUrl,
      dates: formatSpan(facts.starts_at, facts.ends_at, mail.language),
      starts_at: formatMoment(facts.starts_at, mail.language),
      venue,
      amount: paid ? formatMoney(facts.price_cents, facts.currency ?? '', mail.language) : '',
      payment_reference: paid ? (facts.intent_id ?? '') : '',
    },
    attachments,
    drafter,
  );
}

/**
 * Confirmations are sent while registrations go on, one per registration: a claim's are drafted
 * together, from one read of their facts and one of each event's override (docs/mail.md).
 */
const registrationConfirmed = (ctx: MailsContext): MailRenderer => {
  const many = async (mails: OutboxMail[]): Promise<Array<MailDraft | DraftError>> => {
    const ids = mails.map((mail) => mail.data.registration_id);
    const facts = await findConfirmationFacts(
      ctx.db,
      ids.filter((id): id is string => typeof id === 'string' && UUID.test(id)),
    );
    const drafter = eventMailDrafter(ctx.db);
    return Promise.all(
      mails.map(async (mail) => {
        try {
          const registrationId = idIn(mail, 'registration_id');
          return await confirmation(
            ctx,
            mail,
            registrationId,
            required(facts.get(registrationId), 'The badge'),
            drafter,
          );
        } catch (error) {
          return new DraftError(error);
        }
      }),
    );
  };
  const one = async (mail: OutboxMail) => {
    const [draft] = await many([mail]);
    if (draft instanceof DraftError || draft === undefined) throw draft?.error;
    return draft;
  };
  return Object.assign(one, { many });
};

/** The refund of a paid registration (full refunds only: the ticket's price is what went back). */
const refundIssued =
  (ctx: MailsContext): MailRenderer =>
  async (mail) => {
    const registration = required(
      await findRegistration(ctx.db, idIn(mail, 'registration_id')),
      'The registration',
    );
    const [edition, ticket, holder] = await Promise.all([
      findEditionNames(ctx.db, registration.edition_id),
      findTicketType(ctx.db, registration.ticket_type_id),
      findActorById(ctx.db, registration.user_id),
    ]);
    const names = required(edition, 'The edition');
    const paid = required(ticket, 'The ticket type');
    return render(ctx, mail, {
      recipient_name: holder?.name ?? holder?.email ?? '',
      event_name: names.event_name,
      edition_name: names.edition_name,
      ticket_name: paid.name,
      amount: paid.currency === null ? '' : formatMoney(paid.price_cents, paid.currency, mail.language),
      reason: registration.status_reason ?? '',
      ticket_status: ticketStatusText(registration.status, mail.language),
    });
  };

const signatureRequest =
  (ctx: MailsContext): MailRenderer =>
  async (mail) => {
    const request = required(await findRequest(ctx.db, idIn(mail, 'request_id')), 'The signature request');
    const [edition, requester] = await Promise.all([
      findEditionNames(ctx.db, request.edition_id),
      findActorById(ctx.db, request.created_by),
    ]);
    const names = required(edition, 'The edition');
    const sealed = mail.data.token;
    if (typeof sealed !== 'string') throw new MailCannotBeWritten("the mail's token is missing");
    const token = open(ctx.secretsKey, sealed);
    return render(ctx, mail, {
      sign_url: signUrl(ctx.publicBaseUrl, token),
      requester: requester?.name ?? requester?.email ?? '',
      deadline: formatMoment(request.expires_at, mail.language),
      recipient_name: request.signatory_name,
      event_name: names.event_name,
      edition_name: names.edition_name,
    });
  };

const certificateIssued =
  (ctx: MailsContext): MailRenderer =>
  async (mail) => {
    const certificate = required(
      await findCertificate(ctx.db, idIn(mail, 'certificate_id')),
      'The certificate',
    );
    const { pdf } = await ctx.certificatePdfs.documentOf(certificate);
    return render(
      ctx,
      mail,
      {
        verify_url: verifyUrlOf(ctx.publicBaseUrl, certificate.verification_code),
        certificate_name: certificate.template_name,
        issued_at: formatDay(certificate.issued_at, mail.language),
        recipient_name: certificate.holder_name ?? certificate.holder_email,
        event_name: certificate.event_name,
        edition_name: certificate.edition_name,
      },
      [
        {
          filename: `certificate-${certificate.verification_code}.pdf`,
          contentType: 'application/pdf',
          content: pdf,
        },
      ],
    );
  };

const eventInvitation =
  (ctx: MailsContext): MailRenderer =>
  async (mail) => {
    const eventId = mail.eventId ?? '';
    const invitation = required(
      await findInvitationForMail(ctx.db, eventId, idIn(mail, 'invitation_id')),
      'The invitation',
    );
    const [event, inviter] = await Promise.all([
      findEventWithRole(ctx.db, eventId, undefined),
      findActorById(ctx.db, invitation.invited_by),
    ]);
    return render(ctx, mail, {
      sign_in_url: `${ctx.publicBaseUrl}/auth/sign-in?return_to=${encodeURIComponent('/me')}`,
      inviter: inviter?.name ?? inviter?.email ?? '',
      role: roleName(invitation.role, mail.language),
      expires_at: formatDay(invitation.expires_at, mail.language),
      email: invitation.email,
      event_name: required(event, 'The event').event.name,
    });
  };

/** Every kind's renderer, made with the context they read from. */
export function eventMailRenderers(ctx: MailsContext): Record<EventMailKind, MailRenderer> {
  return {
    signature_request: signatureRequest(ctx),
    registration_confirmed: registrationConfirmed(ctx),
    refund_issued: refundIssued(ctx),
    certificate_issued: certificateIssued(ctx),
    event_invitation: eventInvitation(ctx),
  };
}
