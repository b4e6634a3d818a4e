/**
 * The payments side of paid tickets (docs/reference/checkout.md): the `PaymentsPort` the events module sells
 * through. A checkout is a Mercado Pago preference created with the seller's token; its intent is
 * stored only once the preference exists (`prepareCheckout` writes nothing, `recordCheckout` runs
 * in the registration's transaction), so a provider failure leaves nothing behind.
 */
import { uuidv7 } from '../../../kernel/db/ids.ts';
import { conflict, notFound } from '../../../kernel/http/errors.ts';
import { scheduleJob } from '../../../kernel/jobs/jobs.repository.ts';
import type { JobRunner } from '../../../kernel/jobs/runner.ts';
import type {
  CheckoutRequest,
  PaymentsPort,
  PreparedCheckout,
  RegistrationEventData,
  RegistrationEventType,
} from '../../../kernel/payments-port.ts';
import { findSellerOfWallet, NoSellerTokens, type SellerRow, withSellerToken } from '../connections/index.ts';
import {
  enqueueDeliveries,
  findCheckoutMoney,
  findIntent,
  insertIntent,
  insertPaymentEvent,
  recordEvent,
  sumCheckoutSales,
} from '../intents/index.ts';
import { feeMinor } from '../providers/index.ts';
import { findOwnedWallet, findWallet } from '../wallets/index.ts';
import { RECONCILE_JOB, REFUND_JOB } from './checkout.jobs.ts';
import { type RefundContext, refundIntent } from './refunds.ts';

const PROVIDER = 'mercadopago';

export interface CheckoutDeps {
  /** What refunds need; also the config, the outbox and the provider of every checkout. */
  refunds: RefundContext;
  jobs: JobRunner;
}

/** A seller that can take real payments: live, with OAuth credentials (not a test-mode seller). */
function requireLiveSeller(seller: SellerRow | undefined): SellerRow {
  if (seller === undefined) throw notFound('Seller');
  if (seller.revoked_at !== null) {
    throw conflict('seller_revoked', 'The seller was revoked; connect a seller again and link it', {
      seller_id: seller.id,
    });
  }
  if (seller.credentials === null) {
    throw conflict(
      'test_mode_seller',
      'A test-mode seller cannot take real payments; connect one with the seller flow',
      {
        seller_id: seller.id,
      },
    );
  }
  return seller;
}

export function createPaymentsPort(deps: CheckoutDeps): PaymentsPort {
  const { refunds, jobs } = deps;
  const { config, outbox, provider } = refunds;

  return {
    async checkSeller(db, ownerId, walletId, sellerId) {
      const wallet = await findOwnedWallet(db, walletId, ownerId);
      if (wallet === undefined) throw notFound('Wallet');
      requireLiveSeller(await findSellerOfWallet(db, walletId, sellerId));
      return { sandbox: wallet.sandbox };
    },

    async sandboxOf(db, walletId) {
      return (await findWallet(db, walletId))?.sandbox ?? false;
    },

    async prepareCheckout(db, request): Promise<PreparedCheckout> {
      const wallet = await findWallet(db, request.walletId);
      if (wallet === undefined)
        throw conflict('wallet_gone', 'The event’s payment wallet no longer exists; link another');
      const seller = requireLiveSeller(await findSellerOfWallet(db, request.walletId, request.sellerId));
      try {
        const preference = await withSellerToken(db, config, provider, seller, (token) =>
          provider.createPreference(token, {
            intentId: request.intentId,
            title: request.title,
            amountCents: request.amountCents,
            currency: request.currency,
            feeCents: feeMinor(request.amountCents, wallet.fee_bps),
            payerEmail: request.payerEmail,
            notificationUrl: `${config.publicBaseUrl}/webhooks/${PROVIDER}`,
            backUrl: `${config.publicBaseUrl}/checkout/${request.intentId}`,
            expiresAt: request.expiresAt,
          }),
        );
        return {
          checkoutUrl: wallet.sandbox ? preference.sandboxInitPoint : preference.initPoint,
          preferenceId: preference.id,
          sandbox: wallet.sandbox,
          feeBps: wallet.fee_bps,
        };
      } catch (error) {
        if (error instanceof NoSellerTokens) {
          throw conflict(
            'seller_credentials_unreadable',
            'The seller’s credentials cannot be read; connect the seller again',
          );
        }
        throw error;
      }
    },

    async checkoutIntent(db, intentId) {
      const intent = await findIntent(db, intentId);
      const registrationId = intent?.metadata.registration_id;
      if (intent === undefined || typeof registrationId !== 'string') return undefined;
      return {
        status: intent.status,
        amountCents: intent.amount_cents,
        currency: intent.currency,
        registrationId,
      };
    },

    async paymentsOf(db, intentIds) {
      return (await findCheckoutMoney(db, intentIds)).map((row) => ({
        intentId: row.id,
        status: row.status,
        amountCents: row.amount_cents,
        refundedCents: row.refunded_cents,
        currency: row.currency,
      }));
    },

    async salesOfEdition(db, editionId) {
      return (await sumCheckoutSales(db, editionId)).map((row) => ({
        ticketTypeId: row.ticket_type_id,
        currency: row.currency,
        payments: row.payments,
        revenueCents: row.revenue_cents,
        refundedCents: row.refunded_cents,
        feeCents: row.fee_cents,
      }));
    },

    async hasEnded(db, intentId) {
      const status = (await findIntent(db, intentId))?.status;
      return status === 'rejected' || status === 'cancelled' || status === 'failed';
    },

    async recordCheckout(tx, request: CheckoutRequest, prepared) {
      const intent = await insertIntent(tx, {
        id: request.intentId,
        wallet_id: request.walletId,
        seller_id: request.sellerId,
        amount_cents: request.amountCents,
        currency: request.currency,
        sandbox: prepared.sandbox,
        provider: PROVIDER,
        status: 'pending',
        status_detail: null,
        provider_data: { preference_id: prepared.preferenceId },
        fee_bps: prepared.feeBps,
        metadata: request.metadata,
      });
      await recordEvent(tx, intent, PROVIDER, outbox);
      // A lost notification never loses a paid ticket: the provider is asked after the hold ends.
      const after = config.checkout.reconcileAfterSeconds * 1000;
      await scheduleJob(tx, {
        kind: RECONCILE_JOB,
        key: intent.id,
        runAt: new Date(request.expiresAt.getTime() + after),
      });
    },

    async requestRefund(tx, intentId, reason) {
      await scheduleJob(tx, { kind: REFUND_JOB, key: intentId, payload: { reason }, runAt: new Date() });
    },

    async refundNow(db, intentId, reason, amountCents) {
      await refundIntent({ ...refunds, db }, intentId, { reason, amountCents });
    },

    async announce(tx, type: RegistrationEventType, data: RegistrationEventData) {
      const intent = await findIntent(tx, data.intent_id);
      if (intent === undefined) return;
      const event = await insertPaymentEvent(tx, {
        id: uuidv7(),
        wallet_id: intent.wallet_id,
        intent_id: data.intent_id,
        type,
        source: 'events',
        payload: { ...data },
      });
      await enqueueDeliveries(tx, event, outbox);
    },

    wake() {
      outbox.wake();
      jobs.wake();
    },
  };
}
