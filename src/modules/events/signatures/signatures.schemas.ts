/**
 * Schemas of signature requests and signatures (docs/reference/signatures.md): one source for validation,
 * handler types and the OpenAPI document. Token hashes never appear in any of them, so serialization drops
 * them even if a row were passed through whole.
 */
import { type Static, Type } from 'typebox';
import { DateTime, Email, HttpUrl, Nullable, PageQuery, Uuid } from '../../../kernel/http/schemas.ts';
import { SIGNATURE_REQUEST_STATUSES } from './signatures.table.ts';

/** Largest signature image accepted inline, decoded (512 KiB). */
export const MAX_INLINE_IMAGE_BYTES = 512 * 1024;
export const PNG_DATA_URL_PREFIX = 'data:image/png;base64,';
/** Base64 of MAX_INLINE_IMAGE_BYTES, with the prefix: the longest data URL accepted. */
const MAX_DATA_URL_LENGTH = PNG_DATA_URL_PREFIX.length + Math.ceil(MAX_INLINE_IMAGE_BYTES / 3) * 4;

const [PENDING, COMPLETED, DENIED, CANCELLED, EXPIRED] = SIGNATURE_REQUEST_STATUSES;
const RequestStatus = Type.Union(
  [
    Type.Literal(PENDING),
    Type.Literal(COMPLETED),
    Type.Literal(DENIED),
    Type.Literal(CANCELLED),
    Type.Literal(EXPIRED),
  ],
  { description: '`expired` is applied when a pending request is touched after `expires_at`' },
);

// ---------- signature requests ----------

export const SignatureRequest = Type.Object(
  {
    id: Uuid(),
    edition_id: Uuid(),
    signatory_name: Type.String(),
    signatory_email: Type.String(),
    signatory_title: Nullable(Type.String()),
    status: RequestStatus,
    expires_at: DateTime(),
    reason: Nullable(Type.String({ description: 'why it was denied or cancelled' })),
    created_by: Uuid(),
    created_at: DateTime(),
    updated_at: DateTime(),
    decided_at: Nullable(
      DateTime({ description: 'when it left `pending` (for `expired`: its `expires_at`)' }),
    ),
  },
  { title: 'SignatureRequest' },
);
export type SignatureRequest = Static<typeof SignatureRequest>;

export const CreatedSignatureRequest = Type.Object(
  {
    ...SignatureRequest.properties,
    token: Type.String({ description: 'the signatory token; shown this once, only its hash is kept' }),
    fulfill_url: Type.String({ description: 'the link to send to the signatory (contains the token)' }),
  },
  { title: 'CreatedSignatureRequest' },
);

export const SIGNATURE_REQUEST_EXAMPLE = {
  id: '01937a50-2222-7000-8000-000000000020',
  edition_id: '01937a4f-1111-7000-8000-000000000010',
  signatory_name: 'Marta Ferreira',
  signatory_email: 'marta@example.com',
  signatory_title: 'Programme chair',
  status: 'pending',
  expires_at: '2026-11-29T10:00:00.000Z',
  reason: null,
  created_by: '01937a4e-0000-7000-8000-000000000001',
  created_at: '2026-11-22T10:00:00.000Z',
  updated_at: '2026-11-22T10:00:00.000Z',
  decided_at: null,
};
const TOKEN_EXAMPLE = 'q3Jb0m1w9c2lV8vN4xZ7eR5tY6uI0oP3aS2dF1gH4jK';
export const CREATED_REQUEST_EXAMPLE = {
  ...SIGNATURE_REQUEST_EXAMPLE,
  token: TOKEN_EXAMPLE,
  fulfill_url: `https://api.example.com/sign?token=${TOKEN_EXAMPLE}`,
};

export const CreateSignatureRequestBody = Type.Object(
  {
    signatory_name: Type.String({ minLength: 1, maxLength: 200 }),
    signatory_email: Email(),
    signatory_title: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 200 }))),
    expires_in_days: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 365, default: 7, description: 'days the link stays valid' }),
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        signatory_name: 'Marta Ferreira',
        signatory_email: 'marta@example.com',
        signatory_title: 'Programme chair',
        expires_in_days: 7,
      },
    ],
  },
);
export type CreateSignatureRequestBody = Static<typeof CreateSignatureRequestBody>;

export const RequestListQuery = Type.Object(
  { ...PageQuery, status: Type.Optional(RequestStatus) },
  { additionalProperties: false },
);

/** What the token holder sees: the request, and what it asks them to sign. No organizer data. */
export const SignatureRequestView = Type.Object(
  {
    id: Uuid(),
    status: Type.Union(
      [Type.Literal(PENDING), Type.Literal(COMPLETED), Type.Literal(DENIED), Type.Literal(CANCELLED)],
      { description: 'an expired request cannot be opened (401)' },
    ),
    signatory_name: Type.String(),
    signatory_email: Type.String(),
    signatory_title: Nullable(Type.String()),
    reason: Nullable(Type.String({ description: "the signatory's own reason, when they declined" })),
    expires_at: DateTime(),
    created_at: DateTime(),
    decided_at: Nullable(DateTime()),
    edition: Type.Object({
      id: Uuid(),
      name: Type.String(),
      starts_at: DateTime(),
      ends_at: DateTime(),
      location_name: Nullable(Type.String()),
    }),
    event: Type.Object({ id: Uuid(), name: Type.String() }),
    requested_by: Type.String({
      description: 'who asked for the signature: their name, or their e-mail when they gave no name',
    }),
  },
  { title: 'SignatureRequestView' },
);
export type SignatureRequestView = Static<typeof SignatureRequestView>;

export const REQUEST_VIEW_EXAMPLE = {
  id: SIGNATURE_REQUEST_EXAMPLE.id,
  status: 'pending',
  signatory_name: 'Marta Ferreira',
  signatory_email: 'marta@example.com',
  signatory_title: 'Programme chair',
  reason: null,
  expires_at: '2026-11-29T10:00:00.000Z',
  created_at: '2026-11-22T10:00:00.000Z',
  decided_at: null,
  edition: {
    id: SIGNATURE_REQUEST_EXAMPLE.edition_id,
    name: 'RustConf Lisbon 2027',
    starts_at: '2027-06-10T09:00:00.000Z',
    ends_at: '2027-06-12T18:00:00.000Z',
    location_name: 'Centro de Congressos de Lisboa',
  },
  event: { id: '01937a4e-8f2b-7c3d-9e4f-5a6b7c8d9e0f', name: 'RustConf Lisbon' },
  requested_by: 'Ana Souza',
};

/**
 * `?token=` of the token routes. The shape is checked before this schema runs (a missing or
 * malformed token is 401, like an unknown one); the schema documents it.
 */
export const TokenQuery = Type.Object(
  {
    token: Type.String({
      minLength: 20,
      maxLength: 200,
      pattern: '^[A-Za-z0-9_-]+$',
      description: 'the token from the link (base64url)',
      examples: [TOKEN_EXAMPLE],
    }),
  },
  { additionalProperties: false },
);

export const ReasonBody = Type.Object(
  { reason: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))) },
  {
    additionalProperties: false,
    description: 'optional: the body may be omitted',
    examples: [{ reason: 'I did not take part in this edition' }],
  },
);
export type ReasonBody = Static<typeof ReasonBody>;

// ---------- signatures ----------

export const Signature = Type.Object(
  {
    id: Uuid(),
    request_id: Uuid(),
    edition_id: Uuid(),
    signatory_name: Type.String(),
    signatory_title: Nullable(Type.String()),
    image_url: Type.String(),
    status: Type.Union([Type.Literal('active'), Type.Literal('revoked')]),
    created_at: DateTime(),
    revoked_at: Nullable(DateTime()),
  },
  { title: 'Signature' },
);
export type Signature = Static<typeof Signature>;

export const FulfilledSignature = Type.Object(
  {
    ...Signature.properties,
    revoke_token: Type.String({
      description: 'revokes this signature; shown this once, only its hash is kept',
    }),
    revoke_expires_at: DateTime({ description: 'after this the revoke token no longer works' }),
  },
  { title: 'FulfilledSignature' },
);

export const SIGNATURE_EXAMPLE = {
  id: '01937a51-3333-7000-8000-000000000030',
  request_id: SIGNATURE_REQUEST_EXAMPLE.id,
  edition_id: SIGNATURE_REQUEST_EXAMPLE.edition_id,
  signatory_name: 'Marta Ferreira',
  signatory_title: 'Programme chair',
  image_url: 'https://cdn.example.com/signatures/marta.png',
  status: 'active',
  created_at: '2026-11-23T09:30:00.000Z',
  revoked_at: null,
};
export const FULFILLED_EXAMPLE = {
  ...SIGNATURE_EXAMPLE,
  revoke_token: 'Zx8cV7bN6mM5aS4dF3gH2jK1lQ0wE9rT8yU7iO6pA5s',
  revoke_expires_at: '2027-11-23T09:30:00.000Z',
};

const PngDataUrl = Type.String({
  pattern: '^data:image/png;base64,[A-Za-z0-9+/]+={0,2}$',
  maxLength: MAX_DATA_URL_LENGTH,
  description: `a PNG as a base64 data URL, at most ${MAX_INLINE_IMAGE_BYTES / 1024} KiB decoded`,
});

export const FulfilBody = Type.Object(
  {
    image_url: Type.Union([HttpUrl({ description: 'where the signature image is hosted' }), PngDataUrl]),
  },
  {
    additionalProperties: false,
    examples: [{ image_url: 'https://cdn.example.com/signatures/marta.png' }],
  },
);
export type FulfilBody = Static<typeof FulfilBody>;

export type FulfilledSignature = Static<typeof FulfilledSignature>;
export type CreatedSignatureRequest = Static<typeof CreatedSignatureRequest>;
