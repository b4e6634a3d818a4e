/**
 * What the endpoints area shows the rest of the webhooks feature (its routes are registered
 * through `webhooks/index.ts`): the conditions on a delivery's endpoint that the deliveries'
 * repository puts in its statements, and whether one is enabled now (a replay checks it before each
 * batch), and what its owner's health mail names of it, so the endpoints table stays this area's.
 */

export {
  type EndpointForMail,
  endpointEnabledOf,
  findEndpointForMail,
  isEndpointEnabled,
  isEndpointEnabledNow,
} from './endpoints.repository.ts';
