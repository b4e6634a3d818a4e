/**
 * The Mercado Pago adapter: OAuth (authorization code with PKCE S256), the payments resource and
 * inbound notifications. Every call has a 10 s deadline; any failure becomes a 502 BAD_GATEWAY
 * whose message names the operation and the HTTP status only (`ProviderRefused` when the answer is
 * a refusal), except a payment the provider does not know (404), which is an answer, not an
 * outage. Provider bodies and tokens are never put in an error or log.
 */
import { request } from 'undici';
import type { Config } from '../../../../kernel/config.ts';
import { AppError, unauthorized } from '../../../../kernel/http/errors.ts';
import { toMajor, toMinor } from '../money.ts';
import {
  type InboundNotification,
  type PaymentProvider,
  type ProviderNotification,
  type ProviderPayment,
  type ProviderRefund,
  ProviderRefused,
  ProviderTokenRejected,
  type ProviderTokens,
} from '../provider.ts';
import { verifyMercadoPagoSignature } from './mercadopago.signature.ts';
import { mapMercadoPagoStatus } from './mercadopago.status.ts';

const TIMEOUT_MS = 10_000;

type Response = Awaited<ReturnType<typeof request>>;

const gatewayError = (what: string, detail: string) =>
  new AppError('BAD_GATEWAY', `Mercado Pago ${what} failed: ${detail}`);

/** 4xx statuses that say "not now" (a timeout, a conflict with the same key in flight, a limit), not "no". */
const NOT_A_REFUSAL = new Set([401, 408, 409, 425, 429]);

/**
 * The error of a non-2xx answer, with the same message either way: a refusal (`ProviderRefused`),
 * or a failure of unknown outcome.
 */
const answerError = (what: string, status: number) =>
  status >= 400 && status < 500 && !NOT_A_REFUSAL.has(status)
    ? new ProviderRefused(`Mercado Pago ${what} failed: HTTP ${status}`)
    : gatewayError(what, `HTTP ${status}`);

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

/**
 * Throws for an answer that is not a 2xx, a 502 (the body is drained, not kept). With `token`, a
 * 401 is `ProviderTokenRejected`: the caller refreshes the seller's token and tries once more.
 */
async function requireSuccess(what: string, response: Response, token?: 'seller'): Promise<void> {
  if (token === 'seller' && response.statusCode === 401) {
    await response.body.dump().catch(() => undefined);
    throw new ProviderTokenRejected(what);
  }
  if (response.statusCode < 200 || response.statusCode > 299) {
    await response.body.dump().catch(() => undefined);
    throw answerError(what, response.statusCode);
  }
}

/** The parsed body of a 2xx answer, else a 502 (`requireSuccess`). */
async function readJson(
  what: string,
  response: Response,
  token?: 'seller',
): Promise<Record<string, unknown>> {
  await requireSuccess(what, response, token);
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

const amountOf = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

/** A payment resource of the Mercado Pago API, as the service reads it. */
function paymentOf(answer: Record<string, unknown>, fallbackId: string, what: string): ProviderPayment {
  const status = text(answer.status);
  if (status === undefined) throw gatewayError(what, 'the answer lacks status');
  const currency = text(answer.currency_id) ?? null;
  const amount = amountOf(answer.transaction_amount);
  return {
    id: text(answer.id) ?? fallbackId,
    status,
    statusDetail: text(answer.status_detail) ?? null,
    externalReference: text(answer.external_reference) ?? null,
    amountCents: amount === undefined || currency === null ? null : toMinor(amount, currency),
    currency,
    collectorId: text(answer.collector_id) ?? text(objectOf(answer.collector).id) ?? null,
    raw: answer,
  };
}

/** Tokens of an OAuth answer (code exchange or refresh). */
function tokensOf(what: string, answer: Record<string, unknown>) {
  const accessToken = text(answer.access_token);
  if (accessToken === undefined) throw gatewayError(what, 'the answer lacks access_token');
  const expiresIn = typeof answer.expires_in === 'number' ? answer.expires_in : undefined;
  return {
    accessToken,
    refreshToken: text(answer.refresh_token) ?? null,
    expiresAt: expiresIn === undefined ? null : new Date(Date.now() + expiresIn * 1000),
  };
}

const bearer = (accessToken: string) => ({
  authorization: `Bearer ${accessToken}`,
  accept: 'application/json',
});

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
    accountId: text(body.user_id),
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
      const providerUserId = text(answer.user_id);
      if (providerUserId === undefined) throw gatewayError('token exchange', 'the answer lacks user_id');
      return { providerUserId, ...tokensOf('token exchange', answer) };
    },

    async refreshToken(refreshToken) {
      const body = new URLSearchParams({
        grant_type: 'refresh_token',
        client_id: settings.clientId ?? '',
        client_secret: settings.clientSecret ?? '',
        refresh_token: refreshToken,
      });
      const answer = await readJson(
        'token refresh',
        await send('token refresh', `${apiUrl}/oauth/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
          body: body.toString(),
        }),
      );
      return tokensOf('token refresh', answer);
    },

    async createPreference(accessToken, input) {
      const what = 'checkout preference';
      const answer = await readJson(
        what,
        await send(what, `${apiUrl}/checkout/preferences`, {
          method: 'POST',
          headers: {
            ...bearer(accessToken),
            'content-type': 'application/json',
            'x-idempotency-key': input.intentId,
          },
          body: JSON.stringify({
            items: [
              {
                id: input.intentId,
                title: input.title,
                quantity: 1,
                unit_price: toMajor(input.amountCents, input.currency),
                currency_id: input.currency,
              },
            ],
            payer: { email: input.payerEmail },
            external_reference: input.intentId,
            marketplace_fee: toMajor(input.feeCents, input.currency),
            notification_url: input.notificationUrl,
            back_urls: { success: input.backUrl, pending: input.backUrl, failure: input.backUrl },
            auto_return: 'all',
            expires: true,
            expiration_date_from: new Date().toISOString(),
            expiration_date_to: input.expiresAt.toISOString(),
            date_of_expiration: input.expiresAt.toISOString(),
          }),
        }),
        'seller',
      );
      const id = text(answer.id);
      const initPoint = text(answer.init_point);
      if (id === undefined || initPoint === undefined) {
        throw gatewayError(what, 'the answer lacks id or init_point');
      }
      return { id, initPoint, sandboxInitPoint: text(answer.sandbox_init_point) ?? initPoint };
    },

    async searchPayments(accessToken, externalReference) {
      const what = 'payment search';
      const query = new URLSearchParams({
        external_reference: externalReference,
        sort: 'date_created',
        criteria: 'desc',
      });
      const answer = await readJson(
        what,
        await send(what, `${apiUrl}/v1/payments/search?${query.toString()}`, {
          method: 'GET',
          headers: bearer(accessToken),
        }),
        'seller',
      );
      if (!Array.isArray(answer.results)) throw gatewayError(what, 'the answer lacks results');
      return answer.results.map((result) => paymentOf(objectOf(result), '', what));
    },

    async refundPayment(accessToken, paymentId, { amountCents, currency, key }): Promise<ProviderRefund> {
      const what = 'refund';
      const response = await send(what, `${apiUrl}/v1/payments/${encodeURIComponent(paymentId)}/refunds`, {
        method: 'POST',
        headers: { ...bearer(accessToken), 'content-type': 'application/json', 'x-idempotency-key': key },
        body: JSON.stringify(amountCents === undefined ? {} : { amount: toMajor(amountCents, currency) }),
      });
      await requireSuccess(what, response, 'seller');
      // A 2xx says the refund is made: an answer that cannot be read still says that much, and
      // the caller records what it asked (asking again with the key would get the same answer).
      const answer = objectOf(await response.body.json().catch(() => undefined));
      const amount = amountOf(answer.amount);
      return {
        id: text(answer.id) ?? null,
        amountCents: amount === undefined ? null : toMinor(amount, currency),
      };
    },

    async fetchPayment(accessToken, id): Promise<ProviderPayment | undefined> {
      const response = await send('payment lookup', `${apiUrl}/v1/payments/${encodeURIComponent(id)}`, {
        method: 'GET',
        headers: bearer(accessToken),
      });
      // Unknown to the provider: the caller decides (a notification keeps it for a later replay).
      if (response.statusCode === 404) {
        await response.body.dump().catch(() => undefined);
        return undefined;
      }
      return paymentOf(await readJson('payment lookup', response, 'seller'), id, 'payment lookup');
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
