/**
 * Certificates (docs/reference/attendance.md): reading them (the holder, or owners and admins of the event),
 * listing, revoking, and the public verification by code. Their PDFs: certificate-documents.service.ts.
 *
 * Access follows docs/reference/auth.md: a certificate is not public, so to a caller who is neither its
 * holder nor a member of its event it does not exist (404); a member below admin gets 403.
 */
import type { Identity } from '../../../kernel/auth/identity.ts';
import type { Database } from '../../../kernel/db/client.ts';
import type { Window } from '../../../kernel/db/paging.ts';
import { conflict, forbidden, notFound } from '../../../kernel/http/errors.ts';
import { findEditionWithAccess, requireEditionRole } from '../editions/index.ts';
import { isEventRole } from '../events/index.ts';
import { publicHolderName } from '../holder-name.ts';
import type { CertificateView } from './certificates.repository.ts';
import * as repo from './certificates.repository.ts';

export const verifyUrlOf = (publicBaseUrl: string, code: string) => `${publicBaseUrl}/verify/${code}`;

export function certificateOf(view: CertificateView, publicBaseUrl: string) {
  return {
    id: view.id,
    template_id: view.template_id,
    edition_id: view.edition_id,
    user_id: view.user_id,
    holder_name: view.holder_name,
    holder_email: view.holder_email,
    issued_at: view.issued_at.toISOString(),
    status: view.status,
    revoked_at: view.revoked_at?.toISOString() ?? null,
    reason: view.reason,
    verification_code: view.verification_code,
    verify_url: verifyUrlOf(publicBaseUrl, view.verification_code),
    certificate_name: view.template_name,
    edition_name: view.edition_name,
    event_name: view.event_name,
    pdf_url: `${publicBaseUrl}/certificates/${view.id}/pdf`,
    credential_url: `${publicBaseUrl}/certificates/${view.id}/credential`,
  };
}

/**
 * A certificate an owner or admin of its event may act on: unknown (404) to anyone without a role
 * in the event, 403 to members below admin. The holder passes when `holderMay`, else gets 403.
 */
async function requireCertificate(
  db: Database,
  certificateId: string,
  actor: Identity,
  holderMay: boolean,
): Promise<CertificateView> {
  const view = await repo.findCertificate(db, certificateId);
  if (view === undefined) throw notFound('Certificate');
  const isHolder = view.user_id === actor.userId;
  if (holderMay && isHolder) return view;
  const access = await findEditionWithAccess(db, view.edition_id, actor.userId);
  // The holder knows the certificate exists: lacking the role, they get a 403, not a 404.
  if (access?.role === undefined && !isHolder) throw notFound('Certificate');
  if (!isEventRole(access?.role, 'admin')) throw forbidden();
  return view;
}

/** The certificate, for its holder or for owners and admins of its event. */
export const requireReadableCertificate = (db: Database, certificateId: string, actor: Identity) =>
  requireCertificate(db, certificateId, actor, true);

export async function getCertificate(
  db: Database,
  publicBaseUrl: string,
  certificateId: string,
  actor: Identity,
) {
  return certificateOf(await requireReadableCertificate(db, certificateId, actor), publicBaseUrl);
}

export async function listEditionCertificates(
  db: Database,
  publicBaseUrl: string,
  editionId: string,
  actor: Identity,
  window: Window,
  filter: repo.CertificateFilter = {},
) {
  await requireEditionRole(db, editionId, actor, 'admin');
  const page = await repo.listCertificatesOfEdition(db, editionId, window, filter);
  return { ...page, items: page.items.map((view) => certificateOf(view, publicBaseUrl)) };
}

export async function listMyCertificates(
  db: Database,
  publicBaseUrl: string,
  actor: Identity,
  window: Window,
) {
  const page = await repo.listCertificatesOfUser(db, actor.userId, window);
  return { ...page, items: page.items.map((view) => certificateOf(view, publicBaseUrl)) };
}

export async function revokeCertificate(
  db: Database,
  publicBaseUrl: string,
  certificateId: string,
  actor: Identity,
  reason: string,
) {
  const view = await requireCertificate(db, certificateId, actor, false);
  const revoked = await db.transaction((tx) =>
    repo.revokeCertificate(tx, certificateId, actor.userId, reason),
  );
  if (revoked === undefined) throw conflict('already_revoked', 'This certificate is already revoked');
  return certificateOf({ ...view, ...revoked }, publicBaseUrl);
}

/**
 * The public verdict on a verification code; an unknown code is 404. The holder is named as every
 * public artefact names them: a certificate issued without a name stored the e-mail as its
 * holder name, masked here when read.
 */
export async function verify(db: Database, code: string) {
  const view = /^[A-Za-z0-9_-]{1,64}$/.test(code) ? await repo.findCertificateByCode(db, code) : undefined;
  if (view === undefined) throw notFound('Certificate');
  return {
    valid: view.status === 'valid',
    status: view.status,
    holder_name: publicHolderName(view.holder_name, view.holder_email),
    certificate_name: view.template_name,
    edition_name: view.edition_name,
    event_name: view.event_name,
    issued_at: view.issued_at.toISOString(),
    revoked_at: view.revoked_at?.toISOString() ?? null,
    reason: view.reason,
  };
}
