/**
 * The delivery worker (contract 7.3): drains the outbox. It runs inside the service process and,
 * with `npm run worker`, as a process of its own; any number of them can share one database.
 *
 * - Wake-ups: a notification on DELIVERY_CHANNEL (sent at commit by whoever queued work: LISTEN
 *   on a server, PGlite's own listeners when embedded), a poll every `pollMs` for retries coming
 *   due, a timer for a retry due sooner than the next poll, and freed capacity while a backlog
 *   remains.
 * - Claims: small batches, only as many as can start at once (`concurrency`), leased for the
 *   attempt timeout plus a margin. A process that dies mid-attempt leaves its claims to expire and
 *   be claimed again by any process.
 * - Results: finished attempts are recorded together in one statement per tick, fenced by claim.
 */
import type { Logger } from 'pino';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { Config } from '../../../../kernel/config.ts';
import type { Database, DatabaseHandle } from '../../../../kernel/db/client.ts';
import { uuidv7 } from '../../../../kernel/db/ids.ts';
import { open } from '../../../../kernel/secret-box.ts';
import { EVENT_DATA_FIELDS } from '../../intents/intents.transitions.ts';
import { nextAttemptDelay } from './delivery.schedule.ts';
import { createSender, type Sender } from './delivery.sender.ts';
import * as queue from './delivery-queue.repository.ts';
import { DELIVERY_CHANNEL, type LocalOutbox } from './outbox.ts';

export interface WorkerOptions {
  db: Database;
  listen: DatabaseHandle['listen'];
  config: Config;
  logger: Logger;
  /** Where to register the worker's metrics (the app's registry when in-process). */
  registry?: Registry | undefined;
  /** Attempts in flight at once in this process. */
  concurrency?: number;
  /** Deliveries claimed per query. */
  batchSize?: number;
  /** How often due retries are looked for without a notification. */
  pollMs?: number;
  /** The shortest time between two claims started by wake-ups (a full batch claims on at once). */
  claimIntervalMs?: number;
  /** Wake-ups from writers in this process (they call `wake()` after commit). */
  outbox?: LocalOutbox | undefined;
}

/** Connections of a worker's own pool, so claims never queue behind requests. */
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
const WORKER_SESSION_SETTINGS = {
  synchronous_commit: 'off',
  plan_cache_mode: 'force_generic_plan',
  enable_seqscan: 'off',
};

/** The worker's own connections (the embedded database has one: the same handle). */
export function openWorkerPool(database: DatabaseHandle): ReturnType<DatabaseHandle['dedicated']> {
  return database.dedicated(WORKER_POOL_SIZE, { settings: WORKER_SESSION_SETTINGS });
}

/** Extra lease beyond the attempt timeout, for recording the result. */
const LEASE_MARGIN_MS = 5_000;
const ERROR_BACKOFF_MS = 1_000;
/**
 * Under load every commit wakes the worker; claiming at most this often turns a stream of one-row
 * claims into batches (the benchmark found claims at one or two rows each to be half of
 * PostgreSQL's work). It adds at most this much to a delivery's latency.
 */
const DEFAULT_CLAIM_INTERVAL_MS = 5;
const STOP_DEADLINE_MS = 8_000;
const SECRET_CACHE_LIMIT = 1_000;

interface WorkerMetrics {
  attempts: Counter<'result'>;
  completed: Counter<'status'>;
  duration: Histogram;
}

export class DeliveryWorker {
  private readonly db: Database;
  private readonly config: Config;
  private readonly log: Logger;
  private readonly sender: Sender;
  private readonly concurrency: number;
  private readonly batchSize: number;
  private readonly pollMs: number;
  private readonly claimIntervalMs: number;
  private readonly leaseMs: number;
  private readonly metrics: WorkerMetrics | undefined;
  private readonly secrets = new Map<string, string>();

  private running = false;
  private pumping = false;
  private wakeAgain = false;
  /** The last claim was full: more may be due once capacity frees up. */
  private backlog = false;
  private inFlight = 0;
  /** Attempts this worker has made (reported when it stops). */
  private attemptsMade = 0;
  private finished: queue.AttemptOutcome[] = [];
  private gone = new Set<string>();
  private flushing = false;
  private poll: NodeJS.Timeout | undefined;
  private pumpTimer: NodeJS.Timeout | undefined;
  private lastClaimAt = Number.NEGATIVE_INFINITY;
  private unlisten: (() => Promise<void>) | undefined;
  private unsubscribe: (() => void) | undefined;
  private idleWaiters: Array<() => void> = [];

  constructor(private readonly options: WorkerOptions) {
    this.db = options.db;
    this.config = options.config;
    this.log = options.logger.child({ component: 'webhook-worker' });
    this.concurrency = options.concurrency ?? 64;
    this.batchSize = options.batchSize ?? 32;
    this.pollMs = options.pollMs ?? 1_000;
    this.claimIntervalMs = options.claimIntervalMs ?? DEFAULT_CLAIM_INTERVAL_MS;
    this.leaseMs = options.config.webhooks.timeoutMs + LEASE_MARGIN_MS;
    this.sender = createSender({
      timeoutMs: options.config.webhooks.timeoutMs,
      allowPrivateTargets: options.config.webhooks.allowPrivateTargets,
    });
    this.metrics = options.registry === undefined ? undefined : this.registerMetrics(options.registry);
  }

  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    this.unlisten = await this.options.listen(DELIVERY_CHANNEL, () => this.wake());
    this.unsubscribe = this.options.outbox?.subscribe(() => this.wake());
    this.poll = setInterval(() => this.wake(), this.pollMs);
    this.poll.unref();
    this.wake();
    this.log.info({ concurrency: this.concurrency, lease_ms: this.leaseMs }, 'webhook worker started');
  }

  /**
   * Stops claiming, lets attempts in flight finish and be recorded (bounded by `deadlineMs`, which
   * stays inside the service's 10 s shutdown deadline; whatever is still out then is left to its
   * lease and attempted again by whichever process claims it next), and closes the HTTP client.
   */
  async stop(deadlineMs = Math.min(this.config.webhooks.timeoutMs + 1_000, STOP_DEADLINE_MS)): Promise<void> {
    if (!this.running) return;
    this.running = false;
    clearInterval(this.poll);
    clearTimeout(this.pumpTimer);
    this.pumpTimer = undefined;
    this.unsubscribe?.();
    await this.unlisten?.().catch(() => {});
    const idle = new Promise<void>((resolve) => {
      if (this.inFlight === 0) resolve();
      else this.idleWaiters.push(resolve);
    });
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), deadlineMs);
    });
    const outcome = await Promise.race([idle, late]);
    clearTimeout(timer);
    if (outcome === 'late') {
      this.log.warn({ in_flight: this.inFlight }, 'webhook worker stopped with attempts in flight');
    }
    await this.sender.close().catch(() => {});
    this.log.info({ attempts_made: this.attemptsMade }, 'webhook worker stopped');
  }

  /**
   * Looks for due work: now, or, within `claimIntervalMs` of the last claim, at the end of that
   * interval. Wake-ups meanwhile (one per commit under load) share that one claim, so a busy queue
   * is claimed in batches rather than a round trip per delivery; one claim loop runs at a time.
   */
  wake(): void {
    if (!this.running) return;
    if (this.pumping) {
      this.wakeAgain = true;
      return;
    }
    if (this.pumpTimer !== undefined) return;
    const wait = this.lastClaimAt + this.claimIntervalMs - performance.now();
    if (wait <= 0) {
      void this.pump();
      return;
    }
    this.pumpTimer = setTimeout(() => {
      this.pumpTimer = undefined;
      this.wake();
    }, wait);
    this.pumpTimer.unref();
  }

  private async pump(): Promise<void> {
    this.pumping = true;
    this.wakeAgain = false;
    try {
      while (this.running && this.inFlight < this.concurrency) {
        const room = Math.min(this.batchSize, this.concurrency - this.inFlight);
        const claimId = uuidv7();
        this.lastClaimAt = performance.now();
        const claimed = await queue.claimDue(this.db, claimId, room, this.leaseMs);
        this.backlog = claimed.length === room;
        await this.dispatch(claimed, claimId);
        if (!this.backlog) break;
      }
    } catch (error) {
      this.log.error({ err: error }, 'claiming webhook deliveries failed; retrying shortly');
      this.wakeAgain = false;
      setTimeout(() => this.wake(), ERROR_BACKOFF_MS).unref();
    } finally {
      this.pumping = false;
    }
    if (this.wakeAgain) this.wake();
  }

  private async dispatch(claimed: queue.ClaimedDelivery[], claimId: string): Promise<void> {
    const disabled: Array<{ id: string; claimId: string }> = [];
    for (const delivery of claimed) {
      if (!delivery.enabled) {
        disabled.push({ id: delivery.id, claimId });
        continue;
      }
      this.inFlight++;
      this.attemptsMade++;
      void this.attempt(delivery, claimId);
    }
    if (disabled.length > 0) {
      await queue.failWithoutAttempt(this.db, disabled, 'endpoint disabled');
      this.metrics?.completed.inc({ status: 'failed' }, disabled.length);
    }
  }

  private async attempt(delivery: queue.ClaimedDelivery, claimId: string): Promise<void> {
    const data = Object.fromEntries(EVENT_DATA_FIELDS.map((field) => [field, delivery.payload[field]]));
    const body = JSON.stringify({
      type: delivery.type,
      timestamp: new Date(delivery.event_created_at).toISOString(),
      data,
    });
    let outcome: queue.AttemptOutcome;
    try {
      const result = await this.sender.send({
        url: delivery.url,
        id: delivery.event_id,
        body,
        secrets: this.signingSecrets(delivery),
      });
      outcome = this.judge(delivery, claimId, result);
    } catch (error) {
      // Not the subscriber's doing (e.g. a secret that no longer opens): a failed attempt all the same.
      this.log.error({ err: error, delivery_id: delivery.id }, 'webhook attempt could not be made');
      outcome = this.judge(delivery, claimId, {
        startedAt: new Date(),
        durationMs: 0,
        responseStatus: undefined,
        responseBody: undefined,
        error: 'internal error preparing the request',
        retryAfterSeconds: undefined,
      });
    }
    this.finished.push(outcome);
    this.flushSoon();
  }

  /** The delivery's next state after an attempt (contract 7.3). */
  private judge(
    delivery: queue.ClaimedDelivery,
    claimId: string,
    result: Awaited<ReturnType<Sender['send']>>,
  ): queue.AttemptOutcome {
    const status = result.responseStatus;
    const base = {
      deliveryId: delivery.id,
      claimId,
      startedAt: result.startedAt,
      durationMs: result.durationMs,
      responseStatus: status ?? null,
      responseBody: result.responseBody ?? null,
      error: result.error ?? null,
    };
    this.metrics?.duration.observe(result.durationMs / 1000);
    if (status !== undefined && status >= 200 && status <= 299) {
      this.metrics?.attempts.inc({ result: 'success' });
      return { ...base, status: 'delivered', retryInSeconds: null };
    }
    this.metrics?.attempts.inc({ result: 'failure' });
    const attemptsMade = delivery.attempts + 1;
    const context = {
      delivery_id: delivery.id,
      endpoint_id: delivery.endpoint_id,
      attempt: attemptsMade,
      response_status: status,
      error: result.error,
    };
    if (status === 410) {
      this.gone.add(delivery.endpoint_id);
      this.log.warn(context, 'subscriber answered 410 Gone: delivery failed, endpoint disabled');
      return { ...base, status: 'failed', retryInSeconds: null };
    }
    const delay = nextAttemptDelay(
      this.config.webhooks.retryScheduleSeconds,
      attemptsMade,
      result.retryAfterSeconds,
    );
    if (delay === undefined) {
      this.log.warn(context, 'webhook delivery failed: last attempt of the schedule');
      return { ...base, status: 'failed', retryInSeconds: null };
    }
    this.log.info({ ...context, retry_in_s: Math.round(delay * 10) / 10 }, 'webhook attempt failed');
    if (delay * 1000 < this.pollMs) setTimeout(() => this.wake(), delay * 1000 + 10).unref();
    return { ...base, status: 'pending', retryInSeconds: delay };
  }

  /** The current secret, plus the previous one while its rotation window lasts. */
  private signingSecrets(delivery: queue.ClaimedDelivery): string[] {
    const secrets = [this.unseal(delivery.secret)];
    const expires = delivery.previous_secret_expires_at;
    if (delivery.previous_secret !== null && expires !== null && new Date(expires).getTime() > Date.now()) {
      secrets.push(this.unseal(delivery.previous_secret));
    }
    return secrets;
  }

  private unseal(sealed: string): string {
    let secret = this.secrets.get(sealed);
    if (secret === undefined) {
      const key = this.config.secretsKey;
      if (key === undefined) throw new Error('SECRETS_KEY is not configured');
      secret = open(key, sealed);
      if (this.secrets.size >= SECRET_CACHE_LIMIT) this.secrets.clear();
      this.secrets.set(sealed, secret);
    }
    return secret;
  }

  private flushSoon(): void {
    if (this.flushing) return;
    this.flushing = true;
    setImmediate(() => void this.flush());
  }

  /** Records every finished attempt so far in one statement, then frees their capacity. */
  private async flush(): Promise<void> {
    while (this.finished.length > 0) {
      const batch = this.finished;
      const gone = [...this.gone];
      this.finished = [];
      this.gone = new Set();
      try {
        await queue.disableGoneEndpoints(this.db, gone);
        const recorded = new Set(await queue.recordAttempts(this.db, batch));
        for (const outcome of batch) {
          if (!recorded.has(outcome.deliveryId)) {
            this.log.warn(
              { delivery_id: outcome.deliveryId },
              'webhook attempt not recorded: its lease had passed to another claim',
            );
          } else if (outcome.status !== 'pending') {
            this.metrics?.completed.inc({ status: outcome.status });
          }
        }
      } catch (error) {
        // Kept for the next flush; if the database stays away past the lease, another claim wins.
        this.log.error({ err: error, attempts: batch.length }, 'recording webhook attempts failed');
        this.finished = [...batch, ...this.finished];
        for (const id of gone) this.gone.add(id);
        await new Promise((resolve) => setTimeout(resolve, ERROR_BACKOFF_MS));
        if (!this.running && this.inFlight === 0) break;
        continue;
      }
      this.inFlight -= batch.length;
      if (this.inFlight === 0) for (const resolve of this.idleWaiters.splice(0)) resolve();
      if (this.backlog) this.wake();
    }
    this.flushing = false;
  }

  private registerMetrics(registry: Registry): WorkerMetrics {
    const registers = [registry];
    const db = this.db;
    new Gauge({
      name: 'webhook_deliveries_due',
      help: 'Pending webhook deliveries due now and not claimed (queue depth)',
      registers,
      async collect() {
        this.set(await queue.countDue(db));
      },
    });
    const worker = this;
    new Gauge({
      name: 'webhook_attempts_in_flight',
      help: 'Webhook attempts in flight in this process',
      registers,
      collect() {
        this.set(worker.inFlight);
      },
    });
    return {
      attempts: new Counter({
        name: 'webhook_attempts_total',
        help: 'Webhook delivery attempts by result (success: a 2xx answer)',
        labelNames: ['result'],
        registers,
      }),
      completed: new Counter({
        name: 'webhook_deliveries_completed_total',
        help: 'Webhook deliveries that reached a final status',
        labelNames: ['status'],
        registers,
      }),
      duration: new Histogram({
        name: 'webhook_attempt_duration_seconds',
        help: 'Duration of webhook delivery attempts',
        buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
        registers,
      }),
    };
  }
}
