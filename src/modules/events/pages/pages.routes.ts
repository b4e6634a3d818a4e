/**
 * The events module's people-facing pages (docs/reference/pages.md): the badge page a QR code opens, the
 * signing page of a signature request's link, the checkout return page, a person's own page (`/me`),
 * and the scripts they run. (The badges list page answers at its JSON route, `badges.routes.ts`.)
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AppError, notFound } from '../../../kernel/http/errors.ts';
import { ok } from '../../../kernel/http/respond.ts';
import { envelope, errorResponses, idParams, withReasons } from '../../../kernel/http/schemas.ts';
import { serveAsset } from '../../../kernel/pages/assets.ts';
import { html } from '../../../kernel/pages/html.ts';
import { pickLanguage, prefersHtml } from '../../../kernel/pages/language.ts';
import { messagePage, sendHtml } from '../../../kernel/pages/layout.ts';
import type { BadgeCodes } from '../badges/index.ts';
import type { EventsDeps } from '../deps.ts';
import { type ParticipantBadges, retryCheckout } from '../registrations/index.ts';
import { lookUpRequestView } from '../signatures/index.ts';
import { BADGE_SCRIPT, badgePage, badgeView, badgeViewer } from './badge.page.ts';
import { CHECKOUT_MESSAGES } from './checkout.messages.ts';
import { CHECKOUT_SCRIPT, checkoutPage, checkoutView } from './checkout.page.ts';
import { mePage, meView } from './me.page.ts';
import {
  BADGE_EXAMPLE,
  BadgeJson,
  CHECKOUT_EXAMPLE,
  CheckoutJson,
  CheckoutReturnQuery,
  htmlPage,
} from './pages.schemas.ts';
import { SIGN_SCRIPT, signPage } from './sign.page.ts';

const tags = ['Pages'];

/**
 * What the pages' routes are given (index.ts): the codes that badges' QR codes carry, and what a
 * fresh checkout needs (the transitions' badge effect).
 */
export interface PagesContext extends EventsDeps {
  badgeCodes: BadgeCodes;
  participantBadges: ParticipantBadges;
}

export const pageRoutes: FastifyPluginAsyncTypebox<PagesContext> = async (app, deps) => {
  const { db, badgeCodes } = deps;
  app.get(
    '/b/:code',
    {
      // Who is looking decides whether the check-in controls show (the session cookie, or a token).
      config: { auth: 'optional' },
      schema: {
        tags,
        operationId: 'getBadgePage',
        summary: 'Badge page (HTML)',
        description:
          "Public: what scanning a badge's QR code opens. An HTML page (not an envelope) in the language of " +
          '`Accept-Language` (`en`, `pt-BR`, `es`): the holder, edition, event, dates, ticket and whether the badge ' +
          'is valid (active, and its edition not ended). An unknown or forged code is a 404 page. A client whose ' +
          '`Accept` does not rank `text/html` above `application/json` (an API client, curl) gets the same data in ' +
          'the envelope, documented here, and a 404 envelope for an unknown code. A signed-in member with staff or more ' +
          'on the event (the session cookie of `GET /auth/sign-in`) also sees a check-in button; anyone not ' +
          'signed in, a link to sign in. Without a name in their token, ' +
          "the holder's e-mail is shown masked (`a•••@e•••.com`), as on every public page and document.",
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
      const viewer = await badgeViewer(db, badge, request.actor);
      const { status, document } = badgePage(badge, language, request.params.code, viewer);
      return sendHtml(reply, status, language, document);
    },
  );

  app.get(
    '/me',
    {
      // Anyone may open it: who is signed in (the session cookie, or a token) decides what it shows.
      config: { auth: 'optional' },
      schema: {
        tags,
        operationId: 'getMyPage',
        summary: 'My page (HTML)',
        description:
          "The signed-in person's own page, where the invitation mails' sign-in link lands " +
          '(`/auth/sign-in?return_to=/me`). An HTML page in the language of `Accept-Language`: who is ' +
          'signed in, a sign-out button, and their registrations (every edition, newest first; a pending ' +
          'one links its payment, a confirmed one its badge page), their active badges with QR codes, and ' +
          'their certificates (newest 100) with links to the PDF, the verifiable credential and the ' +
          "verification page. Only the caller's own items are listed. Without a session (or a bearer " +
          'token) it answers 200 with a page saying so and a link to sign in and come back here. Always ' +
          'HTML, never cached (`Cache-Control: no-store`): the API has the same data as JSON.',
        response: { 200: htmlPage("the person's page, or the page asking them to sign in") },
      },
    },
    async (request, reply) => {
      const language = pickLanguage(request.headers['accept-language']);
      const actor = request.actor;
      const view =
        actor === null ? undefined : await meView(db, badgeCodes, deps.config.publicBaseUrl, actor);
      // A bearer token signs nobody in the browser: no sign-out button for it.
      const viaSession = actor !== null && (request.headers.authorization ?? '') === '';
      return sendHtml(reply, 200, language, mePage(view, language, viaSession));
    },
  );

  app.get(
    '/sign',
    {
      schema: {
        tags,
        operationId: 'getSigningPage',
        summary: 'Signing page (HTML)',
        description:
          "Public, authenticated by the link's token: the page a signatory opens from a signature request's " +
          '`fulfill_url`, in the language of `Accept-Language`. For a pending request: what is asked (edition, ' +
          'event, dates, who asks), a canvas to draw the signature on (mouse, touch or pen, with undo and clear) ' +
          'or a PNG upload (at most 256 KiB), and a form to decline with an optional reason; the page sends them ' +
          'to `POST /signature-requests/fulfill` and `/deny` with the same token. A signed, declined or ' +
          'cancelled request shows that outcome (200); an expired link answers 410 and a missing, malformed or ' +
          'unknown one 404, each with a page saying so. Always HTML: API clients use ' +
          '`GET /signature-requests/by-token`.',
        querystring: Type.Object(
          { token: Type.Optional(Type.String({ maxLength: 1000, description: "the link's token" })) },
          { additionalProperties: false },
        ),
        response: {
          200: htmlPage('the signing page'),
          404: htmlPage('the page for an unknown link'),
          410: htmlPage('the page for an expired link'),
          ...errorResponses(400),
        },
      },
    },
    async (request, reply) => {
      const language = pickLanguage(request.headers['accept-language']);
      const found = await lookUpRequestView(db, request.query.token);
      const { status, document } = signPage(found, language);
      return sendHtml(reply, status, language, document);
    },
  );

  app.get(
    '/checkout/:intent_id',
    {
      schema: {
        tags,
        operationId: 'getCheckoutPage',
        summary: 'Checkout return page (HTML)',
        description:
          "Public: where Mercado Pago sends the payer back after a ticket checkout (the preference's `back_urls`). " +
          'An HTML page in the language of `Accept-Language` saying how the payment stands, from the ' +
          "service's own records (never from the query Mercado Pago appends): paid (with a link to the badge), " +
          'pending (the page asks again by itself, backing off from 2 to 15 s, and shows the outcome when it ' +
          'comes), failed (with how long the seat stays held) or refunded. Only intents made by a ticket checkout ' +
          'have this page: any other id is a 404 page. A client whose `Accept` does not rank `text/html` above ' +
          '`application/json` gets the same data in the envelope, documented here. The query Mercado Pago appends ' +
          '(`collection_status`, `payment_id`, …) is accepted, with any other parameter, and ignored.',
        params: idParams('intent_id'),
        querystring: CheckoutReturnQuery,
        response: { 200: envelope(CheckoutJson, CHECKOUT_EXAMPLE, 'events'), ...errorResponses(400, 404) },
      },
    },
    async (request, reply) => {
      const view = await checkoutView(deps, request.params.intent_id);
      if (!prefersHtml(request.headers.accept)) {
        if (view === undefined) throw notFound('Checkout');
        return ok(request, view);
      }
      const language = pickLanguage(request.headers['accept-language']);
      const { status, document } = checkoutPage(view, language);
      return sendHtml(reply, status, language, document);
    },
  );

  // The retry form posts `application/x-www-form-urlencoded` with no field: an empty form reads as no
  // body on these routes only (this plugin's encapsulated context; the API stays JSON), and a form
  // with fields stays a string, which the validation refuses as a body the route does not take.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 1024 },
    (_request, body, done) => done(null, body === '' ? {} : body),
  );

  app.post(
    '/checkout/:intent_id/retry',
    {
      schema: {
        tags,
        operationId: 'retryCheckoutFromPage',
        summary: 'Fresh checkout from the checkout page (form)',
        description:
          "Public, authenticated by the page's address: the form of a failed checkout's page. While the " +
          'registration still holds its seat unpaid, it gets a fresh checkout, what its payer registering again ' +
          'gets (`POST /editions/{edition_id}/registrations`): a new intent and Mercado Pago preference for the ' +
          'same seat and price (the current one when it can still be paid). Nothing is charged and no second ' +
          "seat is held. Answers 303 to the new intent's page, which links to Mercado Pago; when there is " +
          "nothing to pay any more (paid, seat released), 303 back to this intent's page, which says so; an id " +
          'that is no ticket checkout is 404. The form sends no field (a form with fields is 400). A browser (`Accept` ranking `text/html` first) ' +
          'gets a refusal or a provider failure as a page with the same status that says so and links back; ' +
          'other clients get the envelope documented here.',
        params: idParams('intent_id'),
        response: {
          303: Type.Null({ description: 'to `/checkout/{intent_id}` of the fresh (or the same) intent' }),
          ...errorResponses(
            400,
            404,
            withReasons(
              409,
              'checkout_in_progress',
              'payments_not_linked',
              'seller_revoked',
              'test_mode_seller',
              'wallet_gone',
              'seller_credentials_unreadable',
            ),
            502,
          ),
        },
      },
    },
    async (request, reply) => {
      const intentId = request.params.intent_id;
      let registration: Awaited<ReturnType<typeof retryCheckout>>;
      try {
        // An id that is no ticket checkout's is a 404, like its page (`GET /checkout/{intent_id}`).
        const intent = await deps.payments.checkoutIntent(db, intentId);
        if (intent === undefined) throw notFound('Checkout');
        registration = await retryCheckout(deps, intent.registrationId);
      } catch (error) {
        // The form's answer is read by a person: a refusal (seller gone, another checkout under way)
        // or the provider failing is a page that says so and leads back, not an envelope.
        if (!(error instanceof AppError) || !prefersHtml(request.headers.accept)) throw error;
        const language = pickLanguage(request.headers['accept-language']);
        const t = CHECKOUT_MESSAGES[language];
        const back = html`<p><a href="/checkout/${intentId}">${t.back}</a></p>`;
        return sendHtml(
          reply,
          error.status,
          language,
          messagePage(language, t.retryFailedTitle, t.retryFailed, back),
        );
      }
      const next = registration?.intent_id ?? intentId;
      return reply.redirect(`/checkout/${encodeURIComponent(next)}`, 303);
    },
  );

  serveAsset(app, CHECKOUT_SCRIPT, {
    tags,
    operationId: 'getCheckoutScript',
    summary: "The checkout page's script",
    description:
      'Asks again while a payment is pending and shows the outcome when it comes (plain JavaScript).',
  });

  serveAsset(app, BADGE_SCRIPT, {
    tags,
    operationId: 'getBadgeScript',
    summary: "The badge page's script",
    description:
      'Staff check-in from the badge page: posts the badge code to `POST /editions/{edition_id}/check-ins` with ' +
      'the session cookie and `X-Convene-CSRF: 1` (plain JavaScript).',
  });

  serveAsset(app, SIGN_SCRIPT, {
    tags,
    operationId: 'getSigningScript',
    summary: "The signing page's script",
    description:
      'Draws the signature on the canvas, reads an uploaded PNG and sends the signature or the refusal ' +
      '(plain JavaScript, no third-party code).',
  });
};
