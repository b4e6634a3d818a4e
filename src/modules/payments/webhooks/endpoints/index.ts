/**
 * What the endpoints area shows the rest of the webhooks feature (its routes are registered
 * through `webhooks/index.ts`): the conditions on a delivery's endpoint that the deliveries'
 * repository puts in its statements, and whether one is enabled now (a replay checks it before each
 * batch), so the endpoints table stays this area's.
 */

export { endpointEnabledOf, isEndpointEnabled, isEndpointEnabledNow } from './endpoints.repository.ts';
