/**
 * Stored provider credentials: `{access_token, refresh_token}` as JSON, sealed with SECRETS_KEY.
 * The format is known here only: the OAuth callback seals through `sealCredentials`, inbound
 * notifications open through `openCredentials`.
 */
import { open, seal } from '../../../kernel/secret-box.ts';

export interface ProviderCredentials {
  accessToken: string;
  refreshToken: string | null;
}

export function sealCredentials(key: Buffer, credentials: ProviderCredentials): string {
  return seal(
    key,
    JSON.stringify({ access_token: credentials.accessToken, refresh_token: credentials.refreshToken }),
  );
}

/**
 * The credentials in `sealed`, or undefined when there are none (a test seller, a revoked one) or
 * they cannot be read (another key, tampered, not the expected JSON). The cause is not reported:
 * it would be about a secret.
 */
export function openCredentials(key: Buffer, sealed: string | null): ProviderCredentials | undefined {
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
