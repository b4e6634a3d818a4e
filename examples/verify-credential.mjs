// Verifies a Convene certificate's Open Badges 3.0 credential as any holder or employer can
// (README, "Verifying a credential"): the VC-JWT on standard input, checked with did-jwt-vc
// against the issuer's did:web document, then its revocation bit read with Digital Bazaar's
// Bitstring Status List library from the status list the credential points at.
//
//   curl -s $API/certificates/$CERT_ID/credential -H "Authorization: Bearer $TOKEN" | node examples/verify-credential.mjs
//
// Prints what it checked; exits 0 for a valid credential, 1 for a revoked or invalid one.
// Needs did-jwt-vc, did-resolver and @digitalbazaar/vc-bitstring-status-list (dev dependencies
// of this repository; elsewhere `npm install` them next to this file).
import { checkStatus } from '@digitalbazaar/vc-bitstring-status-list';
import { verifyCredential } from 'did-jwt-vc';
import { Resolver } from 'did-resolver';

const VCDM2_CONTEXT = 'https://www.w3.org/ns/credentials/v2';

// did:web: `did:web:host[:path…]` is https://host/.well-known/did.json (or https://host/path…/did.json).
// Plain http only for a service on this machine, as the README's development set-up runs it.
function didDocumentUrl(did) {
  const [host = '', ...path] = did.slice('did:web:'.length).split(':').map(decodeURIComponent);
  const local = /^(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/.test(host);
  return `${local ? 'http' : 'https'}://${host}/${path.length > 0 ? path.join('/') : '.well-known'}/did.json`;
}

const resolver = new Resolver({
  web: async (did) => {
    const response = await fetch(didDocumentUrl(did));
    if (!response.ok) {
      return { didResolutionMetadata: { error: 'notFound' }, didDocument: null, didDocumentMetadata: {} };
    }
    return {
      didResolutionMetadata: { contentType: 'application/did+json' },
      didDocument: await response.json(),
      didDocumentMetadata: {},
    };
  },
});

// did-jwt-vc 4 implements the 1.1 data model: with its default `format` policy it requires the 1.1
// context (https://www.w3.org/2018/credentials/v1), which a Verifiable Credentials 2.0 credential
// must not carry (its first context is VCDM2_CONTEXT). So `format` is off and the 2.0 rules are
// checked below; did-jwt still checks the EdDSA signature against a key of the DID document's
// `assertionMethod`, and the `nbf`/`iat`/`exp` times.
const OPTIONS = { policies: { format: false }, proofPurpose: 'assertionMethod' };

async function verifyJwt(jwt) {
  const verified = await verifyCredential(jwt, resolver, OPTIONS);
  const credential = verified.payload;
  if ([credential['@context']].flat()[0] !== VCDM2_CONTEXT) throw new Error('not a VCDM 2.0 credential');
  if (![credential.type].flat().includes('VerifiableCredential'))
    throw new Error('not a VerifiableCredential');
  if ((credential.issuer?.id ?? credential.issuer) !== verified.issuer)
    throw new Error('issuer is not the signer');
  const now = Date.now();
  if (credential.validFrom !== undefined && Date.parse(credential.validFrom) > now)
    throw new Error('not yet valid');
  if (credential.validUntil !== undefined && Date.parse(credential.validUntil) <= now)
    throw new Error('expired');
  return { credential, verified };
}

let input = '';
for await (const chunk of process.stdin) input += chunk;

try {
  const { credential, verified } = await verifyJwt(input.trim());
  console.log(`✓ signed by ${verified.issuer} (key ${verified.signer.id})`);
  console.log(
    `✓ ${[credential.type].flat().join(', ')}: ${credential.name}, valid from ${credential.validFrom}`,
  );
  // The status list is a credential of its own (a VC-JWT): verified the same way, then read.
  const status = await checkStatus({
    credential,
    documentLoader: async (url) => {
      const response = await fetch(url);
      if (!response.ok) throw new Error(`status list ${url}: HTTP ${response.status}`);
      return { document: (await verifyJwt(await response.text())).credential };
    },
    // That library's own proof check knows embedded (Data Integrity) proofs; the JWT was checked above.
    verifyBitstringStatusListCredential: false,
    verifyMatchingIssuers: true,
  });
  if (!status.verified) throw status.error ?? new Error('status list not readable');
  if (status.results?.[0]?.status === true) {
    console.log('✗ revoked: see the verification page for the reason');
    process.exitCode = 1;
  } else {
    console.log('✓ not revoked');
  }
} catch (error) {
  console.log(`✗ not valid: ${error.message}`);
  process.exitCode = 1;
}
