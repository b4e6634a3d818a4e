/**
 * The guard against webhook targets on private networks (contract section 1,
 * WEBHOOK_ALLOW_PRIVATE_TARGETS): a subscriber URL must not make the service call its own host or
 * the internal network (SSRF). Every address a name resolves to is checked, so a public name that
 * also answers with a private address is refused.
 *
 * Note: this checks at registration time; a name can be re-pointed later (DNS rebinding), so the
 * delivery worker must check the connected address again.
 */
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { validationError } from '../http/errors.ts';

const blocked = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this" network, unspecified
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata lives here)
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
] as const) {
  blocked.addSubnet(network, prefix, 'ipv6');
}

/** The IPv4 address inside an IPv4-mapped (`::ffff:a.b.c.d` / `::ffff:7f00:1`) IPv6 address. */
function mappedIpv4(ip: string): string | undefined {
  const match = /^(?:0{0,4}:){0,5}:?ffff:(.+)$/i.exec(ip) ?? /^::ffff:(.+)$/i.exec(ip);
  if (match === null) return undefined;
  const rest = match[1]!;
  if (isIP(rest) === 4) return rest;
  const hex = /^([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(rest);
  if (hex === null) return undefined;
  const high = Number.parseInt(hex[1]!, 16);
  const low = Number.parseInt(hex[2]!, 16);
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}

/** Whether `ip` (a literal IPv4 or IPv6 address) is loopback, private, link-local or unspecified. */
export function isPrivateAddress(ip: string): boolean {
  const address = ip.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family !== 6) throw new TypeError(`not an IP address: ${ip}`);
  const mapped = mappedIpv4(address);
  if (mapped !== undefined) return blocked.check(mapped, 'ipv4');
  return blocked.check(address, 'ipv6');
}

const refuse = (message: string) => validationError([{ field: 'url', message }]);

/**
 * Throws a VALIDATION_ERROR naming `url` when its host is, or resolves to, a private address, or
 * does not resolve at all.
 */
export async function assertPublicUrl(url: string): Promise<void> {
  let host: string;
  try {
    host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  } catch {
    throw refuse('must be a valid URL');
  }
  let addresses: string[];
  if (isIP(host) !== 0) {
    addresses = [host];
  } else {
    try {
      addresses = (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);
    } catch {
      throw refuse(`the host ${host} does not resolve`);
    }
    if (addresses.length === 0) throw refuse(`the host ${host} does not resolve`);
  }
  if (addresses.some(isPrivateAddress)) {
    throw refuse('must not point to a loopback, private or link-local address');
  }
}
