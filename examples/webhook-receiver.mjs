// A webhook receiver for trying Convene locally (README, "Your first verified webhook"): it checks
// each delivery's Standard Webhooks signature on the raw body with the official library, prints a
// line per delivery, and answers 204 (400 when the signature does not verify, so Convene retries).
//
//   CONVENE_WEBHOOK_SECRET=whsec_… node examples/webhook-receiver.mjs     (PORT, default 9000)
import { createServer } from 'node:http';
import { Webhook } from 'standardwebhooks';

const secret = process.env.CONVENE_WEBHOOK_SECRET;
if (!secret?.startsWith('whsec_')) {
  console.error('Set CONVENE_WEBHOOK_SECRET to the endpoint secret (whsec_…) Convene showed once.');
  process.exit(1);
}
const webhook = new Webhook(secret);
const port = Number(process.env.PORT ?? 9000);

createServer((request, response) => {
  let body = '';
  request.on('data', (chunk) => {
    body += chunk;
  });
  request.on('end', () => {
    let event;
    try {
      // The signature over "{webhook-id}.{webhook-timestamp}.{body}", and a timestamp within 5 minutes.
      event = webhook.verify(body, request.headers);
    } catch (error) {
      console.log(`✗ refused a delivery: ${error.message}`);
      response.writeHead(400).end();
      return;
    }
    // Deliveries are at least once: a real receiver de-duplicates on webhook-id before acting.
    console.log(
      `✓ verified ${event.type} (webhook-id ${request.headers['webhook-id']}): ${JSON.stringify(event.data)}`,
    );
    response.writeHead(204).end();
  });
}).listen(port, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${port}/hooks`));
