/**
 * The webhooks feature's public surface, for the module's composition root (`../index.ts`): the
 * routes of its four areas (endpoints, the owner's reads of events, deliveries, inbound provider
 * notifications), the outbox and the delivery worker, the inbound jobs and the replay job, and the OpenAPI
 * `webhooks` section. It is the top feature of the module: nothing else in payments imports it.
 */

export { deliveryRoutes } from './delivery/deliveries.routes.ts';
export { openWorkerPool } from './delivery/delivery.session.ts';
export { DeliveryWorker } from './delivery/delivery.worker.ts';
export { notifyWorkers } from './delivery/delivery-queue.repository.ts';
export { HEALTH_MAIL_KIND, healthMailRenderer } from './delivery/health-mail.ts';
export { createOutbox, type LocalOutbox } from './delivery/outbox.ts';
export { REPLAY_JOB } from './delivery/replays.schemas.ts';
export { replayJob, replayProgress } from './delivery/replays.service.ts';
export { endpointRoutes } from './endpoints/endpoints.routes.ts';
export { ORPHAN_REFUND_JOB, reconcileJob, refundOrphanJob } from './inbound/notifications.jobs.ts';
export { notificationRoutes } from './inbound/notifications.routes.ts';
export { webhookEventRoutes } from './webhook-events/webhook-events.routes.ts';
export { webhookDocumentation } from './webhook-events/webhook-payloads.ts';
