/**
 * The events module's public surface: its Fastify plugin, and what intent transitions do to paid
 * registrations (wired to the payments module in `src/flows/`). Other modules never import its
 * repositories or tables.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { Database } from '../../kernel/db/client.ts';
import type { PaymentsPort } from '../../kernel/payments-port.ts';
import { loadIssuerKey } from '../../kernel/vc-issuer/issuer-key.ts';
import { taskModule, WorkerPool } from '../../kernel/workers/pool.ts';
import type { MailKind } from '../mail/index.ts';
import {
  badgeRoutes,
  createBadgeCodes,
  memberStaffBadges,
  participantBadges,
  publishStaffBadges,
} from './badges/index.ts';
import {
  certificateRoutes,
  createCertificateDocuments,
  credentialRoutes,
  ISSUE_JOB,
  issuanceProgress,
  issueCertificatesJob,
} from './certificates/index.ts';
import { certificationRoutes } from './certification-templates/index.ts';
import { checkInRoutes, registrantCheckIns } from './check-ins/index.ts';
import type { EventsDeps } from './deps.ts';
import type * as DocumentTasks from './documents.worker.ts';
import { editionRoutes } from './editions/index.ts';
import { eventEmailTemplateRoutes } from './email-templates/index.ts';
import { emailRoutes } from './emails/index.ts';
import { eventRoutes } from './events/index.ts';
import { acceptInvitations, invitationRoutes } from './invitations/index.ts';
import { eventMailRenderers } from './mails/index.ts';
import { memberRoutes } from './members/index.ts';
import { pageRoutes } from './pages/index.ts';
import { participantRoutes, programSignUps } from './participants/index.ts';
import { paymentLinkRoutes } from './payment-links/index.ts';
import { programRoutes } from './programs/index.ts';
import {
  onIntentTransition as onRegistrationsIntentTransition,
  registerCheckout,
  registrationRefundRoutes,
  registrationRoutes,
  salesRoutes,
} from './registrations/index.ts';
import { signatureRoutes } from './signatures/index.ts';
import { ticketRoutes } from './tickets/index.ts';

/**
 * What intent transitions do to paid registrations, with the participant badges their transitions
 * emit and revoke (wired to the payments core in `src/flows/`).
 */
export const onIntentTransition = (payments: PaymentsPort) =>
  onRegistrationsIntentTransition(payments, participantBadges);

/**
 * What recording an actor does in this module: their pending invitations become memberships, with
 * the staff badges an added member gets (wired to the actor directory in app.ts).
 */
export const acceptInvitationsOf = (db: Database) => (identity: { userId: string; email: string }) =>
  acceptInvitations(db, memberStaffBadges, identity);

/**
 * The composition root of the features: each one's routes name what they need of the features above
 * them as ports (`EditionsContext`, `MembersContext`, `RegistrationsContext`, …), given here, so a
 * port left unwired does not compile.
 */
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
  const documents = new WorkerPool<typeof DocumentTasks>({
    tasks: taskModule('./documents.worker.ts', import.meta.url),
    threads: config.render.threads,
    maxQueue: config.render.queue,
  });
  app.addHook('onClose', () => documents.close());
  const badgeCodes = createBadgeCodes(secretsKey, config.publicBaseUrl);
  const issuer = await loadIssuerKey({
    signingKey: config.credentialSigningKey,
    // An in-memory database keeps nothing; neither does its development key.
    dataDir: config.databaseUrl === 'memory://' ? null : config.dataDir,
    publicBaseUrl: config.publicBaseUrl,
    production: config.isProduction,
  });
  const registrations = { ...deps, participantBadges, registrantCheckIns };
  await app.register(eventRoutes, deps);
  await app.register(memberRoutes, { ...deps, staffBadges: memberStaffBadges });
  await app.register(editionRoutes, { ...deps, publishBadges: publishStaffBadges });
  await app.register(programRoutes, { ...deps, programSignUps });
  await app.register(certificationRoutes, deps);
  await app.register(signatureRoutes, { ...deps, documents, secretsKey });
  await app.register(ticketRoutes, deps);
  await app.register(registrationRoutes, registrations);
  await app.register(salesRoutes, deps);
  await app.register(badgeRoutes, { ...deps, badgeCodes, documents });
  await app.register(checkInRoutes, { ...deps, badgeCodes });
  await app.register(participantRoutes, deps);
  const certificatePdfs = createCertificateDocuments(deps.db, documents, config.publicBaseUrl);
  await app.register(certificateRoutes, { ...deps, pdfs: certificatePdfs });
  await app.register(credentialRoutes, { ...deps, issuer });
  await app.register(pageRoutes, { ...registrations, badgeCodes });
  // Runs are followed at `GET /jobs/{job_id}` (kernel/jobs/jobs.routes.ts).
  deps.jobs.registerJobKind(
    ISSUE_JOB,
    issueCertificatesJob(deps.db, deps.jobs.leaseMs),
    issuanceProgress(deps.db),
  );
  await app.register(paymentLinkRoutes, deps);
  await app.register(invitationRoutes, deps);
  await app.register(eventEmailTemplateRoutes, deps);
  // How each mail the module declares is written, when it is sent (docs/mail.md).
  const renderers = eventMailRenderers({
    db: deps.db,
    publicBaseUrl: config.publicBaseUrl,
    secretsKey,
    badgeCodes,
    certificatePdfs,
  });
  for (const [kind, render] of Object.entries(renderers)) deps.mail.registerKind(kind as MailKind, render);
  await app.register(registrationRefundRoutes, deps);
  await app.register(emailRoutes, deps);
  // Holds end by a job. Intent transitions confirm and refund paid registrations through
  // `onIntentTransition`, wired in src/flows/.
  registerCheckout(registrations);
};
