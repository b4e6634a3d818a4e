/**
 * The provider adapters: the registry, the Mercado Pago adapter against the simulator over real
 * HTTP (authorize URL, code exchange with PKCE, payment lookup), every failure as a 502 that names
 * no token, and the status mapping of docs/reference/webhooks.md step 3.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import {
  type MercadoPagoSimulator,
  startMercadoPagoSimulator,
} from '../../../../test/mercadopago-simulator.ts';
import { loadConfig } from '../../../kernel/config.ts';
import { AppError } from '../../../kernel/http/errors.ts';
import { generateToken } from '../../../kernel/tokens.ts';
import { providerFor } from './index.ts';
import { mapMercadoPagoStatus } from './mercadopago/mercadopago.status.ts';
import { type PaymentProvider, ProviderTokenRejected } from './provider.ts';

const CLIENT = { clientId: 'sim-client', clientSecret: 'sim-secret' };
const REDIRECT = 'http://127.0.0.1:8080/providers/mercadopago/callback';
const challengeOf = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

const configFor = (apiUrl: string, secret = CLIENT.clientSecret) =>
  loadConfig({
    NODE_ENV: 'test',
    MERCADOPAGO_CLIENT_ID: CLIENT.clientId,
    MERCADOPAGO_CLIENT_SECRET: secret,
    MERCADOPAGO_AUTH_URL: apiUrl,
    MERCADOPAGO_API_URL: apiUrl,
    AUTH_PUBLIC_KEYS: '{"keys":[]}',
    SECRETS_KEY: Buffer.alloc(32, 1).toString('base64'),
  });

/** Asserts a 502 BAD_GATEWAY whose message reveals none of `secrets`. */
async function expectBadGateway(promise: Promise<unknown>, ...secrets: string[]) {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof AppError, String(error));
    assert.equal(error.code, 'BAD_GATEWAY');
    assert.equal(error.status, 502);
    for (const secret of secrets) assert.ok(!error.message.includes(secret), error.message);
    return true;
  });
}

describe('provider registry', () => {
  it('knows mercadopago and answers 404 for any other slug', () => {
    const config = configFor('http://127.0.0.1:9');
    assert.equal(providerFor('mercadopago', config).slug, 'mercadopago');
    for (const slug of ['stripe', 'MercadoPago', '', 'mercadopago ']) {
      assert.throws(
        () => providerFor(slug, config),
        (error: unknown) => error instanceof AppError && error.status === 404 && error.code === 'NOT_FOUND',
      );
    }
  });

  it('is not configured without a client id and secret', () => {
    const config = loadConfig({ NODE_ENV: 'test', AUTH_PUBLIC_KEYS: '{"keys":[]}' });
    assert.equal(providerFor('mercadopago', config).isConfigured(), false);
    assert.equal(providerFor('mercadopago', configFor('http://127.0.0.1:9')).isConfigured(), true);
  });
});

describe('mercadopago adapter', () => {
  let sim: MercadoPagoSimulator;
  let provider: PaymentProvider;

  before(async () => {
    sim = await startMercadoPagoSimulator(CLIENT);
    provider = providerFor('mercadopago', configFor(`${sim.url}/`));
  });
  after(() => sim?.close());

  const exchange = async (verifier = generateToken(), sent = verifier) => {
    const code = sim.issueCode({ redirectUri: REDIRECT, codeChallenge: challengeOf(verifier), userId: 4242 });
    return { code, tokens: provider.exchangeCode({ code, codeVerifier: sent, redirectUri: REDIRECT }) };
  };

  it('builds the consent URL with PKCE S256', () => {
    const url = new URL(provider.authorizeUrl({ state: 's t', codeChallenge: 'abc', redirectUri: REDIRECT }));
    assert.equal(`${url.origin}${url.pathname}`, `${sim.url}/authorization`);
    assert.deepEqual(Object.fromEntries(url.searchParams), {
      client_id: CLIENT.clientId,
      response_type: 'code',
      platform_id: 'mp',
      state: 's t',
      redirect_uri: REDIRECT,
      code_challenge: 'abc',
      code_challenge_method: 'S256',
    });
  });

  it('exchanges a code (single use) and fetches a payment with the access token (unknown: undefined)', async () => {
    const { code, tokens: pending } = await exchange();
    const tokens = await pending;
    assert.equal(tokens.providerUserId, '4242');
    assert.equal(tokens.accessToken, sim.issuedTokens.at(-1));
    assert.match(tokens.refreshToken!, /^TG-/);
    assert.ok(tokens.expiresAt!.getTime() > Date.now() + 100 * 86_400_000);
    // The same code again is refused by the provider.
    await expectBadGateway(
      provider.exchangeCode({ code, codeVerifier: 'x'.repeat(43), redirectUri: REDIRECT }),
      code,
    );

    sim.addPayment({ id: '1234567', status: 'rejected', status_detail: 'cc_rejected_insufficient_amount' });
    const payment = (await provider.fetchPayment(tokens.accessToken, '1234567'))!;
    assert.equal(payment.id, '1234567');
    assert.equal(payment.status, 'rejected');
    assert.equal(payment.statusDetail, 'cc_rejected_insufficient_amount');
    assert.deepEqual(provider.mapStatus(payment.status, payment.statusDetail), {
      status: 'rejected',
      statusDetail: 'insufficient_funds',
    });
    // A payment the provider does not know is an answer (undefined), not an outage.
    assert.equal(await provider.fetchPayment(tokens.accessToken, '999'), undefined);
    // A token the provider refuses (401) is its own error, so that the caller refreshes the seller's
    // token and tries again (connections/seller-token.ts turns a second refusal into a 502).
    await assert.rejects(provider.fetchPayment('APP_USR-forged', '1234567'), (error: unknown) => {
      assert.ok(error instanceof ProviderTokenRejected);
      assert.doesNotMatch(error.message, /APP_USR-forged/);
      return true;
    });
  });

  it('fails a wrong PKCE verifier, redirect URI or client secret with 502', async () => {
    const { tokens } = await exchange(generateToken(), generateToken());
    await expectBadGateway(tokens);
    const verifier = generateToken();
    const code = sim.issueCode({ redirectUri: REDIRECT, codeChallenge: challengeOf(verifier) });
    await expectBadGateway(
      provider.exchangeCode({ code, codeVerifier: verifier, redirectUri: `${REDIRECT}x` }),
    );
    const wrongSecret = providerFor('mercadopago', configFor(sim.url, 'not-the-secret'));
    const other = sim.issueCode({ redirectUri: REDIRECT, codeChallenge: challengeOf(verifier) });
    await expectBadGateway(
      wrongSecret.exchangeCode({ code: other, codeVerifier: verifier, redirectUri: REDIRECT }),
      'not-the-secret',
    );
  });

  it('turns provider errors and an unreachable provider into 502', async () => {
    const tokens = await (await exchange()).tokens;
    sim.addPayment({ id: '1', status: 'approved', status_detail: 'accredited' });
    sim.failNext(500);
    await expectBadGateway(provider.fetchPayment(tokens.accessToken, '1'), tokens.accessToken);
    sim.failNext(503);
    await expectBadGateway((await exchange()).tokens);
    assert.equal((await provider.fetchPayment(tokens.accessToken, '1'))?.status, 'approved');

    const down = providerFor('mercadopago', configFor('http://127.0.0.1:9'));
    await expectBadGateway(down.fetchPayment(tokens.accessToken, '1'), tokens.accessToken);
    await expectBadGateway(
      down.exchangeCode({ code: 'c', codeVerifier: 'v', redirectUri: REDIRECT }),
      CLIENT.clientSecret,
    );
  });
});

describe('mercadopago status mapping', () => {
  const cases: Array<[string, string | null, string, string | null]> = [
    ['approved', 'accredited', 'succeeded', null],
    ['pending', 'pending_waiting_payment', 'pending', null],
    ['pending', 'pending_review_manual', 'pending', 'pending_review'],
    ['in_process', 'pending_contingency', 'pending', 'pending_review'],
    ['in_process', 'pending_review_manual', 'pending', 'pending_review'],
    ['authorized', null, 'pending', null],
    ['in_mediation', null, 'processing', null],
    ['rejected', 'cc_rejected_insufficient_amount', 'rejected', 'insufficient_funds'],
    ['rejected', 'cc_rejected_high_risk', 'rejected', 'high_risk'],
    ['rejected', 'rejected_high_risk', 'rejected', 'high_risk'],
    ['rejected', 'cc_rejected_blacklist', 'rejected', 'high_risk'],
    ['rejected', 'cc_rejected_bad_filled_card_number', 'rejected', 'invalid_card'],
    ['rejected', 'cc_rejected_bad_filled_other', 'rejected', 'invalid_card'],
    ['rejected', 'cc_rejected_card_disabled', 'rejected', 'card_disabled'],
    ['rejected', 'cc_rejected_bad_filled_security_code', 'rejected', 'invalid_security_code'],
    ['rejected', 'cc_rejected_call_for_authorize', 'rejected', 'other'],
    ['rejected', 'cc_rejected_other_reason', 'rejected', 'other'],
    ['rejected', null, 'rejected', 'other'],
    ['cancelled', 'expired', 'cancelled', 'expired'],
    ['cancelled', 'by_collector', 'cancelled', null],
    ['refunded', 'refunded', 'refunded', null],
    ['charged_back', 'settled', 'refunded', null],
    ['something_new', null, 'processing', null],
  ];
  for (const [status, detail, expected, expectedDetail] of cases) {
    it(`maps ${status}/${detail} to ${expected}/${expectedDetail}`, () => {
      assert.deepEqual(mapMercadoPagoStatus(status, detail), {
        status: expected,
        statusDetail: expectedDetail,
      });
    });
  }
});
