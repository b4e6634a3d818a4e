/**
 * The Open Badges 3.0 credential of a certificate, verified over HTTP with independent tools as a
 * holder or an employer would: `did-jwt-vc` checks the signature against the DID document the
 * service serves at `/.well-known/did.json` (fetched by a `did-resolver` `web` method), and
 * Digital Bazaar's `vc-bitstring-status-list` reads the certificate's bit from the status list the
 * service serves, before and after revocation.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { checkStatus } from '@digitalbazaar/vc-bitstring-status-list';
import { verifyCredential } from 'did-jwt-vc';
import { type DIDResolutionResult, Resolver } from 'did-resolver';
import { expectOk } from '../../../../test/assertions.ts';
import { lateBound, startedBy, startTeam, type Team } from '../events.fixtures.ts';
import { certificateFixtures } from './certificates.fixtures.ts';
import type { Certificate } from './certificates.schemas.ts';

type Resolvable = Parameters<typeof verifyCredential>[1];

describe('certificate credentials, verified with independent tools', () => {
  const current = startedBy(() => startTeam({}, { listen: true }));
  const team: Team = lateBound(() => current());
  const f = certificateFixtures(() => current());

  /**
   * did:web, as the method specifies, maps `did:web:<host>` to `https://<host>/.well-known/did.json`;
   * the service under test listens on plain HTTP, so this resolver fetches `http://` instead. The
   * document is whatever the service serves. (The cast bridges did-jwt's bundled did-resolver types.)
   */
  const resolver = new Resolver({
    web: async (did): Promise<DIDResolutionResult> => {
      const host = decodeURIComponent(did.slice('did:web:'.length));
      const response = await fetch(`http://${host}/.well-known/did.json`);
      assert.equal(response.status, 200);
      assert.match(response.headers.get('content-type') ?? '', /^application\/did\+json/);
      return {
        didResolutionMetadata: { contentType: 'application/did+json' },
        didDocument: (await response.json()) as DIDResolutionResult['didDocument'],
        didDocumentMetadata: {},
      };
    },
  }) as unknown as Resolvable;

  /** did-jwt-vc 4 checks the VCDM 1.1 context unless `format` is off; signature and times stay checked. */
  const verify = (jwt: string) =>
    verifyCredential(jwt, resolver, { policies: { format: false }, proofPurpose: 'assertionMethod' });

  async function fetchCredential(certificate: Certificate, token: string) {
    const response = await fetch(certificate.credential_url, {
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'application/vc+jwt');
    return response.text();
  }

  it('verifies the credential, and its status bit flips when the certificate is revoked', async () => {
    const { t, owner } = team;
    const base = await f.setupAttendance();
    const ana = await f.attendee(base.edition.id, base.general.id, 'Ana Souza');
    const template = await f.createTemplate(base.edition.id, 'edition_attendance', {
      name: 'Attendance',
      description: 'Attended the conference',
    });
    await f.checkIn(base.edition.id, ana);
    await f.issueAndWait(base.edition.id);
    const [certificate] = await f.certificatesOf(base.edition.id);
    assert.ok(certificate !== undefined);

    const jwt = await fetchCredential(certificate, ana.token);
    const verified = await verify(jwt);
    const host = new URL(t.baseUrl).host;
    const payload = verified.payload as Record<string, unknown> & {
      credentialSubject: Record<string, unknown>;
    };
    assert.equal(verified.issuer, `did:web:${encodeURIComponent(host)}`);
    assert.deepEqual(payload.type, ['VerifiableCredential', 'OpenBadgeCredential']);
    assert.equal((payload['@context'] as string[])[0], 'https://www.w3.org/ns/credentials/v2');
    const achievement = payload.credentialSubject.achievement as Record<string, unknown>;
    assert.equal(achievement.name, 'Attendance');
    assert.equal(achievement.description, 'Attended the conference');
    assert.equal(achievement.id, `${t.baseUrl}/certifications/templates/${template.id}`);
    const identifiers = payload.credentialSubject.identifier as Array<Record<string, unknown>>;
    assert.ok(
      identifiers.some((entry) => entry.identityType === 'name' && entry.identityHash === 'Ana Souza'),
    );
    assert.ok(!jwt.includes(Buffer.from(ana.email).toString('base64url')), 'the e-mail travels hashed');

    // Owners and admins get the same credential; others cannot.
    assert.equal(await fetchCredential(certificate, owner.token), jwt);
    const stranger = await fetch(certificate.credential_url, {
      headers: { authorization: `Bearer ${team.outsider.token}` },
    });
    assert.equal(stranger.status, 404);

    // A tampered credential fails.
    const [header, body, signature] = jwt.split('.');
    const forgedBody = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(body!, 'base64url').toString()), name: 'Forged' }),
    ).toString('base64url');
    await assert.rejects(verify(`${header}.${forgedBody}.${signature}`));

    const status = payload.credentialStatus as Record<string, string>;
    assert.equal(status.type, 'BitstringStatusListEntry');
    assert.equal(status.statusPurpose, 'revocation');
    assert.match(
      status.statusListCredential ?? '',
      new RegExp(`^${t.baseUrl}/credentials/status/[0-9a-f-]{36}$`),
    );

    /** The certificate's bit, read by vc-bitstring-status-list from the list the service serves now. */
    const revokedBit = async () => {
      const result = await checkStatus({
        credential: payload,
        documentLoader: async (url: string) => {
          const response = await fetch(url);
          assert.equal(response.status, 200);
          assert.equal(response.headers.get('content-type'), 'application/vc+jwt');
          // The list is a vc+jwt: verified like the badge, its payload is the list credential.
          return { document: (await verify(await response.text())).payload };
        },
        verifyBitstringStatusListCredential: false,
        verifyMatchingIssuers: true,
      });
      assert.equal(result.verified, true, result.error?.message);
      return result.results?.[0]?.status;
    };
    assert.equal(await revokedBit(), false);
    expectOk(
      await t.post(`/certificates/${certificate.id}/revoke`, {
        token: owner.token,
        body: { reason: 'Mistake' },
      }),
    );
    assert.equal(await revokedBit(), true);
    // The credential itself is unchanged: revocation lives in the list.
    await verify(await fetchCredential(certificate, ana.token));
  });

  it('names a holder without a name only by the salted hash of their e-mail', async () => {
    const { holder: bo, certificate } = await f.certifiedAttendee();
    const jwt = await fetchCredential(certificate, bo.token);
    const payload = (await verify(jwt)).payload as { credentialSubject: { identifier: unknown[] } };
    const hash = createHash('sha256').update(`${bo.email.toLowerCase()}${certificate.id}`).digest('hex');
    assert.deepEqual(payload.credentialSubject.identifier, [
      {
        type: 'IdentityObject',
        identityHash: `sha256$${hash}`,
        identityType: 'emailAddress',
        hashed: true,
        salt: certificate.id,
      },
    ]);
    const decoded = Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8');
    for (const part of [bo.email, bo.email.slice(0, bo.email.indexOf('@')), 'example.com', '•••']) {
      assert.ok(!decoded.includes(part), `the credential carries no ${part}`);
    }
  });

  it('lets verifiers on any origin read the DID document and the status lists, cached answers and preflights included', async () => {
    const { t } = team;
    const { holder: ana, certificate } = await f.certifiedAttendee('Ana Souza');
    const jwt = await fetchCredential(certificate, ana.token);
    const listUrl = ((await verify(jwt)).payload as { credentialStatus: { statusListCredential: string } })
      .credentialStatus.statusListCredential;
    const origin = 'https://verifier.example';
    const cors = (response: Response, what: string) => {
      assert.equal(response.headers.get('access-control-allow-origin'), '*', what);
      assert.equal(response.headers.get('cross-origin-resource-policy'), 'cross-origin', what);
    };

    for (const url of [`${t.baseUrl}/.well-known/did.json`, listUrl]) {
      const got = await fetch(url, { headers: { origin } });
      assert.equal(got.status, 200, url);
      cors(got, `GET ${url}`);
      const etag = got.headers.get('etag');
      assert.ok(etag !== null, `${url} carries an ETag`);
      const head = await fetch(url, { method: 'HEAD', headers: { origin } });
      assert.equal(head.status, 200, url);
      cors(head, `HEAD ${url}`);
      const cached = await fetch(url, { headers: { origin, 'if-none-match': etag } });
      assert.equal(cached.status, 304, url);
      cors(cached, `304 ${url}`);
      // A browser asks first when a script adds a header of its own.
      const preflight = await fetch(url, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'cache-control',
        },
      });
      assert.equal(preflight.status, 200, url);
      assert.equal(preflight.headers.get('access-control-allow-origin'), '*');
      assert.match(preflight.headers.get('access-control-allow-methods') ?? '', /GET/);
      assert.match(preflight.headers.get('access-control-allow-headers') ?? '', /^\*$|cache-control/);
      assert.ok(Number(preflight.headers.get('access-control-max-age')) > 0);
    }
    // A revocation is a new version of the list: the old ETag no longer matches.
    const before = (await fetch(listUrl)).headers.get('etag') ?? '';
    expectOk(
      await t.post(`/certificates/${certificate.id}/revoke`, {
        token: team.owner.token,
        body: { reason: 'Mistake' },
      }),
    );
    const after = await fetch(listUrl, { headers: { 'if-none-match': before } });
    assert.equal(after.status, 200);
    assert.notEqual(after.headers.get('etag'), before);
    const badPreflight = await fetch(`${t.baseUrl}/credentials/status/not-a-list`, {
      method: 'OPTIONS',
      headers: { origin },
    });
    assert.equal(badPreflight.status, 400);
    // Errors of these routes are readable too; other routes are not opened to other origins.
    const missing = await fetch(`${t.baseUrl}/credentials/status/01937a4e-0000-7000-8000-0000000000ff`, {
      headers: { origin },
    });
    assert.equal(missing.status, 404);
    assert.equal(missing.headers.get('access-control-allow-origin'), '*');
    const credential = await fetch(certificate.credential_url, {
      headers: { origin, authorization: `Bearer ${ana.token}` },
    });
    assert.equal(credential.headers.get('access-control-allow-origin'), null);
  });

  it("verifies with the docs' holder command: did-jwt-vc with the options it needs, then the status list", async () => {
    const { t, owner } = team;
    // docs/features.md ("Verifying a credential") tells a holder to pipe the credential into this
    // command, from the repository's root.
    const command = ['node', 'examples/verify-credential.mjs'];
    const guide = await readFile(new URL('../../../../docs/features.md', import.meta.url), 'utf8');
    assert.ok(guide.includes(`| ${command.join(' ')}`), 'docs/features.md gives this command');
    const run = (jwt: string) =>
      new Promise<{ code: number | null; output: string }>((resolve, reject) => {
        const child = spawn(command[0]!, command.slice(1), {
          cwd: fileURLToPath(new URL('../../../../', import.meta.url)),
          stdio: ['pipe', 'pipe', 'inherit'],
        });
        let output = '';
        child.stdout.on('data', (chunk) => {
          output += chunk;
        });
        child.on('error', reject);
        child.on('close', (code) => resolve({ code, output }));
        child.stdin.end(jwt);
      });

    const { holder: ana, certificate } = await f.certifiedAttendee('Ana Souza', { name: 'Attendance' });
    const jwt = await fetchCredential(certificate, ana.token);

    // did-jwt-vc's defaults refuse it (its format check is the 1.1 data model's): hence the options.
    await assert.rejects(verifyCredential(jwt, resolver), /@context is missing default context/);
    const valid = await run(jwt);
    assert.equal(valid.code, 0, valid.output);
    const did = `did:web:${encodeURIComponent(new URL(t.baseUrl).host)}`;
    assert.match(valid.output, new RegExp(`✓ signed by ${did.replace(/[.]/g, '\\.')} \\(key ${did}#`));
    assert.match(valid.output, /✓ VerifiableCredential, OpenBadgeCredential: Attendance/);
    assert.match(valid.output, /✓ not revoked/);

    const [header, body, signature] = jwt.split('.');
    const forged = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(body!, 'base64url').toString()), name: 'Forged' }),
    ).toString('base64url');
    const tampered = await run(`${header}.${forged}.${signature}`);
    assert.equal(tampered.code, 1);
    assert.match(tampered.output, /✗ not valid: .*signature/);

    expectOk(
      await t.post(`/certificates/${certificate.id}/revoke`, {
        token: owner.token,
        body: { reason: 'Mistake' },
      }),
    );
    const revoked = await run(jwt);
    assert.equal(revoked.code, 1, revoked.output);
    assert.match(revoked.output, /✗ revoked/);
  });

  it('serves unknown status lists as 404 envelopes', async () => {
    const response = await fetch(`${team.t.baseUrl}/credentials/status/01937a4e-0000-7000-8000-0000000000ff`);
    assert.equal(response.status, 404);
    assert.equal(((await response.json()) as { error: { code: string } }).error.code, 'NOT_FOUND');
  });
});
