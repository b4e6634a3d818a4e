/**
 * Routes of the verifiable credentials (docs/reference/attendance.md): a certificate's Open Badges 3.0
 * credential, the public status lists and the issuer's DID document. Their bodies are the documents
 * themselves (a JWT, a DID document), as verifiers expect, not the envelope; errors are the envelope. The two
 * public documents carry an `ETag` (304 when it matches) and may be read from any origin, by verifiers
 * running in a browser (kernel/http/cors.ts).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { actorOf } from '../../../kernel/auth/plugin.ts';
import { anyOrigin, anyOriginPreflight } from '../../../kernel/http/cors.ts';
import { matchesEtag, precomputed } from '../../../kernel/http/precomputed.ts';
import { errorResponses, idParams } from '../../../kernel/http/schemas.ts';
import type { IssuerKey } from '../../../kernel/vc-issuer/issuer-key.ts';
import type { EventsDeps } from '../deps.ts';
import { didDocument } from './verifiable-credentials/did-document.ts';
import { createStatusLists, credentialOf } from './verifiable-credentials.service.ts';

const tags = ['Certificates'];
const DID_EXAMPLE = {
  '@context': ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/multikey/v1'],
  id: 'did:web:api.convene.example',
  verificationMethod: [
    {
      id: 'did:web:api.convene.example#Qm7kx3sVfXv0tZr6n2eUq9yLw1cB8dHaJpO4gT5iMfE',
      type: 'Multikey',
      controller: 'did:web:api.convene.example',
      publicKeyMultibase: 'z6MkiTBz1ymuepAQ4HEHYSF1H8quG5GLVVQR3djdX3mDooWp',
    },
  ],
  assertionMethod: ['did:web:api.convene.example#Qm7kx3sVfXv0tZr6n2eUq9yLw1cB8dHaJpO4gT5iMfE'],
};
const VC_JWT = 'application/vc+jwt';
const NOT_MODIFIED = { 304: Type.Null({ description: 'Not modified: the `If-None-Match` ETag is current' }) };
const jwtResponse = (description: string) => ({
  description,
  content: {
    [VC_JWT]: {
      schema: Type.String({ description: 'a compact JWS (header.payload.signature)' }),
      example:
        'eyJhbGciOiJFZERTQSIsInR5cCI6InZjK2p3dCIsImtpZCI6ImRpZDp3ZWI6YXBpLmNvbnZlbmUuZXhhbXBsZSPigKYifQ.eyLigKYifQ.c2lnbmF0dXJl',
    },
  },
});

/** What the credentials' routes are given (index.ts): the key that signs credentials and status lists. */
export interface CredentialsContext extends EventsDeps {
  issuer: IssuerKey;
}

export const credentialRoutes: FastifyPluginAsyncTypebox<CredentialsContext> = async (
  app,
  { db, issuer, config },
) => {
  const deps = { db, issuer, publicBaseUrl: config.publicBaseUrl };
  const statusLists = createStatusLists(deps);
  // The DID document changes only with the key: built once, served from memory with its ETag.
  const did = didDocument(issuer) as unknown as Record<string, unknown>;
  const serveDid = precomputed('application/did+json', () => JSON.stringify(did));

  app.get(
    '/certificates/:certificate_id/credential',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'getCertificateCredential',
        summary: "A certificate's Open Badges 3.0 credential (VC-JWT)",
        description:
          'The holder, or an owner or admin of the event. The body is an `OpenBadgeCredential` (Verifiable ' +
          'Credentials Data Model 2.0) signed as a JWT (`alg` `EdDSA`, `typ` `vc+jwt`) by the issuer ' +
          '`did:web:<host of PUBLIC_BASE_URL>`, whose key is at `/.well-known/did.json`. Its `credentialStatus` ' +
          'is a `BitstringStatusListEntry` in the list at `/credentials/status/{list_id}`: a revoked certificate ' +
          'has its bit set there. Anyone can verify it with the DID document: docs/features.md, "Verifying a credential", ' +
          "gives a holder's command (`did-jwt-vc` needs `policies.format` off: its format check is the 1.1 data " +
          "model's, whose context a 2.0 credential does not carry).",
        params: idParams('certificate_id'),
        response: { 200: jwtResponse('The credential as a VC-JWT'), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) =>
      reply.type(VC_JWT).send(await credentialOf(deps, request.params.certificate_id, actorOf(request))),
  );

  app.get(
    '/credentials/status/:list_id',
    {
      onSend: anyOrigin,
      schema: {
        tags,
        operationId: 'getCredentialStatusList',
        summary: 'A credential status list (Bitstring Status List)',
        description:
          'Public. A signed `BitstringStatusListCredential` (W3C Bitstring Status List v1.0, `statusPurpose` ' +
          '`revocation`): `credentialSubject.encodedList` is the GZIP-compressed bitstring of 131,072 entries, ' +
          'base64url with the Multibase prefix `u`; bit `statusListIndex` is 1 when that certificate is revoked. ' +
          'Cacheable for a minute (`cache-control: public, max-age=60`); its `ETag` names the version (each ' +
          'revocation makes a new one), and `If-None-Match` with it answers 304. Readable from any origin ' +
          '(`Access-Control-Allow-Origin: *`), for verifiers running in a browser.',
        params: idParams('list_id'),
        response: {
          200: jwtResponse('The status list credential as a VC-JWT'),
          ...NOT_MODIFIED,
          ...errorResponses(400, 404),
        },
      },
    },
    async (request, reply) => {
      const { jwt, etag } = await statusLists.credential(request.params.list_id);
      reply.header('cache-control', 'public, max-age=60').header('etag', etag);
      if (matchesEtag(request.headers['if-none-match'], etag)) return reply.code(304).send(null);
      return reply.type(VC_JWT).send(jwt);
    },
  );
  anyOriginPreflight(app, '/credentials/status/:list_id', {
    module: 'events',
    tags,
    operationId: 'preflightCredentialStatusList',
    what: 'a credential status list',
    params: idParams('list_id'),
  });

  app.get(
    '/.well-known/did.json',
    {
      onSend: anyOrigin,
      schema: {
        tags,
        operationId: 'getIssuerDidDocument',
        summary: "The issuer's DID document (did:web)",
        description:
          'Public. The DID document of `did:web:<host of PUBLIC_BASE_URL>`: the Ed25519 key that signs ' +
          'credentials, as a `Multikey` in `assertionMethod`. What a did:web resolver fetches. Carries an ' +
          '`ETag` (`If-None-Match` gets a 304) and may be read from any origin (`Access-Control-Allow-Origin: *`).',
        response: {
          200: {
            description: 'The DID document',
            content: {
              'application/did+json': {
                schema: Type.Record(Type.String(), Type.Unknown()),
                example: DID_EXAMPLE,
              },
            },
          },
          ...NOT_MODIFIED,
        },
      },
    },
    serveDid,
  );
  anyOriginPreflight(app, '/.well-known/did.json', {
    module: 'events',
    tags,
    operationId: 'preflightIssuerDidDocument',
    what: "the issuer's DID document",
  });
};
