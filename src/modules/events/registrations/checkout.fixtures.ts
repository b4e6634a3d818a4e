/**
 * Helpers of the checkout tests (docs/reference/checkout.md): the Mercado Pago simulator (signing and sending
 * its notifications), a team app that listens on a real port (the simulator notifies it there), a sandbox
 * wallet with a seller connected through the real OAuth flow and a webhook endpoint at a local subscriber,
 * and paid editions linked to that wallet.
 */
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { eq } from 'drizzle-orm';
import { expectOk } from '../../../../test/assertions.ts';
import type { TestAppOptions, TestUser } from '../../../../test/harness.ts';
import {
  type MercadoPagoSimulator,
  startMercadoPagoSimulator,
} from '../../../../test/mercadopago-simulator.ts';
import { eventually, type Subscriber, startSubscriber } from '../../../../test/subscriber.ts';
import { jobs } from '../../../kernel/jobs/jobs.table.ts';
import type { Intent } from '../../payments/intents/intents.schemas.ts';
import { connectSeller, SIM_CLIENT, simulatorEnv } from '../../payments/payments.fixtures.ts';
import type { Wallet } from '../../payments/wallets/wallets.schemas.ts';
import type { WebhookEndpointWithSecret } from '../../payments/webhooks/endpoints/endpoints.schemas.ts';
import { startTeam, type Team } from '../events.fixtures.ts';
import type { PaymentLink } from '../payment-links/payment-links.schemas.ts';
import { ticketFixtures } from '../tickets/tickets.fixtures.ts';
import type { Registration } from './registrations.schemas.ts';

export const WEBHOOK_SECRET = 'checkout-webhook-secret';

export interface CheckoutBench extends Team {
  sim: MercadoPagoSimulator;
  subscriber: Subscriber;
  walletId: string;
  sellerId: string;
}

/**
 * Starts the bench in `before` and closes it in `after`. `env` adds to the app's environment
 * (a short `CHECKOUT_HOLD_SECONDS`, `RECONCILE_AFTER_SECONDS`, …); `simulator` to the simulator's
 * options.
 */
export function useCheckoutBench(
  env: Record<string, string> = {},
  simulator: { tokenTtlSeconds?: number; delayMs?: number } = {},
  appOptions: Omit<TestAppOptions, 'listen'> = {},
): () => CheckoutBench {
  let bench: CheckoutBench | undefined;
  // Each part is closed in `after` as soon as it has started, so a set-up failing half-way
  // leaves no server running.
  const started: { close(): Promise<void> }[] = [];
  before(async () => {
    const sim = await startMercadoPagoSimulator({
      ...SIM_CLIENT,
      ...simulator,
      webhookSecret: WEBHOOK_SECRET,
    });
    started.push(sim);
    const subscriber = await startSubscriber();
    started.push(subscriber);
    const team = await startTeam(
      {
        ...simulatorEnv(sim),
        MERCADOPAGO_WEBHOOK_SECRET: WEBHOOK_SECRET,
        JOBS_POLL_MS: '50',
        WEBHOOK_RETRY_SCHEDULE: '0,1',
        ...env,
      },
      { ...appOptions, listen: true },
    );
    started.push(team.t);
    const { t, owner } = team;
    const walletId = expectOk(
      await t.post<Wallet>('/wallets', { token: owner.token, body: { name: 'Box office' } }),
      201,
    ).id;
    expectOk(
      await t.patch<Wallet>(`/wallets/${walletId}/sandbox`, { token: owner.token, body: { sandbox: true } }),
    );
    expectOk(
      await t.patch<Wallet>(`/wallets/${walletId}/fee`, { token: owner.token, body: { fee_bps: 1000 } }),
    );
    const sellerId = await connectSeller(t, owner, walletId);
    expectOk(
      await t.post<WebhookEndpointWithSecret>(`/wallets/${walletId}/webhooks/endpoints`, {
        token: owner.token,
        body: { name: 'Orders', url: `${subscriber.url}/hooks` },
      }),
      201,
    );
    bench = { ...team, sim, subscriber, walletId, sellerId };
  });
  // The app first (it may still be notifying the simulator or delivering to the subscriber).
  after(async () => {
    for (const part of started.reverse()) await part.close();
  });
  return () => {
    if (bench === undefined) throw new Error('the bench starts in a before hook');
    return bench;
  };
}

/** Polls `read` until `done` holds (the flow's steps are asynchronous: notifications, jobs). */
export function until<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  what: string,
  timeoutMs = 10_000,
) {
  return eventually(
    async () => {
      const value = await read();
      return done(value) ? value : undefined;
    },
    what,
    timeoutMs,
  );
}

export function checkoutHelpers(bench: () => CheckoutBench) {
  const fx = ticketFixtures(bench);

  /**
   * A published edition of a new event linked to the bench's wallet, with a paid ticket type.
   * `fields` set the edition's (`starts_at`, `ends_at`, …).
   */
  async function paidEdition(ticket: Record<string, unknown> = {}, fields: Record<string, unknown> = {}) {
    const { t, owner, walletId, sellerId } = bench();
    const { event, edition } = await fx.setupEdition({ fields });
    expectOk(
      await t.put<PaymentLink>(`/events/${event.id}/payments`, {
        token: owner.token,
        body: { wallet_id: walletId, seller_id: sellerId },
      }),
    );
    const ticketType = await fx.createTicketType(edition.id, {
      name: 'Conference pass',
      price_cents: 5050,
      currency: 'BRL',
      ...ticket,
    });
    return { event, edition, ticketType };
  }

  const registration = async (id: string, by: TestUser = bench().owner) =>
    expectOk(await bench().t.get<Registration>(`/registrations/${id}`, { token: by.token }));

  /** The registration once its status is `status`. */
  const registrationWhen = (id: string, status: string, timeoutMs?: number) =>
    until(
      () => registration(id),
      (found) => found.status === status,
      `registration ${status}`,
      timeoutMs,
    );

  /** The checkout's preference at the simulator. */
  const preferenceOf = (intentId: string) => {
    const preference = bench().sim.preferenceOf(intentId);
    assert.ok(preference, `no preference for ${intentId}`);
    return preference;
  };

  /** Webhook bodies the subscriber received, parsed, of one type. */
  const received = (type: string) =>
    bench()
      .subscriber.received.map(
        (request) => JSON.parse(request.body) as { type: string; data: Record<string, unknown> },
      )
      .filter((body) => body.type === type);

  /**
   * A confirmed, paid registration of a new payer (`ticket` adds to the paid ticket type, `fields`
   * to the edition).
   */
  async function paidRegistration(
    ticket: Record<string, unknown> = {},
    fields: Record<string, unknown> = {},
  ) {
    const { event, edition, ticketType } = await paidEdition({ max_quantity: 5, ...ticket }, fields);
    const payer = await bench().t.actor('payer');
    const registration = expectOk(await fx.register(payer, edition.id, ticketType.id), 201);
    const payment = await bench().sim.pay(preferenceOf(registration.intent_id ?? '').id, 'approved');
    await registrationWhen(registration.id, 'confirmed');
    return { event, edition, ticketType, payer, registration, payment };
  }

  return {
    ...fx,
    paidEdition,
    registration,
    intent: async (id: string) =>
      expectOk(
        await bench().t.get<Intent>(`/intents/${id}`, { token: bench().owner.token }),
        200,
        'payments',
      ),
    registrationWhen,
    paidRegistration,
    received,
    /** The `data` of the one `type` webhook of a registration, once the subscriber received it. */
    registrationHook: async (type: string, registrationId: string) => {
      const hooks = await until(
        async () => received(type).filter((hook) => hook.data.registration_id === registrationId),
        (found) => found.length === 1,
        `${type} delivered`,
      );
      return hooks[0]?.data;
    },
    preferenceOf,
    jobsOf: (key: string) => bench().t.db.select().from(jobs).where(eq(jobs.key, key)),
  };
}
