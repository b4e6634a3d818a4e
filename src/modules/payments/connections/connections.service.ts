/**
 * Provider connections (docs/reference/payments.md): the OAuth connect (authorization code with PKCE S256),
 * its callback, the caller's collectors, a wallet's sellers and revocation. Tokens are sealed with
 * SECRETS_KEY before they reach the database and are never returned or logged; revocation erases them.
 */
import { createHash } from 'node:crypto';
import type { Identity } from '../../../kernel/auth/identity.ts';
import type { Config } from '../../../kernel/config.ts';
import type { Executor } from '../../../kernel/db/client.ts';
import { uuidv7 } from '../../../kernel/db/ids.ts';
import type { Window } from '../../../kernel/db/paging.ts';
import { AppError, badRequest, conflict, notFound, validationError } from '../../../kernel/http/errors.ts';
import { serialize } from '../../../kernel/http/respond.ts';
import { open, seal } from '../../../kernel/secret-box.ts';
import { generateToken, hashToken } from '../../../kernel/tokens.ts';
import { type PaymentProvider, providerFor } from '../providers/index.ts';
import {
  type CollectorRow,
  findCollector,
  insertCollector,
  listCollectorsOfOwner,
  requireWalletOwner,
  revokeCollector,
} from '../wallets/index.ts';
import * as repo from './connections.repository.ts';
import type { CallbackQuery, ConnectBody, RevokeBody } from './connections.schemas.ts';
import { sealProviderTokens } from './provider-tokens.ts';

export const callbackPath = (slug: string) => `/providers/${slug}/callback`;
const redirectUriOf = (config: Config, slug: string) => `${config.publicBaseUrl}${callbackPath(slug)}`;

/** PKCE S256: base64url(SHA-256(verifier)), RFC 7636 section 4.2. */
export function codeChallengeOf(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

function requireSecretsKey(config: Config): Buffer {
  if (config.secretsKey === undefined) {
    throw new AppError(
      'SERVICE_UNAVAILABLE',
      'SECRETS_KEY is not configured: provider credentials cannot be stored',
    );
  }
  return config.secretsKey;
}

function requireConfigured(provider: PaymentProvider): void {
  if (!provider.isConfigured()) {
    throw new AppError(
      'SERVICE_UNAVAILABLE',
      `The ${provider.slug} OAuth application is not configured (set MERCADOPAGO_CLIENT_ID and MERCADOPAGO_CLIENT_SECRET)`,
    );
  }
}

/** Starts a connection: stores a single-use state with its PKCE verifier and returns the consent URL. */
export async function connect(
  db: Executor,
  config: Config,
  slug: string,
  actor: Identity,
  body: ConnectBody,
): Promise<{ url: string }> {
  const provider = providerFor(slug, config);
  // 1. Shape rules a schema cannot express, then ownership, before any configuration state.
  if (body.flow === 'seller' && body.wallet_id === undefined) {
    throw validationError([{ field: 'wallet_id', message: 'is required for the seller flow' }]);
  }
  if (body.flow === 'collector' && body.wallet_id !== undefined) {
    throw validationError([{ field: 'wallet_id', message: 'applies to the seller flow only' }]);
  }
  if (body.wallet_id !== undefined) await requireWalletOwner(db, body.wallet_id, actor);
  requireConfigured(provider);
  const key = requireSecretsKey(config);

  // 2. The state travels to the provider and back: only its hash is stored. The verifier never
  //    leaves the service until the exchange, and is sealed at rest.
  const state = generateToken();
  const verifier = generateToken();
  await repo.insertOAuthState(db, {
    id: uuidv7(),
    state_hash: hashToken(state),
    provider: provider.slug,
    flow: body.flow,
    owner_id: actor.userId,
    wallet_id: body.wallet_id ?? null,
    final_redirect_url: body.final_redirect_url,
    code_verifier: seal(key, verifier),
  });
  const url = provider.authorizeUrl({
    state,
    codeChallenge: codeChallengeOf(verifier),
    redirectUri: redirectUriOf(config, provider.slug),
  });
  return { url };
}

/**
 * `final_redirect_url` with `params` appended: the existing query is kept byte for byte (not
 * re-encoded), the new parameters are form-encoded, and a fragment stays last.
 */
export function appendQuery(target: string, params: Record<string, string>): string {
  const hashAt = target.indexOf('#');
  const base = hashAt === -1 ? target : target.slice(0, hashAt);
  const fragment = hashAt === -1 ? '' : target.slice(hashAt);
  const separator = !base.includes('?') ? '?' : base.endsWith('?') || base.endsWith('&') ? '' : '&';
  return `${base}${separator}${new URLSearchParams(params).toString()}${fragment}`;
}

/**
 * The provider's callback. Returns where to redirect the user. An unknown, used or expired state is
 * a 400 (thrown, no redirect); any later failure is a redirect with `status=error`.
 */
export async function completeCallback(
  db: Executor,
  config: Config,
  slug: string,
  query: CallbackQuery,
): Promise<string> {
  const provider = providerFor(slug, config);
  const key = requireSecretsKey(config);

  // 1. Claim the state before talking to the provider: a replayed callback never exchanges twice.
  const state = await repo.claimOAuthState(db, provider.slug, hashToken(query.state));
  if (state === undefined)
    throw badRequest('oauth_state_invalid', 'The state is unknown, already used or expired');
  const fail = (error: string) =>
    appendQuery(state.final_redirect_url, { status: 'error', flow: state.flow, error });

  // 2. The user refused consent (or the provider reported another problem).
  if (query.error !== undefined) return fail('access_denied');
  if (query.code === undefined) return fail('invalid_request');

  // 3. Exchange the code; a provider failure is reported to the caller's page, not as a 502 body.
  let tokens: Awaited<ReturnType<PaymentProvider['exchangeCode']>>;
  try {
    tokens = await provider.exchangeCode({
      code: query.code,
      codeVerifier: open(key, state.code_verifier),
      redirectUri: redirectUriOf(config, provider.slug),
    });
  } catch (error) {
    if (error instanceof AppError && error.code === 'BAD_GATEWAY') return fail('provider_error');
    throw error;
  }

  // 4. Store the credential, sealed.
  const sealedTokens = sealProviderTokens(key, tokens);
  const common = {
    id: uuidv7(),
    owner_id: state.owner_id,
    provider: provider.slug,
    provider_user_id: tokens.providerUserId,
    credentials: sealedTokens,
    token_expires_at: tokens.expiresAt,
  };
  if (state.flow === 'seller') {
    // The wallet cascade-deletes its states, so a seller state always names a wallet.
    await repo.insertSeller(db, { ...common, wallet_id: state.wallet_id! });
  } else {
    await insertCollector(db, common);
  }
  return appendQuery(state.final_redirect_url, {
    status: 'connected',
    flow: state.flow,
    credential_id: common.id,
  });
}

/** A collector as docs/reference/payments.md shows it: never its credentials. */
export function presentCollector(row: CollectorRow) {
  return serialize({
    id: row.id,
    owner_id: row.owner_id,
    provider: row.provider,
    provider_user_id: row.provider_user_id,
    created_at: row.created_at,
    revoked_at: row.revoked_at,
  });
}

export async function listCollectors(db: Executor, actor: Identity, window: Window) {
  const page = await listCollectorsOfOwner(db, actor.userId, window);
  return { ...page, items: page.items.map(presentCollector) };
}

/**
 * Revokes a collector (its owner) or a seller (its wallet's owner) and erases its credentials. A
 * credential is not public (docs/reference/auth.md): someone else's is the same 404 as an unknown id, decided
 * before its state, so neither its existence nor its revocation is revealed to an outsider.
 */
export async function revoke(db: Executor, config: Config, slug: string, actor: Identity, body: RevokeBody) {
  const provider = providerFor(slug, config);
  let credential: { provider: string; revoked_at: Date | null } | undefined;
  if (body.flow === 'collector') {
    const collector = await findCollector(db, body.id);
    const isMine = collector?.provider === provider.slug && collector.owner_id === actor.userId;
    if (!isMine) throw notFound('Collector');
    credential = collector;
  } else {
    const found = await repo.findSellerWithWalletOwner(db, body.id);
    const isMine = found?.seller.provider === provider.slug && found.walletOwnerId === actor.userId;
    if (!isMine) throw notFound('Seller');
    credential = found.seller;
  }
  const alreadyRevoked = () => conflict('already_revoked', 'The credential is already revoked');
  if (credential.revoked_at !== null) throw alreadyRevoked();
  const row =
    body.flow === 'collector' ? await revokeCollector(db, body.id) : await repo.revokeSeller(db, body.id);
  if (row === undefined || row.revoked_at === null) throw alreadyRevoked();
  return serialize({
    id: row.id,
    flow: body.flow,
    provider: row.provider,
    provider_user_id: row.provider_user_id,
    revoked_at: row.revoked_at,
  });
}

/** The wallet's sellers, newest first; the owner only (anyone else's wallet is the 404 of an unknown id). */
export async function listSellers(db: Executor, walletId: string, actor: Identity, window: Window) {
  await requireWalletOwner(db, walletId, actor);
  const page = await repo.listSellersOfWallet(db, walletId, window);
  return { ...page, items: page.items.map(serialize) };
}
