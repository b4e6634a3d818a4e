/**
 * A Mercado Pago stand-in for tests and local trials: a real HTTP server on 127.0.0.1.
 *
 * - `GET /authorization`: the consent screen, approved at once: 302 to `redirect_uri` with `code`
 *   and `state` (or `error=access_denied` after `denyNext()`).
 * - `POST /oauth/token` (form or JSON): the authorization-code grant. Checks the client id and
 *   secret, the code (single use), that `redirect_uri` equals the one of the consent, and PKCE:
 *   base64url(SHA-256(code_verifier)) must equal the consent's `code_challenge`. Anything wrong is
 *   400 `{error: 'invalid_grant'}` (or `invalid_client`).
 * - `GET /v1/payments/:id` with `Authorization: Bearer <an access token it issued>`: payments added
 *   with `addPayment()`.
 * - `failNext(status)`: the next token or payments request answers that status.
 *
 * `signNotification` signs an inbound notification the way Mercado Pago does, for tests of
 * `POST /webhooks/mercadopago` (written from Mercado Pago's documentation, not from the service's
 * verifier, so the two check each other).
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SimulatorOptions {
  clientId: string;
  clientSecret: string;
  port?: number;
  host?: string;
}

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
  /** Token exchanges attempted (successful or not). */
  readonly exchanges: number;
  /** Payment lookups received (successful or not). */
  readonly paymentLookups: number;
  /** A code as the consent screen would issue it, for driving the token endpoint directly. */
  issueCode(input: { redirectUri: string; codeChallenge: string; userId?: number }): string;
  addPayment(payment: SimulatedPayment): void;
  failNext(status: number): void;
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

export async function startMercadoPagoSimulator(options: SimulatorOptions): Promise<MercadoPagoSimulator> {
  const codes = new Map<string, PendingCode>();
  const tokens = new Map<string, number>();
  const payments = new Map<string, SimulatedPayment>();
  const issuedTokens: string[] = [];
  let exchanges = 0;
  let paymentLookups = 0;
  let nextUserId = 202_800_000;
  let failStatus: number | undefined;
  let deny = false;

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

    const failing = failStatus;
    if (request.method === 'POST' && url.pathname === '/oauth/token') {
      exchanges++;
      const body = await readBody(request);
      if (failing !== undefined) {
        failStatus = undefined;
        return json(response, failing, { message: 'simulated failure' });
      }
      if (body.client_id !== options.clientId || body.client_secret !== options.clientSecret) {
        return json(response, 401, { error: 'invalid_client' });
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
      const accessToken = `APP_USR-${randomBytes(16).toString('hex')}-${pending.userId}`;
      tokens.set(accessToken, pending.userId);
      issuedTokens.push(accessToken);
      return json(response, 200, {
        access_token: accessToken,
        token_type: 'Bearer',
        expires_in: 15_552_000,
        scope: 'offline_access payments read write',
        user_id: pending.userId,
        refresh_token: `TG-${randomBytes(16).toString('hex')}`,
        public_key: `APP_USR-${randomBytes(8).toString('hex')}`,
        live_mode: false,
      });
    }

    const payment = /^\/v1\/payments\/([^/]+)$/.exec(url.pathname);
    if (request.method === 'GET' && payment !== null) {
      paymentLookups++;
      if (failing !== undefined) {
        failStatus = undefined;
        return json(response, failing, { message: 'simulated failure' });
      }
      const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
      if (bearer === undefined || !tokens.has(bearer)) {
        return json(response, 401, { message: 'invalid access token', status: 401 });
      }
      const found = payments.get(decodeURIComponent(payment[1]!));
      if (found === undefined) return json(response, 404, { message: 'Payment not found', status: 404 });
      return json(response, 200, found);
    }
    return json(response, 404, { message: 'not found' });
  };

  const server = createServer((request, response) => {
    handle(request, response).catch(() => json(response, 500, { message: 'simulator error' }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve);
  });
  const address = server.address() as AddressInfo;

  return {
    url: `http://${address.address}:${address.port}`,
    get issuedTokens() {
      return issuedTokens;
    },
    get exchanges() {
      return exchanges;
    },
    get paymentLookups() {
      return paymentLookups;
    },
    issueCode,
    addPayment(value) {
      payments.set(value.id, value);
    },
    failNext(status) {
      failStatus = status;
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
