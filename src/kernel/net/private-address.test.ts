/**
 * The guard against non-public webhook targets, on literal addresses and `localhost` (no external
 * DNS in tests). The refused table has a representative of every entry of the IANA IPv4 and IPv6
 * Special-Purpose Address Registries, the multicast and reserved blocks, and each form that embeds
 * an IPv4 address in an IPv6 one.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError } from '../http/errors.ts';
import { assertPublicUrl, isPrivateAddress } from './private-address.ts';

/** [address, what it is] */
const REFUSED: Array<[string, string]> = [
  // IPv4 Special-Purpose Address Registry, plus multicast, reserved and broadcast.
  ['0.0.0.0', '"this host" (0.0.0.0/32)'],
  ['0.1.2.3', '"this network" (0.0.0.0/8)'],
  ['10.0.0.1', 'private (10/8)'],
  ['100.64.0.1', 'shared address space, CGNAT (100.64/10)'],
  ['100.127.255.255', 'shared address space, last address'],
  ['127.0.0.1', 'loopback (127/8)'],
  ['127.255.255.254', 'loopback, high end'],
  ['169.254.169.254', 'link-local (169.254/16): cloud metadata'],
  ['172.16.0.1', 'private (172.16/12)'],
  ['172.31.255.255', 'private (172.16/12), last address'],
  ['192.0.0.1', 'IETF protocol assignments (192.0.0.0/24)'],
  ['192.0.0.9', 'Port Control Protocol anycast (192.0.0.9/32)'],
  ['192.0.0.170', 'NAT64/DNS64 discovery (192.0.0.170/32)'],
  ['192.0.2.1', 'documentation TEST-NET-1 (192.0.2.0/24)'],
  ['192.31.196.1', 'AS112-v4 (192.31.196.0/24)'],
  ['192.52.193.1', 'AMT (192.52.193.0/24)'],
  ['192.88.99.1', 'deprecated 6to4 relay anycast (192.88.99.0/24)'],
  ['192.168.1.1', 'private (192.168/16)'],
  ['192.175.48.1', 'direct delegation AS112 service (192.175.48.0/24)'],
  ['198.18.0.1', 'benchmarking (198.18/15)'],
  ['198.19.255.255', 'benchmarking, last address'],
  ['198.51.100.1', 'documentation TEST-NET-2 (198.51.100.0/24)'],
  ['203.0.113.1', 'documentation TEST-NET-3 (203.0.113.0/24)'],
  ['224.0.0.1', 'multicast (224/4)'],
  ['239.255.255.250', 'multicast, SSDP'],
  ['240.0.0.1', 'reserved (240/4)'],
  ['255.255.255.255', 'limited broadcast'],
  // IPv6 Special-Purpose Address Registry, and what lies outside global unicast (2000::/3).
  ['::', 'unspecified (::/128)'],
  ['::1', 'loopback (::1/128)'],
  ['::ffff:127.0.0.1', 'IPv4-mapped loopback (::ffff:0:0/96)'],
  ['::ffff:7f00:1', 'IPv4-mapped loopback, hexadecimal'],
  ['::ffff:10.1.2.3', 'IPv4-mapped private'],
  ['0:0:0:0:0:ffff:192.168.0.1', 'IPv4-mapped private, long form'],
  ['::ffff:198.18.0.1', 'IPv4-mapped benchmarking'],
  ['::ffff:224.0.0.1', 'IPv4-mapped multicast'],
  ['::127.0.0.1', 'IPv4-compatible loopback (deprecated ::/96)'],
  ['::7f00:1', 'IPv4-compatible loopback, hexadecimal'],
  ['::8.8.8.8', 'IPv4-compatible, even of a public address (deprecated, never routed)'],
  ['::ffff:0:7f00:1', 'IPv4-translated (::ffff:0:0:0/96)'],
  ['64:ff9b::7f00:1', 'NAT64 well-known prefix (64:ff9b::/96), loopback inside'],
  ['64:ff9b::127.0.0.1', 'NAT64 well-known prefix, dotted'],
  ['64:ff9b::808:808', 'NAT64 well-known prefix, public inside (a translator on the path)'],
  ['64:ff9b:1::1', 'NAT64 local-use prefix (64:ff9b:1::/48)'],
  ['100::1', 'discard-only (100::/64)'],
  ['100:0:0:1::1', 'dummy prefix (100:0:0:1::/64)'],
  ['2001::1', 'Teredo (2001::/32)'],
  ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo with an embedded IPv4'],
  ['2001:1::1', 'port control protocol anycast (2001:1::1/128)'],
  ['2001:1::2', 'TURN anycast (2001:1::2/128)'],
  ['2001:2::1', 'benchmarking (2001:2::/48)'],
  ['2001:3::1', 'AMT (2001:3::/32)'],
  ['2001:4:112::1', 'AS112-v6 (2001:4:112::/48)'],
  ['2001:10::1', 'deprecated ORCHID (2001:10::/28)'],
  ['2001:20::1', 'ORCHIDv2 (2001:20::/28)'],
  ['2001:30::1', 'drone remote ID (2001:30::/28)'],
  ['2001:db8::1', 'documentation (2001:db8::/32)'],
  ['2002:7f00:1::1', '6to4 (2002::/16), loopback inside'],
  ['2002:808:808::1', '6to4, public inside (a relay on the path)'],
  ['2620:4f:8000::1', 'direct delegation AS112 service (2620:4f:8000::/48)'],
  ['3fff::1', 'documentation (3fff::/20)'],
  ['5f00::1', 'segment routing SIDs (5f00::/16)'],
  ['fc00::1', 'unique local (fc00::/7)'],
  ['fd12:3456::1', 'unique local'],
  ['fe80::1', 'link-local (fe80::/10)'],
  ['febf::1', 'link-local, high end'],
  ['fec0::1', 'deprecated site-local (fec0::/10)'],
  ['ff02::1', 'multicast (ff00::/8)'],
  ['ff05::1:3', 'multicast, site scope'],
  ['4000::1', 'unassigned, outside 2000::/3'],
  ['1::1', 'unassigned, outside 2000::/3'],
  // Written forms.
  ['[::1]', 'bracketed'],
  ['fe80::1%eth0', 'with a zone id'],
];

const PUBLIC = [
  '8.8.8.8',
  '1.1.1.1',
  '11.0.0.1',
  '100.128.0.1',
  '169.255.0.1',
  '172.15.255.255',
  '172.32.0.1',
  '192.0.1.1',
  '192.0.3.1',
  '198.17.255.255',
  '198.20.0.1',
  '223.255.255.254',
  '2001:4860:4860::8888',
  '2606:4700::1111',
  '2001:200::1',
  '2a00:1450:4001::1',
  '::ffff:8.8.8.8',
  '[2606:4700::1111]',
];

describe('isPrivateAddress', () => {
  it('flags every special-purpose, private, multicast and reserved range, in every IPv6 disguise', () => {
    const missed = REFUSED.filter(([ip]) => !isPrivateAddress(ip)).map(([ip, what]) => `${ip} (${what})`);
    assert.deepEqual(missed, []);
  });

  it('lets public unicast addresses through', () => {
    assert.deepEqual(
      PUBLIC.filter((ip) => isPrivateAddress(ip)),
      [],
    );
  });

  it('throws on something that is not an address', () => {
    assert.throws(() => isPrivateAddress('example.com'), TypeError);
    assert.throws(() => isPrivateAddress('0x7f.1'), TypeError);
  });
});

describe('assertPublicUrl', () => {
  const refusesUrl = async (url: string) => {
    await assert.rejects(assertPublicUrl(url), (error: unknown) => {
      assert.ok(error instanceof AppError, url);
      assert.equal(error.code, 'VALIDATION_ERROR', url);
      assert.deepEqual(
        error.fields?.map((field) => field.field),
        ['url'],
      );
      return true;
    });
  };

  it('refuses loopback, private and link-local literal targets', async () => {
    for (const url of [
      'http://127.0.0.1:9/hook',
      'https://10.0.0.5/hook',
      'http://192.168.0.10:8080/x',
      'http://169.254.169.254/latest/meta-data',
      'http://[::1]:3000/hook',
      'http://[::ffff:127.0.0.1]/hook',
      'http://0.0.0.0/',
    ]) {
      await refusesUrl(url);
    }
  });

  it('refuses special-purpose targets hidden in IPv6 forms, multicast, broadcast and benchmarking', async () => {
    for (const url of [
      'http://[::127.0.0.1]/',
      'http://[64:ff9b::7f00:1]/',
      'http://[2002:7f00:1::1]/',
      'http://[2001::1]/',
      'http://[2001:db8::1]/',
      'http://[fec0::1]/',
      'http://224.0.0.1/',
      'http://255.255.255.255/',
      'http://198.18.0.1/',
      'http://100.64.0.1/',
      'http://192.0.0.170/',
      'http://240.0.0.1/',
    ]) {
      await refusesUrl(url);
    }
  });

  it('refuses numeric hosts the URL parser turns into loopback addresses', async () => {
    for (const url of [
      'http://2130706433/',
      'http://0x7f.1/',
      'http://0x7f000001/',
      'http://017700000001/',
      'http://127.1/',
      'http://0/',
      'http://[::ffff:7f00:1]/',
      'http://[0:0:0:0:0:ffff:127.0.0.1]/',
      'http://[::]/',
    ]) {
      await refusesUrl(url);
    }
  });

  it('refuses localhost (it resolves to loopback)', async () => {
    await refusesUrl('http://localhost/hook');
  });

  it('refuses a name that does not resolve', async () => {
    await refusesUrl('http://does-not-exist.invalid/hook');
  });

  it('accepts public literal addresses, also when written as a number', async () => {
    await assertPublicUrl('https://8.8.8.8/hook');
    await assertPublicUrl('https://[2606:4700::1111]/hook');
    await assertPublicUrl('http://134744072/hook'); // 8.8.8.8
    await assertPublicUrl('http://[::ffff:808:808]/hook');
  });
});
