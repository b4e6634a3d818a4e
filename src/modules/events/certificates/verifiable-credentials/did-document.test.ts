import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadIssuerKey } from '../../../../kernel/vc-issuer/issuer-key.ts';
import { didDocument } from './did-document.ts';

describe('didDocument', () => {
  it('publishes the key as a Multikey referenced by assertionMethod, without the private part', async () => {
    const key = await loadIssuerKey({
      signingKey: undefined,
      dataDir: null,
      publicBaseUrl: 'http://127.0.0.1:8080',
      production: false,
    });
    const document = didDocument(key);
    assert.deepEqual(document['@context'], [
      'https://www.w3.org/ns/did/v1',
      'https://w3id.org/security/multikey/v1',
    ]);
    assert.equal(document.id, 'did:web:127.0.0.1%3A8080');
    assert.equal(document.verificationMethod.length, 1);
    const [method] = document.verificationMethod;
    assert.equal(method.id, key.kid);
    assert.equal(method.type, 'Multikey');
    assert.equal(method.controller, key.did);
    assert.match(method.publicKeyMultibase, /^z6Mk[1-9A-HJ-NP-Za-km-z]{44}$/);
    assert.deepEqual(document.assertionMethod, [key.kid]);
    assert.doesNotMatch(JSON.stringify(document), /"d"|PRIVATE/);
  });

  it('encodes the Ed25519 key of the did:key test vector to its published Multikey', () => {
    // did:key:z6MkiTBz1ymuepAQ4HEHYSF1H8quG5GLVVQR3djdX3mDooWp is the Ed25519 public key
    // 3b6a27bcceb6a42d62a3a8d02a6f0d73653215771de243a63ac048a18b59da29 (did:key method test vectors).
    const x = Buffer.from('3b6a27bcceb6a42d62a3a8d02a6f0d73653215771de243a63ac048a18b59da29', 'hex');
    const document = didDocument({
      did: 'did:web:example.com',
      kid: 'did:web:example.com#k',
      privateKey: undefined as never,
      publicJwk: { kty: 'OKP', crv: 'Ed25519', x: x.toString('base64url') },
    });
    assert.equal(
      document.verificationMethod[0].publicKeyMultibase,
      'z6MkiTBz1ymuepAQ4HEHYSF1H8quG5GLVVQR3djdX3mDooWp',
    );
  });
});
