/** Schemas of certificates, issuance jobs and verification (docs/reference/attendance.md). */
import { type Static, Type } from 'typebox';
import { DateTime, Nullable, PageQuery, Uuid } from '../../../kernel/http/schemas.ts';

const CertificateStatus = Type.Union([Type.Literal('valid'), Type.Literal('revoked')]);

export const Certificate = Type.Object(
  {
    id: Uuid(),
    template_id: Uuid(),
    edition_id: Uuid(),
    user_id: Uuid(),
    holder_name: Type.String({
      description: "the holder's name when issued (their token's name claim, else e-mail)",
    }),
    holder_email: Type.String(),
    issued_at: DateTime(),
    status: CertificateStatus,
    revoked_at: Nullable(DateTime()),
    reason: Nullable(Type.String({ description: 'why it was revoked' })),
    verification_code: Type.String({
      description: '128 random bits, base64url: anyone holding it can verify',
    }),
    verify_url: Type.String({
      description: '`PUBLIC_BASE_URL/verify/{verification_code}` (the QR code of the PDF)',
    }),
    certificate_name: Type.String({ description: "the template's name" }),
    edition_name: Type.String(),
    event_name: Type.String(),
    pdf_url: Type.String({ description: '`GET /certificates/{id}/pdf`' }),
    credential_url: Type.String({
      description: '`GET /certificates/{id}/credential` (Open Badges 3.0, VC-JWT)',
    }),
  },
  { title: 'Certificate' },
);
export type Certificate = Static<typeof Certificate>;

/** The listing's page and filters (combined with AND). */
export const CertificateListQuery = Type.Object(
  {
    ...PageQuery,
    q: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: 'a part of the holder’s name or e-mail, any case (`?q=souza`)',
      }),
    ),
    status: Type.Optional(CertificateStatus),
  },
  { additionalProperties: false },
);
export type CertificateListQuery = Static<typeof CertificateListQuery>;

export const CERTIFICATE_EXAMPLE: Certificate = {
  id: '01937a80-4444-7000-8000-000000000041',
  template_id: '01937a55-aaaa-7000-8000-000000000030',
  edition_id: '01937a4f-1111-7000-8000-000000000010',
  user_id: '01937a4e-8f2b-7c3d-9e4f-5a6b7c8d9e0f',
  holder_name: 'Ana Souza',
  holder_email: 'ana@example.com',
  issued_at: '2027-06-13T18:00:00.000Z',
  status: 'valid',
  revoked_at: null,
  reason: null,
  verification_code: 'q3Vb9yJ0Zt1uQk4m8Xc2Ww',
  verify_url: 'https://api.convene.example/verify/q3Vb9yJ0Zt1uQk4m8Xc2Ww',
  certificate_name: 'Certificate of attendance',
  edition_name: 'RustConf 2027',
  event_name: 'RustConf',
  pdf_url: 'https://api.convene.example/certificates/01937a80-4444-7000-8000-000000000041/pdf',
  credential_url: 'https://api.convene.example/certificates/01937a80-4444-7000-8000-000000000041/credential',
};

export const IssueBody = Type.Object(
  {
    template_ids: Type.Optional(
      Type.Array(Uuid(), {
        minItems: 1,
        maxItems: 100,
        description: 'templates of this edition to issue; absent: every live template',
      }),
    ),
  },
  {
    additionalProperties: false,
    description: 'optional: the body may be omitted',
    examples: [{ template_ids: ['01937a55-aaaa-7000-8000-000000000030'] }],
  },
);
export type IssueBody = Static<typeof IssueBody>;

export const IssuanceJob = Type.Object({
  id: Uuid(),
  kind: Type.Literal('certificates.issue'),
  edition_id: Uuid(),
  template_ids: Nullable(Type.Array(Uuid())),
  status: Type.Union(
    [Type.Literal('queued'), Type.Literal('running'), Type.Literal('completed'), Type.Literal('failed')],
    { description: '`queued` until a worker picks it up; a failed attempt is retried (see `errors`)' },
  ),
  total: Type.Integer({ description: '(template, person) pairs that qualify' }),
  done: Type.Integer({ description: 'pairs handled so far: issued + skipped' }),
  issued: Type.Integer({ description: 'certificates this run issued' }),
  skipped: Type.Integer({ description: 'pairs that already held a certificate' }),
  errors: Type.Integer({ description: 'attempts that failed and were retried' }),
  last_error: Nullable(Type.String()),
  created_at: DateTime(),
  started_at: Nullable(DateTime()),
  finished_at: Nullable(DateTime()),
});

export const ISSUANCE_EXAMPLE: Static<typeof IssuanceJob> = {
  id: '01937a81-5555-7000-8000-000000000051',
  kind: 'certificates.issue',
  edition_id: '01937a4f-1111-7000-8000-000000000010',
  template_ids: null,
  status: 'running',
  total: 5000,
  done: 1500,
  issued: 1480,
  skipped: 20,
  errors: 0,
  last_error: null,
  created_at: '2027-06-13T18:00:00.000Z',
  started_at: '2027-06-13T18:00:00.120Z',
  finished_at: null,
};

export const IssueAccepted = Type.Object({ job_id: Uuid(), job: IssuanceJob }, { title: 'IssueAccepted' });

export const RevokeBody = Type.Object(
  { reason: Type.String({ minLength: 1, maxLength: 500, description: 'shown on the verification answer' }) },
  {
    additionalProperties: false,
    examples: [{ reason: 'Issued by mistake: the attendee did not take part' }],
  },
);
export type RevokeBody = Static<typeof RevokeBody>;

export const Verification = Type.Object(
  {
    valid: Type.Boolean(),
    status: CertificateStatus,
    holder_name: Type.String(),
    certificate_name: Type.String(),
    edition_name: Type.String(),
    event_name: Type.String(),
    issued_at: DateTime(),
    revoked_at: Nullable(DateTime()),
    reason: Nullable(Type.String()),
  },
  { title: 'Verification' },
);

export const VERIFICATION_EXAMPLE = {
  valid: true,
  status: 'valid',
  holder_name: 'Ana Souza',
  certificate_name: 'Certificate of attendance',
  edition_name: 'RustConf 2027',
  event_name: 'RustConf',
  issued_at: '2027-06-13T18:00:00.000Z',
  revoked_at: null,
  reason: null,
};

export const VerifyParams = Type.Object(
  { verification_code: Type.String({ minLength: 1, maxLength: 128 }) },
  { additionalProperties: false },
);
