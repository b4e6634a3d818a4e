/** Schemas of intents and test mode (docs/reference/payments.md). */
import { type Static, Type } from 'typebox';
import { DateTime, Nullable, PageQuery, Uuid } from '../../../kernel/http/schemas.ts';
import { ProviderSlug } from '../wallets/index.ts';
import { INTENT_STATUS_DETAILS, INTENT_STATUSES } from './intents.table.ts';

export const IntentStatus = Type.Union(
  INTENT_STATUSES.map((status) => Type.Literal(status)),
  { description: INTENT_STATUSES.join(', ') },
);
export const IntentStatusDetail = Type.Union(
  [...INTENT_STATUS_DETAILS.map((detail) => Type.Literal(detail)), Type.Null()],
  { description: `${INTENT_STATUS_DETAILS.join(', ')} or null` },
);
const FreeObject = (description: string) => Type.Object({}, { additionalProperties: true, description });

export const Intent = Type.Object(
  {
    id: Uuid(),
    wallet_id: Uuid(),
    seller_id: Uuid(),
    collector_id: Nullable(Uuid()),
    amount_cents: Type.Integer(),
    refunded_cents: Type.Integer({ description: 'refunded so far (a partial refund keeps `succeeded`)' }),
    currency: Type.String(),
    sandbox: Type.Boolean(),
    provider: Type.String(),
    status: Type.String(),
    status_detail: Nullable(Type.String()),
    provider_data: FreeObject('provider data (`transaction_id` links provider notifications)'),
    metadata: FreeObject('caller metadata, echoed in webhook events'),
    created_at: DateTime(),
    updated_at: DateTime(),
  },
  { title: 'Intent' },
);
export type Intent = Static<typeof Intent>;

export const INTENT_EXAMPLE = {
  id: '01937a50-6666-7000-8000-000000000060',
  wallet_id: '01937a50-3333-7000-8000-000000000030',
  seller_id: '01937a50-4444-7000-8000-000000000040',
  collector_id: null,
  amount_cents: 5000,
  refunded_cents: 0,
  currency: 'BRL',
  sandbox: true,
  provider: 'mercadopago',
  status: 'succeeded',
  status_detail: null,
  provider_data: { transaction_id: '1234567890' },
  metadata: { order_id: 'A-1001' },
  created_at: '2026-11-22T10:00:00.000Z',
  updated_at: '2026-11-22T10:00:00.000Z',
};

export const IntentListQuery = Type.Object(
  { ...PageQuery, status: Type.Optional(IntentStatus) },
  { additionalProperties: false },
);
export type IntentListQuery = Static<typeof IntentListQuery>;

export const CreateTestIntentBody = Type.Object(
  {
    wallet_id: Uuid({ description: 'a wallet the caller owns' }),
    seller_id: Uuid({ description: 'a seller of that wallet, not revoked' }),
    amount_cents: Type.Integer({
      minimum: 1,
      maximum: Number.MAX_SAFE_INTEGER,
      description: 'minor units, > 0',
    }),
    currency: Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 code, upper case' }),
    sandbox: Type.Boolean({ description: 'a sandbox wallet accepts only `true`' }),
    provider: ProviderSlug,
    status: IntentStatus,
    status_detail: Type.Optional(IntentStatusDetail),
    provider_data: Type.Optional(FreeObject('provider data; `transaction_id` becomes the event external_id')),
    metadata: Type.Optional(FreeObject('caller metadata')),
  },
  {
    additionalProperties: false,
    examples: [
      {
        wallet_id: INTENT_EXAMPLE.wallet_id,
        seller_id: INTENT_EXAMPLE.seller_id,
        amount_cents: 5000,
        currency: 'BRL',
        sandbox: true,
        provider: 'mercadopago',
        status: 'succeeded',
        provider_data: { transaction_id: '1234567890' },
        metadata: { order_id: 'A-1001' },
      },
    ],
  },
);
export type CreateTestIntentBody = Static<typeof CreateTestIntentBody>;

export const SimulateBody = Type.Object(
  { status: IntentStatus, status_detail: Type.Optional(IntentStatusDetail) },
  { additionalProperties: false, examples: [{ status: 'rejected', status_detail: 'insufficient_funds' }] },
);
export type SimulateBody = Static<typeof SimulateBody>;

export const CreateTestSellerBody = Type.Object(
  { wallet_id: Uuid({ description: 'a wallet the caller owns' }), provider: ProviderSlug },
  {
    additionalProperties: false,
    examples: [{ wallet_id: INTENT_EXAMPLE.wallet_id, provider: 'mercadopago' }],
  },
);
export type CreateTestSellerBody = Static<typeof CreateTestSellerBody>;

export const RefundIntentBody = Type.Object(
  {
    amount_cents: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 2 ** 53 - 1,
        description: 'minor units to give back; default all that is left',
      }),
    ),
  },
  { additionalProperties: false, examples: [{ amount_cents: 1000 }] },
);
export type RefundIntentBody = Static<typeof RefundIntentBody>;
