/** The payment-links feature's public surface: the event's payment link, its routes and its lookup (the checkout of registrations/ reads it). */
export { findPaymentLink } from './payment-links.repository.ts';
export { paymentLinkRoutes } from './payment-links.routes.ts';
