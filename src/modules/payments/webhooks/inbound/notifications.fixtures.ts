/**
 * Helpers of the notification tests: the Mercado Pago simulator and a test app pointed at it (with
 * a webhook secret), a wallet with a seller connected through the real OAuth flow and a webhook
 * endpoint, intents linked to simulator payments, notifications signed as Mercado Pago signs them,
 * and counts of what notifications write.
 */
import { after, before } from 'node:test';
import { eq } from 'drizzle-orm';
import { expectOk } from '../../../../../test/assertions.ts';
import { type ApiResponse, createTestApp, type TestApp, type TestUser } from '../../../../../test/harness.ts';
import {
  type MercadoPagoSimulator,
  signNotification,
  startMercadoPagoSimulator,
} from '../../../../../test/mercadopago-simulator.ts';
import { sellers } from '../../connections/connections.table.ts';
import type { Intent } from '../../intents/intents.schemas.ts';
import { paymentEvents } from '../../intents/intents.table.ts';
import { connectSeller, SIM_CLIENT, simulatorEnv } from '../../payments.fixtures.ts';
import type { Wallet } from '../../wallets/wallets.schemas.ts';
import { webhookDeliveries } from '../delivery/delivery.table.ts';
import type { WebhookEndpointWithSecret } from '../endpoints/endpoints.schemas.ts';
import type { NotificationReceipt } from './notifications.schemas.ts';
import { providerNotifications } from './notifications.table.ts';

export const WEBHOOK_SECRET = 'mp-webhook-secret-for-tests';

export interface NotificationsBench {
  sim: MercadoPagoSimulator;
  t: TestApp;
  owner: TestUser;
  walletId: string;
  /** A seller with real simulator credentials. */
  sellerId: string;
  endpointId: string;
}

/** The simulator, the app and the wallet, started in `before` and closed in `after`. */
export function useNotificationsBench(): () => NotificationsBench {
  let bench: NotificationsBench | undefined;
  before(async () => {
    const sim = await startMercadoPagoSimulator(SIM_CLIENT);
    const t = await createTestApp({ ...simulatorEnv(sim), MERCADOPAGO_WEBHOOK_SECRET: WEBHOOK_SECRET });
    const owner = await t.actor('owner');
    const walletId = expectOk(
      await t.post<Wallet>('/wallets', { token: owner.token, body: { name: 'Shop' } }),
      201,
    ).id;
    const sellerId = await connectSeller(t, owner, walletId);
    const endpointId = expectOk(
      await t.post<WebhookEndpointWithSecret>(`/wallets/${walletId}/webhooks/endpoints`, {
        token: owner.token,
        body: { name: 'Orders', url: 'http://127.0.0.1:9/hooks' },
      }),
      201,
    ).id;
    bench = { sim, t, owner, walletId, sellerId, endpointId };
  });
  after(async () => {
    await bench?.t.close();
    await bench?.sim.close();
  });
  return () => {
    if (bench === undefined) throw new Error('the bench starts in a before hook');
    return bench;
  };
}

let paymentCount = 0;
/** A payment id unique to this process, numeric as Mercado Pago's are. */
export const newPaymentId = () => `${process.pid}${String(++paymentCount).padStart(6, '0')}`;

/** The body Mercado Pago sends for a payment (fields the service does not read included). */
export const notificationBody = (paymentId: string, type = 'payment') => ({
  action: 'payment.updated',
  api_version: 'v1',
  data: { id: paymentId },
  date_created: '2026-11-22T10:00:00.000-03:00',
  id: 112233445566,
  live_mode: false,
  type,
  user_id: '202809963',
});

export interface NotifyOptions {
  type?: string;
  /** Unix seconds or milliseconds (default now, in seconds). */
  ts?: number;
  secret?: string;
  requestId?: string;
  /** The `x-signature` sent instead of a correct one (null: none). */
  signature?: string | null;
  /** The id the signature covers, when it should differ from the one sent. */
  signedId?: string;
  provider?: string;
  /** The query string sent instead of `data.id=<id>&type=<type>`. */
  query?: string;
  body?: Record<string, unknown>;
}

export function notificationHelpers(bench: () => NotificationsBench) {
  /**
   * A test-mode intent (of the connected seller by default) whose transaction id is a simulator
   * payment (`payment.id`, or a new id) paid to that seller's account.
   */
  async function intentWithPayment(
    payment: { id?: string; status: string; status_detail?: string | null } | undefined,
    fields: Record<string, unknown> = {},
    sellerId = bench().sellerId,
  ): Promise<{ intent: Intent; paymentId: string }> {
    const { sim, t, owner, walletId } = bench();
    const paymentId = payment?.id ?? newPaymentId();
    if (payment !== undefined) {
      // Paid to the seller's account (numeric at Mercado Pago), as every payment reports its collector.
      const [seller] = await t.db.select().from(sellers).where(eq(sellers.id, sellerId));
      sim.addPayment({ collector_id: Number(seller?.provider_user_id), ...payment, id: paymentId });
    }
    const intent = expectOk(
      await t.post<Intent>('/testmode/intents/create', {
        token: owner.token,
        body: {
          wallet_id: walletId,
          seller_id: sellerId,
          amount_cents: 5000,
          currency: 'BRL',
          sandbox: true,
          provider: 'mercadopago',
          status: 'pending',
          provider_data: { transaction_id: paymentId },
          ...fields,
        },
      }),
      201,
    );
    return { intent, paymentId };
  }

  /** Sends a notification about `paymentId` signed as Mercado Pago signs it (unless told otherwise). */
  function notify(paymentId: string, options: NotifyOptions = {}): Promise<ApiResponse<NotificationReceipt>> {
    const type = options.type ?? 'payment';
    const requestId = options.requestId ?? `req-${paymentId}`;
    const signature =
      options.signature === undefined
        ? signNotification({
            secret: options.secret ?? WEBHOOK_SECRET,
            dataId: options.signedId ?? paymentId,
            requestId,
            ts: options.ts ?? Math.floor(Date.now() / 1000),
          })
        : options.signature;
    const headers: Record<string, string> = { 'x-request-id': requestId };
    if (signature !== null) headers['x-signature'] = signature;
    const query = options.query ?? `data.id=${paymentId}&type=${type}`;
    return bench().t.post<NotificationReceipt>(`/webhooks/${options.provider ?? 'mercadopago'}?${query}`, {
      headers,
      body: options.body ?? notificationBody(paymentId, type),
    });
  }

  return {
    intentWithPayment,
    notify,
    /** Rows of everything a notification may write. */
    counts: async () => {
      const { db } = bench().t;
      return {
        events: await db.$count(paymentEvents),
        deliveries: await db.$count(webhookDeliveries),
        notifications: await db.$count(providerNotifications),
      };
    },
    recordsOf: (paymentId: string) =>
      bench()
        .t.db.select()
        .from(providerNotifications)
        .where(eq(providerNotifications.resource_id, paymentId)),
    eventsOf: (intentId: string) =>
      bench().t.db.select().from(paymentEvents).where(eq(paymentEvents.intent_id, intentId)),
    intentNow: async (id: string) =>
      expectOk(await bench().t.get<Intent>(`/intents/${id}`, { token: bench().owner.token })),
    /** The `data` of a 200 answer. */
    receiptOf: (response: ApiResponse<NotificationReceipt>) => expectOk(response, 200, 'payments'),
  };
}
