/**
 * SQL of the owner's view of webhook deliveries: reads, the attempts, and the manual retry. The
 * worker's own SQL (claims, results) is in delivery-queue.repository.ts; the lease columns
 * (`claim_id`, `leased_until`) are never selected here for display.
 */
import { and, asc, desc, eq, not, sql } from 'drizzle-orm';
import type { Database, Executor } from '../../../../kernel/db/client.ts';
import { countAll, pageOf, type Window } from '../../../../kernel/db/paging.ts';
import { isOwnedBy } from '../../wallets/index.ts';
import { endpointEnabledOf, isEndpointEnabled } from '../endpoints/index.ts';
import {
  type DeliveryStatus,
  type WebhookAttemptRow,
  type WebhookDeliveryRow,
  webhookAttempts,
  webhookDeliveries,
} from './delivery.table.ts';
import { notifyWorkers } from './delivery-queue.repository.ts';

/** The columns an owner sees (no lease). */
const deliveryColumns = {
  id: webhookDeliveries.id,
  endpoint_id: webhookDeliveries.endpoint_id,
  event_id: webhookDeliveries.event_id,
  wallet_id: webhookDeliveries.wallet_id,
  status: webhookDeliveries.status,
  attempts: webhookDeliveries.attempts,
  last_attempted_at: webhookDeliveries.last_attempted_at,
  response_status: webhookDeliveries.response_status,
  response_body: webhookDeliveries.response_body,
  last_error: webhookDeliveries.last_error,
  next_attempt_at: webhookDeliveries.next_attempt_at,
  created_at: webhookDeliveries.created_at,
  updated_at: webhookDeliveries.updated_at,
};
export type DeliveryView = Omit<WebhookDeliveryRow, 'claim_id' | 'leased_until'>;

/** A claim whose lease is still running: an attempt is in flight. */
const isLeased = sql`(${webhookDeliveries.claim_id} is not null and ${webhookDeliveries.leased_until} >= now())`;

const attemptColumns = {
  attempt: webhookAttempts.attempt,
  started_at: webhookAttempts.started_at,
  duration_ms: webhookAttempts.duration_ms,
  response_status: webhookAttempts.response_status,
  response_body: webhookAttempts.response_body,
  error: webhookAttempts.error,
};
export type AttemptView = Omit<WebhookAttemptRow, 'id' | 'delivery_id'>;

/** The delivery, if its wallet is `ownerId`'s: someone else's is undefined, as an unknown id. */
export async function findDeliveryOfOwner(
  db: Executor,
  id: string,
  ownerId: string,
): Promise<DeliveryView | undefined> {
  const [row] = await db
    .select(deliveryColumns)
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.id, id), isOwnedBy(webhookDeliveries.wallet_id, ownerId)))
    .limit(1);
  return row;
}

/** The endpoint's deliveries, newest first (ids are time-ordered, so they break ties). */
export function listDeliveriesOfEndpoint(
  db: Executor,
  endpointId: string,
  status: DeliveryStatus | undefined,
  window: Window,
) {
  const where = and(
    eq(webhookDeliveries.endpoint_id, endpointId),
    status === undefined ? undefined : eq(webhookDeliveries.status, status),
  );
  return pageOf<DeliveryView>(
    window,
    db
      .select(deliveryColumns)
      .from(webhookDeliveries)
      .where(where)
      .orderBy(desc(webhookDeliveries.created_at), desc(webhookDeliveries.id))
      .limit(window.limit)
      .offset(window.offset),
    db.select({ total: countAll }).from(webhookDeliveries).where(where),
  );
}

/** The delivery's attempts in the order they were made (the unique index serves it). */
export function listAttempts(db: Executor, deliveryId: string, window: Window) {
  const ofDelivery = eq(webhookAttempts.delivery_id, deliveryId);
  return pageOf<AttemptView>(
    window,
    db
      .select(attemptColumns)
      .from(webhookAttempts)
      .where(ofDelivery)
      .orderBy(asc(webhookAttempts.attempt))
      .limit(window.limit)
      .offset(window.offset),
    db.select({ total: countAll }).from(webhookAttempts).where(ofDelivery),
  );
}

/**
 * Makes the delivery due now (`pending`, `next_attempt_at = now()`, `last_error` cleared) and wakes
 * the workers, in one transaction so the notification goes out at commit, when a worker can see
 * the row. Only when no running lease holds it (an attempt in flight) and its endpoint is enabled: the
 * conditions sit in the UPDATE itself, so a worker claiming the row concurrently either waits for
 * this commit (and then claims it, due) or wins the row lock first (and this matches nothing, as
 * PostgreSQL re-checks the condition on the row it waited for). Undefined when nothing matched.
 */
export function retryDelivery(db: Database, id: string): Promise<DeliveryView | undefined> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(webhookDeliveries)
      .set({
        status: 'pending',
        next_attempt_at: sql`now()`,
        last_error: null,
        // A lease that ran out (its process died) is dropped: a late result of it is discarded.
        claim_id: null,
        leased_until: null,
        updated_at: sql`now()`,
      })
      .where(
        and(
          eq(webhookDeliveries.id, id),
          not(isLeased),
          isEndpointEnabled(tx, webhookDeliveries.endpoint_id),
        ),
      )
      .returning(deliveryColumns);
    if (row !== undefined) await notifyWorkers(tx);
    return row;
  });
}

/** Why a retry matched nothing: an attempt holds the delivery, or its endpoint is disabled. */
export async function findRetryBlockers(
  db: Executor,
  id: string,
): Promise<{ isInFlight: boolean; isEndpointEnabled: boolean } | undefined> {
  const [row] = await db
    .select({
      isLeased: sql<boolean>`${isLeased}`,
      enabled: endpointEnabledOf(webhookDeliveries.endpoint_id),
    })
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.id, id))
    .limit(1);
  return row === undefined ? undefined : { isInFlight: row.isLeased, isEndpointEnabled: row.enabled };
}

/** One delivery of `eventId` to one endpoint, due now (a test event's: no outbox fan-out). */
export async function insertDueDelivery(
  tx: Executor,
  delivery: { id: string; event_id: string; endpoint_id: string; wallet_id: string },
): Promise<DeliveryView> {
  const [row] = await tx
    .insert(webhookDeliveries)
    .values({ ...delivery, next_attempt_at: sql`now()` })
    .returning(deliveryColumns);
  if (row === undefined) throw new Error('the delivery was not written');
  return row;
}

/** A failed last attempt of one of an endpoint's recent deliveries (its health mail lists a few). */
export interface RecentError {
  at: Date;
  response_status: number | null;
  error: string | null;
  response_body: string | null;
}

/**
 * The last errors of the endpoint's most recent deliveries, newest attempt first: the last attempt of
 * each of its latest 100 deliveries (the endpoint index) that did not deliver, as the delivery row
 * keeps it, so no attempt is scanned. Read once per health mail.
 */
export async function listRecentErrors(
  db: Executor,
  endpointId: string,
  limit: number,
): Promise<RecentError[]> {
  const recent = db
    .select({
      at: webhookDeliveries.last_attempted_at,
      response_status: webhookDeliveries.response_status,
      error: webhookDeliveries.last_error,
      response_body: webhookDeliveries.response_body,
      status: webhookDeliveries.status,
    })
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.endpoint_id, endpointId))
    .orderBy(desc(webhookDeliveries.created_at))
    .limit(100)
    .as('recent');
  const rows = await db
    .select({
      at: recent.at,
      response_status: recent.response_status,
      error: recent.error,
      response_body: recent.response_body,
    })
    .from(recent)
    .where(and(sql`${recent.at} is not null`, sql`${recent.status} <> 'delivered'`))
    .orderBy(desc(recent.at))
    .limit(limit);
  return rows.map((row) => ({ ...row, at: new Date(row.at as Date) }));
}
