/**
 * A collector's or seller's provider tokens as stored (the `credentials` column):
 * `{access_token, refresh_token}` as JSON, sealed with SECRETS_KEY. The format is known here
 * only: the OAuth callback and token refreshes seal through `sealProviderTokens`, calls with a
 * seller's token open through `openProviderTokens`.
 */
import { open, seal } from '../../../kernel/secret-box.ts';

export interface ProviderTokenPair {
  accessToken: string;
  refreshToken: string | null;
}

export function sealProviderTokens(key: Buffer, tokens: ProviderTokenPair): string {
  return seal(key, JSON.stringify({ access_token: tokens.accessToken, refresh_token: tokens.refreshToken }));
}

/**
 * The tokens in `sealed`, or undefined when there are none (a test seller, a revoked one) or
 * they cannot be read (another key, tampered, not the expected JSON). The cause is not reported:
 * it would be about a secret.
 */
export function openProviderTokens(key: Buffer, sealed: string | null): ProviderTokenPair | undefined {
  if (sealed === null) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(open(key, sealed));
  } catch {
    return undefined;
  }
  const { access_token: accessToken, refresh_token: refreshToken } = (parsed ?? {}) as Record<
    string,
    unknown
  >;
  if (typeof accessToken !== 'string' || accessToken === '') return undefined;
  return { accessToken, refreshToken: typeof refreshToken === 'string' ? refreshToken : null };
}
