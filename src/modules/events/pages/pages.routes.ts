/** The events module's people-facing pages (contract 10): the badge page a QR code opens. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { notFound } from '../../../kernel/http/errors.ts';
import { ok } from '../../../kernel/http/respond.ts';
import { envelope, errorResponses, Nullable } from '../../../kernel/http/schemas.ts';
import { pickLanguage, prefersHtml } from '../../../kernel/pages/language.ts';
import { sendHtml } from '../../../kernel/pages/layout.ts';
import type { EventsContext } from '../deps.ts';
import { badgePage, badgeView } from './badge.page.ts';

const tags = ['events'];

const BadgeJson = Type.Object({
  holder_name: Type.String(),
  origin: Type.Union([Type.Literal('participant'), Type.Literal('staff')]),
  ticket_name: Nullable(Type.String()),
  event_name: Type.String(),
  edition_name: Type.String(),
  starts_at: Type.String({ format: 'date-time' }),
  ends_at: Type.String({ format: 'date-time' }),
  status: Type.Union([Type.Literal('active'), Type.Literal('revoked')]),
  status_reason: Nullable(Type.String()),
  edition_ended: Type.Boolean(),
  valid: Type.Boolean({ description: 'active, and its edition not ended' }),
});

const BADGE_EXAMPLE = {
  holder_name: 'Ana Souza',
  origin: 'participant',
  ticket_name: 'General admission',
  event_name: 'RustConf',
  edition_name: 'RustConf 2027',
  starts_at: '2027-06-10T09:00:00.000Z',
  ends_at: '2027-06-12T18:00:00.000Z',
  status: 'active',
  status_reason: null,
  edition_ended: false,
  valid: true,
};

export const pageRoutes: FastifyPluginAsyncTypebox<EventsContext> = async (app, { db, badgeCodes }) => {
  app.get(
    '/b/:code',
    {
      schema: {
        tags,
        summary: 'Badge page (HTML)',
        description:
          "Public: what scanning a badge's QR code opens. An HTML page (not an envelope) in the language of " +
          '`Accept-Language` (`en`, `pt-BR`, `es`): the holder, edition, event, dates, ticket and whether the badge ' +
          'is valid (active, and its edition not ended). An unknown or forged code is a 404 page. A client whose ' +
          '`Accept` does not rank `text/html` above `application/json` (an API client, curl) gets the same data in ' +
          'the envelope, documented here, and a 404 envelope for an unknown code. Without a name in their token, ' +
          "the holder's e-mail is shown masked (`a••••@example.com`).",
        params: Type.Object(
          {
            code: Type.String({ minLength: 1, maxLength: 128, description: 'the badge code of its QR URL' }),
          },
          { additionalProperties: false },
        ),
        response: { 200: envelope(BadgeJson, BADGE_EXAMPLE, 'events'), ...errorResponses(400, 404) },
      },
    },
    async (request, reply) => {
      const badge = await badgeView(db, badgeCodes, request.params.code);
      if (!prefersHtml(request.headers.accept)) {
        if (badge === undefined) throw notFound('Badge');
        return ok(request, badge);
      }
      const language = pickLanguage(request.headers['accept-language']);
      const { status, document } = badgePage(badge, language);
      return sendHtml(reply, status, language, document);
    },
  );
};
