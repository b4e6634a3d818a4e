/**
 * The sender's connect-time check (docs/reference/running.md, WEBHOOK_ALLOW_PRIVATE_TARGETS): with private
 * targets refused, the address actually connected to is checked after DNS resolution, so a name that was
 * public at registration and now resolves to the internal network (DNS rebinding) gets no request. Real
 * sockets against a real local HTTP server; the machine's own interface addresses stand in for the internal
 * network.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { after, before, describe, it } from 'node:test';
import ipaddr from 'ipaddr.js';
import { createSender, type Sender } from './delivery.sender.ts';

const message = (url: string) => ({
  url,
  id: '01937a4e-0000-7000-8000-000000000001',
  body: '{"type":"payment.succeeded"}',
  secrets: [`whsec_${Buffer.alloc(32, 7).toString('base64')}`],
});

/**
 * This machine's own addresses that an SSRF could reach besides loopback: every interface
 * address ipaddr.js places outside public unicast (private, documentation, unique-local …), which
 * varies by machine (this one may have none but loopback). Link-local IPv6 needs a zone id, which a
 * URL cannot carry, so it is left out.
 */
function ownNonPublicAddresses(): string[] {
  return Object.values(networkInterfaces())
    .flatMap((entries) => entries ?? [])
    .filter((entry) => !(entry.family === 'IPv6' && entry.scopeid !== 0))
    .map((entry) => entry.address)
    .filter((address) => ipaddr.process(address).range() !== 'unicast');
}

describe('delivery sender, connect-time address check', () => {
  let server: Server;
  let port: number;
  let received = 0;
  const senders: Sender[] = [];
  const sender = (allowPrivateTargets: boolean) => {
    const made = createSender({ timeoutMs: 2_000, allowPrivateTargets });
    senders.push(made);
    return made;
  };

  before(async () => {
    server = createServer((request, response) => {
      received++;
      request.resume();
      response.end('ok');
    });
    // Every interface, both families, so each of the machine's addresses can be connected to.
    await new Promise<void>((resolve) => server.listen(0, '::', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(async () => {
    await Promise.all(senders.map((made) => made.close()));
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('refuses a name that resolves to loopback before sending a byte', async () => {
    const before = received;
    const result = await sender(false).send(message(`http://localhost:${port}/hook`));
    assert.equal(result.responseStatus, undefined);
    assert.match(result.error ?? '', /^refused: the endpoint resolves to a private address/);
    assert.equal(received, before);
  });

  it("refuses every one of this machine's non-public interface addresses", async () => {
    const refusing = sender(false);
    const targets = ['127.0.0.1', '::1', ...ownNonPublicAddresses()];
    for (const address of targets) {
      const before = received;
      const host = address.includes(':') ? `[${address}]` : address;
      const result = await refusing.send(message(`http://${host}:${port}/hook`));
      assert.match(result.error ?? '', /^refused: /, `${address}: ${result.error ?? result.responseStatus}`);
      assert.equal(received, before, address);
    }
  });

  it('delivers to the same addresses when private targets are allowed (development)', async () => {
    const allowing = sender(true);
    for (const address of ['127.0.0.1', 'localhost', ...ownNonPublicAddresses()]) {
      const host = address.includes(':') ? `[${address}]` : address;
      const result = await allowing.send(message(`http://${host}:${port}/hook`));
      assert.equal(result.responseStatus, 200, `${address}: ${result.error}`);
    }
  });
});
