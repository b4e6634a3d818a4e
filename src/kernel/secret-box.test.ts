import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { open, seal } from './secret-box.ts';

describe('secret box', () => {
  const key = randomBytes(32);

  it('round-trips a value and never shows the plaintext', () => {
    const sealed = seal(key, 'APP_USR-secret-token');
    assert.doesNotMatch(sealed, /APP_USR|secret-token/);
    assert.equal(open(key, sealed), 'APP_USR-secret-token');
    assert.notEqual(seal(key, 'same'), seal(key, 'same'), 'a fresh IV per value');
  });

  it('refuses a wrong key and a tampered value', () => {
    const sealed = seal(key, 'token');
    assert.throws(() => open(randomBytes(32), sealed));
    const parts = sealed.split('.');
    parts[2] = Buffer.from('tampered').toString('base64url');
    assert.throws(() => open(key, parts.join('.')));
    assert.throws(() => open(key, 'garbage'));
  });
});
