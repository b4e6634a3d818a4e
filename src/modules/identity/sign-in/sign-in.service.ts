/**
 * Signing in (docs/reference/sign-in.md): starting an OpenID Connect sign-in, finishing it at the
 * callback, and the development sign-in. Each ends the same way: the person recorded in the actor
 * directory (as a bearer token's caller is) and a session started.
 */
import { createHash } from 'node:crypto';
import type { Identity } from '../../../kernel/auth/identity.ts';
import { userIdForEmail, userIdForSubject } from '../../../kernel/auth/user-ids.ts';
import { displayName, EMAIL_PATTERN } from '../../../kernel/auth/verifier.ts';
import { open, seal } from '../../../kernel/secret-box.ts';
import type { IdentityDeps } from '../deps.ts';
import { type StartedSession, startSession } from '../sessions/index.ts';
import { type OidcRelyingParty, randomChecks } from './oidc.ts';
import type { SignInFailure } from './sign-in.messages.ts';
import { insertSignIn, takeSignIn } from './sign-in.repository.ts';

const hashOf = (value: string) => createHash('sha256').update(value).digest();

function secretsKeyOf(deps: IdentityDeps): Buffer {
  // bootstrap (or the test harness) always sets it; in production the config requires it.
  const key = deps.config.secretsKey;
  if (key === undefined) throw new Error('the identity module needs SECRETS_KEY (PKCE verifiers)');
  return key;
}

/** 1. Remembers the sign-in's checks and gives the provider's address to send the browser to. */
export async function beginSignIn(
  deps: IdentityDeps,
  oidc: OidcRelyingParty,
  returnTo: string,
): Promise<URL> {
  const checks = randomChecks();
  const url = await oidc.authorizationUrl(checks);
  await insertSignIn(deps.db, {
    stateHash: hashOf(checks.state),
    nonce: checks.nonce,
    codeVerifier: seal(secretsKeyOf(deps), checks.codeVerifier),
    returnTo,
  });
  return url;
}

export type CallbackOutcome =
  | { ok: true; session: StartedSession; returnTo: string }
  | { ok: false; failure: SignInFailure; returnTo: string; detail?: unknown };

/**
 * 2. The provider's answer: its `state` taken (once), then the code traded and the ID token verified
 * by the library. Any failure is an outcome, not an exception: the callback says it on a page.
 */
export async function finishSignIn(
  deps: IdentityDeps,
  oidc: OidcRelyingParty,
  issuer: string,
  query: { state?: string | undefined; error?: string | undefined },
  rawQuery: string,
): Promise<CallbackOutcome> {
  const pending = query.state === undefined ? undefined : await takeSignIn(deps.db, hashOf(query.state));
  if (pending === undefined || query.state === undefined)
    return { ok: false, failure: 'state', returnTo: '/' };
  const returnTo = pending.return_to;
  if (query.error !== undefined) return { ok: false, failure: 'provider', returnTo, detail: query.error };
  let claims: Awaited<ReturnType<OidcRelyingParty['verifiedClaims']>>;
  try {
    claims = await oidc.verifiedClaims(rawQuery, {
      state: query.state,
      nonce: pending.nonce,
      codeVerifier: open(secretsKeyOf(deps), pending.code_verifier),
    });
  } catch (error) {
    return { ok: false, failure: 'token', returnTo, detail: error };
  }
  const { email } = claims;
  if (typeof email !== 'string' || email.length > 320 || !EMAIL_PATTERN.test(email)) {
    return { ok: false, failure: 'email', returnTo };
  }
  const identity: Identity = { userId: userIdForSubject(issuer, claims.sub), email };
  const name = displayName(claims.name);
  if (name !== undefined) identity.name = name;
  return { ok: true, session: await signInAs(deps, identity), returnTo };
}

/** The development sign-in: the person the form names, with the id `npm run token` gives that e-mail. */
export function devSignIn(deps: IdentityDeps, form: { email: string; name?: string | undefined }) {
  const identity: Identity = { userId: userIdForEmail(form.email), email: form.email };
  const name = displayName(form.name);
  if (name !== undefined) identity.name = name;
  return signInAs(deps, identity);
}

async function signInAs(deps: IdentityDeps, identity: Identity): Promise<StartedSession> {
  // Recorded as every bearer token's caller is, so the directory's hooks see browser sign-ins too.
  await deps.directory.record(identity);
  return startSession(deps.db, deps.config, identity);
}
