/**
 * The delivery worker's own connections and their session settings, so claims never queue behind
 * requests and the worker's statements plan well.
 */
import type { DatabaseHandle } from '../../../../kernel/db/client.ts';

/** Connections of a worker's own pool. */
const WORKER_POOL_SIZE = 3;

/**
 * Session settings of the worker's connections (PostgreSQL server only):
 * - `synchronous_commit = off`: a claim or a recorded attempt does not wait for its WAL to reach
 *   disk. If the server crashes, the last few of them may be lost, and the deliveries concerned
 *   are attempted again once their lease runs out: a duplicate, which at-least-once delivery
 *   allows, never a lost delivery (those are written by the API with a durable commit).
 * - `plan_cache_mode = force_generic_plan`: the worker's statements are prepared and their best
 *   plan does not depend on the values (a batch of ids, a claim id), so each is planned once per
 *   connection instead of on every call (the batch arrays made the planner keep re-planning).
 * - `enable_seqscan = off`: every worker statement is a lookup by key or by the due index. A plan
 *   made while a table was nearly empty (a new database) would otherwise keep scanning the whole
 *   table as it grows, until the next ANALYZE; the benchmark saw the record statement cost six
 *   times more that way.
 */
export const WORKER_SESSION_SETTINGS = {
  synchronous_commit: 'off',
  plan_cache_mode: 'force_generic_plan',
  enable_seqscan: 'off',
} as const;

/** The worker's own connections (the embedded database has one: the same handle). */
export function openWorkerPool(database: DatabaseHandle): ReturnType<DatabaseHandle['dedicated']> {
  return database.dedicated(WORKER_POOL_SIZE, { settings: WORKER_SESSION_SETTINGS });
}
