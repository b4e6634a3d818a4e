/**
 * buildApp(deps): the HTTP application with every plugin, the error envelope and every module.
 * It does no I/O of its own (no listen, no migrations): `main.ts` and the test harness decide that.
 */
import rateLimit from '@fastify/rate-limit';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import underPressure from '@fastify/under-pressure';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Logger } from 'pino';
import { createPaymentsWithFlows } from './flows/paid-registrations.flow.ts';
import { ActorDirectory } from './kernel/auth/directory.ts';
import { registerAuth } from './kernel/auth/plugin.ts';
import type { TokenVerifier } from './kernel/auth/verifier.ts';
import { type Clock, systemClock } from './kernel/clock.ts';
import type { Config } from './kernel/config.ts';
import type { DatabaseHandle } from './kernel/db/client.ts';
import { registerJsonParser } from './kernel/http/body.ts';
import { registerConnectionGuard } from './kernel/http/connection-guard.ts';
import { registerErrorHandler } from './kernel/http/error-handler.ts';
import { AppError } from './kernel/http/errors.ts';
import { registerIdleGate } from './kernel/http/idle-gate.ts';
import { buildLazySerializer } from './kernel/http/lazy-serializers.ts';
import { loggerOptions } from './kernel/http/logging.ts';
import { registerMetrics } from './kernel/http/metrics.ts';
import { MAX_PARAM_LENGTH, registerNotFound } from './kernel/http/not-found.ts';
import { registerPublicCache } from './kernel/http/public-cache.ts';
import { requestIdOptions } from './kernel/http/request-id.ts';
import { registerResponseHeaders, securityHeadersFor } from './kernel/http/security-headers.ts';
import { registerValidation } from './kernel/http/validation.ts';
import { wireErrorOptions } from './kernel/http/wire-errors.ts';
import { registerHttpVersionGuard, wireTimeouts } from './kernel/http/wire-limits.ts';
import { registerIdempotency, scheduleIdempotencySweep } from './kernel/idempotency/idempotency.ts';
import { jobRoutes } from './kernel/jobs/jobs.routes.ts';
import { JobRunner } from './kernel/jobs/runner.ts';
import { consoleModule } from './modules/console/index.ts';
import { acceptInvitationsOf, eventsModule } from './modules/events/index.ts';
import { createSessionPort, identityModule } from './modules/identity/index.ts';
import { createMailer, type Mailer, mailModule, openSenderPool } from './modules/mail/index.ts';
import { paymentsModule, webhookDocumentation } from './modules/payments/index.ts';
import { projectsModule } from './modules/projects/index.ts';
import { registerDocs } from './system/docs.ts';
import { systemRoutes } from './system/system.routes.ts';

export interface AppDeps {
  config: Config;
  database: DatabaseHandle;
  verifier: TokenVerifier;
  /** Pino options or `false`; defaults to the configured level. Tests pass `false`. */
  logger?: FastifyServerOptions['logger'];
  /**
   * Load shedding (503 when the event loop lags). Default: on a PostgreSQL server only. With the
   * embedded database, queries run on the event loop itself, so its lag measures query work, not
   * overload (a busy laptop or CI machine would trip it at random). The test harness turns it off.
   */
  shedLoad?: boolean;
  /** Run the webhook delivery worker in this process; default WEBHOOK_WORKER (true). */
  worker?: boolean;
  /** Send the outbox's mail from this process; default MAIL_SENDER (true). */
  mailSender?: boolean;
  /**
   * Run the background job runner in this process; default true. The standalone worker, which
   * builds the app only to send mail, runs none.
   */
  jobs?: boolean;
  /** Time of the in-process caches (public microcache, actor directory); tests move it by hand. */
  clock?: Clock;
  /**
   * Compile each route's validators and response serializers when a request first needs them,
   * not at start-up (test apps, which use a few routes each; see lazy-serializers.ts). Default
   * false: the service compiles them all as it starts, so a bad schema fails the boot.
   */
  compileSchemasOnFirstUse?: boolean;
}

export type App = FastifyInstance;

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's mail service (docs/mail.md): tests register renderers and wake it through this. */
    mailer: Mailer;
  }
}

export const BODY_LIMIT = 1024 * 1024;

/** How often load shedding samples the event-loop delay (a sample covers the interval before it). */
const PRESSURE_SAMPLE_MS = 1_000;

class PressureError extends AppError {
  constructor() {
    super('SERVICE_UNAVAILABLE', 'The service is overloaded; retry shortly', {
      headers: { 'retry-after': '5' },
    });
  }
}

export async function buildApp(deps: AppDeps): Promise<App> {
  const { config } = deps;
  const exposeDebug = !config.isProduction;
  const securityHeaders = securityHeadersFor(config.publicBaseUrl);
  const app = Fastify({
    logger: deps.logger ?? loggerOptions(config),
    bodyLimit: BODY_LIMIT,
    ...requestIdOptions,
    // While closing, onRequest below answers 503 with the envelope instead of Fastify's own body.
    return503OnClosing: false,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
    ...wireErrorOptions(exposeDebug, securityHeaders),
    ...wireTimeouts(config.headersTimeoutMs),
    ...(deps.compileSchemasOnFirstUse === true
      ? { schemaController: { compilersFactory: { buildSerializer: buildLazySerializer } } }
      : {}),
  }).withTypeProvider<TypeBoxTypeProvider>();

  // First, so that every request that will see onResponse was counted.
  registerConnectionGuard(app);
  let isClosing = false;
  app.addHook('preClose', async () => {
    isClosing = true;
  });
  app.addHook('onRequest', (_request, reply, done) => {
    if (!isClosing) return done();
    reply.header('connection', 'close');
    done(new AppError('SERVICE_UNAVAILABLE', 'The service is shutting down'));
  });
  // A request already running when the close began answers with `connection: close` too: the
  // server's close ends only idle connections, so a keep-alive connection whose answer comes after
  // it would stay open, and hold the close, until the client's keep-alive timeout (72 s).
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (isClosing) reply.header('connection', 'close');
    done(null, payload);
  });

  registerValidation(app, { compileOnFirstUse: deps.compileSchemasOnFirstUse === true });
  registerJsonParser(app);
  registerErrorHandler(app, { exposeDebug });
  registerMetrics(app);

  registerResponseHeaders(app, securityHeaders);
  // After the response headers, so that its 400 carries them like every other answer.
  registerHttpVersionGuard(app);
  if (config.rateLimitPerMinute > 0) {
    await app.register(rateLimit, {
      max: config.rateLimitPerMinute,
      timeWindow: 60_000,
      errorResponseBuilder: (_request, context) =>
        new AppError('TOO_MANY_REQUESTS', `Rate limit of ${context.max} requests per minute exceeded`, {
          headers: { 'retry-after': String(Math.max(1, Math.ceil(context.ttl / 1000))) },
        }),
    });
  }
  if (deps.shedLoad ?? deps.database.kind === 'postgres') {
    // Start-up (compiling schemas, migrating) blocks the event loop, and the first samples of its
    // delay count that: without a grace period the first second or two of traffic was shed.
    let readyAt = Number.POSITIVE_INFINITY;
    app.addHook('onReady', async () => {
      readyAt = performance.now();
    });
    await app.register(underPressure, {
      maxEventLoopDelay: 2_000,
      sampleInterval: PRESSURE_SAMPLE_MS,
      pressureHandler: () =>
        performance.now() - readyAt < 2 * PRESSURE_SAMPLE_MS
          ? undefined
          : Promise.reject(new PressureError()),
    });
  }
  // After the rate limiter, so unknown routes count against the limit as well.
  registerNotFound(app, { exposeDebug, rateLimited: config.rateLimitPerMinute > 0 });

  const documents = await registerDocs(app, config, webhookDocumentation());

  const clock = deps.clock ?? systemClock;
  const directory = new ActorDirectory(deps.database.db, clock);
  // An invitee becomes a member on their first authenticated request (docs/mail.md).
  directory.onRecorded(acceptInvitationsOf(deps.database.db));
  // Browser sessions of the identity module: every authenticated route takes its cookie too.
  registerAuth(app, {
    verifier: deps.verifier,
    directory,
    sessions: createSessionPort(deps.database.db, config),
    publicBaseUrl: config.publicBaseUrl,
  });
  registerIdempotency(app, deps.database.db, config.secretsKey);
  registerPublicCache(app, { ttlMs: config.publicCacheTtlMs, clock });

  // Background jobs of every module (hold expiry, reconciliation, refunds), run by every service
  // process: claims with SKIP LOCKED share them between processes.
  const jobs = new JobRunner(deps.database.db, app.log as Logger, config.jobsPollMs, config.jobsLeaseMs);
  // The payments core with the listeners of its intent transitions (cross-module flows: src/flows/).
  const payments = createPaymentsWithFlows(deps.database, config, jobs, app.log as Logger);
  // E-mail to people: the modules that own the kinds register their renderers on it; it sends in
  // batches with a claim of its own on the outbox, started, stopped and woken with the job runner.
  const mail = createMailer({
    db: deps.database.db,
    config,
    jobs,
    log: app.log as Logger,
    // Confirmations rendered and sent while registrations go on take the gaps between requests.
    idle: registerIdleGate(app),
    // Other processes share a server's database: a worker may send what this process queues.
    listen: deps.database.kind === 'postgres' ? deps.database.listen.bind(deps.database) : undefined,
    // Its claims and records do not wait for the disk (sender.session.ts); no connection is opened
    // in a process that does not send.
    senderPool: openSenderPool(deps.database),
  });
  app.decorate('mailer', mail);

  await app.register(systemRoutes, { database: deps.database, documents });
  await app.register(eventsModule, { db: deps.database.db, config, payments: payments.port, jobs, mail });
  await app.register(projectsModule, { db: deps.database.db, config, mail });
  await app.register(mailModule, { db: deps.database.db, config });
  await app.register(identityModule, { db: deps.database.db, config, directory });
  await app.register(consoleModule);
  await app.register(paymentsModule, {
    database: deps.database,
    config,
    core: payments,
    runWorker: deps.worker ?? config.webhooks.worker,
    mail,
  });
  // After the modules: they register their job kinds, and with them what this route shows.
  await app.register(jobRoutes, { jobs });
  app.addHook('onReady', async () => {
    if (deps.jobs ?? true) {
      await scheduleIdempotencySweep(deps.database.db, jobs);
      jobs.start();
    }
    if (deps.mailSender ?? config.mail.sender) mail.start();
  });
  app.addHook('onClose', async () => {
    // The jobs and the mail in hand finish first, the mail over its connections.
    await Promise.all([jobs.stop(), mail.close()]);
  });

  return app;
}
