/**
 * The delivery worker (docs/reference/webhooks.md): drains the outbox. It runs inside the service process
 * and, with `npm run worker`, as a process of its own; any number of them can share one database.
 *
 * - Wake-ups: a notification on DELIVERY_CHANNEL (sent after commit and paced by whoever queued
 *   work, outbox.ts: LISTEN on a server, PGlite's own listeners when embedded), a poll every
 *   `pollMs` for retries coming due, a timer for a retry due sooner than the next poll, and freed
 *   capacity while a backlog remains.
 * - Claims: small batches, only as many as can start at once (`concurrency`, WEBHOOK_CONCURRENCY),
 *   leased for the attempt timeout plus a margin. A process that dies mid-attempt leaves its claims
 *   to expire and be claimed again by any process.
 * - Isolation (issue 17): at most `endpointConcurrency` attempts in flight to one endpoint, so a
 *   slow endpoint holds that many slots and no more; the claim skips endpoints at their cap. An
 *   endpoint failing `breaker.failures` times in a row is paused (its circuit breaker opens): its
 *   deliveries wait, moved to the pause's end, then one probe at a time tries it; a success closes
 *   the breaker, a failure pauses it again for twice as long.
 * - Results: finished attempts are recorded together in one statement at most every
 *   `recordIntervalMs`, fenced by claim, with their endpoints' health and breakers.
 */
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { Config } from '../../../../kernel/config.ts';
import type { Database, DatabaseHandle } from '../../../../kernel/db/client.ts';
import { uuidv7 } from '../../../../kernel/db/ids.ts';
import { Pacer } from '../../../../kernel/pacer.ts';
import { REGISTRATION_DATA_FIELDS } from '../../../../kernel/payments-port.ts';
import { EVENT_DATA_FIELDS } from '../../intents/index.ts';
import { TEST_DATA_FIELDS, WEBHOOK_TEST_TYPE } from '../webhook-events/webhook-payloads.ts';
import { decide } from './delivery.decision.ts';
import { registerWorkerMetrics, type WorkerMetrics } from './delivery.metrics.ts';
import { DEFAULT_CLAIM_INTERVAL_MS } from './delivery.pacing.ts';
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
  /** Attempts in flight at once in this process (default: config, WEBHOOK_CONCURRENCY). */
  concurrency?: number;
  /** Deliveries claimed per query. */
  batchSize?: number;
  /** How often due retries are looked for without a notification. */
  pollMs?: number;
  /** The shortest time between two claims started by wake-ups (a full batch claims on at once). */
  claimIntervalMs?: number;
  /** The shortest time between two records of finished attempts. */
  recordIntervalMs?: number;
  /** Wake-ups from writers in this process (they call `wake()` after commit). */
  outbox?: LocalOutbox | undefined;
}

/** Extra lease beyond the attempt timeout, for recording the result. */
const LEASE_MARGIN_MS = 5_000;
const ERROR_BACKOFF_MS = 1_000;
/** Deliveries claimed per statement. */
export const DEFAULT_BATCH_SIZE = 32;
/** The shortest time between two records: a finished attempt holds its slot until recorded. */
const DEFAULT_RECORD_INTERVAL_MS = 5;
const STOP_DEADLINE_MS = 8_000;
/** How long after its end a pause seen here is remembered without news of its endpoint. */
const FORGET_PAUSE_MS = 3_600_000;

export class DeliveryWorker {
  private readonly db: Database;
  private readonly config: Config;
  private readonly log: Logger;
  private readonly sender: Sender;
  private readonly concurrency: number;
  private readonly endpointConcurrency: number;
  private readonly batchSize: number;
  private readonly pollMs: number;
  private readonly claimPacer: Pacer;
  private readonly recordPacer: Pacer;
  private readonly leaseMs: number;
  private readonly metrics: WorkerMetrics | undefined;
  private readonly secrets: SigningSecrets;

  private running = false;
  private pumping = false;
  private wakeAgain = false;
  /** The last claim was full: claim again at once while there is room. */
  private backlog = false;
  /**
   * The last claim found work: more may be due once capacity frees up (a claim can come back short
   * only because the endpoints it found had no room left).
   */
  private foundWork = false;
  private inFlight = 0;
  /** Attempts in flight by endpoint. */
  private readonly busy = new Map<string, number>();
  /** Endpoints whose breaker is open or probing, with the end of their pause (ms since epoch). */
  private readonly paused = new Map<string, number>();
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
    this.concurrency = options.concurrency ?? options.config.webhooks.concurrency;
    this.endpointConcurrency = options.config.webhooks.endpointConcurrency;
    this.batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
    this.pollMs = options.pollMs ?? 1_000;
    this.claimPacer = new Pacer(options.claimIntervalMs ?? DEFAULT_CLAIM_INTERVAL_MS);
    this.recordPacer = new Pacer(options.recordIntervalMs ?? DEFAULT_RECORD_INTERVAL_MS);
    this.secrets = new SigningSecrets(options.config.secretsKey);
    this.leaseMs = options.config.webhooks.timeoutMs + LEASE_MARGIN_MS;
    this.sender = createSender({
      timeoutMs: options.config.webhooks.timeoutMs,
      allowPrivateTargets: options.config.webhooks.allowPrivateTargets,
      // Endpoints often share an origin (one subscriber, several paths): any attempt in flight
      // may need a connection of its own.
      connectionsPerOrigin: this.concurrency,
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
    this.log.info(
      {
        concurrency: this.concurrency,
        endpoint_concurrency: this.endpointConcurrency,
        lease_ms: this.leaseMs,
      },
      'webhook worker started',
    );
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
    this.claimPacer.cancel();
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
    if (this.claimPacer.defer(() => this.wake())) return;
    void this.pump();
  }

  private async pump(): Promise<void> {
    this.pumping = true;
    this.wakeAgain = false;
    try {
      while (this.running && this.inFlight < this.concurrency) {
        const room = Math.min(this.batchSize, this.concurrency - this.inFlight);
        const claimId = uuidv7();
        this.claimPacer.started();
        const claimed = await queue.claimDue(this.db, claimId, this.leaseMs, {
          limit: room,
          endpointCap: this.endpointConcurrency,
          busy: this.busy,
          held: this.heldEndpoints(),
        });
        this.backlog = claimed.length === room;
        this.foundWork = claimed.length > 0;
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

  /** Endpoints the next claim must leave out: at their cap here, paused, or probed already. */
  private heldEndpoints(): string[] {
    const now = Date.now();
    const held: string[] = [];
    for (const [endpointId, n] of this.busy) {
      if (n >= this.endpointConcurrency || this.paused.has(endpointId)) held.push(endpointId);
    }
    for (const [endpointId, until] of this.paused) {
      if (until > now && !this.busy.has(endpointId)) held.push(endpointId);
      // Long over and not heard of since (deleted, disabled, idle): the claim itself still allows
      // a probing endpoint one attempt at a time, so forgetting it only costs a wider scan.
      else if (until < now - FORGET_PAUSE_MS) this.paused.delete(endpointId);
    }
    return held;
  }

  private async dispatch(claimed: queue.ClaimedDelivery[], claimId: string): Promise<void> {
    const disabled: Array<{ id: string; claimId: string }> = [];
    for (const delivery of claimed) {
      if (!delivery.enabled) {
        disabled.push({ id: delivery.id, claimId });
        continue;
      }
      this.inFlight++;
      this.busy.set(delivery.endpoint_id, (this.busy.get(delivery.endpoint_id) ?? 0) + 1);
      // A probe of an endpoint another process paused: hold it out of claims while it is out.
      if (delivery.paused_until !== null && !this.paused.has(delivery.endpoint_id)) {
        this.paused.set(delivery.endpoint_id, new Date(delivery.paused_until).getTime());
      }
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
    this.metrics?.attempts.inc({
      result: decision.outcome.succeeded ? 'success' : 'failure',
      outcome: outcomeOf(result),
    });
    if (decision.endpointGone) this.gone.add(delivery.endpoint_id);
    if (decision.log !== undefined) this.log[decision.log.level](decision.log.context, decision.log.message);
    const retryIn = decision.outcome.retryInSeconds;
    if (retryIn !== null && retryIn * 1000 < this.pollMs) {
      setTimeout(() => this.wake(), retryIn * 1000 + 10).unref();
    }
    return decision.outcome;
  }

  /** Records what has finished: now, or at the end of the record interval (delivery.pacing.ts). */
  private flushSoon(): void {
    if (this.flushing) return;
    this.flushing = true;
    if (!this.recordPacer.defer(() => void this.flush())) setImmediate(() => void this.flush());
  }

  /**
   * Records every finished attempt so far in one statement, then frees their capacity; attempts
   * that finish meanwhile wait for the next record, one interval later.
   */
  private async flush(): Promise<void> {
    this.recordPacer.started();
    let breakers: queue.Recorded['endpoints'] = [];
    const batch = this.finished;
    const gone = [...this.gone];
    this.finished = [];
    this.gone = new Set();
    try {
      const goneUnmailed = await queue.disableGoneEndpoints(this.db, gone);
      const result = await queue.recordAttempts(this.db, batch, {
        failures: this.config.webhooks.breakerFailures,
        pauseMs: this.config.webhooks.breakerPauseMs,
      });
      breakers = result.endpoints;
      for (const endpointId of [...goneUnmailed, ...result.unmailed]) {
        this.log.warn(
          { endpoint_id: endpointId },
          'webhook endpoint health mail skipped: its owner has no known e-mail',
        );
      }
      const recorded = new Set(result.deliveryIds);
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
      // Kept for the next record; if the database stays away past the lease, another claim wins.
      this.log.error({ err: error, attempts: batch.length }, 'recording webhook attempts failed');
      this.finished = [...batch, ...this.finished];
      for (const id of gone) this.gone.add(id);
      await new Promise((resolve) => setTimeout(resolve, ERROR_BACKOFF_MS));
      this.flushing = false;
      this.flushSoon();
      return;
    }
    // After the batch is recorded, and not retried with it if this fails: the deferral only
    // spares the claim's scan; the claim leaves paused endpoints out either way.
    await this.noteBreakers(breakers).catch((error: unknown) =>
      this.log.error({ err: error }, 'deferring a paused endpoint’s deliveries failed'),
    );
    this.inFlight -= batch.length;
    let freedHeld = false;
    for (const outcome of batch) {
      const n = (this.busy.get(outcome.endpointId) ?? 1) - 1;
      if (n + 1 >= this.endpointConcurrency) freedHeld = true;
      if (n > 0) this.busy.set(outcome.endpointId, n);
      else this.busy.delete(outcome.endpointId);
    }
    if (this.inFlight === 0) for (const resolve of this.idleWaiters.splice(0)) resolve();
    this.flushing = false;
    if (this.finished.length > 0) this.flushSoon();
    // More may be due: the last claim found some, or an endpoint at its cap has room again.
    if (this.foundWork || freedHeld) this.wake();
  }

  /**
   * Follows the breakers of the endpoints just recorded. One that is open is held out of claims
   * until its pause ends (then probed, one attempt at a time, until it closes); the first time this
   * process sees a pause, its waiting deliveries are moved to the pause's end and a wake-up is set
   * for then.
   */
  private async noteBreakers(endpoints: queue.Recorded['endpoints']): Promise<void> {
    for (const endpoint of endpoints) {
      const until = endpoint.paused_until?.getTime();
      if (until === undefined) {
        this.paused.delete(endpoint.id);
        continue;
      }
      if (this.paused.get(endpoint.id) === until) continue;
      this.paused.set(endpoint.id, until);
      if (until <= Date.now()) continue;
      this.metrics?.breakerTrips.inc();
      this.log.warn(
        { endpoint_id: endpoint.id, paused_until: endpoint.paused_until },
        'webhook endpoint paused: too many failed attempts in a row',
      );
      await queue.deferPaused(this.db, endpoint.id, endpoint.paused_until!);
      setTimeout(() => this.wake(), until - Date.now() + 10).unref();
    }
  }
}

/** The kind of an attempt's result, for the metrics: a 2xx, a class of status, a timeout, … */
function outcomeOf(result: AttemptResult): string {
  const status = result.responseStatus;
  if (status === undefined) return result.error?.startsWith('timed out') ? 'timeout' : 'network';
  if (status >= 200 && status <= 299) return 'success';
  if (status === 410) return 'gone';
  if (status === 429) return 'rate_limited';
  return `http_${Math.floor(status / 100)}xx`;
}

/** The fields of a stored payload that a delivery of `type` sends as `data` (webhook-payloads.ts). */
function dataFieldsOf(type: string): readonly string[] {
  if (type === WEBHOOK_TEST_TYPE) return TEST_DATA_FIELDS;
  return type.startsWith('registration.') ? REGISTRATION_DATA_FIELDS : EVENT_DATA_FIELDS;
}
