/** Schemas of provider connections (docs/reference/payments.md): OAuth connect and callback, collectors, revoke. */
import { type Static, Type } from 'typebox';
import { DateTime, HttpUrl, Nullable, Uuid } from '../../../kernel/http/schemas.ts';

const Flow = Type.Union([Type.Literal('collector'), Type.Literal('seller')], {
  description: '`collector`: an account of the caller that receives funds; `seller`: a seller of a wallet',
});

export const ProviderParams = Type.Object(
  { provider: Type.String({ minLength: 1, maxLength: 64, examples: ['mercadopago'] }) },
  { additionalProperties: false },
);

export const ConnectBody = Type.Object(
  {
    flow: Flow,
    final_redirect_url: HttpUrl({ description: 'where the callback sends the user back (302)' }),
    wallet_id: Type.Optional(Uuid({ description: 'required for `seller`; the caller must own it' })),
  },
  {
    additionalProperties: false,
    examples: [
      {
        flow: 'seller',
        final_redirect_url: 'https://app.example.com/settings/payments?tab=sellers',
        wallet_id: '01937a50-3333-7000-8000-000000000030',
      },
    ],
  },
);
export type ConnectBody = Static<typeof ConnectBody>;

export const ConnectResult = Type.Object(
  {
    url: Type.String({ description: 'the provider consent URL to send the user to' }),
  },
  { title: 'ConnectResult' },
);
export const CONNECT_EXAMPLE = {
  url:
    'https://auth.mercadopago.com/authorization?client_id=123&response_type=code&platform_id=mp' +
    '&state=…&redirect_uri=http%3A%2F%2F127.0.0.1%3A8080%2Fproviders%2Fmercadopago%2Fcallback' +
    '&code_challenge=…&code_challenge_method=S256',
};

/**
 * The provider's callback query. Unlike every other route, unknown parameters are accepted: the
 * query is written by the provider, not by an API client, and OAuth 2.0 (RFC 6749, 4.1.2 and
 * 4.1.2.1) lets an authorization server add parameters to the redirect, which the client must
 * ignore. Refusing them would turn a provider's harmless addition into a failed connection that
 * the user cannot fix. Known parameters are still validated.
 */
export const CallbackQuery = Type.Object(
  {
    state: Type.String({ minLength: 1, maxLength: 512 }),
    code: Type.Optional(Type.String({ minLength: 1, maxLength: 2048 })),
    error: Type.Optional(Type.String({ maxLength: 512 })),
    error_description: Type.Optional(Type.String({ maxLength: 2048 })),
  },
  { additionalProperties: true },
);
export type CallbackQuery = Static<typeof CallbackQuery>;

export const Collector = Type.Object(
  {
    id: Uuid(),
    owner_id: Uuid(),
    provider: Type.String(),
    provider_user_id: Type.String(),
    created_at: DateTime(),
    revoked_at: Nullable(DateTime()),
  },
  { title: 'Collector' },
);
export const COLLECTOR_EXAMPLE = {
  id: '01937a50-4444-7000-8000-000000000040',
  owner_id: '01937a4e-0000-7000-8000-000000000001',
  provider: 'mercadopago',
  provider_user_id: '202809963',
  created_at: '2026-11-22T10:00:00.000Z',
  revoked_at: null,
};

export const RevokeBody = Type.Object(
  { flow: Flow, id: Uuid({ description: 'the collector or seller id' }) },
  {
    additionalProperties: false,
    examples: [{ flow: 'collector', id: '01937a50-4444-7000-8000-000000000040' }],
  },
);
export type RevokeBody = Static<typeof RevokeBody>;

export const RevokeResult = Type.Object(
  {
    id: Uuid(),
    flow: Flow,
    provider: Type.String(),
    provider_user_id: Type.String(),
    revoked_at: DateTime(),
  },
  { title: 'RevokeResult' },
);
export const REVOKE_EXAMPLE = {
  id: '01937a50-4444-7000-8000-000000000040',
  flow: 'collector',
  provider: 'mercadopago',
  provider_user_id: '202809963',
  revoked_at: '2026-11-22T10:05:00.000Z',
};

export type ConnectResult = Static<typeof ConnectResult>;
export type Collector = Static<typeof Collector>;
export type RevokeResult = Static<typeof RevokeResult>;
