/**
 * A certificate's PDF as a document (docs/features.md, "Attendance and certificates"): rendered once per
 * version, stored, and served from storage afterwards.
 *
 * 1. The version is the certificate's state: `issued` while valid, `revoked` once revoked (that
 *    one carries the revoked mark with the date and reason). A stored version is served as is:
 *    later edits of the template, the edition or the signatures do not change it.
 * 2. Not stored yet: rendered in a worker thread (documents.worker.ts), never on the event loop,
 *    from the certificate's row, its template, edition and event, and the signatures recorded at
 *    issuance (`signature_ids`, drawn even if revoked since; for certificates issued before those
 *    were recorded, the signatures active at `issued_at`).
 * 3. Concurrent first requests for one version render once: in this process they wait for the
 *    same rendering; across processes the table's primary key keeps the first stored and the
 *    others serve it (certificate-documents.repository.ts).
 */
import { createHash } from 'node:crypto';
import type { Identity } from '../../../kernel/auth/identity.ts';
import type { Database } from '../../../kernel/db/client.ts';
import { notFound } from '../../../kernel/http/errors.ts';
import { asBuffer } from '../../../kernel/workers/pool.ts';
import { checkDesignSize, type PreviewCertificationTemplateBody } from '../certification-templates/index.ts';
import { requireEditionRole } from '../editions/index.ts';
import { publicHolderName } from '../holder-name.ts';
import { signaturesActiveAt, signaturesByIds } from '../signatures/index.ts';
import type { CertificatePdfData, CertificatePdfRenderer } from './certificate.pdf.ts';
import { MAX_SIGNATURES } from './certificate.signatures.ts';
import {
  type DocumentVersion,
  findDocument,
  type StoredDocument,
  storeDocument,
} from './certificate-documents.repository.ts';
import type { CertificateView, TemplateForPreview } from './certificates.repository.ts';
import { findTemplateForPreview, linkedProgramNames } from './certificates.repository.ts';
import { requireReadableCertificate, verifyUrlOf } from './certificates.service.ts';

export type { StoredDocument } from './certificate-documents.repository.ts';

export interface CertificateDocuments {
  /** The stored PDF of the certificate's current version, rendered and stored first if needed. */
  documentOf(view: CertificateView): Promise<StoredDocument>;
  /** A template drawn as a certificate issued now would be, with `edits` over its fields; not stored. */
  previewOf(template: TemplateForPreview, edits: PreviewCertificationTemplateBody): Promise<Buffer>;
}

/** The holder a preview draws when none is given. */
const SAMPLE_HOLDER = 'Ana Souza';
/** A preview's verification code: no certificate has it (codes are random, of another shape). */
const PREVIEW_CODE = 'PREVIEW';

export function createCertificateDocuments(
  db: Database,
  documents: CertificatePdfRenderer,
  publicBaseUrl: string,
): CertificateDocuments {
  const rendering = new Map<string, Promise<StoredDocument>>();

  async function renderAndStore(view: CertificateView, version: DocumentVersion): Promise<StoredDocument> {
    const data = await pdfData(db, view, publicBaseUrl);
    const pdf = asBuffer(await documents.run('certificatePdf', data));
    const etag = `"${createHash('sha256').update(pdf).digest('base64url').slice(0, 32)}"`;
    return storeDocument(db, view.id, version, { pdf, etag });
  }

  return {
    async previewOf(template, edits) {
      const [programs, signatures] = await Promise.all([
        template.kind === 'program_attendance' ? linkedProgramNames(db, template.id) : [],
        signaturesActiveAt(db, template.edition_id, new Date(), MAX_SIGNATURES),
      ]);
      const data: CertificatePdfData = {
        certificate_id: template.id,
        holder_name: edits.holder_name ?? SAMPLE_HOLDER,
        template: {
          name: edits.name ?? template.name,
          description: edits.description === undefined ? template.description : edits.description,
          kind: template.kind,
          design_data: edits.design_data ?? template.design_data,
        },
        edition: {
          name: template.edition_name,
          starts_at: template.edition_starts_at,
          ends_at: template.edition_ends_at,
          location_name: template.edition_location,
        },
        event: { name: template.event_name },
        programs,
        issued_at: new Date(),
        verification_code: PREVIEW_CODE,
        verify_url: verifyUrlOf(publicBaseUrl, PREVIEW_CODE),
        signatures: signatures.map(({ signatory_name, signatory_title, image_url }) => ({
          signatory_name,
          signatory_title,
          image_url,
        })),
        revoked: null,
      };
      return asBuffer(await documents.run('certificatePdf', data));
    },

    async documentOf(view) {
      const version: DocumentVersion = view.status === 'revoked' ? 'revoked' : 'issued';
      const stored = await findDocument(db, view.id, version);
      if (stored !== undefined) return stored;
      const key = `${view.id}/${version}`;
      let pending = rendering.get(key);
      if (pending === undefined) {
        pending = renderAndStore(view, version).finally(() => rendering.delete(key));
        rendering.set(key, pending);
      }
      return pending;
    },
  };
}

/** The certificate's PDF, for its holder or owners and admins of its event (else 404/403). */
export async function certificatePdf(
  db: Database,
  pdfs: CertificateDocuments,
  certificateId: string,
  actor: Identity,
): Promise<StoredDocument> {
  return pdfs.documentOf(await requireReadableCertificate(db, certificateId, actor));
}

/**
 * A template's preview for an owner or admin of its edition (404 for a template that is not, or no
 * longer, there; the edition's role rules otherwise), its edits within the templates' size rule.
 */
export async function templatePreviewPdf(
  db: Database,
  pdfs: CertificateDocuments,
  templateId: string,
  actor: Identity,
  edits: PreviewCertificationTemplateBody,
): Promise<Buffer> {
  const template = await findTemplateForPreview(db, templateId);
  if (template === undefined) throw notFound('Certification template');
  await requireEditionRole(db, template.edition_id, actor, 'admin');
  checkDesignSize(edits.design_data);
  return pdfs.previewOf(template, edits);
}

/** What the renderer draws for a certificate (certificate.pdf.ts). */
async function pdfData(
  db: Database,
  view: CertificateView,
  publicBaseUrl: string,
): Promise<CertificatePdfData> {
  const [programs, signatures] = await Promise.all([
    view.template_kind === 'program_attendance' ? linkedProgramNames(db, view.template_id) : [],
    view.signature_ids === null
      ? signaturesActiveAt(db, view.edition_id, view.issued_at, MAX_SIGNATURES)
      : signaturesByIds(db, view.signature_ids),
  ]);
  return {
    certificate_id: view.id,
    // A printed certificate is shown to anyone: a name, or the e-mail masked (holder-name.ts).
    holder_name: publicHolderName(view.holder_name, view.holder_email),
    template: {
      name: view.template_name,
      description: view.template_description,
      kind: view.template_kind,
      design_data: view.template_design,
    },
    edition: {
      name: view.edition_name,
      starts_at: view.edition_starts_at,
      ends_at: view.edition_ends_at,
      location_name: view.edition_location,
    },
    event: { name: view.event_name },
    programs,
    issued_at: view.issued_at,
    verification_code: view.verification_code,
    verify_url: verifyUrlOf(publicBaseUrl, view.verification_code),
    signatures: signatures.map(({ signatory_name, signatory_title, image_url }) => ({
      signatory_name,
      signatory_title,
      image_url,
    })),
    revoked:
      view.status === 'revoked' && view.revoked_at !== null
        ? { at: view.revoked_at, reason: view.reason }
        : null,
  };
}
