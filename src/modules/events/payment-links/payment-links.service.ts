/**
 * Event payment links (docs/reference/checkout.md): which wallet and seller sell an event's paid tickets.
 * Linking takes the event's owner who also owns the wallet; the wallet and seller are checked by the payments
 * module (404 for a wallet that is not the caller's, 404/409 for a seller that is not a live one of it).
 */
import type { Identity } from '../../../kernel/auth/identity.ts';
import type { Database } from '../../../kernel/db/client.ts';
import { notFound } from '../../../kernel/http/errors.ts';
import type { PaymentsPort } from '../../../kernel/payments-port.ts';
import { requireEventRole } from '../events/index.ts';
import * as repo from './payment-links.repository.ts';
import type { PaymentLink, PutPaymentLinkBody } from './payment-links.schemas.ts';
import type { PaymentLinkRow } from './payment-links.table.ts';

const present = (row: PaymentLinkRow, sandbox: boolean): PaymentLink => ({
  event_id: row.event_id,
  wallet_id: row.wallet_id,
  seller_id: row.seller_id,
  sandbox,
});

export async function linkPayments(
  db: Database,
  payments: PaymentsPort,
  eventId: string,
  actor: Identity,
  body: PutPaymentLinkBody,
): Promise<PaymentLink> {
  await requireEventRole(db, eventId, actor, 'owner');
  const { sandbox } = await payments.checkSeller(db, actor.userId, body.wallet_id, body.seller_id);
  const row = await repo.upsertPaymentLink(db, {
    event_id: eventId,
    wallet_id: body.wallet_id,
    seller_id: body.seller_id,
    created_by: actor.userId,
  });
  return present(row, sandbox);
}

export async function getPaymentLink(
  db: Database,
  payments: PaymentsPort,
  eventId: string,
  actor: Identity,
): Promise<PaymentLink> {
  await requireEventRole(db, eventId, actor, 'admin');
  const row = await repo.findPaymentLink(db, eventId);
  if (row === undefined) throw notFound('Payment link');
  return present(row, await payments.sandboxOf(db, row.wallet_id));
}

/** Unlinks; registrations already paying keep their intent (docs/reference/checkout.md). */
export async function unlinkPayments(
  db: Database,
  payments: PaymentsPort,
  eventId: string,
  actor: Identity,
): Promise<PaymentLink> {
  await requireEventRole(db, eventId, actor, 'owner');
  const row = await repo.deletePaymentLink(db, eventId);
  if (row === undefined) throw notFound('Payment link');
  return present(row, await payments.sandboxOf(db, row.wallet_id));
}
