/**
 * The guard against webhook targets that are not on the public Internet (docs/reference/running.md,
 * WEBHOOK_ALLOW_PRIVATE_TARGETS): a subscriber URL must not make the service call its own host,
 * the internal network or any special-purpose address (SSRF). Every address a name resolves to is
 * checked, so a public name that also answers with a private address is refused.
 *
 * The classification is ipaddr.js's `range()`: only `unicast` (no special range) is public. What
 * ipaddr.js 2.5 does not classify is added below (see isPublicIpv6); every entry of the IANA IPv4
 * and IPv6 Special-Purpose Address Registries is covered, which private-address.test.ts pins.
 *
 * This runs at registration and on every change; a name can be re-pointed later (DNS rebinding),
 * so the delivery sender checks the connected address again with isPrivateAddress.
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { validationError } from '../http/errors.ts';

/**
 * IPv4: ipaddr.js 2.5 names every block of the IANA IPv4 Special-Purpose Address Registry
 * (0/8, 10/8, 100.64/10, 127/8, 169.254/16, 172.16/12, 192.0.0/24, 192.0.2/24, 192.31.196/24,
 * 192.52.193/24, 192.88.99/24, 192.168/16, 192.175.48/24, 198.18/15, 198.51.100/24, 203.0.113/24,
 * 240/4, 255.255.255.255) plus multicast (224/4); anything it names is refused.
 */
function isPublicIpv4(address: ipaddr.IPv4): boolean {
  return address.range() === 'unicast';
}

/** 2000::/3, the only IPv6 space IANA allocates as global unicast (RFC 4291 section 2.4). */
const GLOBAL_UNICAST = ipaddr.IPv6.parseCIDR('2000::/3');

/**
 * IPv6 (the IPv4-mapped form is unwrapped before this): public only inside 2000::/3 and in no
 * range ipaddr.js names (Teredo, 6to4, documentation 2001:db8::/32 and 3fff::/20, benchmarking,
 * ORCHID, AMT, AS112, segment routing 5f00::/16 …). Requiring 2000::/3 also refuses what ipaddr.js
 * leaves as `unicast` below it: the deprecated IPv4-compatible ::a.b.c.d (::/96, RFC 4291 2.5.5.1,
 * which ipaddr.js even parses as IPv4-mapped), the dummy prefix 100:0:0:1::/64 (RFC 9780) and any
 * unassigned space; NAT64 (64:ff9b::/96, 64:ff9b:1::/48), unique-local fc00::/7, link-local
 * fe80::/10, site-local fec0::/10 and multicast ff00::/8 are outside it as well. NAT64 and 6to4
 * are refused whatever IPv4 address they embed: a translator or relay on the path would carry the
 * request to it.
 */
function isPublicIpv6(address: ipaddr.IPv6): boolean {
  return address.match(GLOBAL_UNICAST) && address.range() === 'unicast';
}

/**
 * Whether `ip` (a literal IPv4 or IPv6 address, as a socket reports it or a URL carries it,
 * brackets and zone id allowed) is anything but a public unicast address.
 */
export function isPrivateAddress(ip: string): boolean {
  const literal = ip.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(literal);
  if (family === 4) return !isPublicIpv4(ipaddr.IPv4.parse(literal));
  if (family !== 6) throw new TypeError(`not an IP address: ${ip}`);
  // The WHATWG URL serializer writes every IPv6 form in hexadecimal (::127.0.0.1 -> ::7f00:1),
  // so ipaddr.js cannot mistake an IPv4-compatible address for an IPv4-mapped one.
  const address = ipaddr.IPv6.parse(new URL(`http://[${literal}]/`).hostname.slice(1, -1));
  // ::ffff:a.b.c.d is how a dual-stack socket reports an IPv4 peer: judge the IPv4 address.
  if (address.isIPv4MappedAddress()) return !isPublicIpv4(address.toIPv4Address());
  return !isPublicIpv6(address);
}

const refuse = (message: string) => validationError([{ field: 'url', message }]);

/**
 * Throws a VALIDATION_ERROR naming `url` when its host is, or resolves to, an address that is not
 * public, or does not resolve at all. Numeric hosts (`2130706433`, `0x7f.1`, `[::ffff:7f00:1]`)
 * arrive here already normalized to dotted or hexadecimal form by the WHATWG URL parser, the same
 * one undici connects with.
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
    throw refuse('must not point to a loopback, private or other special-purpose address');
  }
}
