/**
 * The payments module's public surface (docs/reference/payments.md and docs/reference/checkout.md): its
 * Fastify plugin, its core (the outbox and the payments port the events module sells through,
 * `kernel/payments-port.ts`), and the webhook delivery worker for `npm run worker`, which runs it in a
 * process of its own. Nothing outside this folder imports anything else of it.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { Config } from '../../kernel/config.ts';
import type { DatabaseHandle } from '../../kernel/db/client.ts';
import type { JobRunner } from '../../kernel/jobs/runner.ts';
import type { IntentListener, IntentListeners, PaymentsPort } from '../../kernel/payments-port.ts';
import type { Mailer } from '../mail/index.ts';
import {
  createPaymentsPort,
  RECONCILE_JOB,
  REFUND_JOB,
  RESUME_REFUND_JOB,
  type RefundContext,
  type RefundRoutesDeps,
  refundJob,
  refundRoutes,
  resumeRefundJob,
} from './checkout/index.ts';
import { connectionRoutes, sellerRoutes } from './connections/index.ts';
import { intentRoutes, testModeRoutes } from './intents/index.ts';
import { providerFor } from './providers/index.ts';
import { walletRoutes } from './wallets/index.ts';
import {
  createOutbox,
  DeliveryWorker,
  deliveryRoutes,
  endpointRoutes,
  HEALTH_MAIL_KIND,
  healthMailRenderer,
  type LocalOutbox,
  notificationRoutes,
  notifyWorkers,
  ORPHAN_REFUND_JOB,
  openWorkerPool,
  REPLAY_JOB,
  reconcileJob,
  refundOrphanJob,
  replayJob,
  replayProgress,
  webhookDocumentation,
  webhookEventRoutes,
} from './webhooks/index.ts';

/** The OpenAPI `webhooks` section: what a wallet's endpoints receive. */
export { webhookDocumentation };

/**
 * What the payments module shares with the app: its outbox, the port the events module sells
 * through, and what its refunds need (the module's own refund route uses it too).
 */
export interface PaymentsCore {
  outbox: LocalOutbox;
  jobs: JobRunner;
  port: PaymentsPort;
  refunds: RefundContext;
}

/**
 * The outbox and the payments port, made before any module registers (the events module needs the
 * port), and the module's job kinds registered with the app's job runner. `listeners` hear every
 * intent transition inside its transaction; `src/flows/` gives them (required: a core without them
 * does not compile).
 */
export function createPaymentsCore(
  database: DatabaseHandle,
  config: Config,
  jobs: JobRunner,
  logger: Logger,
  listeners: IntentListeners,
): PaymentsCore {
  const db = database.db;
  // Filled below, once the port they are made from exists; the outbox only ever reads it.
  const heard: IntentListener[] = [];
  // On a server, workers of other processes learn of new work by NOTIFY; embedded, there are none.
  const outbox = createOutbox(
    config.webhooks.retryScheduleSeconds,
    database.kind === 'postgres' ? () => notifyWorkers(db) : undefined,
    heard,
    () => jobs.wake(),
  );
  const refunds: RefundContext = {
    db,
    config,
    outbox,
    provider: providerFor('mercadopago', config),
    log: logger,
  };
  jobs.registerJobKind(REFUND_JOB, refundJob(refunds));
  jobs.registerJobKind(RECONCILE_JOB, reconcileJob(refunds));
  jobs.registerJobKind(ORPHAN_REFUND_JOB, refundOrphanJob(refunds));
  jobs.registerJobKind(RESUME_REFUND_JOB, resumeRefundJob(refunds));
  // Replays are followed at `GET /jobs/{job_id}` (kernel/jobs/jobs.routes.ts).
  jobs.registerJobKind(
    REPLAY_JOB,
    replayJob(db, jobs.leaseMs, () => outbox.wake()),
    replayProgress(db),
  );
  const port = createPaymentsPort({ refunds, jobs });
  heard.push(listeners.registrations(port));
  return { outbox, jobs, port, refunds };
}

export interface PaymentsModuleDeps {
  database: DatabaseHandle;
  config: Config;
  core: PaymentsCore;
  /** Run the webhook delivery worker in this process (started when the app is ready). */
  runWorker: boolean;
  /** The app's mail service: the module registers the renderer of its endpoints' health mails. */
  mail: Pick<Mailer, 'registerKind'>;
}

export const paymentsModule: FastifyPluginAsync<PaymentsModuleDeps> = async (
  app,
  { database, config, core, runWorker, mail },
) => {
  app.addHook('onRoute', (route) => {
    route.config = { ...route.config, module: 'payments' };
  });
  const { outbox, jobs, port, refunds } = core;
  // The refund route is also given what a refund needs; the others take the module's deps.
  const deps: RefundRoutesDeps = { db: database.db, config, outbox, jobs, port, refunds };
  // Registered in the order the routes (and the OpenAPI paths) have always had: the sellers list
  // after the wallet routes, an intent's refund after the intent routes.
  await app.register(connectionRoutes, deps);
  await app.register(walletRoutes, deps);
  await app.register(sellerRoutes, deps);
  await app.register(intentRoutes, deps);
  await app.register(refundRoutes, deps);
  await app.register(testModeRoutes, deps);
  await app.register(endpointRoutes, deps);
  await app.register(webhookEventRoutes, deps);
  await app.register(deliveryRoutes, deps);
  await app.register(notificationRoutes, deps);
  // Queued by any worker process, sent by the mail service of a service process (docs/mail.md).
  mail.registerKind(HEALTH_MAIL_KIND, healthMailRenderer(database.db, config.publicBaseUrl));

  if (runWorker) {
    const worker = createDeliveryWorker({
      database,
      config,
      logger: app.log as Logger,
      registry: app.metrics,
      outbox,
    });
    app.addHook('onReady', () => worker.start());
    // Before the database closes (main.ts closes it after the app): attempts in flight finish.
    app.addHook('onClose', () => worker.stop());
  }
};

export interface DeliveryWorkerOptions {
  database: DatabaseHandle;
  config: Config;
  logger: Logger;
  /** Where its metrics go (the app's registry when in-process). */
  registry?: Registry;
  /** Wake-ups from writers in the same process. */
  outbox?: LocalOutbox;
}

export interface DeliveryWorkerHandle {
  start(): Promise<void>;
  /** Stops claiming, lets attempts in flight finish (bounded), closes the worker's own pool. */
  stop(): Promise<void>;
}

/** The webhook delivery worker on a pool of its own, so its claims never queue behind requests. */
export function createDeliveryWorker(options: DeliveryWorkerOptions): DeliveryWorkerHandle {
  const pool = openWorkerPool(options.database);
  const worker = new DeliveryWorker({
    db: pool.db,
    listen: options.database.listen,
    config: options.config,
    logger: options.logger,
    registry: options.registry,
    outbox: options.outbox,
  });
  return {
    start: () => worker.start(),
    stop: async () => {
      await worker.stop();
      await pool.close();
    },
  };
}
