/** SQL of webhook endpoints. The sealed secrets never leave this file except through `findSecrets`. */
import { and, type Column, desc, eq, exists, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../../../kernel/db/client.ts';
import { countAll, pageOf, type Window } from '../../../../kernel/db/paging.ts';
import { queryRows } from '../../../../kernel/db/raw.ts';
import { isOwnedBy } from '../../wallets/index.ts';
import { type WebhookEndpointRow, webhookEndpoints } from './endpoints.table.ts';

export type NewEndpoint = typeof webhookEndpoints.$inferInsert;
export type EndpointPatch = Partial<
  Pick<
    NewEndpoint,
    | 'name'
    | 'url'
    | 'enabled'
    | 'event_types'
    | 'disabled_reason'
    | 'secret'
    | 'previous_secret'
    | 'previous_secret_expires_at'
  >
>;

/** Public columns of an endpoint: no secret. */
const publicColumns = {
  id: webhookEndpoints.id,
  wallet_id: webhookEndpoints.wallet_id,
  name: webhookEndpoints.name,
  url: webhookEndpoints.url,
  enabled: webhookEndpoints.enabled,
  event_types: webhookEndpoints.event_types,
  disabled_reason: webhookEndpoints.disabled_reason,
  created_at: webhookEndpoints.created_at,
  updated_at: webhookEndpoints.updated_at,
};
export type PublicEndpoint = Pick<
  WebhookEndpointRow,
  | 'id'
  | 'wallet_id'
  | 'name'
  | 'url'
  | 'enabled'
  | 'event_types'
  | 'disabled_reason'
  | 'created_at'
  | 'updated_at'
>;

export async function insertEndpoint(db: Executor, values: NewEndpoint): Promise<PublicEndpoint> {
  const [row] = await db.insert(webhookEndpoints).values(values).returning(publicColumns);
  return row!;
}

/** The endpoint, if its wallet is `ownerId`'s: someone else's is undefined, as an unknown id. */
export async function findEndpointOfOwner(
  db: Executor,
  id: string,
  ownerId: string,
): Promise<PublicEndpoint | undefined> {
  const [row] = await db
    .select(publicColumns)
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), isOwnedBy(webhookEndpoints.wallet_id, ownerId)))
    .limit(1);
  return row;
}

export async function updateEndpoint(
  db: Executor,
  id: string,
  patch: EndpointPatch,
): Promise<PublicEndpoint> {
  const [row] = await db
    .update(webhookEndpoints)
    .set({ ...patch, updated_at: sql`now()` })
    .where(eq(webhookEndpoints.id, id))
    .returning(publicColumns);
  return row!;
}

export async function deleteEndpoint(db: Executor, id: string): Promise<PublicEndpoint | undefined> {
  const [row] = await db.delete(webhookEndpoints).where(eq(webhookEndpoints.id, id)).returning(publicColumns);
  return row;
}

/** The sealed current secret (for a rotation), with a row lock inside a transaction. */
export async function lockSecret(db: Executor, id: string): Promise<string | undefined> {
  const [row] = await db
    .select({ secret: webhookEndpoints.secret })
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.id, id))
    .for('update')
    .limit(1);
  return row?.secret;
}

/** The wallet's endpoints, newest first (ids are time-ordered, so they break ties). */
export function listEndpointsOfWallet(db: Executor, walletId: string, window: Window) {
  const ofWallet = eq(webhookEndpoints.wallet_id, walletId);
  return pageOf<PublicEndpoint>(
    window,
    db
      .select(publicColumns)
      .from(webhookEndpoints)
      .where(ofWallet)
      .orderBy(desc(webhookEndpoints.created_at), desc(webhookEndpoints.id))
      .limit(window.limit)
      .offset(window.offset),
    db.select({ total: countAll }).from(webhookEndpoints).where(ofWallet),
  );
}

export interface EndpointHealthRow {
  state: 'healthy' | 'failing' | 'paused' | 'probing';
  since: Date;
  attempts: number;
  successes: number;
  consecutive_failures: number;
  paused_until: Date | null;
}

/**
 * The endpoint's health as the delivery worker keeps it (endpoints.table.ts): attempts since the
 * start of the previous clock hour, the failures in a row and the breaker's state now.
 */
export async function findEndpointHealth(db: Executor, id: string): Promise<EndpointHealthRow | undefined> {
  const hour = sql`date_trunc('hour', now())`;
  const recent = (count: 'attempts' | 'successes') => sql`case
      when health_hour = ${hour} then ${sql.raw(`hour_${count} + previous_hour_${count}`)}
      when health_hour = ${hour} - interval '1 hour' then ${sql.raw(`hour_${count}`)}
      else 0 end`;
  const [row] = await queryRows<EndpointHealthRow>(
    db,
    sql`select case when paused_until > now() then 'paused'
                    when paused_until is not null then 'probing'
                    when consecutive_failures > 0 then 'failing'
                    else 'healthy' end as state,
               ${hour} - interval '1 hour' as since,
               ${recent('attempts')} as attempts,
               ${recent('successes')} as successes,
               consecutive_failures,
               case when paused_until > now() then paused_until end as paused_until
        from webhook_endpoints where id = ${id}::uuid`,
  );
  return row;
}

/**
 * The condition "the row's endpoint (`endpointId`) is enabled", for the deliveries' repository
 * (a manual retry makes a delivery due only then; the condition sits in its UPDATE).
 */
export function isEndpointEnabled(db: Executor, endpointId: Column): SQL {
  return exists(
    db
      .select({ one: sql`1` })
      .from(webhookEndpoints)
      .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.enabled, true))),
  );
}

/** Whether the row's endpoint (`endpointId`) is enabled, as a value (why a retry matched nothing). */
export function endpointEnabledOf(endpointId: Column): SQL<boolean> {
  return sql<boolean>`(select ${webhookEndpoints.enabled} from ${webhookEndpoints} where ${webhookEndpoints.id} = ${endpointId})`;
}

/** Whether the endpoint exists and is enabled now (a replay's batches stop when it is not). */
export async function isEndpointEnabledNow(db: Executor, endpointId: string): Promise<boolean> {
  const [row] = await db
    .select({ enabled: webhookEndpoints.enabled })
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.id, endpointId))
    .limit(1);
  return row?.enabled === true;
}

/** What an endpoint's health mail names of it (webhooks/delivery/health-mail.renderer.ts). */
export interface EndpointForMail {
  id: string;
  wallet_id: string;
  name: string;
  url: string;
  enabled: boolean;
  disabled_reason: string | null;
  paused_until: Date | null;
}

export async function findEndpointForMail(db: Executor, id: string): Promise<EndpointForMail | undefined> {
  const [row] = await db
    .select({
      id: webhookEndpoints.id,
      wallet_id: webhookEndpoints.wallet_id,
      name: webhookEndpoints.name,
      url: webhookEndpoints.url,
      enabled: webhookEndpoints.enabled,
      disabled_reason: webhookEndpoints.disabled_reason,
      paused_until: webhookEndpoints.paused_until,
    })
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.id, id))
    .limit(1);
  return row;
}
