/**
 * What the delivery area shows the rest of the webhooks feature (its routes, the outbox and the
 * worker are reached through `webhooks/index.ts`): the one delivery of a test event.
 */

export { insertDueDelivery } from './deliveries.repository.ts';
