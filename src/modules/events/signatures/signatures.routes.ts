/**
 * Routes of docs/reference/signatures.md: signature requests and signatures. Organizer routes take a bearer
 * token; the signatory's routes take no bearer token at all: the opaque token in `?token=` is the credential.
 * It is checked in a `preParsing` hook, after the rate limiter (an `onRequest` hook) and before the body is
 * read, so a caller without a valid token learns nothing about validation or state, as on bearer routes.
 * Logged URLs mask `token=` (kernel/http/logging.ts).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { actorOf } from '../../../kernel/auth/plugin.ts';
import { created, ok, pageWindow, paginated } from '../../../kernel/http/respond.ts';
import {
  envelope,
  errorResponses,
  idParams,
  listEnvelope,
  PageQuerySchema,
  withReasons,
} from '../../../kernel/http/schemas.ts';
import type { EventsDeps } from '../deps.ts';
import {
  CREATED_REQUEST_EXAMPLE,
  CreatedSignatureRequest,
  CreateSignatureRequestBody,
  FULFILLED_EXAMPLE,
  FulfilBody,
  FulfilledSignature,
  REQUEST_VIEW_EXAMPLE,
  ReasonBody,
  RequestListQuery,
  SIGNATURE_EXAMPLE,
  SIGNATURE_REQUEST_EXAMPLE,
  Signature,
  SignatureRequest,
  SignatureRequestView,
  TokenQuery,
} from './signatures.schemas.ts';
import * as signatures from './signatures.service.ts';

const tags = ['Signatures'];
const BY_TOKEN =
  'No bearer token: authenticated by the token of the link, in the query parameter `token` only. ' +
  'A missing, malformed, unknown or expired token is 401 `UNAUTHORIZED`.';

const tokenOf = (request: FastifyRequest) => (request.query as { token?: unknown }).token;

/**
 * What the signatures' routes are given (index.ts): the thread that normalises signature images, and
 * the key that seals a request's token in its mail until the mail is rendered.
 */
export interface SignaturesContext extends EventsDeps {
  documents: signatures.SignatureImageNormaliser;
  secretsKey: Buffer;
}

export const signatureRoutes: FastifyPluginAsyncTypebox<SignaturesContext> = async (
  app,
  { db, config, documents, secretsKey, mail },
) => {
  const requestToken = async (request: FastifyRequest) => {
    await signatures.authenticateRequestToken(db, tokenOf(request));
  };
  const revokeToken = async (request: FastifyRequest) => {
    await signatures.authenticateRevokeToken(db, tokenOf(request));
  };

  app.post(
    '/editions/:edition_id/signature-requests',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'createSignatureRequest',
        summary: 'Request a signature',
        description:
          'Owner or admin of the event. Creates a `pending` request valid for `expires_in_days` (1..365, default ' +
          '7). The answer carries `token` and `fulfill_url` (the link for the signatory) this once: only a hash of ' +
          'the token is kept, no later read shows it.',
        params: idParams('edition_id'),
        body: CreateSignatureRequestBody,
        response: {
          201: envelope(CreatedSignatureRequest, CREATED_REQUEST_EXAMPLE, 'events', 201),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request, reply) =>
      created(
        request,
        reply,
        await signatures.createRequest(
          db,
          { publicBaseUrl: config.publicBaseUrl, secretsKey, mail },
          request.params.edition_id,
          actorOf(request),
          request.body,
        ),
      ),
  );

  app.get(
    '/editions/:edition_id/signature-requests',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'listSignatureRequests',
        summary: 'List signature requests',
        description:
          'Owner or admin of the event. Newest first, optionally one `status`. Pending requests past their ' +
          'expiry are shown (and stored) as `expired`. Tokens are never shown.',
        params: idParams('edition_id'),
        querystring: RequestListQuery,
        response: {
          200: listEnvelope(SignatureRequest, SIGNATURE_REQUEST_EXAMPLE, 'events'),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request) =>
      paginated(
        request,
        await signatures.listRequests(
          db,
          request.params.edition_id,
          actorOf(request),
          request.query.status,
          pageWindow(request.query),
        ),
      ),
  );

  app.get(
    '/signature-requests/by-token',
    {
      preParsing: requestToken,
      schema: {
        tags,
        operationId: 'getSignatureRequestByToken',
        summary: 'Open a signature request by its token',
        description:
          `${BY_TOKEN} The request and what it asks to sign (edition name and dates, event name), without ` +
          'organizer data. A request already completed, denied or cancelled is shown with that status until ' +
          'its link expires.',
        querystring: TokenQuery,
        response: {
          200: envelope(SignatureRequestView, REQUEST_VIEW_EXAMPLE, 'events'),
          ...errorResponses(400, 401),
        },
      },
    },
    async (request) => ok(request, await signatures.getRequestByToken(db, request.query.token)),
  );

  app.post(
    '/signature-requests/fulfill',
    {
      preParsing: requestToken,
      schema: {
        tags,
        operationId: 'fulfillSignatureRequest',
        summary: 'Sign a signature request',
        description:
          `${BY_TOKEN} \`image_url\` is an http(s) URL (kept as given, never fetched) or a ` +
          '`data:image/png;base64,…` URL of a PNG of at most 512 KiB. A PNG is normalised once, here: scaled ' +
          'down to fit 600 × 200 px (aspect kept) and re-encoded as an 8-bit PNG (grey or colour, with alpha ' +
          'only when some pixel is not opaque); the signature keeps that image. A PNG that cannot be read (not ' +
          '8 bits per channel, interlaced, corrupt, over 4096 px a side or 2,000,000 pixels) is 400. The ' +
          'request becomes `completed` and the signature is created together. The answer carries ' +
          '`revoke_token` (valid 365 days) this once. 409 unless the request is pending; 503 with ' +
          '`Retry-After` when too many images and documents are waiting to be prepared.',
        querystring: TokenQuery,
        body: FulfilBody,
        response: {
          201: envelope(FulfilledSignature, FULFILLED_EXAMPLE, 'events', 201),
          ...errorResponses(400, 401, withReasons(409, 'request_not_pending'), 503),
        },
      },
    },
    async (request, reply) =>
      created(
        request,
        reply,
        await signatures.fulfilRequest(db, documents, request.query.token, request.body),
      ),
  );

  app.post(
    '/signature-requests/deny',
    {
      // The body may be omitted: no body reads as `{}` (JSON `null` is still refused).
      config: { bodyOptional: true },
      preParsing: requestToken,
      schema: {
        tags,
        operationId: 'denySignatureRequest',
        summary: 'Decline a signature request',
        description: `${BY_TOKEN} The request becomes \`denied\` with the optional \`reason\` (at most 1000 characters; the body may be omitted). 409 unless the request is pending.`,
        querystring: TokenQuery,
        body: ReasonBody,
        response: {
          200: envelope(
            SignatureRequestView,
            {
              ...REQUEST_VIEW_EXAMPLE,
              status: 'denied',
              reason: 'I did not take part in this edition',
              decided_at: '2026-11-23T09:30:00.000Z',
            },
            'events',
          ),
          ...errorResponses(400, 401, withReasons(409, 'request_not_pending')),
        },
      },
    },
    async (request) => ok(request, await signatures.denyRequest(db, request.query.token, request.body)),
  );

  app.post(
    '/signature-requests/:request_id/cancel',
    {
      config: { auth: 'required', bodyOptional: true },
      schema: {
        tags,
        operationId: 'cancelSignatureRequest',
        summary: 'Cancel a signature request',
        description:
          'Owner or admin of the event. The request becomes `cancelled` with the optional `reason` (the body may ' +
          'be omitted); its link then shows it as cancelled. 409 unless the request is pending (an expired one ' +
          'is not).',
        params: idParams('request_id'),
        body: ReasonBody,
        response: {
          200: envelope(
            SignatureRequest,
            { ...SIGNATURE_REQUEST_EXAMPLE, status: 'cancelled', decided_at: '2026-11-23T09:30:00.000Z' },
            'events',
          ),
          ...errorResponses(400, 401, 403, 404, withReasons(409, 'request_not_pending')),
        },
      },
    },
    async (request) =>
      ok(
        request,
        await signatures.cancelRequest(db, request.params.request_id, actorOf(request), request.body),
      ),
  );

  app.get(
    '/editions/:edition_id/signatures',
    {
      config: { auth: 'optional' },
      schema: {
        tags,
        operationId: 'listSignatures',
        summary: 'List the signatures of an edition',
        description:
          'Public when the edition and its event are published; members of the event see drafts. Active ' +
          'signatures only, in the order they were given, without e-mails.',
        params: idParams('edition_id'),
        querystring: PageQuerySchema,
        response: {
          200: listEnvelope(Signature, SIGNATURE_EXAMPLE, 'events'),
          ...errorResponses(400, 401, 404),
        },
      },
    },
    async (request) =>
      paginated(
        request,
        await signatures.listSignatures(
          db,
          request.params.edition_id,
          request.actor,
          pageWindow(request.query),
        ),
      ),
  );

  app.post(
    '/signatures/revoke',
    {
      preParsing: revokeToken,
      schema: {
        tags,
        operationId: 'revokeSignature',
        summary: 'Revoke a signature',
        description:
          'No bearer token: authenticated by the revoke token given when signing, in the query parameter ' +
          '`token` only. A missing, malformed, unknown or expired (365 days after signing) token is 401. The ' +
          'signature becomes `revoked`; a second revocation is 409. Takes no body.',
        querystring: TokenQuery,
        response: {
          200: envelope(
            Signature,
            { ...SIGNATURE_EXAMPLE, status: 'revoked', revoked_at: '2026-12-01T12:00:00.000Z' },
            'events',
          ),
          ...errorResponses(400, 401, withReasons(409, 'already_revoked')),
        },
      },
    },
    async (request) => ok(request, await signatures.revokeSignature(db, request.query.token)),
  );
};
