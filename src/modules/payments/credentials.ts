/**
 * Reading stored provider credentials. The OAuth callback (connections.service.ts) seals
 * `{access_token, refresh_token}` as JSON with SECRETS_KEY; this is the one place that opens them.
 */
import { open } from '../../kernel/secret-box.ts';

export interface ProviderCredentials {
  accessToken: string;
  refreshToken: string | null;
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
