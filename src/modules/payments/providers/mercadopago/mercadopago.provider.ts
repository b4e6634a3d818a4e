/**
 * The Mercado Pago adapter: OAuth (authorization code with PKCE S256), the payments resource and
 * inbound notifications. Every call has a 10 s deadline; any failure becomes a 502 BAD_GATEWAY
 * whose message names the operation and the HTTP status only, except a payment the provider does
 * not know (404), which is an answer, not an outage. Provider bodies and tokens are never put in an
 * error or log.
 */
import { request } from 'undici';
import type { Config } from '../../../../kernel/config.ts';
import { AppError, unauthorized } from '../../../../kernel/http/errors.ts';
import type {
  InboundNotification,
  PaymentProvider,
  ProviderNotification,
  ProviderPayment,
  ProviderTokens,
} from '../provider.ts';
import { verifyMercadoPagoSignature } from './mercadopago.signature.ts';
import { mapMercadoPagoStatus } from './mercadopago.status.ts';

const TIMEOUT_MS = 10_000;

type Response = Awaited<ReturnType<typeof request>>;

const gatewayError = (what: string, detail: string) =>
  new AppError('BAD_GATEWAY', `Mercado Pago ${what} failed: ${detail}`);

/** Sends one request; a network failure or the deadline is a 502. */
async function send(
  what: string,
  url: string,
  options: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: string },
): Promise<Response> {
  try {
    return await request(url, { ...options, signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    const name = (error as Error).name;
    throw gatewayError(what, name === 'TimeoutError' || name === 'AbortError' ? 'timed out' : 'unreachable');
  }
}

/** The parsed body of a 2xx answer, else a 502 (the body is drained, not kept). */
async function readJson(what: string, response: Response): Promise<Record<string, unknown>> {
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

const SIGNATURE_REFUSALS = {
  missing: 'The x-signature header is missing',
  malformed: 'The x-signature header is not "ts=<timestamp>,v1=<hex>"',
  expired: 'The notification timestamp is more than 5 minutes from now',
  mismatch: 'The notification signature does not match',
} as const;

const headerOf = (input: InboundNotification, name: string): string | undefined => {
  const value = input.headers[name];
  return typeof value === 'string' ? value : undefined;
};

const objectOf = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};

/**
 * What a notification names. Mercado Pago sends `?data.id=<id>&type=payment` and a JSON body
 * `{type, action, data: {id}, …}`; `data.id` is taken from the query string first (that is the
 * value it signs), the type from the body first, then the query's `type` or legacy `topic`.
 */
function readNotification(input: InboundNotification): ProviderNotification {
  const body = objectOf(input.body);
  const type = text(body.type) ?? text(input.query.type) ?? text(input.query.topic) ?? 'unknown';
  return {
    type,
    isPayment: type === 'payment',
    resourceId: text(input.query['data.id']) ?? text(objectOf(body.data).id),
    requestId: headerOf(input, 'x-request-id'),
  };
}

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
      const answer = await readJson(
        'token exchange',
        await send('token exchange', `${apiUrl}/oauth/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
          body: body.toString(),
        }),
      );
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

    async fetchPayment(accessToken, id): Promise<ProviderPayment | undefined> {
      const response = await send('payment lookup', `${apiUrl}/v1/payments/${encodeURIComponent(id)}`, {
        method: 'GET',
        headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
      });
      // Unknown to the provider: the caller decides (a notification keeps it for a later replay).
      if (response.statusCode === 404) {
        await response.body.dump().catch(() => undefined);
        return undefined;
      }
      const answer = await readJson('payment lookup', response);
      const status = text(answer.status);
      if (status === undefined) throw gatewayError('payment lookup', 'the answer lacks status');
      return {
        id: text(answer.id) ?? id,
        status,
        statusDetail: text(answer.status_detail) ?? null,
        raw: answer,
      };
    },

    verifyNotification(input, now = Date.now()): ProviderNotification {
      if (!settings.webhookSecret) {
        throw new AppError(
          'SERVICE_UNAVAILABLE',
          'MERCADOPAGO_WEBHOOK_SECRET is not configured: notifications cannot be verified',
        );
      }
      const notification = readNotification(input);
      const verdict = verifyMercadoPagoSignature(
        settings.webhookSecret,
        {
          signature: headerOf(input, 'x-signature'),
          requestId: notification.requestId,
          dataId: notification.resourceId,
        },
        now,
      );
      if (!verdict.ok) throw unauthorized(SIGNATURE_REFUSALS[verdict.reason]);
      return notification;
    },

    mapStatus: mapMercadoPagoStatus,
  };
}
