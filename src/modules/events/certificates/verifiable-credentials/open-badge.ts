/**
 * Signed credentials (docs/reference/attendance.md): a certificate as an Open Badges 3.0
 * `OpenBadgeCredential`, and a revocation list as a `BitstringStatusListCredential`, both
 * Verifiable Credentials Data Model 2.0 documents secured as VC-JOSE-COSE "vc+jwt": the credential
 * itself is the JWT payload (no VCDM 1.1 `vc` claim), signed EdDSA (Ed25519) with the issuer key.
 *
 * Specifications followed, cited below by section:
 * - [OB] Open Badges 3.0 (1EdTech, document 1.2, Dec 2024) and its JSON-LD context 3.0.3;
 * - [VCDM] Verifiable Credentials Data Model v2.0 (W3C Recommendation, May 2025);
 * - [JOSE] Securing Verifiable Credentials using JOSE and COSE (W3C Recommendation, May 2025);
 * - [BSL] Bitstring Status List v1.0 (W3C Recommendation, May 2025).
 */
import { createHash } from 'node:crypto';
import { SignJWT } from 'jose';
import type { IssuerKey } from '../../../../kernel/vc-issuer/issuer-key.ts';
import { encodeStatusList } from './status-list.ts';

const VC_CONTEXT = 'https://www.w3.org/ns/credentials/v2';
/** [OB] §"Serialization": OB credentials MUST carry both contexts; 3.0.3 is the current one. */
const OB_CONTEXT = 'https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json';

export type AchievementKind = 'edition_attendance' | 'program_attendance';

/**
 * [OB] AchievementType is an extensible vocabulary; attending an edition or a set of programs is
 * "completion of an assignment, training or other activity", its `CertificateOfCompletion`.
 */
const ACHIEVEMENT_TYPE: Record<AchievementKind, string> = {
  edition_attendance: 'CertificateOfCompletion',
  program_attendance: 'CertificateOfCompletion',
};

export interface OpenBadgeInput {
  certificateId: string;
  /** The credential's `id` (and JWT `jti`): PUBLIC_BASE_URL/certificates/<id>/credential or urn:uuid:<id>. */
  credentialUrl: string;
  /** The public verification page (docs/reference/attendance.md, `/verify/{code}`). */
  verifyUrl: string;
  issuerName: string;
  issuerUrl: string;
  /** The name the holder gave, or null: the credential then names them by the e-mail's hash alone. */
  holderName: string | null;
  holderEmail: string;
  /** The certificate template. */
  achievement: {
    /** A URL naming the template. */
    id: string;
    name: string;
    description: string | null;
    criteriaNarrative: string;
    kind: AchievementKind;
  };
  editionName: string;
  eventName: string;
  activityStartDate?: Date;
  activityEndDate?: Date;
  issuedAt: Date;
  /** The certificate's bit: the list credential's URL and the index in it. */
  status: { listUrl: string; index: number };
}

export interface StatusListInput {
  /** PUBLIC_BASE_URL/credentials/status/{list_id}: the credential's `id` and where it is served. */
  listUrl: string;
  /** The indexes of revoked certificates. */
  setIndices: Iterable<number>;
  validFrom: Date;
  size?: number;
}

/** The unsigned OpenBadgeCredential: the exact JWT payload, less the JWT registered claims. */
export function buildOpenBadgeCredential(key: IssuerKey, input: OpenBadgeInput): Record<string, unknown> {
  const { index } = input.status;
  // A bad index would sign a credential whose revocation could never be read.
  if (!Number.isInteger(index) || index < 0) throw new RangeError(`status list index ${index} is not valid`);
  const occasion = `${input.editionName} — ${input.eventName}`;
  return {
    '@context': [VC_CONTEXT, OB_CONTEXT],
    id: input.credentialUrl,
    type: ['VerifiableCredential', 'OpenBadgeCredential'],
    // [OB] Profile: `id` and `type` required; the issuer's id is the DID that signs.
    issuer: { id: key.did, type: ['Profile'], name: input.issuerName, url: input.issuerUrl },
    name: input.achievement.name,
    description: occasion,
    validFrom: xsdDateTime(input.issuedAt),
    // [OB] AchievementCredential.awardedDate keeps the award date should validFrom ever move.
    awardedDate: xsdDateTime(input.issuedAt),
    credentialSubject: {
      type: ['AchievementSubject'],
      // [OB] AchievementSubject: "Either `id` or at least one `identifier` MUST be supplied". A holder
      // has no DID here, so no `id` (and no JWT `sub`); the identifiers below name them instead.
      // The e-mail only ever travels hashed: without a name of theirs, the hash is all there is.
      identifier: [
        emailIdentity(input.holderEmail, input.certificateId),
        ...(input.holderName === null ? [] : [nameIdentity(input.holderName)]),
      ],
      ...(input.activityStartDate && { activityStartDate: xsdDateTime(input.activityStartDate) }),
      ...(input.activityEndDate && { activityEndDate: xsdDateTime(input.activityEndDate) }),
      achievement: {
        id: input.achievement.id,
        type: ['Achievement'],
        achievementType: ACHIEVEMENT_TYPE[input.achievement.kind],
        name: input.achievement.name,
        // [OB] Achievement.description is required (1), the template's is optional.
        description: input.achievement.description ?? occasion,
        criteria: { narrative: input.achievement.criteriaNarrative },
      },
    },
    // [OB] Evidence.id: "the URL of a webpage presenting evidence of achievement"; the public
    // verification page shows the holder, the edition and the certificate's current status.
    evidence: [{ id: input.verifyUrl, type: ['Evidence'], name: 'Verification page' }],
    // [BSL] §2.1: `id` is a URL for this entry and MUST NOT be the list's URL (the fragment makes
    // it differ, as in the specification's examples); the index is a base-10 string.
    credentialStatus: {
      id: `${input.status.listUrl}#${input.status.index}`,
      type: 'BitstringStatusListEntry',
      statusPurpose: 'revocation',
      statusListIndex: String(input.status.index),
      statusListCredential: input.status.listUrl,
    },
  };
}

/** The OpenBadgeCredential as a compact JWS (`application/vc+jwt`). */
export async function signOpenBadgeCredential(key: IssuerKey, input: OpenBadgeInput): Promise<string> {
  return signCredential(key, buildOpenBadgeCredential(key, input), {
    id: input.credentialUrl,
    validFrom: input.issuedAt,
    hasNotBefore: true,
  });
}

/** The unsigned BitstringStatusListCredential ([BSL] §2.2). */
export function buildStatusListCredential(key: IssuerKey, input: StatusListInput): Record<string, unknown> {
  return {
    '@context': [VC_CONTEXT],
    id: input.listUrl,
    type: ['VerifiableCredential', 'BitstringStatusListCredential'],
    issuer: key.did,
    validFrom: xsdDateTime(input.validFrom),
    credentialSubject: {
      id: `${input.listUrl}#list`,
      type: 'BitstringStatusList',
      statusPurpose: 'revocation',
      encodedList: encodeStatusList(input.setIndices, input.size),
    },
  };
}

/** The status list credential as a compact JWS (`application/vc+jwt`). */
export async function signStatusListCredential(key: IssuerKey, input: StatusListInput): Promise<string> {
  return signCredential(key, buildStatusListCredential(key, input), {
    id: input.listUrl,
    validFrom: input.validFrom,
    hasNotBefore: false,
  });
}

/**
 * The credential as the JWT payload, with the registered claims that mirror it ([JOSE] §3.1.3: never
 * in conflict with the credential): `iss` = issuer id, `jti` = credential id, `iat` = validFrom.
 * `sub` would mirror `credentialSubject.id`, which these credentials do not have.
 *
 * `nbf` differs by kind. [OB] §"JWT Payload Format" requires it (= validFrom) on an
 * OpenBadgeCredential, so badges carry it; [JOSE] §3.1.3 calls it NOT RECOMMENDED, so the status
 * list, which is no badge, goes without: a list re-signed a moment ago must not be refused by a
 * verifier whose clock runs behind.
 *
 * The header is [JOSE] §3.1.1's: `typ` `vc+jwt`, the media type the service serves
 * (docs/reference/attendance.md). [OB] §"Create the JOSE Header", written for VCDM 1.1 JWTs, asks `typ` to be
 * "JWT" when present; the VCDM 2.0 securing specification wins there. No header beyond `alg`, `kid` and `typ`
 * is set, as [OB] requires.
 */
async function signCredential(
  key: IssuerKey,
  credential: Record<string, unknown>,
  claims: { id: string; validFrom: Date; hasNotBefore: boolean },
): Promise<string> {
  const seconds = Math.floor(claims.validFrom.getTime() / 1000);
  const jwt = new SignJWT(credential)
    .setProtectedHeader({ alg: 'EdDSA', typ: 'vc+jwt', kid: key.kid })
    .setIssuer(key.did)
    .setJti(claims.id)
    .setIssuedAt(seconds);
  if (claims.hasNotBefore) jwt.setNotBefore(seconds);
  return jwt.sign(key.privateKey);
}

/**
 * [OB] IdentityObject with an IdentityHash: `sha256$` + hex SHA-256 of the identifier followed by
 * the salt. The address is lower-cased first, the form a verifier who types it in will hash. The
 * salt is the certificate id: unique per credential, which is what defeats precomputed tables
 * (salts are public by design), and stable, so signing the same certificate twice gives the same
 * credential.
 */
function emailIdentity(email: string, salt: string) {
  const known = email.trim().toLowerCase();
  const digest = createHash('sha256').update(`${known}${salt}`, 'utf8').digest('hex');
  return {
    type: 'IdentityObject',
    identityHash: `sha256$${digest}`,
    identityType: 'emailAddress',
    hashed: true,
    salt,
  };
}

/**
 * The holder's name in clear (`hashed: false`), as the OB Implementation Guide suggests for a
 * recipient whose e-mail may not last; `name` is a member of [OB] IdentifierTypeEnum.
 */
function nameIdentity(name: string) {
  return { type: 'IdentityObject', identityHash: name, identityType: 'name', hashed: false };
}

/** An xsd:dateTime in UTC to the second, so `validFrom` equals the JWT's `nbf`/`iat` exactly. */
function xsdDateTime(date: Date): string {
  return new Date(Math.floor(date.getTime() / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}
