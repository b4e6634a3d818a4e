/**
 * A Mercado Pago stand-in for tests and local trials: a real HTTP server on 127.0.0.1.
 *
 * - `GET /authorization`: the consent screen, approved at once: 302 to `redirect_uri` with `code`
 *   and `state` (or `error=access_denied` after `denyNext()`).
 * - `POST /oauth/token` (form or JSON): the authorization-code grant. Checks the client id and
 *   secret, the code (single use), that `redirect_uri` equals the one of the consent, and PKCE:
 *   base64url(SHA-256(code_verifier)) must equal the consent's `code_challenge`. Anything wrong is
 *   400 `{error: 'invalid_grant'}` (or `invalid_client`).
 * - `POST /oauth/token` with `grant_type=refresh_token`: a new access token and a new refresh token
 *   (the old refresh token stops working, as Mercado Pago rotates it).
 * - `GET /v1/payments/:id` with `Authorization: Bearer <an access token it issued>`: payments added
 *   with `addPayment()` or made on the payment page. A revoked or unknown token is 401.
 * - `POST /checkout/preferences` (Checkout Pro): stores the preference (the same
 *   `X-Idempotency-Key` gives the same preference back) and answers `init_point` and
 *   `sandbox_init_point`, both the simulator's own payment page.
 * - `GET /checkout/v1/redirect?pref_id=` (and `/checkout/v1/sandbox/redirect`): the payment page,
 *   with buttons to approve, reject or leave the payment pending. Paying creates a payment whose
 *   `external_reference`, amount, currency and `collector_id` are the preference's, sends the
 *   notification Mercado Pago sends (signed with `webhookSecret`) to the preference's
 *   `notification_url`, and redirects to its `back_urls`. `pay()` does the same from a test.
 * - `GET /v1/payments/search?external_reference=`: the payments of a preference, newest first.
 * - `POST /v1/payments/:id/refunds` (`{amount?}` in major units, `X-Idempotency-Key`): a full or
 *   partial refund, answered `{id, payment_id, amount, status}`; a full one moves the payment to
 *   `refunded` and notifies. A key seen before answers the same refund again (as Mercado Pago
 *   does) and refunds nothing more. `refundedOf()` is what a payment has given back in all, for
 *   tests that hold the service's books against the provider's. What happens after a refund is
 *   made can be arranged for the next refund request: `loseNextRefundAnswer` (made, then answered
 *   with an error status or the connection dropped: the outcome a caller cannot know),
 *   `holdNextRefundAnswer` (made, answered when the test says), `limitNextRefund` (gives back
 *   less than asked).
 * - `POST /inbox` and `GET /inbox`: a webhook endpoint for local trials, which keeps the last 100
 *   bodies it received and lists them (not part of Mercado Pago: `npm run dev:provider`'s
 *   walk-through points the wallet's webhook endpoint there).
 * - `failNext(status, on?)`: the next request (of one kind, when `on` is given) answers that
 *   status; `delayMs` delays every API answer (the benchmark's 20 ms provider).
 *
 * `signNotification` signs an inbound notification the way Mercado Pago does, for tests of
 * `POST /webhooks/mercadopago` (written from Mercado Pago's documentation, not from the service's
 * verifier, so the two check each other).
 */
import { createHash, createHmac, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SimulatorOptions {
  clientId: string;
  clientSecret: string;
  port?: number;
  host?: string;
  /** Signs the notifications it sends (MERCADOPAGO_WEBHOOK_SECRET); without it none are sent. */
  webhookSecret?: string;
  /** Added before every API answer (not the pages), to stand for a provider's latency. */
  delayMs?: number;
  /** `expires_in` of the access tokens it issues (default 180 days). */
  tokenTtlSeconds?: number;
}

/** What a request can be made to fail (`failNext`). */
export type SimulatedEndpoint = 'token' | 'payment' | 'preference' | 'search' | 'refund';

export interface SimulatedPreference {
  id: string;
  /** The seller (Mercado Pago user) whose token created it. */
  collectorId: number;
  body: Record<string, unknown>;
  idempotencyKey: string | undefined;
}

export type PaymentOutcome = 'approved' | 'rejected' | 'pending';

interface PendingCode {
  redirectUri: string;
  codeChallenge: string;
  userId: number;
}

export interface SimulatedPayment {
  id: string;
  status: string;
  status_detail?: string | null;
  [field: string]: unknown;
}

export interface MercadoPagoSimulator {
  url: string;
  /** Access tokens issued so far (what the service must store only encrypted). */
  readonly issuedTokens: string[];
  /** Refresh tokens issued so far (encrypted at rest as well). */
  readonly issuedRefreshTokens: string[];
  /** Token exchanges attempted (successful or not). */
  readonly exchanges: number;
  /** Payment lookups received (successful or not). */
  readonly paymentLookups: number;
  /** Preferences created, by id. */
  readonly preferences: ReadonlyMap<string, SimulatedPreference>;
  /** Requests per endpoint (successful or not), counted when answered (after `delayMs`). */
  readonly calls: Readonly<Record<SimulatedEndpoint, number>>;
  /** API requests received and held by `delayMs` right now: a test's sign that one is in flight. */
  readonly held: number;
  /** Notifications sent, with the status the service answered (0: no answer). */
  readonly notificationsSent: { paymentId: string; status: number }[];
  /** Refunds made: payment id, amount in major units (null: all). */
  readonly refunds: { paymentId: string; amount: number | null; key: string | undefined }[];
  /** What the payment has given back in all, in major units (0 for none or an unknown payment). */
  refundedOf(paymentId: string): number;
  /**
   * Pays a preference as the payment page does: a payment with that outcome, then (unless
   * `notify` is false) its notification. Answers the payment.
   */
  pay(
    preferenceId: string,
    outcome: PaymentOutcome,
    options?: { notify?: boolean },
  ): Promise<SimulatedPayment>;
  /** Moves a payment to another status (a pending one approved) and notifies unless told not to. */
  settle(
    paymentId: string,
    status: string,
    statusDetail: string,
    options?: { notify?: boolean },
  ): Promise<void>;
  /** Sends a payment's notification again (what Mercado Pago's retries do). */
  notify(paymentId: string): Promise<number>;
  /** Makes an access token invalid (401), as an expired one is. */
  revokeToken(accessToken: string): void;
  /** The preference whose `external_reference` is `reference`. */
  preferenceOf(reference: string): SimulatedPreference | undefined;
  /** A code as the consent screen would issue it, for driving the token endpoint directly. */
  issueCode(input: { redirectUri: string; codeChallenge: string; userId?: number }): string;
  addPayment(payment: SimulatedPayment): void;
  failNext(status: number, on?: SimulatedEndpoint): void;
  /**
   * The next refund request is carried out (made, or answered again for a known key), then its
   * answer is lost: `how` is the status answered instead, or `reset` to drop the connection.
   */
  loseNextRefundAnswer(how: number | 'reset'): void;
  /**
   * The next refund request is carried out and its answer held until the function returned is
   * called (a provider answering slowly, with the refund already made).
   */
  holdNextRefundAnswer(): () => void;
  /** The next refund that is made gives back at most `amount` (major units), whatever was asked. */
  limitNextRefund(amount: number): void;
  /**
   * Forgets what was arranged for refund requests still to come and answers every held one, so a
   * test that failed half-way leaves nothing arranged for the next.
   */
  clearRefundArrangements(): void;
  denyNext(): void;
  close(): Promise<void>;
}

const json = (response: ServerResponse, status: number, body: unknown) => {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
};

async function readBody(request: IncomingMessage): Promise<Record<string, string>> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if ((request.headers['content-type'] ?? '').includes('application/json')) {
    try {
      const parsed = JSON.parse(text) as Record<string, unknown>;
      return Object.fromEntries(Object.entries(parsed).map(([key, value]) => [key, String(value)]));
    } catch {
      return {};
    }
  }
  return Object.fromEntries(new URLSearchParams(text));
}

async function readJsonBody(request: IncomingMessage): Promise<Record<string, unknown> | undefined> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  try {
    const parsed: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

const escapeHtml = (value: unknown) => String(value).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const STATUS_DETAILS: Record<PaymentOutcome, string> = {
  approved: 'accredited',
  rejected: 'cc_rejected_insufficient_amount',
  pending: 'pending_contingency',
};

export async function startMercadoPagoSimulator(options: SimulatorOptions): Promise<MercadoPagoSimulator> {
  const codes = new Map<string, PendingCode>();
  const tokens = new Map<string, number>();
  const refreshTokens = new Map<string, number>();
  const payments = new Map<string, SimulatedPayment>();
  const preferences = new Map<string, SimulatedPreference>();
  const preferenceByKey = new Map<string, string>();
  const issuedTokens: string[] = [];
  const issuedRefreshTokens: string[] = [];
  const calls: Record<SimulatedEndpoint, number> = {
    token: 0,
    payment: 0,
    preference: 0,
    search: 0,
    refund: 0,
  };
  let held = 0;
  const notificationsSent: { paymentId: string; status: number }[] = [];
  const refunds: { paymentId: string; amount: number | null; key: string | undefined }[] = [];
  /** The answer of each refund made, by its idempotency key (a known key answers it again). */
  const refundAnswers = new Map<string, Record<string, unknown>>();
  /** What happens to the answers of the next refund requests, in order (`loseNextRefundAnswer`, …). */
  const refundAnswerFates: ({ lose: number | 'reset' } | { hold: Promise<void> })[] = [];
  const refundLimits: number[] = [];
  const heldRefundAnswers: (() => void)[] = [];
  let exchanges = 0;
  let paymentLookups = 0;
  let nextUserId = 202_800_000;
  let nextPaymentId = 1_320_000_000 + Math.floor(Math.random() * 1_000_000) * 100;
  const failures: { status: number; on: SimulatedEndpoint | undefined }[] = [];
  let deny = false;
  let baseUrl = '';
  const inbox: { headers: Record<string, unknown>; body: unknown }[] = [];

  /** The failure queued for this endpoint, if any (consumed). */
  const failureFor = (endpoint: SimulatedEndpoint): number | undefined => {
    const index = failures.findIndex((failure) => failure.on === undefined || failure.on === endpoint);
    if (index < 0) return undefined;
    const [failure] = failures.splice(index, 1);
    return failure?.status;
  };
  const delay = () =>
    options.delayMs
      ? new Promise<void>((resolve) => setTimeout(resolve, options.delayMs))
      : Promise.resolve();
  const issueTokens = (userId: number) => {
    const accessToken = `APP_USR-${randomBytes(16).toString('hex')}-${userId}`;
    const refreshToken = `TG-${randomBytes(16).toString('hex')}`;
    tokens.set(accessToken, userId);
    refreshTokens.set(refreshToken, userId);
    issuedTokens.push(accessToken);
    issuedRefreshTokens.push(refreshToken);
    return {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: options.tokenTtlSeconds ?? 15_552_000,
      scope: 'offline_access payments read write',
      user_id: userId,
      refresh_token: refreshToken,
      public_key: `APP_USR-${randomBytes(8).toString('hex')}`,
      live_mode: false,
    };
  };
  const userOf = (request: IncomingMessage): number | undefined => {
    const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    return bearer === undefined ? undefined : tokens.get(bearer);
  };

  /** Sends the notification Mercado Pago sends for a payment to its preference's URL. */
  const sendNotification = async (paymentId: string): Promise<number> => {
    const payment = payments.get(paymentId);
    const preference = payment === undefined ? undefined : preferenceOf(String(payment.external_reference));
    const target = preference?.body.notification_url;
    if (options.webhookSecret === undefined || typeof target !== 'string') return 0;
    const requestId = randomUUID();
    const url = new URL(target);
    url.searchParams.set('data.id', paymentId);
    url.searchParams.set('type', 'payment');
    let status = 0;
    try {
      const answer = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-request-id': requestId,
          'x-signature': signNotification({ secret: options.webhookSecret, dataId: paymentId, requestId }),
        },
        body: JSON.stringify({
          action: 'payment.updated',
          api_version: 'v1',
          data: { id: paymentId },
          date_created: new Date().toISOString(),
          id: Date.now(),
          live_mode: false,
          type: 'payment',
          user_id: String(preference?.collectorId ?? ''),
        }),
        signal: AbortSignal.timeout(15_000),
      });
      status = answer.status;
      await answer.arrayBuffer();
    } catch {
      status = 0;
    }
    notificationsSent.push({ paymentId, status });
    return status;
  };

  /** Answers a refund carried out: 201 with it, unless its answer is to be lost or held. */
  const answerRefund = async (response: ServerResponse, made: Record<string, unknown>) => {
    const fate = refundAnswerFates.shift();
    if (fate !== undefined && 'hold' in fate) await fate.hold;
    if (fate === undefined || 'hold' in fate) return json(response, 201, made);
    if (fate.lose === 'reset') return response.socket?.destroy();
    return json(response, fate.lose, { message: 'simulated failure after the refund was made' });
  };

  const preferenceOf = (reference: string) => {
    for (const preference of preferences.values()) {
      if (preference.body.external_reference === reference) return preference;
    }
    return undefined;
  };

  const pay = async (
    preferenceId: string,
    outcome: PaymentOutcome,
    payOptions: { notify?: boolean } = {},
  ) => {
    const preference = preferences.get(preferenceId);
    if (preference === undefined) throw new Error(`no preference ${preferenceId}`);
    const [item] = (preference.body.items as Record<string, unknown>[] | undefined) ?? [];
    const id = String(nextPaymentId++);
    const payment: SimulatedPayment = {
      id,
      status: outcome,
      status_detail: STATUS_DETAILS[outcome],
      external_reference: preference.body.external_reference,
      transaction_amount: item?.unit_price,
      currency_id: item?.currency_id,
      collector_id: preference.collectorId,
      marketplace_fee: preference.body.marketplace_fee,
      date_created: new Date().toISOString(),
    };
    payments.set(id, payment);
    if (payOptions.notify !== false) await sendNotification(id);
    return payment;
  };

  const issueCode = (input: { redirectUri: string; codeChallenge: string; userId?: number }) => {
    const code = `TG-${randomBytes(12).toString('hex')}`;
    codes.set(code, {
      redirectUri: input.redirectUri,
      codeChallenge: input.codeChallenge,
      userId: input.userId ?? nextUserId++,
    });
    return code;
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://simulator');
    if (request.method === 'GET' && url.pathname === '/authorization') {
      const q = url.searchParams;
      const redirectUri = q.get('redirect_uri');
      if (
        q.get('client_id') !== options.clientId ||
        q.get('response_type') !== 'code' ||
        redirectUri === null ||
        q.get('code_challenge') === null ||
        q.get('code_challenge_method') !== 'S256'
      ) {
        return json(response, 400, { error: 'invalid_request' });
      }
      const back = new URL(redirectUri);
      if (deny) {
        deny = false;
        back.searchParams.set('error', 'access_denied');
      } else {
        back.searchParams.set('code', issueCode({ redirectUri, codeChallenge: q.get('code_challenge')! }));
      }
      back.searchParams.set('state', q.get('state') ?? '');
      response.writeHead(302, { location: back.toString() });
      return response.end();
    }

    if (url.pathname === '/inbox') {
      if (request.method === 'GET') return json(response, 200, inbox);
      const body = await readJsonBody(request);
      inbox.push({ headers: { 'webhook-id': request.headers['webhook-id'] }, body });
      inbox.splice(0, Math.max(0, inbox.length - 100));
      return json(response, 200, { received: true });
    }
    if (request.method === 'GET' && /^\/checkout\/v1\/(sandbox\/)?redirect$/.test(url.pathname)) {
      return paymentPage(response, url.searchParams.get('pref_id') ?? '');
    }
    if (request.method === 'POST' && url.pathname === '/checkout/v1/pay') {
      const form = await readBody(request);
      const preference = preferences.get(form.pref_id ?? '');
      const outcome = form.outcome as PaymentOutcome;
      if (preference === undefined || !(outcome in STATUS_DETAILS))
        return json(response, 400, { message: 'bad payment' });
      const payment = await pay(preference.id, outcome);
      const backUrls = (preference.body.back_urls ?? {}) as Record<string, string>;
      const back =
        backUrls[outcome === 'approved' ? 'success' : outcome === 'pending' ? 'pending' : 'failure'];
      if (back === undefined) return json(response, 200, payment);
      const target = new URL(back);
      target.searchParams.set('collection_status', outcome);
      target.searchParams.set('payment_id', payment.id);
      target.searchParams.set('external_reference', String(payment.external_reference));
      target.searchParams.set('preference_id', preference.id);
      response.writeHead(302, { location: target.toString() });
      return response.end();
    }

    held++;
    try {
      await delay();
    } finally {
      held--;
    }
    if (request.method === 'POST' && url.pathname === '/oauth/token') {
      exchanges++;
      calls.token++;
      const body = await readBody(request);
      const failing = failureFor('token');
      if (failing !== undefined) return json(response, failing, { message: 'simulated failure' });
      if (body.client_id !== options.clientId || body.client_secret !== options.clientSecret) {
        return json(response, 401, { error: 'invalid_client' });
      }
      if (body.grant_type === 'refresh_token') {
        const userId = body.refresh_token === undefined ? undefined : refreshTokens.get(body.refresh_token);
        if (userId === undefined)
          return json(response, 400, { error: 'invalid_grant', message: 'unknown refresh_token' });
        refreshTokens.delete(body.refresh_token!); // rotated: single use
        return json(response, 200, issueTokens(userId));
      }
      const pending = body.code === undefined ? undefined : codes.get(body.code);
      if (body.grant_type !== 'authorization_code' || pending === undefined) {
        return json(response, 400, { error: 'invalid_grant', message: 'unknown or used code' });
      }
      codes.delete(body.code!); // single use, even when the rest of the request is wrong
      const challenge = createHash('sha256')
        .update(body.code_verifier ?? '', 'ascii')
        .digest('base64url');
      if (body.redirect_uri !== pending.redirectUri || challenge !== pending.codeChallenge) {
        return json(response, 400, {
          error: 'invalid_grant',
          message: 'redirect_uri or code_verifier mismatch',
        });
      }
      return json(response, 200, issueTokens(pending.userId));
    }

    const unauthorized = () => json(response, 401, { message: 'invalid access token', status: 401 });

    if (request.method === 'POST' && url.pathname === '/checkout/preferences') {
      calls.preference++;
      const body = await readJsonBody(request);
      const failing = failureFor('preference');
      if (failing !== undefined) return json(response, failing, { message: 'simulated failure' });
      const userId = userOf(request);
      if (userId === undefined) return unauthorized();
      const items = body?.items;
      if (body === undefined || !Array.isArray(items) || items.length === 0) {
        return json(response, 400, { message: 'items needed', status: 400 });
      }
      const key = request.headers['x-idempotency-key'] as string | undefined;
      const known = key === undefined ? undefined : preferenceByKey.get(key);
      const id = known ?? `${userId}-${randomUUID()}`;
      if (known === undefined) {
        preferences.set(id, { id, collectorId: userId, body, idempotencyKey: key });
        if (key !== undefined) preferenceByKey.set(key, id);
      }
      return json(response, 201, {
        id,
        collector_id: userId,
        external_reference: preferences.get(id)?.body.external_reference,
        init_point: `${baseUrl}/checkout/v1/redirect?pref_id=${id}`,
        sandbox_init_point: `${baseUrl}/checkout/v1/sandbox/redirect?pref_id=${id}`,
        date_created: new Date().toISOString(),
      });
    }

    if (request.method === 'GET' && url.pathname === '/v1/payments/search') {
      calls.search++;
      const failing = failureFor('search');
      if (failing !== undefined) return json(response, failing, { message: 'simulated failure' });
      const userId = userOf(request);
      if (userId === undefined) return unauthorized();
      const reference = url.searchParams.get('external_reference');
      const results = [...payments.values()]
        .filter((found) => found.collector_id === userId && found.external_reference === reference)
        .reverse();
      return json(response, 200, { paging: { total: results.length, limit: 30, offset: 0 }, results });
    }

    const refund = /^\/v1\/payments\/([^/]+)\/refunds$/.exec(url.pathname);
    if (request.method === 'POST' && refund !== null) {
      calls.refund++;
      const body = await readJsonBody(request);
      const failing = failureFor('refund');
      if (failing !== undefined) return json(response, failing, { message: 'simulated failure' });
      const userId = userOf(request);
      if (userId === undefined) return unauthorized();
      const paymentId = decodeURIComponent(refund[1]!);
      const found = payments.get(paymentId);
      if (found === undefined || found.collector_id !== userId) {
        return json(response, 404, { message: 'Payment not found', status: 404 });
      }
      const key = request.headers['x-idempotency-key'] as string | undefined;
      const known = key === undefined ? undefined : refundAnswers.get(key);
      if (known !== undefined) return answerRefund(response, known);
      if (found.status !== 'approved')
        return json(response, 400, { message: 'payment not refundable', status: 400 });
      const total = Number(found.transaction_amount);
      const before = Number(found.transaction_amount_refunded ?? 0);
      const asked = typeof body?.amount === 'number' ? body.amount : total - before;
      if (asked <= 0 || before + asked > total + 1e-9) {
        return json(response, 400, { message: 'invalid refund amount', status: 400 });
      }
      const limit = refundLimits.shift();
      const amount = limit === undefined ? asked : Math.min(asked, limit);
      refunds.push({ paymentId, amount: typeof body?.amount === 'number' ? amount : null, key });
      found.transaction_amount_refunded = before + amount;
      const isFull = Math.abs(before + amount - total) < 1e-9;
      if (isFull) {
        found.status = 'refunded';
        found.status_detail = 'refunded';
      } else {
        found.status_detail = 'partially_refunded';
      }
      const made = { id: nextPaymentId++, payment_id: paymentId, amount, status: 'approved' };
      if (key !== undefined) refundAnswers.set(key, made);
      await answerRefund(response, made);
      if (isFull) void sendNotification(paymentId);
      return;
    }

    const payment = /^\/v1\/payments\/([^/]+)$/.exec(url.pathname);
    if (request.method === 'GET' && payment !== null) {
      paymentLookups++;
      calls.payment++;
      const failing = failureFor('payment');
      if (failing !== undefined) return json(response, failing, { message: 'simulated failure' });
      const userId = userOf(request);
      if (userId === undefined) return unauthorized();
      const found = payments.get(decodeURIComponent(payment[1]!));
      if (found === undefined) return json(response, 404, { message: 'Payment not found', status: 404 });
      // Another seller's payment is unknown to this token (as Mercado Pago answers).
      if (found.collector_id !== undefined && found.collector_id !== userId) {
        return json(response, 404, { message: 'Payment not found', status: 404 });
      }
      return json(response, 200, found);
    }
    return json(response, 404, { message: 'not found' });
  };

  /** The payment page a payer opens at `init_point`. */
  const paymentPage = (response: ServerResponse, preferenceId: string) => {
    const preference = preferences.get(preferenceId);
    if (preference === undefined) {
      response.writeHead(404, { 'content-type': 'text/html; charset=utf-8' });
      return response.end('<!doctype html><title>Not found</title><p>This checkout does not exist.</p>');
    }
    const [item] = (preference.body.items as Record<string, unknown>[] | undefined) ?? [];
    const button = (outcome: PaymentOutcome, label: string) =>
      `<button name="outcome" value="${outcome}">${label}</button>`;
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    return response.end(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>Mercado Pago simulator: pay</title></head>
<body><main>
<h1>Mercado Pago simulator</h1>
<p>${escapeHtml(item?.title)}: <strong>${escapeHtml(item?.unit_price)} ${escapeHtml(item?.currency_id)}</strong></p>
<form method="post" action="/checkout/v1/pay">
<input type="hidden" name="pref_id" value="${escapeHtml(preference.id)}">
${button('approved', 'Approve the payment')} ${button('rejected', 'Reject it')} ${button('pending', 'Leave it pending')}
</form>
</main></body></html>`);
  };

  const server = createServer((request, response) => {
    handle(request, response).catch(() => json(response, 500, { message: 'simulator error' }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve);
  });
  const address = server.address() as AddressInfo;
  baseUrl = `http://${address.address}:${address.port}`;

  return {
    url: baseUrl,
    get issuedTokens() {
      return issuedTokens;
    },
    get issuedRefreshTokens() {
      return issuedRefreshTokens;
    },
    get exchanges() {
      return exchanges;
    },
    get paymentLookups() {
      return paymentLookups;
    },
    get preferences() {
      return preferences;
    },
    get calls() {
      return calls;
    },
    get held() {
      return held;
    },
    get notificationsSent() {
      return notificationsSent;
    },
    get refunds() {
      return refunds;
    },
    refundedOf: (paymentId) => Number(payments.get(paymentId)?.transaction_amount_refunded ?? 0),
    issueCode,
    addPayment(value) {
      payments.set(value.id, value);
    },
    pay,
    async settle(paymentId, status, statusDetail, settleOptions = {}) {
      const found = payments.get(paymentId);
      if (found === undefined) throw new Error(`no payment ${paymentId}`);
      found.status = status;
      found.status_detail = statusDetail;
      if (settleOptions.notify !== false) await sendNotification(paymentId);
    },
    notify: sendNotification,
    revokeToken(accessToken) {
      tokens.delete(accessToken);
    },
    preferenceOf,
    failNext(status, on) {
      failures.push({ status, on });
    },
    loseNextRefundAnswer(how) {
      refundAnswerFates.push({ lose: how });
    },
    holdNextRefundAnswer() {
      let release = () => {};
      refundAnswerFates.push({ hold: new Promise<void>((resolve) => (release = resolve)) });
      heldRefundAnswers.push(() => release());
      return () => release();
    },
    limitNextRefund(amount) {
      refundLimits.push(amount);
    },
    clearRefundArrangements() {
      refundAnswerFates.length = 0;
      refundLimits.length = 0;
      for (const release of heldRefundAnswers.splice(0)) release();
    },
    denyNext() {
      deny = true;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface NotificationSignatureInput {
  secret: string;
  /** `data.id` as sent (query string, else body); left out of the manifest when absent. */
  dataId?: string | undefined;
  /** The `x-request-id` header; left out of the manifest when absent. */
  requestId?: string | undefined;
  /** Unix seconds (Mercado Pago has also sent milliseconds); now by default. */
  ts?: number | string;
  /**
   * How an alphanumeric `data.id` enters the manifest: lower-cased, as Mercado Pago's guide says
   * (the default), or as sent, as the official SDK's `WebhookSignatureValidator` signs it.
   */
  idForm?: 'lower-cased' | 'as-sent';
}

/**
 * The `x-signature` header Mercado Pago sends: `ts=<ts>,v1=<hex HMAC-SHA256>` of the manifest
 * `id:<data.id>;request-id:<x-request-id>;ts:<ts>;`, an alphanumeric id lower-cased (unless
 * `idForm` is `as-sent`), absent values left out.
 */
export function signNotification(input: NotificationSignatureInput): string {
  const ts = String(input.ts ?? Math.floor(Date.now() / 1000));
  let manifest = '';
  if (input.dataId !== undefined) {
    const isLowered = input.idForm !== 'as-sent' && /^[a-z0-9]+$/i.test(input.dataId);
    manifest += `id:${isLowered ? input.dataId.toLowerCase() : input.dataId};`;
  }
  if (input.requestId !== undefined) manifest += `request-id:${input.requestId};`;
  manifest += `ts:${ts};`;
  return `ts=${ts},v1=${createHmac('sha256', input.secret).update(manifest).digest('hex')}`;
}
