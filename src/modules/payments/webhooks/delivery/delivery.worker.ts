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
import type { Registry } from 'prom-client';
import type { Config } from '../../../../kernel/config.ts';
import type { Database, DatabaseHandle } from '../../../../kernel/db/client.ts';
import { uuidv7 } from '../../../../kernel/db/ids.ts';
import { EVENT_DATA_FIELDS, REGISTRATION_DATA_FIELDS } from '../../intents/intents.transitions.ts';
import { TEST_DATA_FIELDS, WEBHOOK_TEST_TYPE } from '../events/webhook-payloads.ts';
import { decide } from './delivery.decision.ts';
import { registerWorkerMetrics, type WorkerMetrics } from './delivery.metrics.ts';
import { ClaimPacer } from './delivery.pacing.ts';
import { SigningSecrets } from './delivery.secrets.ts';
import { type AttemptResult, createSender, type Sender } from './delivery.sender.ts';
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

/** Extra lease beyond the attempt timeout, for recording the result. */
const LEASE_MARGIN_MS = 5_000;
const ERROR_BACKOFF_MS = 1_000;
/** The shortest time between two claims started by wake-ups (see delivery.pacing.ts). */
const DEFAULT_CLAIM_INTERVAL_MS = 5;
const STOP_DEADLINE_MS = 8_000;

export class DeliveryWorker {
  private readonly db: Database;
  private readonly config: Config;
  private readonly log: Logger;
  private readonly sender: Sender;
  private readonly concurrency: number;
  private readonly batchSize: number;
  private readonly pollMs: number;
  private readonly pacer: ClaimPacer;
  private readonly leaseMs: number;
  private readonly metrics: WorkerMetrics | undefined;
  private readonly secrets: SigningSecrets;

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
    this.pacer = new ClaimPacer(options.claimIntervalMs ?? DEFAULT_CLAIM_INTERVAL_MS);
    this.secrets = new SigningSecrets(options.config.secretsKey);
    this.leaseMs = options.config.webhooks.timeoutMs + LEASE_MARGIN_MS;
    this.sender = createSender({
      timeoutMs: options.config.webhooks.timeoutMs,
      allowPrivateTargets: options.config.webhooks.allowPrivateTargets,
    });
    this.metrics =
      options.registry === undefined
        ? undefined
        : registerWorkerMetrics(options.registry, {
            queue: () => queue.readDueQueue(this.db),
            inFlight: () => this.inFlight,
          });
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
    this.pacer.cancel();
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
    if (this.pacer.defer(() => this.wake())) return;
    void this.pump();
  }

  private async pump(): Promise<void> {
    this.pumping = true;
    this.wakeAgain = false;
    try {
      while (this.running && this.inFlight < this.concurrency) {
        const room = Math.min(this.batchSize, this.concurrency - this.inFlight);
        const claimId = uuidv7();
        this.pacer.claimed();
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
    const fields = dataFieldsOf(delivery.type);
    const data = Object.fromEntries(fields.map((field) => [field, delivery.payload[field]]));
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
        secrets: this.secrets.of(delivery),
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

  /** Applies the retry decision (delivery.decision.ts): metrics, log, 410, an early wake-up. */
  private judge(
    delivery: queue.ClaimedDelivery,
    claimId: string,
    result: AttemptResult,
  ): queue.AttemptOutcome {
    const decision = decide(delivery, claimId, result, this.config.webhooks.retryScheduleSeconds);
    this.metrics?.duration.observe(result.durationMs / 1000);
    this.metrics?.attempts.inc({ result: decision.success ? 'success' : 'failure' });
    if (decision.endpointGone) this.gone.add(delivery.endpoint_id);
    if (decision.log !== undefined) this.log[decision.log.level](decision.log.context, decision.log.message);
    const retryIn = decision.outcome.retryInSeconds;
    if (retryIn !== null && retryIn * 1000 < this.pollMs) {
      setTimeout(() => this.wake(), retryIn * 1000 + 10).unref();
    }
    return decision.outcome;
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
}

/** The fields of a stored payload that a delivery of `type` sends as `data` (webhook-payloads.ts). */
function dataFieldsOf(type: string): readonly string[] {
  if (type === WEBHOOK_TEST_TYPE) return TEST_DATA_FIELDS;
  return type.startsWith('registration.') ? REGISTRATION_DATA_FIELDS : EVENT_DATA_FIELDS;
}
