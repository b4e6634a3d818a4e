/**
 * Browser sessions (docs/reference/sign-in.md): an opaque random id of 256 bits in the cookie, only
 * its SHA-256 stored, an absolute expiry (SESSION_TTL_HOURS) and an idle one (two hours).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Identity } from '../../../kernel/auth/identity.ts';
import { type SessionPort, sessionCookieName } from '../../../kernel/auth/sessions-port.ts';
import type { Config } from '../../../kernel/config.ts';
import type { Database } from '../../../kernel/db/client.ts';
import { scriptAsset } from '../../../kernel/pages/assets.ts';
import {
  deleteEndedSessions,
  deleteSession,
  findLiveSession,
  insertSession,
  type SessionRow,
  TOUCH_AFTER_SECONDS,
  touchSession,
} from './sessions.repository.ts';

/** 32 random bytes in base64url: what the cookie carries. Anything else is no session. */
const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;

const hashOf = (value: string) => createHash('sha256').update(value).digest();

export interface StartedSession {
  /** The cookie's value (never stored). */
  id: string;
  row: SessionRow;
}

/** Starts a session for a person already recorded in the actor directory. */
export async function startSession(db: Database, config: Config, who: Identity): Promise<StartedSession> {
  await deleteEndedSessions(db);
  const id = randomBytes(32).toString('base64url');
  const row = await insertSession(db, {
    idHash: hashOf(id),
    userId: who.userId,
    email: who.email,
    name: who.name ?? null,
    ttlHours: config.sessionTtlHours,
  });
  return { id, row };
}

/** The live session of a cookie value, its `last_seen_at` moved forward (at most once a minute). */
export async function findSession(db: Database, cookieValue: string): Promise<SessionRow | undefined> {
  if (!SESSION_ID.test(cookieValue)) return undefined;
  const idHash = hashOf(cookieValue);
  const row = await findLiveSession(db, idHash);
  // Most requests come within a minute of the last write: no statement at all for them. The
  // UPDATE's own condition keeps concurrent requests to one write.
  if (row !== undefined && Date.now() - row.last_seen_at.getTime() >= TOUCH_AFTER_SECONDS * 1000) {
    await touchSession(db, idHash);
  }
  return row;
}

export async function endSession(db: Database, cookieValue: string): Promise<void> {
  if (SESSION_ID.test(cookieValue)) await deleteSession(db, hashOf(cookieValue));
}

export const identityOf = (row: SessionRow): Identity =>
  row.name === null
    ? { userId: row.user_id, email: row.email }
    : { userId: row.user_id, email: row.email, name: row.name };

/** What the auth plugin is given (app.ts): cookie-authenticated requests resolve here. */
export function createSessionPort(db: Database, config: Config): SessionPort {
  return {
    cookieName: sessionCookieName(config.publicBaseUrl),
    async resolve(cookieValue) {
      const row = await findSession(db, cookieValue);
      return row === undefined ? undefined : identityOf(row);
    },
  };
}

/**
 * The `Set-Cookie` of a session: HttpOnly (no script reads it), SameSite=Lax (not sent on
 * cross-site writes), Path=/; over https also Secure, with the `__Host-` name. `Max-Age` is the
 * absolute lifetime; the idle end is the server's.
 */
export function sessionCookie(config: Config, id: string, maxAgeSeconds: number): string {
  const secure = config.publicBaseUrl.startsWith('https:') ? '; Secure' : '';
  const name = sessionCookieName(config.publicBaseUrl);
  return `${name}=${id}; Max-Age=${maxAgeSeconds}; Path=/; HttpOnly; SameSite=Lax${secure}`;
}

/** A `Set-Cookie` that removes the session cookie. */
export const clearedSessionCookie = (config: Config) => sessionCookie(config, '', 0);

/** The sign-out button's script (sessions.routes.ts serves it; pages link it). */
export const SIGN_OUT_SCRIPT = scriptAsset(
  '/assets/sign-out.js',
  new URL('./scripts/sign-out.js', import.meta.url),
);
