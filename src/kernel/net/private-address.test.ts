/** The private-network guard on literal addresses and `localhost` (no external DNS in tests). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError } from '../http/errors.ts';
import { assertPublicUrl, isPrivateAddress } from './private-address.ts';

describe('isPrivateAddress', () => {
  it('flags loopback, private, link-local, CGNAT, unspecified and unique-local addresses', () => {
    for (const ip of [
      '127.0.0.1',
      '127.255.255.254',
      '10.0.0.1',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '0.0.0.0',
      '0.1.2.3',
      '100.64.0.1',
      '100.127.255.255',
      '::1',
      '::',
      'fe80::1',
      'febf::1',
      'fc00::1',
      'fd12:3456::1',
      '::ffff:127.0.0.1',
      '::ffff:10.1.2.3',
      '::ffff:7f00:1',
      '0:0:0:0:0:ffff:192.168.0.1',
      '[::1]',
      'fe80::1%eth0',
    ]) {
      assert.equal(isPrivateAddress(ip), true, ip);
    }
  });

  it('lets public addresses through', () => {
    for (const ip of [
      '8.8.8.8',
      '1.1.1.1',
      '172.32.0.1',
      '172.15.255.255',
      '100.128.0.1',
      '169.255.0.1',
      '11.0.0.1',
      '2001:4860:4860::8888',
      '2606:4700::1111',
      '::ffff:8.8.8.8',
      'fec0::1',
    ]) {
      assert.equal(isPrivateAddress(ip), false, ip);
    }
  });

  it('throws on something that is not an address', () => {
    assert.throws(() => isPrivateAddress('example.com'), TypeError);
  });
});

describe('assertPublicUrl', () => {
  const refusesUrl = async (url: string) => {
    await assert.rejects(assertPublicUrl(url), (error: unknown) => {
      assert.ok(error instanceof AppError, url);
      assert.equal(error.code, 'VALIDATION_ERROR');
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

  it('refuses localhost (it resolves to loopback)', async () => {
    await refusesUrl('http://localhost/hook');
  });

  it('refuses a name that does not resolve', async () => {
    await refusesUrl('http://does-not-exist.invalid/hook');
  });

  it('accepts public literal addresses', async () => {
    await assertPublicUrl('https://8.8.8.8/hook');
    await assertPublicUrl('https://[2606:4700::1111]/hook');
  });
});
