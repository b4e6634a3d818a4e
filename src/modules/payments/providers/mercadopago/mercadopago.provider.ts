/**
 * The Mercado Pago adapter: OAuth (authorization code with PKCE S256) and the payments resource.
 * Every call has a 10 s deadline; any failure becomes a 502 BAD_GATEWAY whose message names the
 * operation and the HTTP status only. Provider bodies and tokens are never put in an error or log.
 */
import { request } from 'undici';
import type { Config } from '../../../../kernel/config.ts';
import { AppError } from '../../../../kernel/http/errors.ts';
import type { PaymentProvider, ProviderPayment, ProviderTokens } from '../provider.ts';
import { mapMercadoPagoStatus } from './mercadopago.status.ts';

const TIMEOUT_MS = 10_000;

const gatewayError = (what: string, detail: string) =>
  new AppError('BAD_GATEWAY', `Mercado Pago ${what} failed: ${detail}`);

/** One JSON call: the parsed body of a 2xx answer, else a 502 (the body is drained, not kept). */
async function callJson(
  what: string,
  url: string,
  options: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: string },
): Promise<Record<string, unknown>> {
  let response: Awaited<ReturnType<typeof request>>;
  try {
    response = await request(url, { ...options, signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    const name = (error as Error).name;
    throw gatewayError(what, name === 'TimeoutError' || name === 'AbortError' ? 'timed out' : 'unreachable');
  }
  if (response.statusCode < 200 || response.statusCode > 299) {
    await response.body.dump().catch(() => undefined);
    throw gatewayError(what, `HTTP ${response.statusCode}`);
  }
  let parsed: unknown;
  try {
    parsed = await response.body.json();
  } catch {
    throw gatewayError(what, 'the answer is not JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw gatewayError(what, 'the answer is not an object');
  }
  return parsed as Record<string, unknown>;
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.length > 0
    ? value
    : typeof value === 'number' && Number.isFinite(value)
      ? String(value)
      : undefined;

export function createMercadoPagoProvider(settings: Config['mercadopago']): PaymentProvider {
  const authUrl = settings.authUrl.replace(/\/+$/, '');
  const apiUrl = settings.apiUrl.replace(/\/+$/, '');

  return {
    slug: 'mercadopago',

    isConfigured: () => Boolean(settings.clientId) && Boolean(settings.clientSecret),

    authorizeUrl({ state, codeChallenge, redirectUri }) {
      const query = new URLSearchParams({
        client_id: settings.clientId ?? '',
        response_type: 'code',
        platform_id: 'mp',
        state,
        redirect_uri: redirectUri,
        code_challenge: codeChallenge,
        code_challenge_method: 'S256',
      });
      return `${authUrl}/authorization?${query.toString()}`;
    },

    async exchangeCode({ code, codeVerifier, redirectUri }): Promise<ProviderTokens> {
      const body = new URLSearchParams({
        grant_type: 'authorization_code',
        client_id: settings.clientId ?? '',
        client_secret: settings.clientSecret ?? '',
        code,
        redirect_uri: redirectUri,
        code_verifier: codeVerifier,
      });
      const answer = await callJson('token exchange', `${apiUrl}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: body.toString(),
      });
      const accessToken = text(answer.access_token);
      const providerUserId = text(answer.user_id);
      if (accessToken === undefined || providerUserId === undefined) {
        throw gatewayError('token exchange', 'the answer lacks access_token or user_id');
      }
      const expiresIn = typeof answer.expires_in === 'number' ? answer.expires_in : undefined;
      return {
        providerUserId,
        accessToken,
        refreshToken: text(answer.refresh_token) ?? null,
        expiresAt: expiresIn === undefined ? null : new Date(Date.now() + expiresIn * 1000),
      };
    },

    async fetchPayment(accessToken, id): Promise<ProviderPayment> {
      const answer = await callJson('payment lookup', `${apiUrl}/v1/payments/${encodeURIComponent(id)}`, {
        method: 'GET',
        headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
      });
      const status = text(answer.status);
      if (status === undefined) throw gatewayError('payment lookup', 'the answer lacks status');
      return {
        id: text(answer.id) ?? id,
        status,
        statusDetail: text(answer.status_detail) ?? null,
        raw: answer,
      };
    },

    mapStatus: mapMercadoPagoStatus,
  };
}
