/**
 * Calls to the provider with a seller's access token (docs/reference/checkout.md). Mercado
 * Pago access tokens last 180 days and every refresh rotates the refresh token too, so:
 *
 * - a token that expires within REFRESH_MARGIN is refreshed before use;
 * - a call the provider answers 401 refreshes once and is tried again (a second 401 is a 502);
 * - a refresh locks the seller row and re-reads it first: of two processes refreshing at once, the
 *   second finds the first's new token and uses it instead of spending the rotated refresh token
 *   (which the provider would refuse). Both tokens are stored sealed with SECRETS_KEY.
 */
import type { Config } from '../../../kernel/config.ts';
import type { Executor } from '../../../kernel/db/client.ts';
import { AppError } from '../../../kernel/http/errors.ts';
import { type PaymentProvider, ProviderTokenRejected } from '../providers/index.ts';
import * as repo from './connections.repository.ts';
import type { SellerRow } from './connections.table.ts';
import { openProviderTokens, type ProviderTokenPair, sealProviderTokens } from './provider-tokens.ts';

/** Tokens closer than this to their expiry are refreshed before use. */
const REFRESH_MARGIN_MS = 7 * 86_400_000;

/** The seller has no usable provider tokens (a test seller, revoked, or sealed with another key). */
export class NoSellerTokens extends Error {
  constructor() {
    super('the seller has no usable provider credentials');
    this.name = 'NoSellerTokens';
  }
}

export function secretsKeyOf(config: Config): Buffer {
  if (config.secretsKey === undefined) {
    throw new AppError(
      'SERVICE_UNAVAILABLE',
      'SECRETS_KEY is not configured: provider credentials cannot be read',
    );
  }
  return config.secretsKey;
}

/**
 * Runs `call` with the seller's access token, refreshing it when near expiry or refused. Throws
 * `NoSellerTokens` when the seller has none; provider failures are 502s.
 */
export async function withSellerToken<T>(
  db: Executor,
  config: Config,
  provider: PaymentProvider,
  seller: Pick<SellerRow, 'id' | 'credentials' | 'token_expires_at'>,
  call: (accessToken: string) => Promise<T>,
): Promise<T> {
  const key = secretsKeyOf(config);
  let tokens = openProviderTokens(key, seller.credentials);
  if (tokens === undefined) throw new NoSellerTokens();
  const expiresAt = seller.token_expires_at?.getTime();
  if (expiresAt !== undefined && expiresAt - Date.now() < REFRESH_MARGIN_MS && tokens.refreshToken !== null) {
    tokens = await refresh(db, key, provider, seller.id, tokens.accessToken);
  }
  try {
    return await call(tokens.accessToken);
  } catch (error) {
    if (!(error instanceof ProviderTokenRejected)) throw error;
    const fresh = await refresh(db, key, provider, seller.id, tokens.accessToken);
    try {
      return await call(fresh.accessToken);
    } catch (again) {
      if (again instanceof ProviderTokenRejected) {
        throw new AppError(
          'BAD_GATEWAY',
          'Mercado Pago refused the seller’s access token, also after a refresh',
        );
      }
      throw again;
    }
  }
}

/**
 * A fresh token for the seller. Under the seller's row lock: when the stored token is no longer
 * `staleToken`, another process refreshed it meanwhile and that one is used.
 */
async function refresh(
  db: Executor,
  key: Buffer,
  provider: PaymentProvider,
  sellerId: string,
  staleToken: string,
): Promise<ProviderTokenPair> {
  return db.transaction(async (tx) => {
    const seller = await repo.lockSeller(tx, sellerId);
    const stored = seller?.revoked_at === null ? openProviderTokens(key, seller.credentials) : undefined;
    if (stored === undefined) throw new NoSellerTokens();
    if (stored.accessToken !== staleToken) return stored;
    if (stored.refreshToken === null) {
      throw new AppError(
        'BAD_GATEWAY',
        'The seller’s access token expired and there is no refresh token; connect again',
      );
    }
    const tokens = await provider.refreshToken(stored.refreshToken);
    const next = {
      accessToken: tokens.accessToken,
      refreshToken: tokens.refreshToken ?? stored.refreshToken,
    };
    await repo.updateSellerTokens(tx, sellerId, sealProviderTokens(key, next), tokens.expiresAt);
    return next;
  });
}
