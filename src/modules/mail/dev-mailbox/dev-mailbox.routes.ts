/**
 * `GET /dev/mail` and the pages of one kept mail (docs/mail.md). Development only: in production,
 * or with MAIL_URL set (mail leaves through SMTP, nothing is kept), every one of them answers 404
 * as an unknown route would. Left out of the OpenAPI document: they are no part of the API.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AppError, notFound } from '../../../kernel/http/errors.ts';
import { idParams } from '../../../kernel/http/schemas.ts';
import type { ModuleDeps } from '../../../kernel/module.ts';
import { PAGE_CSP, sendHtml } from '../../../kernel/pages/layout.ts';
import { MAIL_HTML_CSP, MAIL_PAGE_CSP_EXTRA, mailboxPage, mailHtml, mailPage } from './dev-mailbox.pages.ts';
import { findKept, listKept } from './dev-mailbox.repository.ts';

const LIST_LIMIT = 200;

export const devMailboxRoutes: FastifyPluginAsyncTypebox<ModuleDeps> = async (app, { db, config }) => {
  const open = config.mail.mode === 'dev-mailbox';
  // The answer of an unknown route: the mailbox does not exist where it is closed.
  const closed = () => new AppError('NOT_FOUND', 'Route not found');
  const kept = async (id: string) => {
    if (!open) throw closed();
    const mail = await findKept(db, id);
    if (mail === undefined) throw notFound('Mail');
    return mail;
  };
  const hide = true;

  app.get('/dev/mail', { schema: { hide } }, async (_request, reply) => {
    if (!open) throw closed();
    return sendHtml(reply, 200, 'en', mailboxPage(await listKept(db, LIST_LIMIT)));
  });

  app.get(
    '/dev/mail/:email_id',
    { schema: { hide, params: idParams('email_id') } },
    async (request, reply) => {
      const mail = await kept(request.params.email_id);
      return sendHtml(reply, 200, 'en', mailPage(mail)).header(
        'content-security-policy',
        `${PAGE_CSP}; ${MAIL_PAGE_CSP_EXTRA}`,
      );
    },
  );

  app.get(
    '/dev/mail/:email_id/html',
    { schema: { hide, params: idParams('email_id') } },
    async (request, reply) => {
      const mail = await kept(request.params.email_id);
      return (
        reply
          .type('text/html; charset=utf-8')
          .header('content-security-policy', MAIL_HTML_CSP)
          // Shown in a frame of the mail's page (the API's DENY stays everywhere else).
          .header('x-frame-options', 'SAMEORIGIN')
          .header('cache-control', 'no-store')
          .send(mailHtml(mail))
      );
    },
  );

  app.get(
    '/dev/mail/:email_id/text',
    { schema: { hide, params: idParams('email_id') } },
    async (request, reply) => {
      const mail = await kept(request.params.email_id);
      return reply.type('text/plain; charset=utf-8').header('cache-control', 'no-store').send(mail.text);
    },
  );

  app.get(
    '/dev/mail/:email_id/attachments/:index',
    {
      schema: {
        hide,
        params: Type.Object(
          {
            email_id: idParams('email_id').properties.email_id,
            index: Type.Integer({ minimum: 0, maximum: 99 }),
          },
          { additionalProperties: false },
        ),
      },
    },
    async (request, reply) => {
      const mail = await kept(request.params.email_id);
      const attachment = mail.attachments[request.params.index];
      if (attachment === undefined) throw notFound('Attachment');
      const filename = attachment.filename.replace(/["\\\r\n]/g, '_');
      return reply
        .type(attachment.contentType)
        .header('content-disposition', `inline; filename="${filename}"`)
        .header('content-security-policy', MAIL_HTML_CSP)
        .header('cache-control', 'no-store')
        .send(Buffer.from(attachment.base64, 'base64'));
    },
  );
};
