/**
 * SQL of replays (docs/reference/webhooks.md, "Replaying deliveries"): the replay's row, and the
 * batch that queues deliveries again and moves the replay's cursor in one statement.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../../../kernel/db/client.ts';
import { queryRows } from '../../../../kernel/db/raw.ts';
import { isOwnedBy } from '../../wallets/index.ts';
import { type ReplaySelection, type WebhookReplayRow, webhookReplays } from './replays.table.ts';

export type NewReplay = Pick<
  WebhookReplayRow,
  'id' | 'endpoint_id' | 'wallet_id' | 'requested_by' | 'since' | 'until' | 'selection'
>;

export async function insertReplay(db: Executor, replay: NewReplay): Promise<WebhookReplayRow> {
  const [row] = await db.insert(webhookReplays).values(replay).returning();
  if (row === undefined) throw new Error('the replay was not written');
  return row;
}

export async function findReplay(db: Executor, id: string): Promise<WebhookReplayRow | undefined> {
  const [row] = await db.select().from(webhookReplays).where(eq(webhookReplays.id, id)).limit(1);
  return row;
}

/** The replay if its wallet is `ownerId`'s; someone else's is undefined, as an unknown id. */
export async function findReplayOfOwner(
  db: Executor,
  id: string,
  ownerId: string,
): Promise<WebhookReplayRow | undefined> {
  const [row] = await db
    .select()
    .from(webhookReplays)
    .where(and(eq(webhookReplays.id, id), isOwnedBy(webhookReplays.wallet_id, ownerId)))
    .limit(1);
  return row;
}

/** The replay under its row lock (for the batch that follows, in the same transaction). */
export async function lockReplay(db: Executor, id: string): Promise<WebhookReplayRow | undefined> {
  const [row] = await db.select().from(webhookReplays).where(eq(webhookReplays.id, id)).for('update');
  return row;
}

/** The delivery statuses a selection matches: never `pending`, which is owed an attempt already. */
export function statusesOf(selection: ReplaySelection): string[] {
  return selection === 'all' ? ['failed', 'delivered'] : [selection];
}

/** Deliveries of the replay's endpoint and window that match its selection now. */
export async function countMatching(db: Executor, replay: WebhookReplayRow): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from webhook_deliveries
        where endpoint_id = ${replay.endpoint_id}::uuid
          and created_at >= ${replay.since.toISOString()}::timestamptz
          and created_at < ${replay.until.toISOString()}::timestamptz
          and status = any(${sql.param(statusesOf(replay.selection))}::text[])`,
  );
  return Number(row?.n ?? 0);
}

export interface ReplayBatch {
  /** Matching deliveries the batch looked at. */
  examined: number;
  /** Of those, the ones queued for an attempt now. */
  queued: number;
}

/**
 * The next batch of a replay, in one statement (run it in the transaction that holds the replay's
 * row lock): up to `limit` matching deliveries after the cursor, in `(created_at, id)` order (the
 * endpoint index serves it), are made due now, as a manual retry does them
 * (deliveries.repository.ts `retryDelivery`): `pending`, `next_attempt_at = now()`, `last_error`
 * cleared, an expired lease dropped. Only a delivery that no running lease holds, so an attempt in
 * flight is never doubled; the condition sits in the UPDATE, which PostgreSQL re-checks on a row it
 * had to wait for, and the worker's claim skips rows this statement has locked. Matching rows
 * are never leased in practice (only `pending` ones are claimed), so such a row is one a retry or
 * the worker took between the batch's read and its write: it is counted `skipped`. The cursor moves
 * past every row looked at, with the counters, in the same statement: a crash loses the batch
 * whole, and the next claim of the job redoes it.
 */
export async function queueBatch(
  db: Executor,
  replay: WebhookReplayRow,
  limit: number,
): Promise<ReplayBatch> {
  const after =
    replay.cursor_created_at === null || replay.cursor_id === null
      ? sql`true`
      : sql`(d.created_at > ${replay.cursor_created_at.toISOString()}::timestamptz
             or (d.created_at = ${replay.cursor_created_at.toISOString()}::timestamptz
                 and d.id > ${replay.cursor_id}::uuid))`;
  const statuses = sql.param(statusesOf(replay.selection));
  const [row] = await queryRows<{ examined: number; queued_now: number }>(
    db,
    sql`
      with batch as (
        select d.id, d.created_at from webhook_deliveries d
        where d.endpoint_id = ${replay.endpoint_id}::uuid
          and d.created_at >= greatest(${replay.since.toISOString()}::timestamptz,
                                       coalesce(${replay.cursor_created_at?.toISOString() ?? null}::timestamptz,
                                                '-infinity'::timestamptz))
          and d.created_at < ${replay.until.toISOString()}::timestamptz
          and d.status = any(${statuses}::text[])
          and ${after}
        order by d.created_at, d.id
        limit ${limit}
      ),
      queued as (
        update webhook_deliveries d
        set status = 'pending', next_attempt_at = now(), last_error = null, claim_id = null,
            leased_until = null, updated_at = now()
        from batch b
        where d.id = b.id and d.status = any(${statuses}::text[])
          and not (d.claim_id is not null and d.leased_until >= now())
        returning d.id
      ),
      last as (
        select created_at, id from batch order by created_at desc, id desc limit 1
      ),
      tally as (
        select (select count(*) from batch)::int as examined, (select count(*) from queued)::int as queued_now
      )
      update webhook_replays r
      set done = r.done + t.examined,
          queued = r.queued + t.queued_now,
          skipped = r.skipped + t.examined - t.queued_now,
          cursor_created_at = coalesce((select created_at from last), r.cursor_created_at),
          cursor_id = coalesce((select id from last), r.cursor_id),
          updated_at = now()
      from tally t
      where r.id = ${replay.id}::uuid
      returning t.examined, t.queued_now`,
  );
  if (row === undefined) throw new Error('the replay disappeared under its lock');
  return { examined: Number(row.examined), queued: Number(row.queued_now) };
}

export type ReplayPatch = Partial<
  Pick<WebhookReplayRow, 'status' | 'total' | 'started_at' | 'finished_at' | 'last_error'>
>;

export async function updateReplay(db: Executor, id: string, patch: ReplayPatch): Promise<void> {
  await db
    .update(webhookReplays)
    .set({ ...patch, updated_at: sql`now()` })
    .where(eq(webhookReplays.id, id));
}
