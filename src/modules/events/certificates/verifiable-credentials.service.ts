/**
 * The verifiable side of certificates (docs/reference/attendance.md): each certificate's Open Badges
 * 3.0 credential, the signed Bitstring status lists its revocation bit lives in, and the issuer's
 * DID document. Signing is credentials/open-badge.ts; this file gathers what goes in.
 *
 * A status list is signed when asked for and kept, per list and version (`updated_at` moves on
 * every revocation), in a small LRU: verifiers fetch it far more often than anything revokes. The
 * version, with the signing key's thumbprint, is also the list's `ETag`, so a verifier that has it
 * gets a 304.
 */
import { LRUCache } from 'lru-cache';
import type { Identity } from '../../../kernel/auth/identity.ts';
import type { Database } from '../../../kernel/db/client.ts';
import { notFound } from '../../../kernel/http/errors.ts';
import type { IssuerKey } from '../../../kernel/vc-issuer/issuer-key.ts';
import { realName } from '../holder-name.ts';
import type { CertificateView } from './certificates.repository.ts';
import * as repo from './certificates.repository.ts';
import { requireReadableCertificate, verifyUrlOf } from './certificates.service.ts';
import { signOpenBadgeCredential, signStatusListCredential } from './verifiable-credentials/open-badge.ts';

export const statusListUrlOf = (publicBaseUrl: string, listId: string) =>
  `${publicBaseUrl}/credentials/status/${listId}`;

function criteria(view: CertificateView, programs: string[]): string {
  const where = `${view.edition_name} of ${view.event_name}`;
  if (view.template_kind === 'edition_attendance') return `Checked in at ${where}.`;
  return `Checked in at every program of this certificate at ${where}: ${programs.join('; ')}.`;
}

export interface CredentialDeps {
  db: Database;
  issuer: IssuerKey;
  publicBaseUrl: string;
}

/** The certificate's OpenBadgeCredential as a VC-JWT, for its holder or owners and admins. */
export async function credentialOf(
  { db, issuer, publicBaseUrl }: CredentialDeps,
  certificateId: string,
  actor: Identity,
): Promise<string> {
  const view = await requireReadableCertificate(db, certificateId, actor);
  const programs =
    view.template_kind === 'program_attendance' ? await repo.linkedProgramNames(db, view.template_id) : [];
  return signOpenBadgeCredential(issuer, {
    certificateId: view.id,
    credentialUrl: `${publicBaseUrl}/certificates/${view.id}/credential`,
    verifyUrl: verifyUrlOf(publicBaseUrl, view.verification_code),
    issuerName: view.event_name,
    issuerUrl: publicBaseUrl,
    // No name given (the stored name is then the e-mail): the e-mail's salted hash names them alone.
    holderName: realName(view.holder_name),
    holderEmail: view.holder_email,
    achievement: {
      id: `${publicBaseUrl}/certifications/templates/${view.template_id}`,
      name: view.template_name,
      description: view.template_description,
      criteriaNarrative: criteria(view, programs),
      kind: view.template_kind,
    },
    editionName: view.edition_name,
    eventName: view.event_name,
    activityStartDate: view.edition_starts_at,
    activityEndDate: view.edition_ends_at,
    issuedAt: view.issued_at,
    status: { listUrl: statusListUrlOf(publicBaseUrl, view.status_list_id), index: view.status_list_index },
  });
}

export function createStatusLists({ db, issuer, publicBaseUrl }: CredentialDeps) {
  const signed = new LRUCache<string, string>({ max: 64 });
  // The signing key is part of the version a verifier caches: after the issuer key is replaced, a
  // copy signed with the old one must not be confirmed by a 304.
  const keyTag = issuer.kid.slice(issuer.kid.indexOf('#') + 1, issuer.kid.indexOf('#') + 9);
  return {
    /** The signed BitstringStatusListCredential of a list and its ETag; an unknown list is 404. */
    async credential(listId: string): Promise<{ jwt: string; etag: string }> {
      const list = await repo.findStatusList(db, listId);
      if (list === undefined) throw notFound('Status list');
      const key = `${list.id}@${list.updated_at.getTime()}`;
      let jwt = signed.get(key);
      if (jwt === undefined) {
        jwt = await signStatusListCredential(issuer, {
          listUrl: statusListUrlOf(publicBaseUrl, list.id),
          setIndices: list.revoked,
          validFrom: list.updated_at,
          size: list.size,
        });
        signed.set(key, jwt);
      }
      return { jwt, etag: `"${keyTag}-${list.updated_at.getTime().toString(36)}"` };
    },
  };
}
