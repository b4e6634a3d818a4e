/**
 * The events module's public surface: its Fastify plugin, and what intent transitions do to paid
 * registrations (wired to the payments module in `src/flows/`). Other modules never import its
 * repositories or tables.
 */
import type { FastifyPluginAsync } from 'fastify';
import { loadIssuerKey } from '../../kernel/credentials/issuer-key.ts';
import { WorkerPool } from '../../kernel/workers/pool.ts';
import { createBadgeCodes } from './badges/badge-codes.ts';
import { badgeRoutes } from './badges/badges.routes.ts';
import { certificateRoutes } from './certificates/certificates.routes.ts';
import { credentialRoutes } from './certificates/credentials.routes.ts';
import { ISSUE_JOB, issuanceProgress, issueCertificatesJob } from './certificates/issuance.service.ts';
import { certificationRoutes } from './certifications/certifications.routes.ts';
import { checkInRoutes } from './check-ins/check-ins.routes.ts';
import { paymentLinkRoutes } from './checkout/index.ts';
import type { EventsContext, EventsDeps } from './deps.ts';
import { editionRoutes } from './editions/editions.routes.ts';
import { eventRoutes } from './events/events.routes.ts';
import { pageRoutes } from './pages/pages.routes.ts';
import { participantRoutes } from './programs/participants.routes.ts';
import { programRoutes } from './programs/programs.routes.ts';
import { registerCheckout, registrationRefundRoutes, registrationRoutes } from './registrations/index.ts';
import { signatureRoutes } from './signatures/signatures.routes.ts';
import { ticketRoutes } from './tickets/index.ts';

export { onIntentTransition } from './registrations/index.ts';

export const eventsModule: FastifyPluginAsync<EventsDeps> = async (app, deps) => {
  app.addHook('onRoute', (route) => {
    route.config = { ...route.config, module: 'events' };
  });
  const { secretsKey } = deps.config;
  // bootstrap (or the test harness) always sets it; in production the config requires it.
  if (secretsKey === undefined) throw new Error('the events module needs SECRETS_KEY (badge codes)');
  const { config } = deps;
  // Threads start on the first document, and end with the app (a pool left open keeps the
  // process alive).
  const documents: EventsContext['documents'] = new WorkerPool({
    tasks: new URL('./documents.worker.ts', import.meta.url),
    threads: config.render.threads,
    maxQueue: config.render.queue,
  });
  app.addHook('onClose', () => documents.close());
  const context: EventsContext = {
    ...deps,
    badgeCodes: createBadgeCodes(secretsKey, config.publicBaseUrl),
    issuer: await loadIssuerKey({
      signingKey: config.credentialSigningKey,
      // An in-memory database keeps nothing; neither does its development key.
      dataDir: config.databaseUrl === 'memory://' ? null : config.dataDir,
      publicBaseUrl: config.publicBaseUrl,
      production: config.isProduction,
    }),
    documents,
  };
  await app.register(eventRoutes, deps);
  await app.register(editionRoutes, deps);
  await app.register(programRoutes, deps);
  await app.register(certificationRoutes, deps);
  await app.register(signatureRoutes, context);
  await app.register(ticketRoutes, deps);
  await app.register(registrationRoutes, deps);
  await app.register(badgeRoutes, context);
  await app.register(checkInRoutes, context);
  await app.register(participantRoutes, deps);
  await app.register(certificateRoutes, context);
  await app.register(credentialRoutes, context);
  await app.register(pageRoutes, context);
  // Runs are followed at `GET /jobs/{job_id}` (kernel/jobs/jobs.routes.ts).
  deps.jobs.registerJobKind(
    ISSUE_JOB,
    issueCertificatesJob(deps.db, deps.jobs.leaseMs),
    issuanceProgress(deps.db),
  );
  await app.register(paymentLinkRoutes, deps);
  await app.register(registrationRefundRoutes, deps);
  // Holds end by a job. Intent transitions confirm and refund paid registrations through
  // `onIntentTransition`, wired in src/flows/.
  registerCheckout(deps);
};
