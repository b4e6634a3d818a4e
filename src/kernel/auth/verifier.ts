/**
 * Bearer token verification (docs/reference/auth.md): Ed25519 JWTs only (`algorithms` pinned to
 * EdDSA), issuer and audience when configured, keys from a JWKS URL, from static keys, or from the
 * development key pair. Accepted tokens are remembered for a while (verified-tokens.ts) because
 * clients reuse one token for many requests and the signature check dominated the auth cost.
 */
import {
  createLocalJWKSet,
  createRemoteJWKSet,
  importSPKI,
  type JSONWebKeySet,
  type JWTPayload,
  type JWTVerifyGetKey,
  errors as joseErrors,
  jwtVerify,
} from 'jose';
import { UUID_PATTERN } from '../db/ids.ts';
import { AppError, unauthorized } from '../http/errors.ts';
import type { Identity } from './identity.ts';
import { VerifiedTokenCache } from './verified-tokens.ts';

export interface TokenVerifier {
  verify(token: string): Promise<Identity>;
}

export interface KeySource {
  jwksUrl?: string | undefined;
  /** A JWKS JSON document, or one or more PEM-encoded Ed25519 public keys. */
  publicKeys?: string | undefined;
  issuer?: string | undefined;
  audience?: string | undefined;
}

export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** How far ahead of our clock a token's `iat` or `nbf` may be (docs/reference/auth.md): the issuer's clock skew. */
export const CLOCK_SKEW_SECONDS = 60;

export interface VerifierOptions {
  /** Minimum time between two JWKS fetches (an unknown `kid` triggers one). Default one minute. */
  jwksCooldownMs?: number;
  /** How many accepted tokens are remembered (0 turns the cache off). Default 10,000. */
  cacheMaxEntries?: number;
  /**
   * Longest time an accepted token is trusted without checking it again, whatever its `exp`.
   * Default 5 minutes: a signing key removed from the JWKS stops working for tokens already seen
   * within this long after jose's own copy of the key set is refreshed (jose keeps a fetched set
   * for up to 10 minutes, or re-fetches sooner for an unknown `kid`).
   */
  cacheMaxAgeMs?: number;
  /** Current time in epoch milliseconds, for claim checks and cache expiry. Default Date.now. */
  now?: () => number;
  /**
   * Added to the refusal of a token whose `kid` names no trusted key: what to do about it. The
   * development key pair sets it (bootstrap.ts): such a token was minted before DATA_DIR was reset.
   */
  unknownKeyHint?: string;
}

export async function createVerifier(
  source: KeySource,
  options: VerifierOptions = {},
): Promise<TokenVerifier> {
  const keys = await resolveKeys(source, options.jwksCooldownMs ?? 60_000);
  const now = options.now ?? Date.now;
  const verifyOptions = {
    algorithms: ['EdDSA'],
    // A token without `exp` would be good forever (docs/reference/auth.md: it is a 401).
    requiredClaims: ['exp'],
    // jose applies its tolerance to `nbf` and to `exp` alike; the skew is meant for `nbf` (and
    // `iat`, checked in checkTimes). `exp` is checked again without it there.
    clockTolerance: CLOCK_SKEW_SECONDS,
    ...(source.issuer === undefined ? {} : { issuer: source.issuer }),
    ...(source.audience === undefined ? {} : { audience: source.audience }),
  };
  // Per verifier, never shared: an entry is only valid under the issuer, audience and keys above.
  const verified = new VerifiedTokenCache({
    maxEntries: options.cacheMaxEntries ?? 10_000,
    maxAgeMs: options.cacheMaxAgeMs ?? 5 * 60_000,
    now,
  });

  return {
    async verify(token) {
      const remembered = verified.get(token);
      if (remembered !== undefined) return remembered;

      // One instant for jose's exp/nbf checks and for the cache entry, so the entry cannot
      // outlive what jose accepted.
      const verifiedAt = now();
      let payload: JWTPayload | undefined;
      let lastError: unknown;
      for (const key of keys) {
        try {
          ({ payload } = await jwtVerify(token, key, {
            ...verifyOptions,
            currentDate: new Date(verifiedAt),
          }));
          break;
        } catch (error) {
          lastError = error;
          if (!(error instanceof joseErrors.JWSSignatureVerificationFailed) || keys.length === 1) break;
        }
      }
      if (payload === undefined) throw verificationError(lastError, options.unknownKeyHint);
      const exp = checkTimes(payload, verifiedAt);
      // Only a fully accepted token (signature, claims, times and identity) is remembered; every
      // refusal above throws before this point. Frozen because the same object is handed to many
      // requests.
      const identity = Object.freeze(identityFrom(payload));
      verified.set(token, identity, exp, verifiedAt);
      return identity;
    },
  };
}

async function resolveKeys(source: KeySource, cooldownMs: number): Promise<JWTVerifyGetKey[]> {
  if (source.jwksUrl !== undefined) {
    // jose re-fetches the set when a token names an unknown `kid`, at most once per cooldown.
    return [
      createRemoteJWKSet(new URL(source.jwksUrl), { cooldownDuration: cooldownMs, timeoutDuration: 5_000 }),
    ];
  }
  const text = source.publicKeys?.trim();
  if (text === undefined || text === '') throw new Error('no key source configured');
  if (text.startsWith('{')) {
    return [createLocalJWKSet(JSON.parse(text) as JSONWebKeySet)];
  }
  const pems = text.match(/-----BEGIN PUBLIC KEY-----[\s\S]+?-----END PUBLIC KEY-----/g) ?? [];
  if (pems.length === 0)
    throw new Error('AUTH_PUBLIC_KEYS holds neither a JWKS document nor PEM public keys');
  const imported = await Promise.all(pems.map((pem) => importSPKI(pem, 'EdDSA')));
  return imported.map((key) => async () => key);
}

function verificationError(error: unknown, unknownKeyHint: string | undefined): AppError {
  if (error instanceof joseErrors.JWTExpired) return unauthorized('The token has expired');
  // Only a key set can tell a key it does not hold from a bad signature: a token without a
  // matching `kid` (or a PEM key's bad signature) stays "not valid" below.
  if (error instanceof joseErrors.JWKSNoMatchingKey) {
    const known = 'The token is signed by a key this service does not know';
    return new AppError(
      'UNAUTHORIZED',
      unknownKeyHint === undefined ? known : `${known}: ${unknownKeyHint}`,
      {
        cause: error,
      },
    );
  }
  if (error instanceof joseErrors.JWTClaimValidationFailed) {
    return unauthorized(`The token's ${error.claim} claim is not accepted`);
  }
  if (
    error instanceof joseErrors.JWKSTimeout ||
    (error instanceof TypeError && /fetch/i.test(error.message))
  ) {
    return new AppError('SERVICE_UNAVAILABLE', 'The identity key set cannot be reached', { cause: error });
  }
  if (error instanceof joseErrors.JOSEAlgNotAllowed)
    return unauthorized('The token algorithm is not accepted');
  return new AppError('UNAUTHORIZED', 'The token is not valid', { cause: error });
}

/**
 * The time checks jose leaves to us, on a payload jose accepted (so `exp` is a number and `iat`,
 * when present, too). `exp` without skew: jose allowed CLOCK_SKEW_SECONDS past it, and the cache of
 * verified tokens relies on a token being refused from `exp` on. `iat` no more than the skew ahead:
 * jose checks it only with `maxTokenAge`, which would also make `iat` mandatory. Returns `exp`.
 */
function checkTimes(payload: JWTPayload, verifiedAt: number): number {
  const nowSeconds = Math.floor(verifiedAt / 1000);
  const exp = payload.exp as number;
  if (exp <= nowSeconds) throw unauthorized('The token has expired');
  if (payload.iat !== undefined && payload.iat > nowSeconds + CLOCK_SKEW_SECONDS) {
    throw unauthorized("The token's iat claim is in the future");
  }
  return exp;
}

function identityFrom(payload: JWTPayload): Identity {
  const subject = payload.subject as { id?: unknown; email?: unknown; name?: unknown } | undefined;
  const isObject = typeof subject === 'object' && subject !== null;
  const userId = isObject ? subject.id : payload.sub;
  const email = isObject ? subject.email : payload.email;
  const name = displayName(isObject ? (subject.name ?? payload.name) : payload.name);
  if (typeof userId !== 'string' || !UUID_PATTERN.test(userId)) {
    throw unauthorized('The token carries no user id (sub or subject.id must be a UUID)');
  }
  if (typeof email !== 'string' || email.length > 320 || !EMAIL_PATTERN.test(email)) {
    throw unauthorized('The token carries no e-mail (email or subject.email)');
  }
  const identity: Identity = { userId: userId.toLowerCase(), email };
  if (name !== undefined) identity.name = name;
  return identity;
}

const NAME_MAX = 200;

/**
 * The `name` claim as a holder name for badges and certificates, or undefined: a name is optional,
 * so a claim that is not a usable string is ignored rather than refusing the token. Control and
 * bidi-override characters go, runs of white space become one space, and it is cut at NAME_MAX
 * characters.
 */
export function displayName(claim: unknown): string | undefined {
  if (typeof claim !== 'string') return undefined;
  // Control characters, and the bidi overrides that would let a name print in another order.
  const cleaned = claim
    .replace(/[\p{Cc}\u202a-\u202e\u2066-\u2069]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (cleaned === '') return undefined;
  return [...cleaned].slice(0, NAME_MAX).join('');
}
