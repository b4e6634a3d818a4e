/**
 * Bearer token verification (contract section 2): Ed25519 JWTs only (`algorithms` pinned to
 * EdDSA), issuer and audience when configured, keys from a JWKS URL, from static keys, or from the
 * development key pair.
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

export interface Identity {
  userId: string;
  email: string;
}

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

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface VerifierOptions {
  /** Minimum time between two JWKS fetches (an unknown `kid` triggers one). Default one minute. */
  jwksCooldownMs?: number;
}

export async function createVerifier(
  source: KeySource,
  options: VerifierOptions = {},
): Promise<TokenVerifier> {
  const keys = await resolveKeys(source, options.jwksCooldownMs ?? 60_000);
  const verifyOptions = {
    algorithms: ['EdDSA'],
    ...(source.issuer === undefined ? {} : { issuer: source.issuer }),
    ...(source.audience === undefined ? {} : { audience: source.audience }),
  };

  return {
    async verify(token) {
      let payload: JWTPayload | undefined;
      let lastError: unknown;
      for (const key of keys) {
        try {
          ({ payload } = await jwtVerify(token, key, verifyOptions));
          break;
        } catch (error) {
          lastError = error;
          if (!(error instanceof joseErrors.JWSSignatureVerificationFailed) || keys.length === 1) break;
        }
      }
      if (payload === undefined) throw verificationError(lastError);
      return identityFrom(payload);
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

function verificationError(error: unknown): AppError {
  if (error instanceof joseErrors.JWTExpired) return unauthorized('The token has expired');
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

function identityFrom(payload: JWTPayload): Identity {
  const subject = payload.subject as { id?: unknown; email?: unknown } | undefined;
  const userId = typeof subject === 'object' && subject !== null ? subject.id : payload.sub;
  const email = typeof subject === 'object' && subject !== null ? subject.email : payload.email;
  if (typeof userId !== 'string' || !UUID_PATTERN.test(userId)) {
    throw unauthorized('The token carries no user id (sub or subject.id must be a UUID)');
  }
  if (typeof email !== 'string' || email.length > 320 || !EMAIL_PATTERN.test(email)) {
    throw unauthorized('The token carries no e-mail (email or subject.email)');
  }
  return { userId: userId.toLowerCase(), email };
}
