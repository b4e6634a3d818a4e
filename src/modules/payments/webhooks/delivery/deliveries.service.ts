/**
 * Webhook deliveries as their wallet's owner sees them (docs/reference/webhooks.md): an endpoint's
 * deliveries, one delivery, its attempts, and a manual retry. Every operation decides authorization before it
 * looks at any state: someone else's delivery or endpoint is the 404 of an unknown id.
 */
import type { Identity } from '../../../../kernel/auth/identity.ts';
import type { Database, Executor } from '../../../../kernel/db/client.ts';
import type { Window } from '../../../../kernel/db/paging.ts';
import { conflict, notFound } from '../../../../kernel/http/errors.ts';
import { serialize } from '../../../../kernel/http/respond.ts';
import { requireEndpoint } from '../endpoints/endpoints.service.ts';
import * as repo from './deliveries.repository.ts';
import type { DeliveryStatus } from './delivery.table.ts';

/** The delivery, if the caller owns its wallet; anyone else's is the 404 of an unknown id. */
async function requireDelivery(db: Executor, deliveryId: string, actor: Identity) {
  const delivery = await repo.findDeliveryOfOwner(db, deliveryId, actor.userId);
  if (delivery === undefined) throw notFound('Webhook delivery');
  return delivery;
}

export async function listDeliveries(
  db: Database,
  endpointId: string,
  actor: Identity,
  status: DeliveryStatus | undefined,
  window: Window,
) {
  await requireEndpoint(db, endpointId, actor);
  const page = await repo.listDeliveriesOfEndpoint(db, endpointId, status, window);
  return { ...page, items: page.items.map(serialize) };
}

export async function getDelivery(db: Database, deliveryId: string, actor: Identity) {
  return serialize(await requireDelivery(db, deliveryId, actor));
}

export async function listAttempts(db: Database, deliveryId: string, actor: Identity, window: Window) {
  await requireDelivery(db, deliveryId, actor);
  const page = await repo.listAttempts(db, deliveryId, window);
  return { ...page, items: page.items.map(serialize) };
}

/**
 * A new attempt now, whatever the status. The worker makes it and numbers it `attempts + 1`; the
 * schedule is not reset, so whether a failed retry is retried again depends on how many attempts
 * the delivery already has. Refused (409) rather than raced while an attempt is in flight, and
 * while the endpoint is disabled (the worker would fail the delivery without an attempt).
 */
export async function retryDelivery(db: Database, deliveryId: string, actor: Identity) {
  const delivery = await requireDelivery(db, deliveryId, actor);
  const retried = await repo.retryDelivery(db, deliveryId);
  if (retried !== undefined) return serialize(retried);

  // Nothing matched: say why. A disabled endpoint comes first, since it needs the owner to act;
  // an attempt in flight ends by itself within the timeout. If the attempt ended between the
  // update and this read, "in progress" was still the reason the update missed.
  const blockers = await repo.findRetryBlockers(db, deliveryId);
  if (blockers === undefined) throw notFound('Webhook delivery');
  if (!blockers.isEndpointEnabled) {
    throw conflict(
      'endpoint_disabled',
      'The endpoint is disabled, so the attempt would be refused: enable it first ' +
        `(PATCH /webhooks/endpoints/${delivery.endpoint_id} with enabled: true), then retry`,
      { endpoint_id: delivery.endpoint_id },
    );
  }
  throw conflict(
    'attempt_in_progress',
    'An attempt of this delivery is in progress; retry once it has ended',
  );
}
