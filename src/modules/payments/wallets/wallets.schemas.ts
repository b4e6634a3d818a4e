/** Schemas of wallets, their collector binding and their sellers (docs/reference/payments.md). */
import { type Static, Type } from 'typebox';
import { DateTime, Nullable, Uuid } from '../../../kernel/http/schemas.ts';
import { PROVIDERS } from '../providers/index.ts';

/** An `enum` rather than a union of literals: a union of one is an `anyOf` of one in the document. */
export const ProviderSlug = Type.Unsafe<(typeof PROVIDERS)[number]>({
  type: 'string',
  enum: [...PROVIDERS],
  description: 'payment provider slug',
});

export const Wallet = Type.Object(
  {
    id: Uuid(),
    owner_id: Uuid(),
    name: Type.String(),
    sandbox: Type.Boolean(),
    fee_bps: Type.Integer(),
    collector_id: Nullable(Uuid()),
    created_at: DateTime(),
    updated_at: DateTime(),
  },
  { title: 'Wallet' },
);
export type Wallet = Static<typeof Wallet>;

export const WALLET_EXAMPLE = {
  id: '01937a50-3333-7000-8000-000000000030',
  owner_id: '01937a4e-0000-7000-8000-000000000001',
  name: 'Conference tickets',
  sandbox: false,
  fee_bps: 0,
  collector_id: null,
  created_at: '2026-11-22T10:00:00.000Z',
  updated_at: '2026-11-22T10:00:00.000Z',
};

export const Seller = Type.Object(
  {
    id: Uuid(),
    wallet_id: Uuid(),
    provider: Type.String(),
    provider_user_id: Type.String(),
    created_at: DateTime(),
    revoked_at: Nullable(DateTime()),
  },
  { title: 'Seller' },
);
export type Seller = Static<typeof Seller>;

export const SELLER_EXAMPLE = {
  id: '01937a50-4444-7000-8000-000000000040',
  wallet_id: WALLET_EXAMPLE.id,
  provider: 'mercadopago',
  provider_user_id: 'test_4f1c2a9e0b7d',
  created_at: '2026-11-22T10:00:00.000Z',
  revoked_at: null,
};

export const CreateWalletBody = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 200, description: 'unique among the caller’s wallets' }) },
  { additionalProperties: false, examples: [{ name: 'Conference tickets' }] },
);
export type CreateWalletBody = Static<typeof CreateWalletBody>;

export const SetSandboxBody = Type.Object(
  { sandbox: Type.Boolean({ description: 'a sandbox wallet accepts only sandbox intents' }) },
  { additionalProperties: false, examples: [{ sandbox: true }] },
);
export type SetSandboxBody = Static<typeof SetSandboxBody>;

export const SetFeeBody = Type.Object(
  {
    fee_bps: Type.Integer({ minimum: 0, maximum: 10000, description: 'marketplace fee, 100 bps = 1%' }),
  },
  { additionalProperties: false, examples: [{ fee_bps: 250 }] },
);
export type SetFeeBody = Static<typeof SetFeeBody>;

export const BindCollectorBody = Type.Object(
  { collector_id: Uuid({ description: 'a collector the caller owns, not revoked' }) },
  { additionalProperties: false, examples: [{ collector_id: '01937a50-5555-7000-8000-000000000050' }] },
);
export type BindCollectorBody = Static<typeof BindCollectorBody>;
