/**
 * `npm run dev:provider`: the Mercado Pago simulator on a fixed port, to try the OAuth flow and
 * paid checkouts locally (docs/walk-throughs.md, "Paid tickets walk-through"). Start the service with the
 * printed environment; a connect URL's consent approves at once, a checkout_url opens its payment page.
 */
import { startMercadoPagoSimulator } from './mercadopago-simulator.ts';

const port = Number(process.env.SIMULATOR_PORT ?? 8090);
const clientId = process.env.MERCADOPAGO_CLIENT_ID ?? 'dev-client';
const clientSecret = process.env.MERCADOPAGO_CLIENT_SECRET ?? 'dev-secret';
const webhookSecret = process.env.MERCADOPAGO_WEBHOOK_SECRET ?? 'dev-webhook-secret';
const simulator = await startMercadoPagoSimulator({ clientId, clientSecret, webhookSecret, port });

process.stdout.write(
  `Mercado Pago simulator listening on ${simulator.url}\nStart the service with:\n\n` +
    `  MERCADOPAGO_CLIENT_ID=${clientId} MERCADOPAGO_CLIENT_SECRET=${clientSecret} \\\n` +
    `  MERCADOPAGO_WEBHOOK_SECRET=${webhookSecret} \\\n` +
    `  MERCADOPAGO_AUTH_URL=${simulator.url} MERCADOPAGO_API_URL=${simulator.url} npm start\n\n` +
    `Payment pages: the checkout_url of a paid registration. Webhook inbox: ${simulator.url}/inbox\n`,
);
const stop = () => {
  simulator.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
