/**
 * The integrator scenario (scenario.ts) run against the service over HTTP, with independent
 * tools checking the document against what the service really does: every answer the generated
 * client gets is validated with ajv against the document fetched from `/docs/openapi.json` (its
 * status documented, its body matching that status's schema), and every webhook the receiver
 * gets is verified with `standardwebhooks` and validated against its type's schema in the
 * document's `webhooks` section.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { Middleware } from 'openapi-fetch';
import { SIM_CLIENT, simulatorEnv } from '../../src/modules/payments/payments.fixtures.ts';
import { createTestApp, type TestApp } from '../harness.ts';
import { type MercadoPagoSimulator, startMercadoPagoSimulator } from '../mercadopago-simulator.ts';
import { type Subscriber, startSubscriber } from '../subscriber.ts';
import { runScenario } from './scenario.ts';

// ajv-formats is CommonJS; under NodeNext its default import is the module object.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;
const NOTIFICATION_SECRET = 'integrator-notification-secret';

interface OpenApiDocument {
  paths: Record<string, Record<string, { responses: Record<string, MediaHolder> }>>;
  webhooks: Record<string, { post: { requestBody: MediaHolder } }>;
  components: { schemas?: object; responses?: Record<string, MediaHolder> };
}
interface MediaHolder {
  $ref?: string;
  content?: Record<string, { schema?: object }>;
}

/**
 * Validators of the document's JSON schemas, compiled once each. The document shares its schemas
 * and many answers under `components` and points at them (`$ref: '#/components/...'`): an answer
 * is looked up there, and each schema is compiled with the document's `components` beside it, so
 * its references resolve within the schema ajv compiles.
 */
function validatorsOf(document: OpenApiDocument) {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  addFormats(ajv);
  const compiled = new Map<string, ValidateFunction | undefined>();
  const answerOf = (holder: MediaHolder | undefined) =>
    holder?.$ref === undefined
      ? holder
      : document.components.responses?.[holder.$ref.replace('#/components/responses/', '')];
  const compile = (key: string, holder: MediaHolder | undefined) => {
    if (!compiled.has(key)) {
      const schema = answerOf(holder)?.content?.['application/json']?.schema;
      compiled.set(
        key,
        schema === undefined ? undefined : ajv.compile({ ...schema, components: document.components }),
      );
    }
    return compiled.get(key);
  };
  return {
    response: (path: string, method: string, status: number) =>
      compile(`${method} ${path} ${status}`, document.paths[path]?.[method]?.responses[String(status)]),
    /** The media types the document gives an answer (a CSV export's `text/csv; charset=utf-8`). */
    mediaTypes: (path: string, method: string, status: number) =>
      Object.keys(answerOf(document.paths[path]?.[method]?.responses[String(status)])?.content ?? {}),
    webhook: (type: string) => compile(`webhook ${type}`, document.webhooks[type]?.post.requestBody),
  };
}

describe('an integrator’s generated client (openapi-typescript + openapi-fetch)', () => {
  let sim: MercadoPagoSimulator;
  let receiver: Subscriber;
  let t: TestApp;
  before(async () => {
    sim = await startMercadoPagoSimulator({ ...SIM_CLIENT, webhookSecret: NOTIFICATION_SECRET });
    receiver = await startSubscriber();
    t = await createTestApp(
      {
        ...simulatorEnv(sim),
        MERCADOPAGO_WEBHOOK_SECRET: NOTIFICATION_SECRET,
        WEBHOOK_RETRY_SCHEDULE: '0,1',
      },
      { listen: true },
    );
  });
  after(async () => {
    await t?.close();
    await receiver?.close();
    await sim?.close();
  });

  it('sells a paid ticket end to end; every answer and webhook matches the document', async () => {
    const document = (await (await fetch(`${t.baseUrl}/docs/openapi.json`)).json()) as OpenApiDocument;
    const validators = validatorsOf(document);
    // The validators are not vacuous: an envelope without its data is refused.
    assert.equal(validators.response('/wallets', 'post', 201)?.({ code: 201, message: 'Created' }), false);
    const answers: string[] = [];
    const mismatches: string[] = [];
    const checkAnswers: Middleware = {
      async onResponse({ request, response, schemaPath }) {
        const method = request.method.toLowerCase();
        const what = `${request.method} ${schemaPath} → ${response.status}`;
        answers.push(what);
        // An answer that is not JSON (the CSV export) must carry a media type the document gives it.
        const type = response.headers.get('content-type') ?? '';
        if (!type.startsWith('application/json')) {
          const documented = validators.mediaTypes(schemaPath, method, response.status);
          if (!documented.includes(type))
            mismatches.push(`${what}: ${type} not among ${documented.join(', ')}`);
          return;
        }
        const validate = validators.response(schemaPath, method, response.status);
        if (validate === undefined) {
          mismatches.push(`${what}: status not documented with a JSON body`);
          return;
        }
        const body: unknown = await response.clone().json();
        if (!validate(body)) mismatches.push(`${what}: ${ajvErrors(validate)}`);
      },
    };
    const organizer = await t.actor('organizer', { name: 'Olga Organizer' });
    const buyer = await t.actor('buyer', { name: 'Bruno Buyer' });

    const outcome = await runScenario({
      baseUrl: t.baseUrl,
      organizerToken: organizer.token,
      buyerToken: buyer.token,
      receiverUrl: `${receiver.url}/convene`,
      received: () =>
        receiver.received.map((request) => ({
          body: request.body,
          headers: request.headers as Record<string, string>,
        })),
      consent: async (authorizationUrl) => {
        // The provider's consent page sends the browser to our callback, which redirects onward.
        const consent = await fetch(authorizationUrl, { redirect: 'manual' });
        const callback = await fetch(String(consent.headers.get('location')), { redirect: 'manual' });
        return String(callback.headers.get('location'));
      },
      pay: async (checkoutUrl) => {
        // The buyer presses "Approve the payment" on the provider's page.
        const preference = new URL(checkoutUrl).searchParams.get('pref_id') ?? '';
        const paid = await fetch(new URL('/checkout/v1/pay', checkoutUrl), {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ pref_id: preference, outcome: 'approved' }),
          redirect: 'manual',
        });
        assert.ok(paid.status === 302 || paid.status === 200, `paying answered ${paid.status}`);
      },
      middleware: checkAnswers,
    });

    assert.equal(outcome.registrationStatus, 'confirmed');
    assert.equal(outcome.sales.listed.length, 1);
    assert.deepEqual([outcome.sales.sold, outcome.sales.revenueCents], [1, 15_000]);
    const [header, row] = outcome.sales.csv.split('\r\n');
    assert.match(header ?? '', /^registration_id,created_at,status,/);
    assert.equal(row?.split(',')[0], outcome.sales.listed[0]);
    assert.ok(answers.length >= 14, `${answers.length} answers checked`);
    assert.deepEqual(mismatches, [], 'every answer matches the document');

    const types = outcome.webhooks.map((webhook) => webhook.type);
    for (const type of ['webhook.test', 'payment.pending', 'payment.succeeded', 'registration.confirmed']) {
      assert.ok(types.includes(type), `${type} received (got ${types.join(', ')})`);
    }
    const invalid = outcome.webhooks.flatMap((webhook) => {
      const { type } = webhook;
      const validate = validators.webhook(type);
      if (validate === undefined) return [`${type}: not in the document's webhooks`];
      return validate(webhook) ? [] : [`${type}: ${ajvErrors(validate)}`];
    });
    assert.deepEqual(invalid, [], 'every webhook matches its schema in the webhooks section');
  });
});

const ajvErrors = (validate: ValidateFunction) =>
  (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message}`).join('; ');
