/**
 * `npm run dev:provider`: the Mercado Pago simulator on a fixed port, to try the OAuth flow
 * locally. Start the service with the printed environment, call POST /providers/mercadopago/connect
 * and open the returned URL in a browser: the simulated consent approves at once.
 */
import { startMercadoPagoSimulator } from './mercadopago-simulator.ts';

const port = Number(process.env.SIMULATOR_PORT ?? 8090);
const clientId = process.env.MERCADOPAGO_CLIENT_ID ?? 'dev-client';
const clientSecret = process.env.MERCADOPAGO_CLIENT_SECRET ?? 'dev-secret';
const simulator = await startMercadoPagoSimulator({ clientId, clientSecret, port });

process.stdout.write(
  `Mercado Pago simulator listening on ${simulator.url}\nStart the service with:\n\n` +
    `  MERCADOPAGO_CLIENT_ID=${clientId} MERCADOPAGO_CLIENT_SECRET=${clientSecret} \\\n` +
    `  MERCADOPAGO_AUTH_URL=${simulator.url} MERCADOPAGO_API_URL=${simulator.url} npm start\n`,
);
const stop = () => {
  simulator.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
