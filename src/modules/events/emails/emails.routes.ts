/**
 * Routes of docs/reference/mail.md: an event's mail log, and resending one mail. Handlers: service,
 * envelope.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf } from '../../../kernel/auth/plugin.ts';
import { created, pageWindow, paginated } from '../../../kernel/http/respond.ts';
import { envelope, errorResponses, idParams, listEnvelope } from '../../../kernel/http/schemas.ts';
import type { EventsDeps } from '../deps.ts';
import { MAIL_EXAMPLE, Mail, MailLogQuery } from './emails.schemas.ts';
import * as mails from './emails.service.ts';

const tags = ['Mail'];

export const emailRoutes: FastifyPluginAsyncTypebox<EventsDeps> = async (app, { db, mail }) => {
  app.get(
    '/events/:event_id/emails',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'listEventEmails',
        summary: "List an event's mail",
        description:
          'Owner or admin. The mail the event sent or is sending (registration confirmations, signature ' +
          'requests, certificates, refunds, invitations), newest first, with each one’s delivery ' +
          'status: `queued` (waiting, or retried after a temporary failure, for up to an hour), `sent` ' +
          '(the mail server accepted it), `failed` (refused for good, or still failing an hour on). `to` ' +
          'matches the recipient without case.',
        params: idParams('event_id'),
        querystring: MailLogQuery,
        response: {
          200: listEnvelope(Mail, MAIL_EXAMPLE, 'events'),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request) =>
      paginated(
        request,
        await mails.listMails(
          db,
          request.params.event_id,
          actorOf(request),
          request.query,
          pageWindow(request.query),
        ),
      ),
  );

  app.post(
    '/emails/:email_id/resend',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'resendEmail',
        summary: 'Resend a mail',
        description:
          "Owner or admin of the mail's event. Queues a copy of the mail (a new id and `Message-ID`, the " +
          'same content rendered again, `resent_from` naming the original), whatever the original’s ' +
          'status, and answers it. A mail is unknown (404) to anyone without a role on its event; a staff ' +
          'member gets 403.',
        params: idParams('email_id'),
        response: {
          201: envelope(
            Mail,
            {
              ...MAIL_EXAMPLE,
              status: 'queued',
              attempts: 0,
              sent_at: null,
              resent_from: MAIL_EXAMPLE.id,
              id: '0193a0a1-11aa-7c3a-9b1e-5f3c2d1e0a12',
            },
            'events',
            201,
          ),
          ...errorResponses(401, 403, 404),
        },
      },
    },
    async (request, reply) =>
      created(request, reply, await mails.resendMail(db, mail, request.params.email_id, actorOf(request))),
  );
};
