/**
 * The holder's name as public artefacts show it: the name the holder gave, else their e-mail
 * masked to its first letters and top-level domain, never the address in clear.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { maskEmail, publicHolderName, realName } from './holder-name.ts';

describe('holder names on public artefacts', () => {
  it('masks an e-mail to the first letter of each part and the top-level domain', () => {
    assert.equal(maskEmail('ana.souza@example.com'), 'a•••@e•••.com');
    assert.equal(maskEmail('Bo@Mail.Example.co.uk'), 'B•••@M•••.uk');
    assert.equal(maskEmail('root@localhost'), 'r•••@l•••');
    // One character, whatever its script or size (no half of a surrogate pair).
    assert.equal(maskEmail('𝒜da@例え.jp'), '𝒜•••@例•••.jp');
    assert.equal(maskEmail('łukasz@żółć.pl'), 'ł•••@ż•••.pl');
    // The same length whatever the address, so the mask says nothing of it.
    assert.equal(maskEmail('a@b.com').length, maskEmail('averylongname@averylongdomain.com').length);
    assert.equal(maskEmail('not an address'), 'n•••');
  });

  it('keeps a name the holder gave, and masks the e-mail otherwise', () => {
    assert.equal(publicHolderName('Ana Souza', 'ana@example.com'), 'Ana Souza');
    assert.equal(publicHolderName(null, 'ana@example.com'), 'a•••@e•••.com');
    assert.equal(publicHolderName(undefined, 'ana@example.com'), 'a•••@e•••.com');
    assert.equal(publicHolderName('  ', 'ana@example.com'), 'a•••@e•••.com');
  });

  it('takes a name that is an e-mail address for no name (older rows stored the address as the name)', () => {
    assert.equal(realName('ana@example.com'), null);
    assert.equal(realName(' Ana@Example.com '), null);
    assert.equal(publicHolderName('ana@example.com', 'ana@example.com'), 'a•••@e•••.com');
    assert.equal(publicHolderName('other@example.org', 'ana@example.com'), 'a•••@e•••.com');
    // Names with an at sign that are not addresses stay as given.
    assert.equal(realName('Ana @ Convene'), 'Ana @ Convene');
    assert.equal(realName('@ana'), '@ana');
    assert.equal(realName('Łukasz Żółć (田中)'), 'Łukasz Żółć (田中)');
  });

  it('masks an address inside a name, as an identity provider may write "Name <address>"', () => {
    assert.equal(realName('Ana Souza <ana@example.com>'), 'Ana Souza <a•••@e•••.com>');
    assert.equal(realName('ana@example.com (Ana)'), 'a•••@e•••.com (Ana)');
    assert.equal(publicHolderName('Bo, bo@mail.example.org', 'bo@mail.example.org'), 'Bo, b•••@m•••.org');
  });
});
