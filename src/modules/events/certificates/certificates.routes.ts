/** Routes of docs/reference/attendance.md: issuing certificates, reading, revoking and verifying them. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { actorOf } from '../../../kernel/auth/plugin.ts';
import { matchesEtag } from '../../../kernel/http/precomputed.ts';
import { accepted, ok, pageWindow, sendPage } from '../../../kernel/http/respond.ts';
import {
  envelope,
  errorResponses,
  idParams,
  listEnvelope,
  PageQuerySchema,
  withReasons,
} from '../../../kernel/http/schemas.ts';
import { pickLanguage, prefersHtml } from '../../../kernel/pages/language.ts';
import { sendHtml } from '../../../kernel/pages/layout.ts';
import { PreviewCertificationTemplateBody } from '../certification-templates/index.ts';
import type { EventsDeps } from '../deps.ts';
import * as documents from './certificate-documents.service.ts';
import {
  CERTIFICATE_EXAMPLE,
  Certificate,
  CertificateListQuery,
  ISSUANCE_EXAMPLE,
  IssueAccepted,
  IssueBody,
  RevokeBody,
  VERIFICATION_EXAMPLE,
  Verification,
  VerifyParams,
} from './certificates.schemas.ts';
import * as certificates from './certificates.service.ts';
import * as issuance from './issuance.service.ts';
import { verifyPage } from './verify.page.ts';

const tags = ['Certificates'];
const QUEUED_EXAMPLE = {
  ...ISSUANCE_EXAMPLE,
  status: 'queued',
  total: 0,
  done: 0,
  issued: 0,
  skipped: 0,
  started_at: null,
};
const HOLDER_OR_ADMIN =
  'The holder, or an owner or admin of the event (403 to other members; 404 to anyone without a role in the event).';

/**
 * What the certificates' routes are given (index.ts): their stored PDFs, rendered in a thread (the
 * same documents the certificate mails attach).
 */
export interface CertificatesContext extends EventsDeps {
  pdfs: documents.CertificateDocuments;
}

export const certificateRoutes: FastifyPluginAsyncTypebox<CertificatesContext> = async (
  app,
  { db, jobs, config, pdfs },
) => {
  const base = config.publicBaseUrl;

  app.post(
    '/editions/:edition_id/certificates/issue',
    {
      config: { auth: 'required', bodyOptional: true },
      schema: {
        tags,
        operationId: 'issueCertificates',
        summary: 'Issue certificates (background job)',
        description:
          'Owner or admin of the event. Answers 202 with `job_id` at once; a background job issues one certificate ' +
          'per template and person who qualifies: `edition_attendance`, a check-in at the edition or at any of its ' +
          'programs; `program_attendance`, a check-in at every program linked to the template. Check-ins of revoked ' +
          'badges do not count. Issuing again adds only the newly qualified (a revoked certificate is not issued ' +
          'again). `template_ids` limits the run to some templates (400 naming `template_ids` when one is not a ' +
          'live template of this edition). Certificates are issued only once the edition has started: before ' +
          'its `starts_at` the answer is 409 with `error.reason` `edition_not_started` and `error.meta` `{starts_at}`, and ' +
          'nothing is queued. Follow the progress at `GET /jobs/{job_id}`.',
        params: idParams('edition_id'),
        body: IssueBody,
        response: {
          202: envelope(IssueAccepted, { job_id: ISSUANCE_EXAMPLE.id, job: QUEUED_EXAMPLE }, 'events', 202),
          ...errorResponses(400, 401, 403, 404, withReasons(409, 'edition_not_started')),
        },
      },
    },
    async (request, reply) => {
      const started = await issuance.startIssuance(
        db,
        jobs,
        request.params.edition_id,
        actorOf(request),
        request.body ?? {},
      );
      return accepted(request, reply, started);
    },
  );

  app.get(
    '/editions/:edition_id/certificates',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'listCertificates',
        summary: "List an edition's certificates",
        description:
          'Owner or admin of the event. Newest first, valid and revoked; `q` finds a holder by a part ' +
          'of their name or e-mail, `status` keeps the valid or the revoked ones.',
        params: idParams('edition_id'),
        querystring: CertificateListQuery,
        response: {
          200: listEnvelope(Certificate, CERTIFICATE_EXAMPLE, 'events'),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request, reply) =>
      sendPage(
        request,
        reply,
        await certificates.listEditionCertificates(
          db,
          base,
          request.params.edition_id,
          actorOf(request),
          pageWindow(request.query),
          { q: request.query.q, status: request.query.status },
        ),
      ),
  );

  app.get(
    '/users/me/certificates',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'listMyCertificates',
        summary: 'My certificates',
        description: "The caller's certificates, newest first, valid and revoked.",
        querystring: PageQuerySchema,
        response: {
          200: listEnvelope(Certificate, CERTIFICATE_EXAMPLE, 'events'),
          ...errorResponses(400, 401),
        },
      },
    },
    async (request, reply) =>
      sendPage(
        request,
        reply,
        await certificates.listMyCertificates(db, base, actorOf(request), pageWindow(request.query)),
      ),
  );

  app.get(
    '/certificates/:certificate_id',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'getCertificate',
        summary: 'Read a certificate',
        description: HOLDER_OR_ADMIN,
        params: idParams('certificate_id'),
        response: {
          200: envelope(Certificate, CERTIFICATE_EXAMPLE, 'events'),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request) =>
      ok(
        request,
        await certificates.getCertificate(db, base, request.params.certificate_id, actorOf(request)),
      ),
  );

  app.get(
    '/certificates/:certificate_id/pdf',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'getCertificatePdf',
        summary: 'A certificate as a PDF',
        description:
          `${HOLDER_OR_ADMIN} One A4 landscape page drawn from the template's \`design_data\` (\`title\`, ` +
          '`subtitle`, `body`, `show_description`, `accent_color`, `text_color`, `background_color`), with the ' +
          "holder's name, the edition and event, their dates, the signatures that were active when the " +
          'certificate was issued (drawn even if revoked since; a `data:image/png` signature as the image, any ' +
          "other as the signatory's name in a script font: no URL is ever fetched) and a QR code of " +
          '`verify_url`. A revoked certificate carries a red "REVOKED" mark with the date and the reason. The ' +
          'PDF is a document: each version (as issued, as revoked) is rendered once, on its first request, ' +
          'stored, and served as stored afterwards, with a strong `ETag` (`If-None-Match` gets a 304) and ' +
          '`Cache-Control: private, no-cache`. 503 with `Retry-After` when too many documents are waiting to ' +
          'be rendered. The body is the PDF itself (`application/pdf`), not an envelope; errors are.',
        params: idParams('certificate_id'),
        response: {
          200: {
            description: 'The certificate as a PDF document',
            content: {
              'application/pdf': { schema: Type.Unsafe<Buffer>({ type: 'string', format: 'binary' }) },
            },
          },
          304: Type.Null({ description: 'Not modified: the `If-None-Match` ETag is the current version' }),
          ...errorResponses(400, 401, 403, 404, 503),
        },
      },
    },
    async (request, reply) => {
      const { pdf, etag } = await documents.certificatePdf(
        db,
        pdfs,
        request.params.certificate_id,
        actorOf(request),
      );
      // private: the PDF needs credentials; no-cache: a revocation must reach a client that kept it.
      reply.header('etag', etag).header('cache-control', 'private, no-cache');
      if (matchesEtag(request.headers['if-none-match'], etag)) return reply.code(304).send(null);
      return reply
        .type('application/pdf')
        .header('content-disposition', `inline; filename="certificate-${request.params.certificate_id}.pdf"`)
        .send(pdf);
    },
  );

  app.post(
    '/certifications/templates/:template_id/preview',
    {
      config: { auth: 'required', bodyOptional: true },
      schema: {
        tags,
        operationId: 'previewCertificationTemplate',
        summary: 'Preview a template as a certificate PDF',
        description:
          'Owner or admin of the event (404 for a template that is not there or was deleted, or whose ' +
          'edition the caller may not read; 403 to anyone else). The template drawn as a certificate issued now would ' +
          'be (the same page as `GET /certificates/{certificate_id}/pdf`), to a sample holder, with the ' +
          'edition’s active signatures, and its verification code `PREVIEW`, which no certificate has. ' +
          'Each field given replaces the template’s own for this drawing only, so an editor can show ' +
          'unsaved changes: nothing is stored. `design_data` keeps the templates’ 256 KiB rule. The body ' +
          'is the PDF itself (`application/pdf`, `Cache-Control: no-store`), not an envelope; errors are. ' +
          '503 with `Retry-After` when too many documents are waiting to be rendered.',
        params: idParams('template_id'),
        body: PreviewCertificationTemplateBody,
        response: {
          200: {
            description: 'The preview as a PDF document',
            content: {
              'application/pdf': { schema: Type.Unsafe<Buffer>({ type: 'string', format: 'binary' }) },
            },
          },
          ...errorResponses(400, 401, 403, 404, 503),
        },
      },
    },
    async (request, reply) => {
      const pdf = await documents.templatePreviewPdf(
        db,
        pdfs,
        request.params.template_id,
        actorOf(request),
        request.body ?? {},
      );
      return reply
        .type('application/pdf')
        .header('cache-control', 'no-store')
        .header('content-disposition', 'inline; filename="certificate-preview.pdf"')
        .send(pdf);
    },
  );

  app.post(
    '/certificates/:certificate_id/revoke',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'revokeCertificate',
        summary: 'Revoke a certificate',
        description:
          'Owner or admin of the event (404 to anyone without a role in it, 403 to staff). The certificate becomes ' +
          '`revoked` with `reason`, verification says so, and its bit in the credential status list is set, so ' +
          'verifiers of the Open Badges credential see it revoked too. 409 when already revoked.',
        params: idParams('certificate_id'),
        body: RevokeBody,
        response: {
          200: envelope(
            Certificate,
            {
              ...CERTIFICATE_EXAMPLE,
              status: 'revoked',
              revoked_at: '2027-06-20T10:00:00.000Z',
              reason: 'Issued by mistake: the attendee did not take part',
            },
            'events',
          ),
          ...errorResponses(400, 401, 403, 404, withReasons(409, 'already_revoked')),
        },
      },
    },
    async (request) =>
      ok(
        request,
        await certificates.revokeCertificate(
          db,
          base,
          request.params.certificate_id,
          actorOf(request),
          request.body.reason,
        ),
      ),
  );

  app.get(
    '/verify/:verification_code',
    {
      schema: {
        tags,
        operationId: 'verifyCertificate',
        summary: 'Verify a certificate',
        description:
          'Public: anyone holding the code (printed on the PDF, in its QR code) sees whether the certificate is ' +
          'valid, whose it is and, when revoked, when and why. An unknown code is 404. A browser (an `Accept` that ' +
          'ranks `text/html` above `application/json`) gets the same as an HTML page in the language of ' +
          '`Accept-Language` (`en`, `pt-BR`, `es`), a 404 page for an unknown code.',
        params: VerifyParams,
        response: {
          200: envelope(Verification, VERIFICATION_EXAMPLE, 'events'),
          ...errorResponses(400, 404),
        },
      },
    },
    async (request, reply) => {
      const lookup = () => certificates.verify(db, request.params.verification_code);
      if (!prefersHtml(request.headers.accept)) return ok(request, await lookup());
      const language = pickLanguage(request.headers['accept-language']);
      const { status, document } = await verifyPage(lookup, language);
      return sendHtml(reply, status, language, document);
    },
  );
};
